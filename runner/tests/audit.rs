//! `failopen audit` end to end: the real binary against real Claude Code
//! (the pinned 2.1.328 from failopen's cache) through the stand-in.
//!
//! Fixtures (tests/fixtures/audit/) plant known holes; the expected holes are
//! reasoned in each test's comment and were checked against real runs:
//! - an unprotected guard fails open under every injected fault (Claude Code
//!   lets the call through when a hook exits 1 or 127, times out, or dies);
//! - a guard that crashes as configured, or whose script is missing, lets
//!   every write through;
//! - a matcher of `Bash` alone lets Write/Edit/NotebookEdit through;
//! - an HTTP hook with no failure policy lets the call through when its
//!   endpoint is unreachable.
//!
//! The known-good configuration (a deny guard under `failopen seal`, matcher
//! covering every write tool) must show no hole at all.
//!
//! Faults are injected through Bash and Write only (the audit's own choice,
//! to keep the session count down); MultiEdit is not offered by 2.1.328.

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use serde_json::Value;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/audit")
}

/// Run `failopen audit ARGS --format json` in the fixtures directory.
fn audit(args: &[&str]) -> (Output, Value) {
    let out = Command::cargo_bin("failopen")
        .unwrap()
        .current_dir(fixtures())
        .arg("audit")
        .args(args)
        .args(["--format", "json", "-j", "2"])
        .timeout(std::time::Duration::from_secs(600))
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("not JSON ({e}): stdout {} stderr {}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    });
    (out, json)
}

/// (hook, kind, tool, fault) of every hole.
fn holes(v: &Value) -> BTreeSet<(String, String, String, String)> {
    v["holes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let s = |k: &str| h[k].as_str().unwrap().to_string();
            (s("hook"), s("kind"), s("tool"), s("fault"))
        })
        .collect()
}

fn set(items: &[(&str, &str, &str, &str)]) -> BTreeSet<(String, String, String, String)> {
    items.iter().map(|(a, b, c, d)| (a.to_string(), b.to_string(), c.to_string(), d.to_string())).collect()
}

/// (hook, code) of every finding at warning or above.
fn findings(v: &Value) -> BTreeSet<(String, String)> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] != "info")
        .map(|f| (f["hook"].as_str().unwrap_or("-").to_string(), f["code"].as_str().unwrap().to_string()))
        .collect()
}

fn cell<'a>(v: &'a Value, hook: &str, tool: &str, fault: &str) -> &'a Value {
    v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["hook"] == hook && c["tool"] == tool && c["fault"] == fault)
        .unwrap_or_else(|| panic!("no cell {hook} {tool} {fault}"))
}

const FAULTS: [&str; 4] = ["missing", "crash", "hang", "signal"];

#[test]
fn unparsable_settings_is_an_error_naming_file_line_and_column() {
    let out = Command::cargo_bin("failopen").unwrap().current_dir(fixtures()).args(["audit", "bad.json", "--static-only"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    // The trailing comma sits on line 4 of bad.json.
    assert!(err.contains("bad.json:4:"), "{err}");
}

#[test]
fn static_only_names_each_planted_static_hole_and_nothing_else() {
    let (out, v) = audit(&["holes/unwrapped.json", "holes/missing.json", "--static-only"]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(v["on_failure"], "unknown");
    // H1 deny and H2 crashing: no seal, no onFailure. H3: its script was renamed away.
    let want: BTreeSet<(String, String)> =
        [("H1", "unprotected"), ("H2", "unprotected"), ("H3", "script-missing"), ("H3", "unprotected")]
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
    assert_eq!(findings(&v), want);
    assert!(v["cells"].as_array().unwrap().is_empty());
}

#[test]
fn default_files_are_the_project_settings_of_the_cwd() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join(".claude")).unwrap();
    std::fs::create_dir_all(d.path().join("home")).unwrap();
    std::fs::write(d.path().join(".claude/settings.local.json"), r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2", "timeout": 5}]}]}}"#).unwrap();
    let out = Command::cargo_bin("failopen")
        .unwrap()
        .current_dir(d.path())
        .env("HOME", d.path().join("home"))
        .args(["audit", "--static-only", "--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["files"].as_array().unwrap().len(), 1, "{v}");
    assert!(v["files"][0].as_str().unwrap().ends_with(".claude/settings.local.json"));
    // Planted: matcher Bash only, and an inline guard with no protection.
    let want: BTreeSet<(String, String)> = [("H1", "uncovered-tools"), ("H1", "unprotected")].iter().map(|(a, b)| (a.to_string(), b.to_string())).collect();
    assert_eq!(findings(&v), want);
    let out = Command::cargo_bin("failopen").unwrap().current_dir(d.path().join("home")).env("HOME", d.path().join("home")).args(["audit"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "no settings file at all is an error");
}

#[test]
fn unwrapped_deny_guard_fails_open_under_every_fault_and_seal_closes_it() {
    let (out, v) = audit(&["holes/unwrapped.json"]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(v["claude_version"], "2.1.328");
    // Measured on 2.1.328: onFailure: block is honoured on a crashing command hook.
    assert_eq!(v["on_failure"], "honoured");
    // H1 (deny, no seal, no onFailure) blocks every offered tool as is...
    for tool in ["Bash", "Write", "Edit", "NotebookEdit"] {
        assert_eq!(cell(&v, "H1", tool, "none")["result"], "blocked", "H1 {tool}");
    }
    assert_eq!(cell(&v, "H1", "MultiEdit", "none")["result"], "skipped", "2.1.328 offers no MultiEdit");
    // ...and fails open under each fault through each fault tool. H2 (exit 1
    // before deciding) lets every write through as configured, and under faults.
    let mut want = Vec::new();
    for tool in ["Bash", "Write"] {
        for f in FAULTS {
            want.push(("H1", "fails-open", tool, f));
            want.push(("H2", "fails-open", tool, f));
        }
    }
    for tool in ["Bash", "Write", "Edit", "NotebookEdit"] {
        want.push(("H2", "broken-as-configured", tool, "none"));
    }
    assert_eq!(holes(&v), set(&want));
    // The same cells with the guard wrapped as `seal --install` wraps it: all blocked.
    let recheck = v["sealed_recheck"].as_array().unwrap();
    assert_eq!(recheck.len(), 2);
    for r in recheck {
        for c in r["cells"].as_array().unwrap() {
            assert_eq!(c["result"], "blocked", "{c}");
        }
    }
}

#[test]
fn missing_script_lets_every_write_through() {
    let (out, v) = audit(&["holes/missing.json"]);
    assert_eq!(out.status.code(), Some(3));
    let got = holes(&v);
    for tool in ["Bash", "Write", "Edit", "NotebookEdit"] {
        assert!(got.contains(&("H1".into(), "broken-as-configured".into(), tool.into(), "none".into())), "{tool}: {got:?}");
        assert_eq!(cell(&v, "H1", tool, "none")["detail"], "guard-failed");
    }
    assert!(findings(&v).contains(&("H1".into(), "script-missing".into())));
}

/// A one-thread HTTP server answering every request with a JSON deny.
fn deny_server() -> (String, std::sync::Arc<std::sync::atomic::AtomicBool>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/guard", listener.local_addr().unwrap());
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop2 = stop.clone();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let body = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"audit fixture: no writes"}}"#;
        while !stop2.load(std::sync::atomic::Ordering::Relaxed) {
            match listener.accept() {
                Ok((mut s, _)) => {
                    s.set_nonblocking(false).unwrap();
                    s.set_read_timeout(Some(std::time::Duration::from_millis(500))).unwrap();
                    let mut buf = [0u8; 65536];
                    let _ = s.read(&mut buf);
                    let _ = write!(s, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}", body.len());
                }
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(20)),
            }
        }
    });
    (url, stop)
}

#[test]
fn bash_only_matcher_and_http_hook_without_policy() {
    let (url, stop) = deny_server();
    let d = tempfile::tempdir().unwrap();
    let settings = d.path().join("settings.json");
    let guard = fixtures().join("guards/deny.sh");
    // H1: deny guard, matcher Bash, onFailure block (honoured on 2.1.328): only the matcher is a hole.
    // H2: HTTP deny endpoint, matcher Bash, no failure policy: unreachable → the Bash write lands.
    let v = serde_json::json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": guard, "timeout": 5, "onFailure": "block"}]},
        {"matcher": "Bash", "hooks": [{"type": "http", "url": url, "timeout": 5}]}
    ]}});
    std::fs::write(&settings, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let (out, v) = audit(&[settings.to_str().unwrap()]);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(cell(&v, "H2", "Bash", "none")["result"], "blocked", "the HTTP deny works as configured");
    let mut want = vec![("H2", "fails-open", "Bash", "missing")];
    for h in ["H1", "H2"] {
        for tool in ["Write", "Edit", "NotebookEdit"] {
            want.push((h, "uncovered-tool", tool, "none"));
        }
    }
    assert_eq!(holes(&v), set(&want));
    let f = findings(&v);
    assert!(f.contains(&("H1".into(), "uncovered-tools".into())), "{f:?}");
    assert!(f.contains(&("H2".into(), "http-no-failure-policy".into())), "{f:?}");
    assert!(!f.contains(&("H1".into(), "unprotected".into())), "onFailure is honoured on 2.1.328: {f:?}");
}

#[test]
fn sealed_deny_guard_covering_every_write_tool_holds() {
    let d = tempfile::tempdir().unwrap();
    let settings = d.path().join("settings.json");
    let seal = assert_cmd::cargo::cargo_bin("failopen");
    let guard = fixtures().join("guards/deny.sh");
    let command = format!("{} seal --deadline 4 -- {}", seal.display(), guard.display());
    let v = serde_json::json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit", "hooks": [{"type": "command", "command": command, "timeout": 5}]}
    ]}});
    std::fs::write(&settings, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let (out, v) = audit(&[settings.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    assert!(holes(&v).is_empty());
    assert!(findings(&v).is_empty(), "{:?}", findings(&v));
    for tool in ["Bash", "Write"] {
        for f in FAULTS {
            assert_eq!(cell(&v, "H1", tool, f)["result"], "blocked", "{tool} {f}");
        }
    }
    for tool in ["Bash", "Write", "Edit", "NotebookEdit"] {
        assert_eq!(cell(&v, "H1", tool, "none")["result"], "blocked", "{tool}");
    }
}
