//! The battery on real Claude Code, through the real binary and the stand-in.
//!
//! Expected verdicts come from the article's published table (carried as
//! `expect` in arms/article.json) or from the reasoning written next to each
//! expectation below. Claude Code is installed by the tool itself
//! (`failopen agents install`, run by .ci/run).

use crate::oracle;
use crate::support::{self, arms_file, expectations_hold, run_battery, OLD, PINNED};

/// Every arm of arms/article.json must give the article's published outcome.
#[test]
fn article_table_reproduces_on_2_1_240() {
    expectations_hold("article.json", OLD);
}

#[test]
fn article_table_reproduces_on_the_pinned_version() {
    expectations_hold("article.json", PINNED);
}

/// A write refused by a permission rule or by another hook beside a broken
/// guard is `invalid foreign-refusal`, never `blocked` (arms/trust.json
/// gives the reasoning per arm); the guard's own refusals beside an
/// allowing hook still count.
#[test]
fn foreign_refusals_are_never_blocked_on_the_pinned_version() {
    expectations_hold("trust.json", PINNED);
}

#[test]
fn foreign_refusals_are_never_blocked_on_2_1_240() {
    expectations_hold("trust.json", OLD);
}

/// Managed settings on the machine are named once before the run and flag
/// every row (the directory is injected: no test writes to /etc).
#[test]
fn managed_settings_are_named_and_flag_every_row() {
    let _lock = support::lock::sessions();
    let d = tempfile::tempdir().unwrap();
    let managed = d.path().join("managed");
    std::fs::create_dir_all(&managed).unwrap();
    std::fs::write(managed.join("managed-settings.json"), r#"{"permissions": {"deny": []}}"#).unwrap();
    let out = d.path().join("rows.csv");
    let output = support::failopen()
        .args(["run", "--arms", "article", "--only", "deny/bare", "--only", "crash/bare", "--out"])
        .arg(&out)
        .env("FAILOPEN_MANAGED_SETTINGS_DIR", &managed)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let file = managed.join("managed-settings.json").display().to_string();
    assert_eq!(stderr.matches("warning: managed settings found").count(), 1, "{stderr}");
    assert!(stderr.contains(&file), "{stderr}");
    let rows = support::read_csv(&out);
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert!(r.flags.split(';').any(|f| f == format!("managed-settings:{file}")), "{r:?}");
    }
}

/// Every full.json cell (the article's 7 guards under all 5 wrappers) gives
/// the verdict [`oracle::expected`] reasons out for this version.
fn full_matches_reasoning(version: &str) {
    let (rows, _dir) = run_battery(&["--arms", &arms_file("full.json"), "--agent-version", version]);
    assert_eq!(rows.len(), 35, "7 guards x 5 wrappers");
    let mut wrong = Vec::new();
    for r in &rows {
        let want = oracle::expected_on(&r.guard, &r.wrapper, version);
        if r.verdict.as_str() != want {
            wrong.push(format!("{}: got {} ({}), expected {want}", r.arm, r.verdict, r.reason));
        }
    }
    assert!(wrong.is_empty(), "{version}:\n{}", wrong.join("\n"));
}

#[test]
fn full_grid_on_the_pinned_version() {
    full_matches_reasoning(PINNED);
}

/// A Claude Code that crashes at start leaves no file: that is `invalid`
/// (session-error), never `blocked`.
#[test]
fn crashing_claude_is_invalid_never_blocked() {
    let dir = tempfile::tempdir().unwrap();
    let fake = support::scripts::write(
        &dir.path().join("claude"),
        "#!/bin/sh\n[ \"$1\" = --version ] && { echo '9.9.9 (Claude Code)'; exit 0; }\necho boom >&2\nexit 1\n",
    );
    let (rows, _d) = run_battery(&["--arms", &arms_file("article.json"), "--agent-version", fake.to_str().unwrap()]);
    assert_eq!(rows.len(), 9);
    for r in &rows {
        assert_eq!(r.agent_version, "9.9.9");
        assert_eq!((r.verdict.as_str(), r.reason.as_str()), ("invalid", "session-error"), "{r:?}");
    }
}
