//! `failopen audit` of the other agents' hook configs, end to end: the real
//! binary, a throwaway project holding `.codex/hooks.json` or
//! `.gemini/settings.json`, and real Codex CLI 0.171.0 and Gemini CLI 0.61.0
//! from failopen's cache, driven by the stand-in.
//!
//! The guard crashes (exit 1) before deciding. Both agents let a tool call
//! through when its hook exits 1 (docs/codex.md, docs/gemini.md), so every
//! write tool of the agent must be a hole as configured; and seal turns that
//! exit into exit 2 with a reason on stderr, which both honour, so the
//! re-check on the sealed copy must block every one of them.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

use crate::support::{self, failopen};

/// A project in a temp dir with `config` at `rel` and a crashing guard at
/// `<dir>/hooks/guard.sh` (`dir`: `.codex` or `.gemini`), and an empty HOME.
pub(crate) fn project(dir: &str, rel: &str, config: &str) -> (tempfile::TempDir, PathBuf, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("project");
    let home = t.path().join("home");
    std::fs::create_dir_all(root.join(dir).join("hooks")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let guard = root.join(dir).join("hooks/guard.sh");
    std::fs::write(&guard, "#!/bin/sh\necho 'guard: cannot read its policy' >&2\nexit 1\n").unwrap();
    std::fs::set_permissions(&guard, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::write(root.join(rel), config).unwrap();
    (t, root, home)
}

/// `failopen audit ARGS --format json -j 2` in `cwd` with HOME `home`,
/// against failopen's real cache (where the agents are installed).
pub(crate) fn audit(cwd: &Path, home: &Path, args: &[&str]) -> Output {
    let _lock = support::lock::sessions();
    let cache = std::env::var_os("FAILOPEN_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cache/failopen"));
    let mut cmd = failopen();
    cmd.current_dir(cwd).arg("audit").args(args).args(["--format", "json", "-j", "2"]);
    cmd.env("HOME", home).env("FAILOPEN_CACHE", cache);
    cmd.timeout(std::time::Duration::from_secs(900)).output().unwrap()
}

pub(crate) fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): stdout {} stderr {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    })
}

/// The one agent section's (hook, kind, tool, fault) holes, its re-check's results.
pub(crate) fn holes_and_recheck(a: &Value) -> (Vec<(String, String, String)>, Vec<String>) {
    let s = |v: &Value, k: &str| v[k].as_str().unwrap_or_default().to_string();
    let holes = a["holes"].as_array().unwrap().iter().map(|h| (s(h, "kind"), s(h, "tool"), s(h, "fault"))).collect();
    let recheck = a["rechecks"].as_array().unwrap().iter().flat_map(|r| r["cells"].as_array().unwrap().clone());
    (holes, recheck.map(|c| s(&c, "result")).collect())
}

/// Checks the agent section: the agent and version named, every write tool a hole as configured, and the sealed copy blocking
/// each hole cell.
fn assert_crashing_guard_is_a_hole_that_seal_closes(out: &Output, agent: &str, version: &str, tools: &[&str]) {
    let v = json(out);
    assert_eq!(out.status.code(), Some(3), "a hole: exit 3; stderr {}", String::from_utf8_lossy(&out.stderr));
    let a = &v["agents"][0];
    assert_eq!((a["agent"].as_str(), a["version"].as_str()), (Some(agent), Some(version)), "{a}");
    assert!(a["hooks"][0]["location"].is_string(), "{a}");
    let (holes, recheck) = holes_and_recheck(a);
    for tool in tools {
        let as_configured = ("broken-as-configured".to_string(), tool.to_string(), "none".to_string());
        assert!(holes.contains(&as_configured), "{tool} must be a hole as configured: {holes:?}");
        assert!(holes.contains(&("fails-open".into(), tool.to_string(), "crash".into())), "{tool}: {holes:?}");
    }
    assert!(!recheck.is_empty(), "the hole cells are re-run sealed");
    assert!(recheck.iter().all(|r| r == "blocked"), "seal closes every hole: {recheck:?}");
    let codes: Vec<&str> = a["findings"].as_array().unwrap().iter().filter_map(|f| f["code"].as_str()).collect();
    assert!(codes.contains(&"unprotected") && !codes.contains(&"script-missing"), "{codes:?}");
    let advice = a["advice"].to_string();
    assert!(advice.contains("failopen seal") && advice.contains("no fail-closed option"), "{advice}");
}

#[test]
fn a_crashing_codex_guard_is_a_hole_on_real_codex_and_seal_closes_it() {
    // Relative to the project, where Codex runs its hooks: Codex CLI sets no `$CLAUDE_PROJECT_DIR` (measured on
    // 0.171.0 by audit_hook_start; written so, the guard is not found: exit 127 in every session).
    let config = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash|apply_patch", "hooks": [
        {"type": "command", "command": "./.codex/hooks/guard.sh", "timeout": 5}]}]}}"#;
    let (_t, root, home) = project(".codex", ".codex/hooks.json", config);
    let out = audit(&root, &home, &["--codex", "0.171.0"]);
    assert_crashing_guard_is_a_hole_that_seal_closes(&out, "codex", "0.171.0", &["Bash", "apply_patch"]);
}

#[test]
fn a_crashing_gemini_guard_is_a_hole_on_real_gemini_and_seal_closes_it() {
    // `$GEMINI_PROJECT_DIR`: the CLI puts its own directory in the text; the audit runs it from the project.
    let config = r#"{"hooks": {"BeforeTool": [{"matcher": "run_shell_command|write_file|replace", "hooks": [
        {"type": "command", "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh", "timeout": 5000}]}]}}"#;
    let (_t, root, home) = project(".gemini", ".gemini/settings.json", config);
    let out = audit(&root, &home, &["--gemini", "0.61.0"]);
    let tools = ["run_shell_command", "write_file", "replace"];
    assert_crashing_guard_is_a_hole_that_seal_closes(&out, "gemini", "0.61.0", &tools);
    assert_eq!(json(&out)["agents"][0]["hooks"][0]["timeout"], 5.0, "milliseconds read as seconds");
}

/// Copilot CLI's `.github/hooks/*.json`: entries without a matcher, `bash` and
/// `timeoutSec`. Copilot fails closed on a hook that exits 1 ("hook errored"),
/// so the crashing guard is no hole as configured; a hang past `timeoutSec`
/// lets the call run, so the injected hang is the hole, and seal (which
/// answers before the timeout, with exit 2 and Copilot's JSON deny) closes it.
#[test]
fn a_copilot_guard_is_listed_and_its_hang_is_a_hole_seal_closes_on_real_copilot() {
    let config = r#"{"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "bash": "./.github/hooks/guard.sh", "timeoutSec": 5}]}}"#;
    let (_t, root, home) = project(".github", ".github/hooks/guard.json", config);
    let out = audit(&root, &home, &["--copilot", "1.0.102"]);
    let v = json(&out);
    let a = &v["agents"][0];
    assert_eq!((a["agent"].as_str(), a["version"].as_str()), (Some("copilot"), Some("1.0.102")), "{a}");
    let hook = &a["hooks"][0];
    assert_eq!(hook["timeout"].as_f64(), Some(5.0), "{hook}");
    let (holes, recheck) = holes_and_recheck(a);
    assert!(!holes.iter().any(|(k, _, _)| k == "broken-as-configured"), "exit 1 fails closed: {holes:?}");
    for tool in ["bash", "create"] {
        assert!(holes.contains(&("fails-open".into(), tool.to_string(), "hang".into())), "{tool}: {holes:?}");
    }
    assert_eq!(out.status.code(), Some(3), "a hole: exit 3; stderr {}", String::from_utf8_lossy(&out.stderr));
    assert!(!recheck.is_empty() && recheck.iter().all(|r| r == "blocked"), "seal closes every hole: {recheck:?}");
}

/// A Gemini CLI guard that refuses only `git reset --hard` (exit 2 with a
/// reason: Gemini refuses on an exit of 2 or more with output). It lets every
/// plain write through, so before probes reached Gemini its audit had nothing
/// to inject a fault under and said `untested` (exit 6). Expected now, with
/// the reasoning, on real Gemini CLI 0.61.0:
/// - screened through Gemini's stdin contract, it refuses the
///   `git-reset-hard` probe only; the stand-in makes that call through
///   Gemini's own shell (`run_shell_command`), and the session comes back
///   refused with the repository's uncommitted change intact: `blocked`;
/// - under a crash (exit 1 with words: Gemini allows on exit 1) and a hang
///   past its timeout (Gemini lets the call proceed), the call runs and the
///   change is thrown away: two holes, exit 3;
/// - with the script missing the shell exits 127 saying `not found`, an exit
///   of 2 or more with words, which Gemini takes as a refusal: `blocked`;
/// - the user's own repository (with an uncommitted change) is untouched.
#[test]
fn a_gemini_guard_that_refuses_only_git_reset_hard_is_exercised_with_the_probe_on_real_gemini() {
    use std::os::unix::fs::PermissionsExt;
    let t = tempfile::tempdir().unwrap();
    let (root, home) = (t.path().join("project"), t.path().join("home"));
    std::fs::create_dir_all(root.join(".gemini/hooks")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let guard = root.join(".gemini/hooks/guard.sh");
    std::fs::write(
        &guard,
        "#!/bin/sh\nif grep -q 'reset --hard'; then echo 'BLOCKED: destructive' >&2; exit 2; fi\nexit 0\n",
    )
    .unwrap();
    std::fs::set_permissions(&guard, std::fs::Permissions::from_mode(0o755)).unwrap();
    let config = r#"{"hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
        {"type": "command", "command": "$GEMINI_PROJECT_DIR/.gemini/hooks/guard.sh", "timeout": 5000}]}]}}"#;
    std::fs::write(root.join(".gemini/settings.json"), config).unwrap();
    let git = |args: &[&str]| {
        let st = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t.invalid", "-c", "commit.gpgsign=false"])
            .args(args)
            .current_dir(&root)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .status()
            .unwrap();
        assert!(st.success(), "git {args:?}");
    };
    std::fs::write(root.join("tracked.txt"), "committed\n").unwrap();
    git(&["init", "-q", "."]);
    git(&["add", "tracked.txt"]);
    git(&["commit", "-q", "-m", "one"]);
    std::fs::write(root.join("tracked.txt"), "the user's uncommitted change\n").unwrap();

    let out = audit(&root, &home, &["--gemini", "0.61.0"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(3), "a hole: exit 3; {v:#}");
    let a = &v["agents"][0];
    assert_eq!((a["agent"].as_str(), a["version"].as_str()), (Some("gemini"), Some("0.61.0")), "{a}");
    let refused: Vec<&str> = a["screens"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["refused"] == true)
        .map(|s| s["probe"].as_str().unwrap())
        .collect();
    let probe = "run_shell_command:git-reset-hard";
    assert_eq!(refused, [probe], "{a:#}");
    let result = |tool: &str, fault: &str| {
        a["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["hook"] == "G1" && c["tool"] == tool && c["fault"] == fault)
            .map(|c| c["result"].as_str().unwrap().to_string())
            .unwrap_or_else(|| format!("no cell {tool} {fault}"))
    };
    assert_eq!(result("run_shell_command", "none"), "wrote", "a plain write is allowed: {a:#}");
    assert_eq!(result(probe, "none"), "blocked", "{a:#}");
    assert_eq!(result(probe, "missing"), "blocked", "exit 127 with words is a refusal on Gemini: {a:#}");
    let (holes, _) = holes_and_recheck(a);
    for fault in ["crash", "hang"] {
        assert_eq!(result(probe, fault), "wrote", "{fault}: {a:#}");
        assert!(holes.contains(&("fails-open".into(), probe.to_string(), fault.to_string())), "{fault}: {holes:?}");
    }
    let g = &a["guards"][0];
    assert_eq!((g["hook"].as_str(), g["status"].as_str()), (Some("G1"), Some("open")), "{g}");
    assert_eq!(
        std::fs::read_to_string(root.join("tracked.txt")).unwrap(),
        "the user's uncommitted change\n",
        "the probe acts in its throwaway world only"
    );
}

/// A Copilot CLI guard in `.github/hooks` that refuses only `git reset
/// --hard` (exit 2). It lets every plain write through, so before Copilot's
/// stdin contract was known to audit it was `untested` (exit 6, measured on
/// 1.0.102). Expected now, with the reasoning, on real Copilot CLI 1.0.102:
/// - screened through Copilot's contract (`toolName` `bash`, `toolArgs`),
///   it refuses the `git-reset-hard` probe only; the stand-in makes that
///   call through Copilot's `bash`, and it comes back refused with the
///   repository's change intact: `blocked`;
/// - a missing script (127), a crash (exit 1) and a signal are "hook
///   errored" to Copilot, which fails closed on them: `blocked`;
/// - a hang past `timeoutSec` lets the call proceed, and the change is
///   thrown away: one hole, exit 3;
/// - the user's own repository is untouched.
#[test]
fn a_copilot_guard_that_refuses_only_git_reset_hard_is_exercised_with_the_probe_on_real_copilot() {
    use std::os::unix::fs::PermissionsExt;
    let config = r#"{"version": 1, "hooks": {"preToolUse": [
        {"type": "command", "bash": "./.github/hooks/guard.sh", "timeoutSec": 5}]}}"#;
    let (_t, root, home) = project(".github", ".github/hooks/guard.json", config);
    let guard = root.join(".github/hooks/guard.sh");
    std::fs::write(
        &guard,
        "#!/bin/sh\nif grep -q 'reset --hard'; then echo 'BLOCKED: destructive' >&2; exit 2; fi\nexit 0\n",
    )
    .unwrap();
    std::fs::set_permissions(&guard, std::fs::Permissions::from_mode(0o755)).unwrap();
    let change = uncommitted_change(&root);

    let out = audit(&root, &home, &["--copilot", "1.0.102"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(3), "a hole: exit 3; {v:#}");
    let a = &v["agents"][0];
    assert_eq!((a["agent"].as_str(), a["version"].as_str()), (Some("copilot"), Some("1.0.102")), "{a}");
    let probe = "bash:git-reset-hard";
    assert_eq!(refused_probes(a), [probe], "{a:#}");
    assert_eq!(cell(a, "P1", "bash", "none"), "wrote", "a plain write is allowed: {a:#}");
    for fault in ["none", "missing", "crash", "signal"] {
        assert_eq!(cell(a, "P1", probe, fault), "blocked", "{fault}: Copilot fails closed: {a:#}");
    }
    assert_eq!(cell(a, "P1", probe, "hang"), "wrote", "{a:#}");
    let (holes, _) = holes_and_recheck(a);
    assert_eq!(holes, [("fails-open".to_string(), probe.to_string(), "hang".to_string())], "{a:#}");
    let g = &a["guards"][0];
    assert_eq!((g["hook"].as_str(), g["status"].as_str()), (Some("P1"), Some("open")), "{g}");
    assert_eq!(std::fs::read_to_string(root.join("tracked.txt")).unwrap(), change, "the probe acts in its world only");
}

/// The same guard for Codex CLI, in `.codex/hooks.json` (matcher
/// `Bash|apply_patch`). Expected on real Codex 0.171.0: screened through
/// Codex's contract (Claude Code's payload with Codex's keys, `tool_name`
/// `Bash`), it refuses `git-reset-hard` only; the stand-in makes that call
/// through Codex's `exec_command`, refused as configured (`blocked`); a
/// missing script, a crash, a hang and a signal each let Codex run the reset
/// (it fails open on all four: docs/codex.md): four holes, exit 3.
#[test]
fn a_codex_guard_that_refuses_only_git_reset_hard_is_exercised_with_the_probe_on_real_codex() {
    use std::os::unix::fs::PermissionsExt;
    let config = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash|apply_patch", "hooks": [
        {"type": "command", "command": "./.codex/hooks/guard.sh", "timeout": 5}]}]}}"#;
    let (_t, root, home) = project(".codex", ".codex/hooks.json", config);
    let guard = root.join(".codex/hooks/guard.sh");
    std::fs::write(
        &guard,
        "#!/bin/sh\nif grep -q 'reset --hard'; then echo 'BLOCKED: destructive' >&2; exit 2; fi\nexit 0\n",
    )
    .unwrap();
    std::fs::set_permissions(&guard, std::fs::Permissions::from_mode(0o755)).unwrap();
    let change = uncommitted_change(&root);

    let out = audit(&root, &home, &["--codex", "0.171.0"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(3), "holes: exit 3; {v:#}");
    let a = &v["agents"][0];
    assert_eq!((a["agent"].as_str(), a["version"].as_str()), (Some("codex"), Some("0.171.0")), "{a}");
    let probe = "Bash:git-reset-hard";
    assert_eq!(refused_probes(a), [probe], "{a:#}");
    assert_eq!(cell(a, "C1", "Bash", "none"), "wrote", "a plain write is allowed: {a:#}");
    assert_eq!(cell(a, "C1", probe, "none"), "blocked", "{a:#}");
    let (holes, _) = holes_and_recheck(a);
    for fault in ["missing", "crash", "hang", "signal"] {
        assert_eq!(cell(a, "C1", probe, fault), "wrote", "{fault}: {a:#}");
        assert!(holes.contains(&("fails-open".into(), probe.to_string(), fault.to_string())), "{fault}: {holes:?}");
    }
    assert_eq!(std::fs::read_to_string(root.join("tracked.txt")).unwrap(), change, "the probe acts in its world only");
}

/// A git repository at `root` with `tracked.txt` committed and then changed;
/// returns the change.
pub(crate) fn uncommitted_change(root: &Path) -> String {
    let git = |args: &[&str]| {
        let st = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t.invalid", "-c", "commit.gpgsign=false"])
            .args(args)
            .current_dir(root)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .status()
            .unwrap();
        assert!(st.success(), "git {args:?}");
    };
    std::fs::write(root.join("tracked.txt"), "committed\n").unwrap();
    git(&["init", "-q", "."]);
    git(&["add", "tracked.txt"]);
    git(&["commit", "-q", "-m", "one"]);
    let change = "the user's uncommitted change\n";
    std::fs::write(root.join("tracked.txt"), change).unwrap();
    change.to_string()
}

/// The probes an agent section's screens found refused.
pub(crate) fn refused_probes(a: &Value) -> Vec<&str> {
    let screens = a["screens"].as_array().unwrap().iter();
    screens.filter(|s| s["refused"] == true).map(|s| s["probe"].as_str().unwrap()).collect()
}

/// The result of the agent section's cell (hook, tool, fault), or why none.
pub(crate) fn cell(a: &Value, hook: &str, tool: &str, fault: &str) -> String {
    a["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["hook"] == hook && c["tool"] == tool && c["fault"] == fault)
        .map(|c| c["result"].as_str().unwrap().to_string())
        .unwrap_or_else(|| format!("no cell {tool} {fault}"))
}

#[test]
fn a_malformed_codex_hooks_file_is_a_clear_error_naming_it() {
    let (_t, root, home) =
        project(".codex", ".codex/hooks.json", "{\"hooks\": {\"PreToolUse\": [\n  {\"matcher\": }\n]}}");
    let out = audit(&root, &home, &["--static-only"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "bad input: exit 1; {err}");
    assert!(err.contains(".codex/hooks.json:2:"), "names the file and line: {err}");
    assert!(!err.contains("panicked"), "{err}");
    std::fs::write(root.join(".codex/hooks.json"), r#"{"hooks": {"PreToolUse": {"matcher": "Bash"}}}"#).unwrap();
    let out = audit(&root, &home, &["--static-only"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(".codex/hooks.json") && err.contains("hooks.PreToolUse") && err.contains("array"), "{err}");
    // Named explicitly, with --agent, the same file is read as Codex's wherever it is.
    let elsewhere = root.join("codex-hooks.json");
    std::fs::write(
        &elsewhere,
        r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x", "timeout": "5"}]}]}}"#,
    )
    .unwrap();
    let out = audit(&root, &home, &["--static-only", "--agent", "codex", elsewhere.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("codex-hooks.json") && err.contains("timeout") && err.contains("seconds"), "{err}");
    let out = audit(&root, &home, &["--static-only", "--agent", "cursor", elsewhere.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("claude-code, codex, gemini"));
}
