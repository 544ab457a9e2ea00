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

use serde_json::Value;

use crate::support::{self, failopen};

fn fixtures() -> PathBuf {
    support::fixture("audit")
}

/// Run `failopen audit ARGS --format json` in the fixtures directory.
pub(crate) fn audit(args: &[&str]) -> (Output, Value) {
    audit_in(&fixtures(), None, args)
}

/// Run `failopen audit ARGS --format json -j 2` in `cwd`, with `HOME` set
/// to `home` when given; its Claude Code sessions hold the sessions lock.
pub(crate) fn audit_in(cwd: &Path, home: Option<&Path>, args: &[&str]) -> (Output, Value) {
    let _lock = support::lock::sessions();
    let mut cmd = failopen();
    cmd.current_dir(cwd).arg("audit").args(args).args(["--format", "json", "-j", "2"]);
    if let Some(h) = home {
        cmd.env("HOME", h);
    }
    let out = cmd.timeout(std::time::Duration::from_secs(600)).output().unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): stdout {} stderr {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out, json)
}

/// (hook, kind, tool, fault) of every hole.
pub(crate) fn holes(v: &Value) -> BTreeSet<(String, String, String, String)> {
    v["agents"][0]["holes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            let s = |k: &str| h[k].as_str().unwrap().to_string();
            (s("hook"), s("kind"), s("tool"), s("fault"))
        })
        .collect()
}

pub(crate) fn set(items: &[(&str, &str, &str, &str)]) -> BTreeSet<(String, String, String, String)> {
    items.iter().map(|(a, b, c, d)| (a.to_string(), b.to_string(), c.to_string(), d.to_string())).collect()
}

/// (hook, code) of every finding at warning or above.
pub(crate) fn findings(v: &Value) -> BTreeSet<(String, String)> {
    v["agents"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["severity"] != "info")
        .map(|f| (f["hook"].as_str().unwrap_or("-").to_string(), f["code"].as_str().unwrap().to_string()))
        .collect()
}

pub(crate) fn cell<'a>(v: &'a Value, hook: &str, tool: &str, fault: &str) -> &'a Value {
    v["agents"][0]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["hook"] == hook && c["tool"] == tool && c["fault"] == fault)
        .unwrap_or_else(|| panic!("no cell {hook} {tool} {fault}"))
}

const FAULTS: [&str; 4] = ["missing", "crash", "hang", "signal"];

#[test]
fn unparsable_settings_is_an_error_naming_file_line_and_column() {
    let out = failopen().current_dir(fixtures()).args(["audit", "bad.json", "--static-only"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    // The trailing comma sits on line 4 of bad.json.
    assert!(err.contains("bad.json:4:"), "{err}");
}

#[test]
fn static_only_names_each_planted_static_hole_and_nothing_else() {
    let (out, v) = audit(&["holes/unwrapped.json", "holes/missing.json", "--static-only"]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(v["schema"], 2, "the JSON's shape version (docs/machine-output.md)");
    assert_eq!(v["agents"][0]["on_failure"], "unknown");
    // H1 deny and H2 crashing: no seal, no onFailure. H3: its script was renamed away.
    let want: BTreeSet<(String, String)> =
        [("H1", "unprotected"), ("H2", "unprotected"), ("H3", "script-missing"), ("H3", "unprotected")]
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
    assert_eq!(findings(&v), want);
    assert!(v["agents"][0]["cells"].as_array().unwrap().is_empty());
}

#[test]
fn default_files_are_the_project_settings_of_the_cwd() {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join(".claude")).unwrap();
    std::fs::create_dir_all(d.path().join("home")).unwrap();
    std::fs::write(d.path().join(".claude/settings.local.json"), r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2", "timeout": 5}]}]}}"#).unwrap();
    let out = failopen()
        .current_dir(d.path())
        .env("HOME", d.path().join("home"))
        .args(["audit", "--static-only", "--format", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["agents"][0]["files"].as_array().unwrap().len(), 1, "{v}");
    assert!(v["agents"][0]["files"][0].as_str().unwrap().ends_with(".claude/settings.local.json"));
    // Planted: matcher Bash only, and an inline guard with no protection.
    let want: BTreeSet<(String, String)> = [("H1", "uncovered-tools"), ("H1", "unprotected")]
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    assert_eq!(findings(&v), want);
    let out = failopen()
        .current_dir(d.path().join("home"))
        .env("HOME", d.path().join("home"))
        .args(["audit"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "no settings file at all is an error");
}

#[test]
fn unwrapped_deny_guard_fails_open_under_every_fault_and_seal_closes_it() {
    let (out, v) = audit(&["holes/unwrapped.json"]);
    assert_eq!(out.status.code(), Some(3));
    assert_eq!(v["agents"][0]["version"], "2.1.328");
    // Measured on 2.1.328: onFailure: block is honoured on a crashing command hook.
    assert_eq!(v["agents"][0]["on_failure"], "honoured");
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
    // The subagent route too: the crashing guard lets the subagent's Bash through.
    for tool in ["Bash", "Write", "Edit", "NotebookEdit", "subagent"] {
        want.push(("H2", "broken-as-configured", tool, "none"));
    }
    assert_eq!(holes(&v), set(&want));
    // The same cells, and every call H1 refused, with the guard as `seal --install` writes it
    // (wrapped, onFailure added): all blocked, so the recipe is proved.
    let recheck = v["agents"][0]["rechecks"].as_array().unwrap();
    assert_eq!(recheck.len(), 2);
    for r in recheck {
        assert_eq!(r["outcome"], "proved", "{r:#}");
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
        assert!(
            got.contains(&("H1".into(), "broken-as-configured".into(), tool.into(), "none".into())),
            "{tool}: {got:?}"
        );
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
    let seal = support::bin();
    let guard = fixtures().join("guards/deny.sh");
    let command = format!("{} seal --deadline 4 -- {}", seal.display(), guard.display());
    // onFailure too: 2.1.328 honours it, so even a missing seal binary blocks.
    let v = serde_json::json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit", "hooks": [{"type": "command", "command": command, "timeout": 5, "onFailure": "block"}]}
    ]}});
    std::fs::write(&settings, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let (out, v) = audit(&[settings.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    assert!(holes(&v).is_empty());
    assert!(findings(&v).is_empty(), "{:?}", findings(&v));
    for tool in ["Bash", "Write"] {
        for f in FAULTS.iter().chain(&["no-seal"]) {
            assert_eq!(cell(&v, "H1", tool, f)["result"], "blocked", "{tool} {f}");
        }
    }
    for tool in ["Bash", "Write", "Edit", "NotebookEdit"] {
        assert_eq!(cell(&v, "H1", tool, "none")["result"], "blocked", "{tool}");
    }
}

/// The routes audit probes beside the write tools: a subagent's write (the
/// main model's Agent call, whose general-purpose subagent runs Bash) and an
/// MCP tool's write (`mcp__failopen-fs__write_file` of `failopen mcp-fs`).
/// Measured on 2.1.328: a PreToolUse hook runs for both when its matcher
/// covers the tool; a matcher without MCP tools lets the MCP write through
/// unguarded (an info finding, not a hole: the server is failopen's own), and
/// a crashing guard opens both routes.
#[test]
fn subagent_and_mcp_routes_are_probed() {
    let guard = fixtures().join("guards/deny.sh");
    let crashing = fixtures().join("guards/crashing.sh");
    let (_d, settings) = settings_file(&serde_json::json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit|mcp__.*", "hooks": [{"type": "command", "command": guard, "timeout": 5, "onFailure": "block"}]},
        {"matcher": "Bash|Write", "hooks": [{"type": "command", "command": crashing, "timeout": 5}]}
    ]}}));
    let (out, v) = audit(&[settings.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    // H1 guards every route, the MCP tool included.
    assert_eq!(cell(&v, "H1", "subagent", "none")["result"], "blocked");
    assert_eq!(cell(&v, "H1", "mcp", "none")["result"], "blocked");
    // H2 crashes: the subagent's Bash goes through (the hook ran and broke); the
    // MCP write is outside its matcher (no hook ran), which is a finding.
    assert_eq!(cell(&v, "H2", "subagent", "none")["result"], "wrote");
    assert_eq!(cell(&v, "H2", "subagent", "none")["detail"], "guard-failed");
    assert_eq!(cell(&v, "H2", "mcp", "none")["detail"], "guard-not-run");
    let got = holes(&v);
    assert!(got.contains(&("H2".into(), "broken-as-configured".into(), "subagent".into(), "none".into())), "{got:?}");
    assert!(!got.iter().any(|h| h.2 == "mcp"), "failopen's own MCP server is not a proven hole: {got:?}");
    let info: Vec<_> =
        v["agents"][0]["findings"].as_array().unwrap().iter().filter(|f| f["code"] == "mcp-uncovered").collect();
    assert_eq!(info.len(), 1, "{info:?}");
    assert_eq!(info[0]["hook"], "H2");
}

/// Write `value` as a settings file in a fresh temp dir and return both.
pub(crate) fn settings_file(value: &Value) -> (tempfile::TempDir, PathBuf) {
    let d = tempfile::tempdir().unwrap();
    let settings = d.path().join("settings.json");
    std::fs::write(&settings, serde_json::to_vec_pretty(value).unwrap()).unwrap();
    (d, settings)
}

/// A sealed hook without onFailure: when the `failopen` binary it names is
/// gone (a `cargo clean`, a moved checkout), the command exits 127 before
/// seal runs, and Claude Code lets the call through. That is a hole.
#[test]
fn a_sealed_hook_fails_open_when_its_seal_binary_goes_missing() {
    let seal = support::bin();
    let guard = fixtures().join("guards/deny.sh");
    let command = format!("{} seal --deadline 4 -- {}", seal.display(), guard.display());
    let (_d, settings) = settings_file(&serde_json::json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit", "hooks": [{"type": "command", "command": command, "timeout": 5}]}
    ]}}));
    let (out, v) = audit(&[settings.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    let want = set(&[("H1", "fails-open", "Bash", "no-seal"), ("H1", "fails-open", "Write", "no-seal")]);
    assert_eq!(holes(&v), want);
    for f in FAULTS {
        assert_eq!(cell(&v, "H1", "Bash", f)["result"], "blocked", "seal itself holds under {f}");
    }
}

/// `python3 ~/.claude/hooks/g.py` is a common hook shape. The audit must run
/// it with the user's HOME, so `~` reaches the user's file. The guard here
/// allows (exit 0): if `~` pointed into the session's throwaway HOME, python
/// would exit 2 on the missing file and the as-is cell would read "blocked"
/// for a guard that never ran.
#[test]
fn tilde_and_home_reach_the_users_own_files() {
    let d = tempfile::tempdir().unwrap();
    let home = d.path().join("home");
    std::fs::create_dir_all(home.join(".claude/hooks")).unwrap();
    std::fs::write(home.join(".claude/hooks/g.py"), "import sys\nsys.stdin.read()\nsys.exit(0)\n").unwrap();
    let value = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit", "hooks": [
        {"type": "command", "command": "python3 ~/.claude/hooks/g.py", "timeout": 5},
        {"type": "command", "command": "python3 \"${HOME}\"/.claude/hooks/g.py", "timeout": 5}
    ]}]}});
    let settings = d.path().join("settings.json");
    std::fs::write(&settings, serde_json::to_vec_pretty(&value).unwrap()).unwrap();
    let (_, v) = audit_in(d.path(), Some(&home), &[settings.to_str().unwrap()]);
    for h in ["H1", "H2"] {
        for tool in ["Bash", "Write"] {
            let c = cell(&v, h, tool, "none");
            assert_eq!(
                (c["result"].as_str(), c["detail"].as_str()),
                (Some("wrote"), Some("guard-allowed")),
                "{h} {tool}: {c}"
            );
        }
    }
}

/// `$CLAUDE_PROJECT_DIR` reaches the hook through the environment: a project
/// path holding `"`, backticks and `$(...)` is never re-parsed by a shell.
#[test]
fn a_hostile_project_path_is_data_not_shell() {
    let d = tempfile::tempdir().unwrap();
    let project = d.path().join("p \"q\" `touch BACKTICK` $(touch DOLLAR)");
    std::fs::create_dir_all(project.join(".claude/hooks")).unwrap();
    let guard = project.join(".claude/hooks/deny.sh");
    std::fs::copy(fixtures().join("guards/deny.sh"), &guard).unwrap();
    let value = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit", "hooks": [
        {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/deny.sh", "timeout": 5, "onFailure": "block"}
    ]}]}});
    std::fs::write(project.join(".claude/settings.json"), serde_json::to_vec_pretty(&value).unwrap()).unwrap();
    let (_, v) = audit_in(&project, None, &[]);
    for tool in ["Bash", "Write"] {
        assert_eq!(cell(&v, "H1", tool, "none")["result"], "blocked", "{tool}: the guard ran from the project");
    }
    for stray in ["BACKTICK", "DOLLAR"] {
        let found: Vec<_> = walk(d.path()).into_iter().filter(|p| p.file_name().is_some_and(|n| n == stray)).collect();
        assert!(found.is_empty(), "the project path was run as shell: {found:?}");
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(walk(&p));
        }
        out.push(p);
    }
    out
}

/// A hostile `timeout` (1e20 seconds) is a finding, not a panic.
#[test]
fn a_huge_timeout_does_not_panic() {
    let guard = fixtures().join("guards/deny.sh");
    let (_d, settings) = settings_file(&serde_json::json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": guard, "timeout": 1e20}]}
    ]}}));
    let (out, v) = audit(&[settings.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert_eq!(cell(&v, "H1", "Bash", "none")["result"], "blocked");
    assert!(findings(&v).contains(&("H1".into(), "long-timeout".into())));
}

/// Managed settings (a company's, read by every Claude Code on the machine)
/// are listed as a source with their hooks, and statically checked.
#[test]
fn managed_settings_are_listed_as_a_source() {
    let d = tempfile::tempdir().unwrap();
    let managed = d.path().join("managed");
    std::fs::create_dir_all(managed.join("managed-settings.d")).unwrap();
    std::fs::write(managed.join("managed-settings.d/10-guard.json"), r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/opt/company/guard.sh"}]}]}}"#).unwrap();
    let guard = fixtures().join("guards/deny.sh");
    let (_s, settings) = settings_file(&serde_json::json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": guard, "timeout": 5}]}
    ]}}));
    let out = failopen()
        .env("FAILOPEN_MANAGED_SETTINGS_DIR", &managed)
        .args(["audit", settings.to_str().unwrap(), "--static-only"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("managed settings (read by Claude Code in every session):"), "{text}");
    assert!(text.contains("10-guard.json PreToolUse[0].hooks[0] (managed"), "{text}");
    assert!(text.contains("script-missing"), "the managed hook is checked too: {text}");
}

/// An audit in the background, interrupted: SIGTERM once stops its sessions
/// and exits 130; two signals exit at once. Either way no session, hook or
/// temp directory is left.
fn interrupt_audit(sig: nix::sys::signal::Signal, twice: bool) {
    use std::time::{Duration, Instant};
    let _lock = support::lock::sessions();
    let d = tempfile::tempdir().unwrap();
    let tmp = d.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let guard = d.path().join("slow-deny.sh");
    support::scripts::write(&guard, "#!/bin/sh\ncat >/dev/null\nsleep 4\necho no >&2\nexit 2\n");
    let (_s, settings) = settings_file(&serde_json::json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit", "hooks": [{"type": "command", "command": guard, "timeout": 10}]}
    ]}}));
    let mut child = std::process::Command::new(support::bin())
        .args(["audit", settings.to_str().unwrap(), "-j", "2"])
        .env("TMPDIR", &tmp)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let until = Instant::now() + Duration::from_secs(120);
    while !support::procs::sessions_of(pid).iter().any(|(_, cmd)| cmd.contains("slow-deny.sh")) {
        assert!(Instant::now() < until, "no guard ever ran");
        std::thread::sleep(Duration::from_millis(50));
    }
    let send = || nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid as i32), sig);
    send().unwrap();
    let signalled = Instant::now();
    if twice {
        std::thread::sleep(Duration::from_millis(100));
        let _ = send();
    }
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if signalled.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("audit did not stop within 60 s of {sig:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130), "{sig:?} twice={twice}");
    if twice {
        assert!(
            signalled.elapsed() < Duration::from_secs(3),
            "a second signal is a hard stop: {:?}",
            signalled.elapsed()
        );
    }
    let give_up = Instant::now() + Duration::from_secs(3);
    while !support::procs::sessions_of(pid).is_empty() && Instant::now() < give_up {
        std::thread::sleep(Duration::from_millis(50));
    }
    support::assert_no_leftovers(&tmp);
    assert!(support::procs::sessions_of(pid).is_empty(), "{:?}", support::procs::sessions_of(pid));
}

#[test]
fn sigterm_stops_an_audit_and_leaves_nothing() {
    interrupt_audit(nix::sys::signal::Signal::SIGTERM, false);
}

#[test]
fn a_second_sigint_is_a_hard_stop_of_an_audit() {
    interrupt_audit(nix::sys::signal::Signal::SIGINT, true);
}

/// The broken-configuration checks (measured in `arms/surface.json`,
/// `deny/bare+*`): a non-string matcher beside the guard makes Claude Code
/// skip the whole file; a lowercase matcher never matches; a misspelt
/// `onFailure` is ignored; a top-level key of the wrong type rejects the
/// file. Each finding names the file and the entry.
#[test]
fn broken_configuration_is_named_with_its_file_and_entry() {
    let (out, v) = audit(&["broken/siblings.json", "broken/rejected.json", "--static-only"]);
    assert_eq!(out.status.code(), Some(3));
    let want: BTreeSet<(String, String)> = [
        ("H1", "unprotected"),
        ("H2", "unprotected"),
        ("H3", "unprotected"),
        ("H4", "unprotected"),
        ("-", "unknown-hook-key"),
        ("-", "invalid-hook-entry"),
        ("-", "matcher-case"),
        ("-", "settings-rejected"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(findings(&v), want);
    let message = |code: &str| -> Vec<String> {
        v["agents"][0]["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"] == code)
            .map(|f| f["message"].as_str().unwrap().to_string())
            .collect()
    };
    let invalid = &message("invalid-hook-entry")[0];
    assert!(invalid.starts_with("broken/siblings.json hooks.PreToolUse[1].matcher: "), "{invalid}");
    assert!(invalid.contains("skips this whole file"), "{invalid}");
    assert!(message("unknown-hook-key")[0].contains("hooks.PreToolUse[0].hooks[0].onFaliure"));
    assert_eq!(message("matcher-case").len(), 2, "bash and write");
    assert!(message("settings-rejected")[0].starts_with("broken/rejected.json permissions.allow: "));
}

/// A guard that holds under every fault when run alone is still a hole when
/// a broken sibling entry makes Claude Code skip its file (measured:
/// `deny/bare+sibling-type-unknown`, invalid hook-not-run on 2.1.240 and
/// 2.1.328). The same mistake under PostToolUse only drops that entry on
/// 2.1.328 (from 2.1.257: `deny/bare+other-event-matcher-not-string`), so it
/// is a warning there and the audit passes.
#[test]
fn a_broken_sibling_entry_fails_an_otherwise_sealed_guard() {
    let seal = support::bin();
    let guard = fixtures().join("guards/deny.sh");
    let command = format!("{} seal --deadline 4 -- {}", seal.display(), guard.display());
    let healthy = serde_json::json!({"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit",
        "hooks": [{"type": "command", "command": command, "timeout": 5, "onFailure": "block"}]});
    let healthy_too = healthy.clone();
    let allow = serde_json::json!({"type": "command", "command": "cat >/dev/null; exit 0", "timeout": 5});
    let (_d, settings) = settings_file(&serde_json::json!({"hooks": {"PreToolUse": [
        healthy, {"matcher": "Bash", "hooks": [{"type": "shell", "command": "cat >/dev/null; exit 0"}]}
    ]}}));
    let (out, v) = audit(&[settings.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    assert!(holes(&v).is_empty(), "run alone, the sealed guard holds");
    let f: Vec<&Value> =
        v["agents"][0]["findings"].as_array().unwrap().iter().filter(|f| f["code"] == "invalid-hook-entry").collect();
    assert_eq!(f.len(), 1, "{v:#}");
    assert_eq!(f[0]["severity"], "error");
    assert!(f[0]["message"].as_str().unwrap().contains("hooks.PreToolUse[1].hooks[0].type"), "{}", f[0]["message"]);

    let (_d, settings) = settings_file(&serde_json::json!({"hooks": {
        "PreToolUse": [healthy_too], "PostToolUse": [{"matcher": 42, "hooks": [allow]}]}}));
    let (out, v) = audit(&[settings.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{v:#}");
    let f: Vec<&Value> =
        v["agents"][0]["findings"].as_array().unwrap().iter().filter(|f| f["code"] == "invalid-hook-entry").collect();
    assert_eq!(f.len(), 1, "{v:#}");
    assert_eq!(f[0]["severity"], "warning", "2.1.328 ignores only the entry");
}
