//! Releases older than the two pinned ones, on real Claude Code (installed
//! by `.ci/run`): 2.1.100, whose JSON deny comes back as the bare reason
//! with no `non_execution_kind`; 2.1.3, which warms its subagents up with
//! requests of their own; 2.0.50, a Node `cli.js` without
//! `--include-hook-events`; 2.0.20, whose JSON deny names neither hook nor
//! reason; 1.0.61, the first release with `--settings`, in 1.0's wording;
//! and 1.0.60, the last without. Each must give a valid verdict on every article
//! arm, from the capabilities failopen detects and the guard's own trace;
//! a binary that lacks `--settings` gives `unsupported:--settings` without a
//! session. 2.0.50 (the most different: a Node entry, no hook events) and
//! 1.0.60 run live; the others are checked on their rows in the history's
//! reference run (results/history.csv), to keep CI short.

use crate::support::{self, run_battery};

/// The expected verdict of each article arm on both old releases, with why.
const EXPECTED: [(&str, &str, &str); 9] = [
    ("deny/bare", "blocked", "exit 2 blocks on every release; the refusal names the guard's command in brackets"),
    ("crash/bare", "wrote", "exit 1 is a non-blocking error: the call runs"),
    ("crash/plain", "blocked", "the plain wrapper turns exit 1 into exit 2, bracketed with the wrapper's command"),
    (
        "missing/plain",
        "blocked",
        "the plain wrapper turns 127 into exit 2; the guard never starts, so no trace: the bracket shows the hook ran",
    ),
    (
        "json-deny/bare",
        "blocked",
        "the bare reason is tied to the guard by its trace (ran for that call) and its own reason, word for word",
    ),
    ("json-crash/bare", "wrote", "exit 1 before printing a decision: non-blocking, the call runs"),
    ("hang/bare", "wrote", "a command hook that hits its 5 s timeout does not block"),
    ("hang/plain", "wrote", "the plain wrapper waits for the guard, so the wrapper itself times out: no block"),
    ("hang/timed", "blocked", "the timed wrapper's 3 s alarm ends the guard before the 5 s timeout and exits 2"),
];

/// The article's arms run live on `version`, each checked against [`EXPECTED`].
fn article_on(version: &str) -> Vec<failopen::record::Row> {
    let (rows, _dir) = run_battery(&["--arms", "article", "--agent-version", version]);
    assert_eq!(rows.len(), EXPECTED.len(), "{version}: {rows:?}");
    article_rows_hold(version, rows)
}

/// `version`'s rows in the history's reference run (results/history.csv,
/// `failopen history` over every release on real binaries), each article
/// arm's checked against [`EXPECTED`]: the releases whose only difference
/// is a wording or a stream the runner reads, checked on what they gave.
fn article_in_history(version: &str) -> Vec<failopen::record::Row> {
    let history = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../results/history.csv");
    let rows: Vec<_> = failopen::record::read_rows(&history)
        .unwrap()
        .into_iter()
        .filter(|r| r.agent_version == version && EXPECTED.iter().any(|(arm, _, _)| r.arm == *arm))
        .collect();
    assert_eq!(rows.len(), EXPECTED.len(), "{version} in results/history.csv: {rows:?}");
    article_rows_hold(version, rows)
}

fn article_rows_hold(version: &str, rows: Vec<failopen::record::Row>) -> Vec<failopen::record::Row> {
    let mut wrong = Vec::new();
    for (arm, want, why) in EXPECTED {
        let r = rows.iter().find(|r| r.arm == arm).unwrap_or_else(|| panic!("{version}: no row for {arm}"));
        if r.verdict.as_str() != want {
            wrong.push(format!("{arm}: got {} ({}), expected {want}: {why}", r.verdict, r.reason));
        }
    }
    assert!(wrong.is_empty(), "{version}:\n{}", wrong.join("\n"));
    rows
}

#[test]
fn article_arms_give_valid_verdicts_on_2_1_100() {
    let rows = article_in_history("2.1.100");
    // The JSON deny was not worded as a PreToolUse refusal: the hook events
    // saw the guard succeed, and the verdict still came from the trace.
    let json = rows.iter().find(|r| r.arm == "json-deny/bare").unwrap();
    assert_eq!((json.hook_outcomes.as_str(), json.hook_invocations), ("success:0;success:0", 2), "{json:?}");
    assert!(!json.harness_said.contains("PreToolUse"), "{json:?}");
}

#[test]
fn article_arms_give_valid_verdicts_on_2_0_50() {
    let rows = article_on("2.0.50");
    // No hook events on this release: every verdict stood on the file, the
    // refusal texts and the guard's trace.
    assert!(rows.iter().all(|r| r.hook_outcomes.is_empty()), "{rows:?}");
    let home = std::env::var("FAILOPEN_CACHE")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| std::path::PathBuf::from(std::env::var("HOME").unwrap()).join(".cache/failopen"));
    let file = home.join("claude-code/2.0.50").join(failopen::agent::claude_code::capabilities::FILE_NAME);
    let caps: failopen::agent::claude_code::capabilities::Capabilities =
        serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    assert!(caps.js_entry && caps.node_version.as_deref().is_some_and(|v| v.starts_with('v')), "{caps:?}");
    assert!(!caps.has("--include-hook-events") && caps.has("--settings"), "{caps:?}");
}

#[test]
fn article_arms_give_valid_verdicts_on_2_0_20() {
    let rows = article_in_history("2.0.20");
    // This release words a JSON deny as `Hook requested permission behavior:
    // deny`, without the guard's reason: it counted only because the guard is
    // the session's sole PreToolUse hook and its trace shows it ran for each call.
    let json = rows.iter().find(|r| r.arm == "json-deny/bare").unwrap();
    assert!(json.harness_said.contains(failopen::attribution::GENERIC_HOOK_DENY), "{json:?}");
}

/// 2.1.3 sends one "Warmup" request per built-in subagent, with tools, at
/// the start of a session, and discards the answers. The stand-in answers
/// them with text: answered as the conversation, its tool calls never ran
/// and read as attempts without a result (9 of 14 rows `invalid
/// allowed-without-file` in the first backward history).
#[test]
fn article_arms_give_valid_verdicts_on_2_1_3_whose_subagents_warm_up() {
    let rows = article_in_history("2.1.3");
    for r in &rows {
        assert!(!r.attempts.contains("no-result"), "a warm-up answered as the conversation: {r:?}");
    }
}

/// 1.0.61, the first release whose `--help` declares `--settings`: its
/// refusals read `<Tool> operation blocked by hook:` with one `- ` item per
/// hook, and the article's verdicts are already those of 2.1.240.
#[test]
fn article_arms_give_valid_verdicts_on_1_0_61_the_first_with_settings() {
    let rows = article_in_history("1.0.61");
    for arm in ["deny/bare", "json-deny/bare", "crash/plain"] {
        let r = rows.iter().find(|r| r.arm == arm).unwrap();
        assert!(r.harness_said.contains("operation blocked by hook:"), "{r:?}");
    }
}

/// 1.0.60, the release before: no `--settings`, so no arm can run.
#[test]
fn the_release_before_1_0_61_is_unsupported_without_a_session() {
    let (rows, _dir) = run_battery(&["--arms", "article", "--agent-version", "1.0.60"]);
    assert_eq!(rows.len(), EXPECTED.len());
    for r in &rows {
        assert_eq!(
            (r.verdict.as_str(), r.reason.as_str(), r.session_exit.as_str()),
            ("invalid", "unsupported:--settings", "not-started"),
            "{r:?}"
        );
    }
}

/// A binary whose `--help` declares no `--settings` cannot be given a hook:
/// every row is `invalid unsupported:--settings`, no session starts, and the
/// run says so once in words.
#[test]
fn a_release_without_settings_is_unsupported_and_said_once() {
    let _lock = support::lock::sessions();
    let d = tempfile::tempdir().unwrap();
    let fake = d.path().join("claude");
    let started = d.path().join("started");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\ncase \"$1\" in\n--version) echo '0.9.1 (Claude Code)';;\n--help) printf '  -p, --print  Print\\n  --output-format <format>  \"stream-json\"\\n  --verbose  Verbose\\n  --permission-mode <mode>  Mode\\n';;\n*) touch {};;\nesac\n",
            started.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let out = d.path().join("rows.csv");
    let output = support::failopen()
        .args(["run", "--arms", "article", "--only", "deny/bare", "--only", "json-deny/bare", "--agent-version"])
        .arg(&fake)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let rows = support::read_csv(&out);
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert_eq!((r.verdict.as_str(), r.reason.as_str()), ("invalid", "unsupported:--settings"), "{r:?}");
        assert_eq!(r.session_exit, "not-started");
    }
    assert!(!started.exists(), "no session was started");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let note = "Claude Code 0.9.1 cannot run 2 arms: it has no --settings (no session was started).";
    assert_eq!(stdout.matches(note).count(), 1, "{stdout}");
}
