//! The battery on real Claude Code, through the real binary and the stand-in.
//!
//! Expected verdicts come from the article's published table (carried as
//! `expect` in arms/article.json) or from the reasoning written next to each
//! expectation below. Claude Code is installed by the tool itself
//! (`failopen claude install`, run by .ci/run).

mod common;

use common::{arms_file, run_battery, verdict_of, OLD, PINNED};

/// Every arm of an arm set gives the `expect` written next to it (verdict,
/// and the reason of an expected `invalid`).
fn expectations_hold(set: &str, version: &str) {
    let (rows, _dir) = run_battery(&["--arms", &arms_file(set), "--claude", version]);
    let arms = failopen::arms::load(&arms_file(set)).unwrap();
    assert_eq!(rows.len(), arms.len(), "one row per arm");
    for arm in &arms {
        let expect = arm.expect.as_ref().unwrap_or_else(|| panic!("{set}: {} carries no expectation", arm.name));
        let row = rows.iter().find(|r| r.arm == arm.name).unwrap_or_else(|| panic!("no row for {}", arm.name));
        assert_eq!(row.claude_version, version);
        assert_eq!(row.verdict, expect.verdict, "{} on {version}: row {row:?}\nexpected from {}", arm.name, expect.source);
        if let Some(reason) = &expect.reason {
            assert_eq!(&row.reason, reason, "{} on {version}: row {row:?}\nexpected from {}", arm.name, expect.source);
        }
    }
}

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
    let _lock = common::battery_lock();
    let d = tempfile::tempdir().unwrap();
    let managed = d.path().join("managed");
    std::fs::create_dir_all(&managed).unwrap();
    std::fs::write(managed.join("managed-settings.json"), r#"{"permissions": {"deny": []}}"#).unwrap();
    let out = d.path().join("rows.csv");
    let output = assert_cmd::Command::cargo_bin("failopen")
        .unwrap()
        .args(["run", "--arms", "article", "--only", "deny/bare", "--only", "crash/bare", "--out"])
        .arg(&out)
        .env("FAILOPEN_MANAGED_SETTINGS_DIR", &managed)
        .env("CI", "true")
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let stderr = String::from_utf8_lossy(&output.stderr);
    let file = managed.join("managed-settings.json").display().to_string();
    assert_eq!(stderr.matches("warning: managed settings found").count(), 1, "{stderr}");
    assert!(stderr.contains(&file), "{stderr}");
    let rows = common::read_csv(&out);
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert!(r.flags.split(';').any(|f| f == format!("managed-settings:{file}")), "{r:?}");
    }
}

/// The expected verdict of each full.json cell, with the reasoning.
///
/// `honours_on_failure`: whether this Claude Code version applies
/// `"onFailure": "block"` to a command hook that failed to decide. The hooks
/// reference documents it; 2.1.240 (the article's version) ignores it and
/// 2.1.328 applies it, as `failopen bisect --arm crash/native` shows.
fn expected_full(guard: &str, wrapper: &str, honours_on_failure: bool) -> &'static str {
    // A guard that decides (allow: no objection; deny: exit 2; json-deny:
    // JSON on stdout) is honoured bare. The others (crash: exit 1, missing:
    // shell exit 127, json-crash: exit 1, hang: past the 5 s timeout) give no
    // decision, and Claude Code lets the call through (the article's table).
    let decides = matches!(guard, "allow" | "deny" | "json-deny");
    let bare = match guard {
        "allow" => "wrote",
        "deny" | "json-deny" => "blocked",
        _ => "wrote",
    };
    match wrapper {
        "bare" => bare,
        // onFailure only acts when the hook failed; decisions pass unchanged.
        "native" if decides => bare,
        "native" => if honours_on_failure { "blocked" } else { bare },
        // The article's wrappers send the guard's stdout to stderr and exit 0,
        // so a JSON deny no longer reaches Claude Code: the decision is lost.
        "plain" | "timed" if guard == "json-deny" => "wrote",
        "plain" | "timed" if guard == "allow" => "wrote",
        "plain" | "timed" if guard == "deny" => "blocked",
        // The plain wrapper waits for the hanging guard; the harness kills it first.
        "plain" if guard == "hang" => "wrote",
        // perl's `exec @ARGV` of a missing file fails, and `perl -e` without
        // `or die` then exits 0: the timed wrapper passes a 0 on. A flaw of the
        // article's recipe, kept as published.
        "timed" if guard == "missing" => "wrote",
        // Any other exit (1, 127, the alarm's 142) becomes 2.
        "plain" | "timed" => "blocked",
        // seal refuses every failure to decide and passes decisions through.
        "sealed" => if guard == "allow" { "wrote" } else { "blocked" },
        other => panic!("unknown wrapper {other}"),
    }
}

fn full_matches_reasoning(version: &str, honours_on_failure: bool) {
    let (rows, _dir) = run_battery(&["--arms", &arms_file("full.json"), "--claude", version]);
    assert_eq!(rows.len(), 35, "7 guards x 5 wrappers");
    let mut wrong = Vec::new();
    for r in &rows {
        let want = expected_full(&r.guard, &r.wrapper, honours_on_failure);
        if verdict_of(r) != want {
            wrong.push(format!("{}: got {} ({}), expected {want}", r.arm, r.verdict, r.reason));
        }
    }
    assert!(wrong.is_empty(), "{version}:\n{}", wrong.join("\n"));
}

#[test]
fn full_grid_on_the_pinned_version() {
    full_matches_reasoning(PINNED, true);
}

#[test]
fn full_grid_on_2_1_240() {
    full_matches_reasoning(OLD, false);
}

/// A Claude Code that crashes at start leaves no file: that is `invalid`
/// (session-error), never `blocked`.
#[test]
fn crashing_claude_is_invalid_never_blocked() {
    let dir = tempfile::tempdir().unwrap();
    let fake = dir.path().join("claude");
    std::fs::write(&fake, "#!/bin/sh\n[ \"$1\" = --version ] && { echo '9.9.9 (Claude Code)'; exit 0; }\necho boom >&2\nexit 1\n").unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let (rows, _d) = run_battery(&["--arms", &arms_file("article.json"), "--claude", fake.to_str().unwrap()]);
    assert_eq!(rows.len(), 9);
    for r in &rows {
        assert_eq!(r.claude_version, "9.9.9");
        assert_eq!((verdict_of(r), r.reason.as_str()), ("invalid", "session-error"), "{r:?}");
    }
}
