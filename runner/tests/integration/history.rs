//! `failopen history` and `failopen agents versions|list|prune` on real
//! Claude Code: ranges resolved against the npm registry, the next version
//! installed while the current one runs, the cache left bounded, resume,
//! and byte-identical binaries copied instead of re-run.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{self, PINNED};

fn failopen(cache: &Path) -> Command {
    let mut c = Command::new(support::bin());
    c.env("FAILOPEN_CACHE", cache).env("CI", "true");
    c
}

fn ok(out: std::process::Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "exit {:?}\nstdout:\n{text}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    text
}

/// The machine's own cache (where `.ci/run` installed the pinned version).
fn real_cache() -> PathBuf {
    std::env::var_os("FAILOPEN_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache/failopen"))
}

fn ledger(path: &Path) -> Vec<csv::StringRecord> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header = r.headers().unwrap().clone();
    assert_eq!(&header[0], "version");
    r.records().map(Result::unwrap).collect()
}

#[test]
fn ranges_resolve_against_the_registry_and_split_into_a_matrix() {
    let cache = tempfile::tempdir().unwrap();
    let text = ok(failopen(cache.path()).args(["agents", "versions", "2.1.326..2.1.328"]).output().unwrap());
    assert_eq!(text.lines().collect::<Vec<_>>(), ["2.1.326", "2.1.327", "2.1.328"]);
    let text =
        ok(failopen(cache.path()).args(["agents", "versions", "2.1.326..2.1.328", "--split", "2"]).output().unwrap());
    assert_eq!(text.lines().collect::<Vec<_>>(), ["2.1.326..2.1.327", "2.1.328..2.1.328"]);
    // 2.1.320 was never published: the error names the end and its neighbours.
    let out = failopen(cache.path()).args(["agents", "versions", "2.1.320..latest"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("2.1.320 is not published") && err.contains("nearest published: 2.1.319, 2.1.321"), "{err}");
}

/// Two cache entries that are the same binary (both link to the pinned
/// install): the second is recorded as identical, its rows copied and
/// flagged, and no session runs for it. A second call resumes: nothing
/// left to do, no install, no new row.
#[test]
fn an_identical_binary_is_copied_not_rerun_and_a_finished_history_resumes_to_nothing() {
    let _lock = support::lock::sessions();
    let real = real_cache().join("claude-code").join(PINNED);
    assert!(
        real.join("node_modules/.bin/claude").exists(),
        "{} is not installed (.ci/run installs it)",
        real.display()
    );
    let cache = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(cache.path().join("claude-code")).unwrap();
    for v in [PINNED, "2.1.329"] {
        std::os::unix::fs::symlink(&real, cache.path().join("claude-code").join(v)).unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("history.csv");
    let args = [
        "history",
        "--agent-version",
        "2.1.329,2.1.328",
        "--arms",
        "article",
        "--only",
        "deny/*",
        "--only",
        "crash/bare",
    ];
    let text = ok(failopen(cache.path()).args(args).arg("--out").arg(&out).output().unwrap());
    assert!(text.contains("2.1.328: 2 sessions"), "oldest first, run: {text}");
    assert!(text.contains("2.1.329: binary identical to 2.1.328"), "{text}");

    let rows = support::read_csv(&out);
    let of = |v: &str| rows.iter().filter(|r| r.agent_version == v).collect::<Vec<_>>();
    let (ran, copied) = (of(PINNED), of("2.1.329"));
    assert_eq!((ran.len(), copied.len()), (2, 2));
    for c in &copied {
        let source = ran.iter().find(|r| r.arm == c.arm).expect("same arm in the source");
        assert_eq!(c.verdict, source.verdict, "{}", c.arm);
        assert!(c.flags.split(';').any(|f| f == "identical-binary:2.1.328"), "{:?}", c.flags);
        assert!(!source.flags.contains("identical-binary"));
    }
    let entries = ledger(&dir.path().join("history-versions.csv"));
    assert_eq!(entries.len(), 2);
    assert_eq!((&entries[0][0], &entries[0][3]), ("2.1.328", ""));
    assert_eq!((&entries[1][0], &entries[1][3]), ("2.1.329", "2.1.328"));
    assert_eq!(entries[0][1], entries[1][1], "same SHA-256");

    let again = ok(failopen(cache.path()).args(args).arg("--out").arg(&out).output().unwrap());
    assert!(again.contains("0 run now, 0 identical to an earlier binary, 2 already done"), "{again}");
    assert_eq!(support::read_csv(&out).len(), 4, "no row added on resume");
    assert_eq!(ledger(&dir.path().join("history-versions.csv")).len(), 2);
}

/// From an empty cache: the range is looked up on the registry, each
/// version installed by failopen (the next one while the current runs), and
/// the cache left as found plus the pinned version: the other install is
/// removed once its sessions are done, with no staging or trash left.
#[test]
fn a_history_installs_what_it_needs_and_leaves_only_the_pinned_version() {
    let _lock = support::lock::sessions();
    let cache = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("h.csv");
    let text = ok(failopen(cache.path())
        .args(["history", "--agent-version", "2.1.327..2.1.328", "--arms", "article", "--only", "deny/bare"])
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap());
    assert!(text.contains("2 versions: 2 run now"), "{text}");
    let rows = support::read_csv(&out);
    assert_eq!(
        rows.iter().map(|r| (r.agent_version.as_str(), r.verdict.as_str())).collect::<Vec<_>>(),
        [("2.1.327", "blocked"), ("2.1.328", "blocked")]
    );
    let entries = ledger(&dir.path().join("h-versions.csv"));
    for e in &entries {
        let install: f64 = e[4].parse().unwrap();
        assert!(install > 0.0, "{} was installed now: {e:?}", &e[0]);
        assert!(e[8].parse::<u64>().unwrap() > e[2].parse::<u64>().unwrap(), "the cache held at least the binary");
    }
    let left: Vec<String> = std::fs::read_dir(cache.path().join("claude-code"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left, [PINNED], "2.1.327 removed once done; nothing half-installed or half-removed");
    let list = ok(failopen(cache.path()).args(["agents", "list"]).output().unwrap());
    let line = list.lines().find(|l| l.starts_with(PINNED)).unwrap_or_else(|| panic!("{list}"));
    assert!(line.contains("\tpinned\t") && line.contains(" MB\t") && line.contains(" ago\t"), "{line}");
    let prune = ok(failopen(cache.path()).args(["agents", "prune", "--dry-run"]).output().unwrap());
    assert!(prune.contains("would remove 0 versions"), "{prune}");
}
