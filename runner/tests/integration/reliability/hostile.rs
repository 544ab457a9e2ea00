//! Hostile input is refused before any session, with an error naming the file, field or flag.

use super::*;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/reliability").join(name).to_string_lossy().into_owned()
}

/// A `claude` that says its version and records every session it is asked
/// to run, without running one.
fn spy_claude(dir: &Path) -> (PathBuf, PathBuf) {
    let log = dir.join("sessions.log");
    let script = format!(
        "#!/bin/sh\n[ \"$1\" = --version ] && {{ echo '{PINNED} (Claude Code)'; exit 0; }}\necho \"$@\" >> '{}'\nexit 1\n",
        log.display()
    );
    (write_script(&dir.join("claude"), &script), log)
}

/// Every bad input gets a clear error before any session starts, and
/// nothing panics (exit 1, or clap's 2; never 101).
#[test]
fn hostile_input_is_refused_before_any_session() {
    let dir = tempfile::tempdir().unwrap();
    let (spy, log) = spy_claude(dir.path());
    let spy = spy.to_string_lossy().into_owned();
    let wrong = dir.path().join("wrong.csv");
    std::fs::copy(fixture("wrong-header.csv"), &wrong).unwrap();
    let wrong_text = std::fs::read_to_string(&wrong).unwrap();
    let wrong = wrong.to_string_lossy().into_owned();
    let a_file = dir.path().join("a-file");
    std::fs::write(&a_file, "").unwrap();
    let under_file = a_file.join("rows.csv").to_string_lossy().into_owned();
    let missing_dir = dir.path().join("no/such/dir/rows.csv").to_string_lossy().into_owned();
    let out = dir.path().join("rows.csv").to_string_lossy().into_owned();
    let good_csv = dir.path().join("good.csv");
    std::fs::write(&good_csv, format!("{}\n", failopen::record::HEADER.join(","))).unwrap();
    let good_csv = good_csv.to_string_lossy().into_owned();
    let (malformed, unknown_guard, unknown_wrapper, duplicate, zero, negative) = (
        fixture("malformed.json"),
        fixture("unknown-guard.json"),
        fixture("unknown-wrapper.json"),
        fixture("duplicate.json"),
        fixture("zero-timeout.json"),
        fixture("negative-deadline.json"),
    );
    let run = |extra: &[&str]| -> Vec<String> {
        let mut v: Vec<String> = vec!["run".into(), "--agent-version".into(), spy.clone()];
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    let out_args = |extra: &[&str]| -> Vec<String> {
        let mut v = run(extra);
        v.extend(["--out".to_string(), out.clone()]);
        v
    };
    let header_err = "not a failopen results file";
    // (arguments, texts the error must contain)
    let cases: Vec<(Vec<String>, Vec<String>)> = vec![
        // malformed JSON: file, line and column (the missing comma is at 4:5)
        (out_args(&["--arms", &malformed]), vec![format!("{malformed}:4:5"), "expected `,`".into()]),
        (
            out_args(&["--arms", &unknown_guard]),
            vec![
                unknown_guard.clone(),
                "field `guard`".into(),
                "\"dney\"".into(),
                "valid guards: allow, deny, crash".into(),
            ],
        ),
        (
            out_args(&["--arms", &unknown_wrapper]),
            vec![
                unknown_wrapper.clone(),
                "field `wrapper`".into(),
                "valid wrappers: bare, plain, timed, native, sealed".into(),
            ],
        ),
        (out_args(&["--arms", &duplicate]), vec![duplicate.clone(), "duplicate arm name \"deny/bare\"".into()]),
        (out_args(&["--arms", "article", "--arms", "article"]), vec!["duplicate arm name".into()]),
        (out_args(&["--arms", &zero]), vec![zero.clone(), "field `hook_timeout`".into(), "above 0".into()]),
        (out_args(&["--arms", &negative]), vec![negative.clone(), "field `deadline`".into(), "above 0".into()]),
        (out_args(&["--arms", "nosuchset"]), vec!["\"nosuchset\"".into(), "built-in sets: article, full".into()]),
        (out_args(&["--session-timeout", "0"]), vec!["--session-timeout".into(), "above 0".into()]),
        (out_args(&["--session-timeout=-3"]), vec!["--session-timeout".into(), "above 0".into()]),
        (out_args(&["--session-timeout", "nan"]), vec!["--session-timeout".into()]),
        (out_args(&["--jobs", "0"]), vec!["--jobs must be at least 1".into()]),
        (out_args(&["--repeats", "0"]), vec!["--repeats must be at least 1".into()]),
        (out_args(&["--shard", "0/2"]), vec!["--shard: \"0/2\"".into(), "1 <= K <= N".into()]),
        (out_args(&["--shard", "3/2"]), vec!["--shard: \"3/2\"".into(), "1 <= K <= N".into()]),
        (out_args(&["--shard", "two"]), vec!["--shard: \"two\" is not a shard".into()]),
        (out_args(&["--only", "nomatch/*"]), vec!["no arm matches --only nomatch/*".into()]),
        (
            vec!["run".into(), "--agent-version".into(), "2.1".into(), "--out".into(), out.clone()],
            vec!["--agent-version: \"2.1\"".into(), "latest".into()],
        ),
        (run(&["--out", &missing_dir]), vec![missing_dir.clone(), "does not exist".into()]),
        (run(&["--out", &under_file]), vec![under_file.clone(), "not writable".into()]),
        (run(&["--out", "/proc/failopen-rows.csv"]), vec!["/proc".into(), "not writable".into()]),
        (run(&["--out", &wrong]), vec![wrong.clone(), header_err.into()]),
        (
            run(&["--resume", &wrong]),
            vec![wrong.clone(), header_err.into(), "expected \"agent_version,model,arm".into()],
        ),
        (vec!["report".into(), wrong.clone()], vec![wrong.clone(), header_err.into()]),
        (vec!["diff".into(), wrong.clone(), good_csv.clone()], vec![wrong.clone(), header_err.into()]),
        (vec!["diff".into(), good_csv.clone(), wrong.clone()], vec![wrong.clone(), header_err.into()]),
        (
            vec!["merge".into(), good_csv.clone(), wrong.clone(), "--out".into(), out.clone()],
            vec![wrong.clone(), header_err.into()],
        ),
    ];
    let mut failures = Vec::new();
    for (args, wants) in &cases {
        // Outside the sandbox: the spy's log is out of a sandboxed session's reach, and a session that
        // started by mistake must be seen.
        let output = std::process::Command::new(bin())
            .args(args)
            .env("CI", "true")
            .env("FAILOPEN_SANDBOX", "off")
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        let code = output.status.code();
        if !matches!(code, Some(1) | Some(2)) {
            failures.push(format!("{args:?}: exit {code:?} (want 1 or 2)\n{stderr}"));
        }
        if stderr.contains("panicked") {
            failures.push(format!("{args:?}: panicked\n{stderr}"));
        }
        for want in wants {
            if !stderr.contains(want.as_str()) {
                failures.push(format!("{args:?}: stderr lacks {want:?}:\n{stderr}"));
            }
        }
        if log.exists() {
            failures.push(format!("{args:?}: a session started: {}", std::fs::read_to_string(&log).unwrap()));
            let _ = std::fs::remove_file(&log);
        }
    }
    assert_eq!(std::fs::read_to_string(&wrong).unwrap(), wrong_text, "the wrong-header CSV was changed");
    assert!(!Path::new(&out).exists() || read_csv(Path::new(&out)).is_empty(), "rows were written");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
