//! Audit on files that are not what a settings file or a script usually is:
//! a FIFO where a script or a settings file should be, and a settings file
//! with a hundred thousand hooks. Static checks must end, and in time linear
//! in the hooks (issue 29: a FIFO hung `open()` forever and SIGTERM did not
//! end it; 8k hooks took 7 s, and 120k had not finished after 120 s).

use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use crate::support::failopen;

fn mkfifo(path: &Path) {
    nix::unistd::mkfifo(path, nix::sys::stat::Mode::from_bits_truncate(0o700)).unwrap();
}

fn project(hooks: &Value) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join(".claude")).unwrap();
    std::fs::create_dir_all(d.path().join("home")).unwrap();
    std::fs::write(d.path().join(".claude/settings.json"), serde_json::to_vec(hooks).unwrap()).unwrap();
    d
}

/// `failopen audit --static-only --format json` in `dir`; a hang past
/// `limit` fails the test (assert_cmd kills the child).
fn static_audit(dir: &Path, args: &[&str], limit: u64) -> std::process::Output {
    failopen()
        .current_dir(dir)
        .env("HOME", dir.join("home"))
        .args(["audit", "--static-only", "--format", "json"])
        .args(args)
        .timeout(Duration::from_secs(limit))
        .output()
        .unwrap()
}

#[test]
fn a_hook_script_that_is_a_fifo_is_checked_without_blocking() {
    let d = project(&serde_json::json!({"hooks": {"PreToolUse": [
        {"matcher": "*", "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/guard.sh", "timeout": 5}]}
    ]}}));
    mkfifo(&d.path().join("guard.sh"));
    let out = static_audit(d.path(), &[], 60);
    assert!(out.status.code().is_some(), "killed at the time limit: the audit blocked on the FIFO");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let codes: Vec<&str> =
        v["agents"][0]["findings"].as_array().unwrap().iter().filter_map(|f| f["code"].as_str()).collect();
    assert!(codes.contains(&"unprotected"), "{codes:?}");
    assert_eq!(out.status.code(), Some(3), "{codes:?}");
}

#[test]
fn a_settings_file_that_is_a_fifo_is_an_error_naming_it() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join("home")).unwrap();
    let fifo = d.path().join("settings.json");
    mkfifo(&fifo);
    let out = static_audit(d.path(), &[fifo.to_str().unwrap()], 60);
    assert_eq!(out.status.code(), Some(1), "killed at the time limit, or not an error");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("settings.json") && err.contains("a FIFO"), "{err}");
}

#[test]
fn a_hundred_thousand_hooks_are_all_checked() {
    const N: usize = 120_000;
    let tools = ["Bash", "Write", "Edit", "Bash|Write", "Edit|MultiEdit", "NotebookEdit|Bash"];
    let groups: Vec<Value> = (0..N)
        .map(|i| {
            serde_json::json!({"matcher": tools[i % tools.len()],
                "hooks": [{"type": "command", "command": format!("/bin/true guard-{i}"), "timeout": 5}]})
        })
        .collect();
    let d = project(&serde_json::json!({"hooks": {"PreToolUse": groups}}));
    // About 8 MB of settings. Quadratic checks take half an hour here.
    let out = static_audit(d.path(), &[], 300);
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["agents"][0]["hooks"].as_array().unwrap().len(), N);
    let findings = v["agents"][0]["findings"].as_array().unwrap();
    let count = |code: &str| findings.iter().filter(|f| f["code"] == code).count();
    assert_eq!(count("unprotected"), N, "every hook is unprotected");
    // Every tool is covered by some hook, so none is left to nobody.
    assert_eq!(count("uncovered-tools"), 0);
    assert_eq!(count("uncovered-tools-elsewhere"), N);
}
