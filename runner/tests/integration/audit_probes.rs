//! `failopen audit` exercises each guard with a call it refuses (a probe),
//! injects the faults under that call, and never says `held` of a guard it
//! could not exercise. Real binary, real Claude Code (the pinned 2.1.328),
//! the stand-in making the probe's call.
//!
//! Expected, with the reasoning (checked on real runs):
//! - a guard that allows everything refuses none of the write attempts nor
//!   any catalogue probe: `untested`, exit 6, never 0;
//! - a destructive-command guard (python, refuses `git reset --hard` and
//!   `rm -rf` only, exit 2) lets every plain write through, so before probes
//!   the audit had nothing to inject a fault under. It refuses the
//!   `git-reset-hard` probe on screen and in a session; under a crash (exit
//!   1), a hang past its timeout and a signal, Claude Code runs the call
//!   and the repository's uncommitted change is thrown away: three holes,
//!   exit 3; and under `missing` (the script gone: exit 127). A guard run
//!   as `python3 /path/guard.py` instead holds under `missing`: python3
//!   exits 2 on a missing script, which Claude Code reads as a refusal (the
//!   plugin case below);
//! - a user's `--probe` exercises a guard the catalogue cannot;
//! - with the guard effectively removed (it refuses on screen, allows in
//!   sessions), every catalogue probe runs in its throwaway world and
//!   nothing outside the sessions' temp roots changes: not the user's
//!   project (a git repository with an uncommitted change and a `.env`), not
//!   their HOME.

use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::{json, Value};

use crate::support::{self, failopen};

/// failopen's cache of agent binaries, whatever HOME the audit gets.
pub(crate) fn cache() -> PathBuf {
    std::env::var_os("FAILOPEN_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME")).join(".cache/failopen"))
}

/// `failopen audit ARGS --format json -j 2` from `project`, with HOME `home`.
pub(crate) fn audit(project: &Path, home: &Path, args: &[&str]) -> (Output, Value) {
    audit_with_path(project, home, args, &std::env::var("PATH").unwrap_or_default())
}

/// [`audit`] with `path` as the PATH failopen, so Claude Code and its hooks, get.
pub(crate) fn audit_with_path(project: &Path, home: &Path, args: &[&str], path: &str) -> (Output, Value) {
    let _lock = support::lock::sessions();
    let out = failopen()
        .current_dir(project)
        .env("PATH", path)
        .env("HOME", home)
        .env("FAILOPEN_CACHE", cache())
        .arg("audit")
        .args(args)
        .args(["--format", "json", "-j", "2"])
        .timeout(std::time::Duration::from_secs(900))
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("not JSON ({e}): {} {}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
    });
    (out, v)
}

/// A project whose `.claude/settings.json` holds one PreToolUse hook running `guard` (a script body).
fn project_with_guard(d: &Path, matcher: &str, guard: &str) -> (PathBuf, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let (project, home) = (d.join("project"), d.join("home"));
    std::fs::create_dir_all(project.join(".claude/hooks")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let script = project.join(".claude/hooks/guard");
    std::fs::write(&script, guard).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [
        {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard", "timeout": 5}]}]}});
    std::fs::write(project.join(".claude/settings.json"), settings.to_string()).unwrap();
    (project, home)
}

fn guard_verdict(v: &Value, hook: &str) -> (String, String) {
    let g = v["agents"][0]["guards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["hook"] == hook)
        .unwrap_or_else(|| panic!("{v:#}"));
    (g["status"].as_str().unwrap().to_string(), g["reason"].as_str().unwrap().to_string())
}

pub(crate) fn result(v: &Value, hook: &str, tool: &str, fault: &str) -> String {
    v["agents"][0]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["hook"] == hook && c["tool"] == tool && c["fault"] == fault)
        .map(|c| c["result"].as_str().unwrap().to_string())
        .unwrap_or_else(|| format!("no cell {hook} {tool} {fault}"))
}

#[test]
fn a_guard_that_refuses_nothing_is_untested_and_never_exits_0() {
    let d = tempfile::tempdir().unwrap();
    let (project, home) = project_with_guard(d.path(), "Bash|Write|Edit|Read", "#!/bin/sh\ncat >/dev/null\nexit 0\n");
    let (out, v) = audit(&project, &home, &[]);
    assert_eq!(out.status.code(), Some(6), "{v:#}");
    let (status, reason) = guard_verdict(&v, "H1");
    assert_eq!(status, "untested", "{v:#}");
    assert!(reason.contains("refused none of") && reason.contains("--probe"), "{reason}");
    assert!(v["agents"][0]["screens"].as_array().unwrap().iter().all(|s| s["refused"] == false), "{v:#}");
    assert!(v["agents"][0]["holes"].as_array().unwrap().is_empty(), "{v:#}");
}

const DESTRUCTIVE_GUARD: &str = r#"#!/usr/bin/env python3
import json, re, sys
d = json.load(sys.stdin)
cmd = d.get("tool_input", {}).get("command", "")
if d.get("tool_name") == "Bash" and re.search(r"git\s+reset\s+--hard|rm\s+-rf", cmd):
    print("BLOCKED: destructive command", file=sys.stderr)
    sys.exit(2)
sys.exit(0)
"#;

#[test]
fn a_destructive_command_guard_is_exercised_with_a_probe_and_fails_open() {
    let d = tempfile::tempdir().unwrap();
    let (project, home) = project_with_guard(d.path(), "Bash", DESTRUCTIVE_GUARD);
    let (out, v) = audit(&project, &home, &[]);
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    assert_eq!(result(&v, "H1", "Bash", "none"), "wrote", "a plain write is allowed: {v:#}");
    let screened: Vec<&str> = v["agents"][0]["screens"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["refused"] == true)
        .map(|s| s["probe"].as_str().unwrap())
        .collect();
    assert_eq!(screened, ["Bash:git-reset-hard", "Bash:rm-rf-home"], "{v:#}");
    let probe = "Bash:git-reset-hard";
    assert_eq!(result(&v, "H1", probe, "none"), "blocked", "{v:#}");
    for fault in ["missing", "crash", "hang", "signal"] {
        assert_eq!(result(&v, "H1", probe, fault), "wrote", "{fault}: {v:#}");
    }
    let holes: Vec<(String, String)> = v["agents"][0]["holes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["tool"].as_str().unwrap().to_string(), h["fault"].as_str().unwrap().to_string()))
        .collect();
    for fault in ["missing", "crash", "hang", "signal"] {
        assert!(holes.contains(&(probe.to_string(), fault.to_string())), "{fault}: {holes:?}");
    }
    assert_eq!(guard_verdict(&v, "H1").0, "open");
    the_proved_recipe_closes_every_probe_hole_and_the_next_audit_finds_none(&v, &project, &home, probe);
}

/// Expected: the holes found with a probe get the re-check too (the recipe,
/// seal with `"onFailure": "block"`, applied to a copy): each hole cell, each
/// probe refused as-is and the seal binary gone are refused on the copy, so
/// the recipe is proved and printed as the one fix, `failopen seal
/// --install`. Applied exactly so, with no `claude` on PATH (issue 46: it
/// then added no onFailure, and the next audit found a `no-seal` hole), the
/// next audit finds no hole: the probe is refused as-is and under every
/// fault, `no-seal` included.
fn the_proved_recipe_closes_every_probe_hole_and_the_next_audit_finds_none(
    v: &Value,
    project: &Path,
    home: &Path,
    probe: &str,
) {
    let re = &v["agents"][0]["rechecks"][0];
    assert_eq!(re["outcome"], "proved", "{re:#}");
    let cells: Vec<(&str, &str, &str, &str)> = re["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap();
            (s("role"), s("tool"), s("fault"), s("result"))
        })
        .collect();
    for fault in ["missing", "crash", "hang", "signal"] {
        assert!(cells.contains(&("hole", probe, fault, "blocked")), "{fault}: {cells:?}");
    }
    assert!(cells.contains(&("refusal", probe, "none", "blocked")), "{cells:?}");
    assert!(cells.contains(&("refusal", "Bash:rm-rf-home", "none", "blocked")), "{cells:?}");
    assert!(cells.contains(&("seal-gone", probe, "no-seal", "blocked")), "{cells:?}");
    let fixes: Vec<&Value> =
        v["agents"][0]["advice"].as_array().unwrap().iter().filter(|a| a["recheck"]["status"] == "proved").collect();
    assert_eq!(fixes.len(), 1, "one recipe: {v:#}");
    let change = fixes[0]["change"].as_str().unwrap();
    assert!(change.contains("failopen seal --install") && !change.contains(" or "), "{change}");
    let settings = project.join(".claude/settings.json");
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(support::bin(), dir.path().join("failopen")).unwrap();
    let no_claude = format!("{}:/usr/bin:/bin", dir.path().display());
    let out = std::process::Command::new(dir.path().join("failopen"))
        .args(["seal", "--install"])
        .arg(&settings)
        .env("PATH", &no_claude)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let (out, after) = audit(project, home, &[]);
    assert!(
        after["agents"][0]["holes"].as_array().unwrap().is_empty(),
        "the fix as applied still has holes: {after:#}"
    );
    assert_ne!(out.status.code(), Some(3), "{after:#}");
    for fault in ["none", "missing", "crash", "hang", "signal", "no-seal"] {
        assert_eq!(result(&after, "H1", probe, fault), "blocked", "{fault}: {after:#}");
    }
}

#[test]
fn a_users_probe_exercises_a_guard_the_catalogue_cannot() {
    let d = tempfile::tempdir().unwrap();
    let guard = "#!/bin/sh\nif grep -q 'terraform destroy'; then echo 'no destroy' >&2; exit 2; fi\nexit 0\n";
    let (project, home) = project_with_guard(d.path(), "Bash", guard);
    let probe = r#"{"tool": "Bash", "command": "terraform destroy -auto-approve"}"#;
    let (out, v) = audit(&project, &home, &["--probe", probe]);
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    let label = "Bash:user-terraform-destroy-auto-approve";
    assert_eq!(result(&v, "H1", label, "none"), "blocked", "{v:#}");
    assert_eq!(result(&v, "H1", label, "crash"), "wrote", "the call ran under a crash: {v:#}");
    // A bad --probe is bad input naming the field.
    let (out, _) =
        (failopen().current_dir(&project).args(["audit", "--probe", r#"{"tool":"Rm"}"#]).output().unwrap(), ());
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("field `tool`"), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Every file under `dir` with its bytes (a directory as empty).
fn listing(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if e.file_type().unwrap().is_dir() {
                out.push((p.clone(), vec![]));
                stack.push(p);
            } else {
                out.push((p.clone(), std::fs::read(&p).unwrap_or_default()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn no_probe_touches_anything_outside_its_temp_root_with_the_guard_removed() {
    let d = tempfile::tempdir().unwrap();
    // Refuses every probe on screen (its payload's session id), allows everything in a session.
    let guard = "#!/bin/sh\nif grep -q '\"session_id\":\"failopen-screen\"'; then exit 2; fi\nexit 0\n";
    let (project, home) = project_with_guard(d.path(), "Bash|Write|Read", guard);
    // The user's project is a git repository with an uncommitted change, a .env and untracked files.
    let git = |args: &[&str]| {
        let st = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"])
            .args(args)
            .current_dir(&project)
            .env("HOME", &home)
            .status()
            .unwrap();
        assert!(st.success(), "git {args:?}");
    };
    git(&["init", "-q"]);
    std::fs::write(project.join("tracked.txt"), "committed\n").unwrap();
    git(&["add", "tracked.txt"]);
    git(&["commit", "-q", "-m", "one"]);
    std::fs::write(project.join("tracked.txt"), "uncommitted\n").unwrap();
    std::fs::write(project.join(".env"), "REAL=secret\n").unwrap();
    std::fs::write(project.join("scratch.tmp"), "keep\n").unwrap();
    std::fs::create_dir_all(home.join(".ssh")).unwrap();
    std::fs::write(home.join(".ssh/id_rsa"), "real key\n").unwrap();
    std::fs::write(home.join("marker"), "home\n").unwrap();
    let (before_project, before_home) = (listing(&project), listing(&home));
    let (_out, v) = audit(&project, &home, &[]);
    assert_eq!(listing(&project), before_project, "the project changed: {v:#}");
    assert_eq!(listing(&home), before_home, "HOME changed: {v:#}");
    assert!(!d.path().join("outside").exists());
    // Every probe did run in its own world (so the check above means something).
    let probes: Vec<String> = v["agents"][0]["screens"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["probe"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(probes.len(), 11, "{v:#}");
    for p in &probes {
        let r = result(&v, "H1", p, "none");
        if p == "Bash:rm-rf-home" {
            assert_ne!(r, "blocked", "Claude Code refuses `rm -rf ~/` itself, never this guard: {v:#}");
        } else {
            assert_eq!(r, "wrote", "{p} went through in its world: {v:#}");
        }
    }
}

/// The issue's first case, as a user sets it up: a destructive-command guard
/// installed as a plugin from a local marketplace (`claude plugin marketplace
/// add DIR`, `claude plugin install NAME@MARKET`, offline, in a temp HOME).
/// `failopen audit` with no arguments finds it through `enabledPlugins` and
/// `installed_plugins.json`, exercises it with the `git reset --hard` probe it
/// refuses, and reports the faults that let that call through: exit 3. The
/// advice keeps the hook in the plugin (seal in its own hooks file, again
/// after each update) and does not tell a Bash guard to cover Write.
#[test]
fn a_guard_plugin_installed_with_claude_plugin_install_is_found_exercised_and_fails_open() {
    let d = tempfile::tempdir().unwrap();
    let (market, home, project) = (d.path().join("market"), d.path().join("home"), d.path().join("project"));
    let plugin = market.join("plugins/dguard");
    for dir in [
        market.join(".claude-plugin"),
        plugin.join(".claude-plugin"),
        plugin.join("hooks"),
        home.clone(),
        project.clone(),
    ] {
        std::fs::create_dir_all(dir).unwrap();
    }
    let write = |p: PathBuf, v: &str| std::fs::write(p, v).unwrap();
    write(
        market.join(".claude-plugin/marketplace.json"),
        &json!({"name": "localmarket", "owner": {"name": "t"}, "plugins": [{"name": "dguard", "source": "./plugins/dguard"}]})
            .to_string(),
    );
    write(plugin.join(".claude-plugin/plugin.json"), r#"{"name": "dguard", "version": "1.0.0"}"#);
    let hooks = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "python3 \"${CLAUDE_PLUGIN_ROOT}/hooks/guard.py\"", "timeout": 5}]}]}});
    write(plugin.join("hooks/hooks.json"), &hooks.to_string());
    write(plugin.join("hooks/guard.py"), DESTRUCTIVE_GUARD);
    let claude = cache().join("claude-code/2.1.328/node_modules/.bin/claude");
    for args in [
        vec!["plugin", "marketplace", "add", market.to_str().unwrap()],
        vec!["plugin", "install", "dguard@localmarket"],
    ] {
        let out = std::process::Command::new(&claude)
            .args(&args)
            .current_dir(&project)
            .env("HOME", &home)
            .env("DISABLE_AUTOUPDATER", "1")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "claude {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let (out, v) = audit(&project, &home, &[]);
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    let plugins = v["agents"][0]["plugins"].as_array().unwrap();
    assert_eq!(plugins.len(), 1, "{v:#}");
    assert_eq!((plugins[0]["name"].as_str(), plugins[0]["loaded"].as_bool()), (Some("dguard@localmarket"), Some(true)));
    // A directory marketplace's plugin runs from its source, not the cache copy (measured on 2.1.328:
    // runner/tests/fixtures/hook-start/claude-2.1.328.txt).
    let hook = &v["agents"][0]["hooks"][0];
    assert!(hook["file"].as_str().unwrap().ends_with("market/plugins/dguard/hooks/hooks.json"), "{v:#}");
    let probe = "Bash:git-reset-hard";
    assert_eq!(result(&v, "H1", probe, "none"), "blocked", "{v:#}");
    for fault in ["crash", "hang", "signal"] {
        assert_eq!(result(&v, "H1", probe, fault), "wrote", "{fault}: {v:#}");
    }
    // The hook stays where the plugin runs it (with its CLAUDE_PLUGIN_ROOT): seal in the plugin's own
    // hooks file, never "disable the plugin and run it from user settings" (user hooks get no plugin root).
    let advice: Vec<&str> =
        v["agents"][0]["advice"].as_array().unwrap().iter().map(|a| a["change"].as_str().unwrap()).collect();
    assert!(
        advice.iter().any(|a| a.contains("plugin dguard@localmarket") && a.contains("seal --install")),
        "{advice:?}"
    );
    assert!(!advice.iter().any(|a| a.contains("disable")), "{advice:?}");
    assert!(!advice.iter().any(|a| a.contains("matcher")), "{advice:?}");
    // Set to false, the plugin is listed as not loaded, and nothing guards: never exit 0 (a
    // static audit with no hook warns `no-hooks`, exit 3).
    let settings = home.join(".claude/settings.json");
    let mut s: Value = serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    s["enabledPlugins"]["dguard@localmarket"] = false.into();
    std::fs::write(&settings, s.to_string()).unwrap();
    let (out, v) = audit(&project, &home, &["--static-only"]);
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    assert!(v["agents"][0]["hooks"].as_array().unwrap().is_empty(), "{v:#}");
    assert_eq!(v["agents"][0]["plugins"][0]["loaded"], false, "{v:#}");
    assert!(v["agents"][0]["plugins"][0]["reason"].as_str().unwrap().starts_with("set to false in"), "{v:#}");
}
