//! Public guard projects, from the registries, pinned by version and
//! integrity hash, set up as their READMEs say, then `failopen audit` with no
//! arguments (issue 28 "Done when"). Real Claude Code 2.1.328.
//!
//! **CC Safety Net** (npm `cc-safety-net` 2.4.5, kenryu42): its README's
//! setup is `npx -y cc-safety-net@latest install`, which for Claude Code runs
//! `claude plugin marketplace add kenryu42/cc-marketplace` and `claude plugin
//! install cc-safety-net@cc-marketplace` (read from its `dist/cli.js`). CI
//! reaches npm, not GitHub, so the test builds that marketplace locally: the
//! npm package's files as the plugin root, with the repository's
//! `.claude-plugin/plugin.json` and `hooks/hooks.json` (one PreToolUse hook,
//! no matcher, no timeout: `node "${CLAUDE_PLUGIN_ROOT}/dist/bin/cc-safety-net.js"
//! hook --coding-cli`), then the same two `claude plugin` commands.
//!
//! Expected, with the reasoning (measured with this test's setup on 2.1.328):
//! - found: the plugin is loaded through `enabledPlugins` and
//!   `installed_plugins.json`, its hook listed from the install path;
//! - exercised: it lets a plain write through, and refuses `git reset --hard`
//!   (rule `git.reset-hard`) with a JSON deny on exit 0, on screen and in a
//!   session: `blocked` as configured;
//! - holes: its answer is exit 0 + JSON, so anything else is no decision:
//!   `missing` (node exits 1 on a missing script), `crash`, `signal` and
//!   `no-launcher` (node gone from the hook's PATH: `/bin/sh` exits 127) let
//!   the reset run: **wrote**; `hang` is not waited for (no timeout: 600 s);
//!   the bundle has no `node_modules`, so `no-deps` does not apply. Exit 3.

use std::path::Path;

use serde_json::{json, Value};

use crate::audit_probes::{audit, audit_with_path, cache, result};

/// The pinned package and its registry integrity (`npm view cc-safety-net@2.4.5 dist.integrity`).
const CC_SAFETY_NET: &str = "cc-safety-net@2.4.5";
const CC_SAFETY_NET_INTEGRITY: &str =
    "sha512-NxVJYOyXsqI6+xX18nk5AiHilhgIR3thwBgDzXeEHuxKPrUhutD40tOGX3kgYDyqBwHPASyn7UOm05pAzhTsPw==";

/// `npm pack SPEC` into `dir`, checked against `integrity`, unpacked: the package's root.
fn npm_package(spec: &str, integrity: &str, dir: &Path) -> std::path::PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let out = std::process::Command::new("npm")
        .args(["pack", spec, "--json", "--loglevel=error", "--pack-destination"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "npm pack {spec}: {}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["integrity"], integrity, "{spec} is not the pinned tarball");
    let tgz = dir.join(v[0]["filename"].as_str().unwrap());
    let st = std::process::Command::new("tar").arg("xzf").arg(&tgz).arg("-C").arg(dir).status().unwrap();
    assert!(st.success());
    dir.join("package")
}

/// The pinned wheels and their sha256 (PyPI's), installed with `--require-hashes`.
pub(crate) const CLAUDE_SAFETY_GUARD: &str =
    "claude-safety-guard==0.2.0 --hash=sha256:033ff250c71df6c45809d97dfc23287dfc2845663bcfe86ea0544116061e73cc";
const AI_AGENT_HANDOFF: &str =
    "ai-agent-handoff==0.3.0 --hash=sha256:fc459c07f80406d8a358c0e485ae2896edb64f4ee39c8eac395e83d1a98a46c1";

/// A venv in `dir` with `requirement` (pinned by hash) pip-installed, as a
/// README's `pip install` does: the venv's `bin`.
pub(crate) fn pypi_venv(requirement: &str, dir: &Path) -> std::path::PathBuf {
    let venv = dir.join("venv");
    let st = std::process::Command::new("python3").arg("-m").arg("venv").arg(&venv).status().unwrap();
    assert!(st.success(), "python3 -m venv");
    let req = dir.join("requirements.txt");
    std::fs::write(&req, format!("{requirement}\n")).unwrap();
    let out = std::process::Command::new(venv.join("bin/pip"))
        .args(["install", "--quiet", "--no-deps", "--require-hashes", "--disable-pip-version-check", "-r"])
        .arg(&req)
        .output()
        .unwrap();
    assert!(out.status.success(), "pip install {requirement}: {}", String::from_utf8_lossy(&out.stderr));
    venv.join("bin")
}

/// A project whose `.claude/settings.json` is `settings`, a HOME, and the PATH
/// with `bin` in front (the activated venv).
pub(crate) fn project_with_settings(
    d: &Path,
    settings: Value,
    bin: &Path,
) -> (std::path::PathBuf, std::path::PathBuf, String) {
    let (project, home) = (d.join("project"), d.join("home"));
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(project.join(".claude/settings.json"), settings.to_string()).unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    (project, home, path)
}

fn refused(v: &Value) -> Vec<&str> {
    v["agents"][0]["screens"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["refused"] == true)
        .map(|s| s["probe"].as_str().unwrap())
        .collect()
}

fn finding_codes(v: &Value) -> Vec<&str> {
    v["agents"][0]["findings"].as_array().unwrap().iter().map(|f| f["code"].as_str().unwrap()).collect()
}

/// `claude plugin marketplace add MARKET` then `claude plugin install PLUGIN`, in `home`.
pub(crate) fn claude_plugin_install(market: &Path, plugin: &str, home: &Path, project: &Path) {
    let claude = cache().join("claude-code/2.1.328/node_modules/.bin/claude");
    for args in [vec!["plugin", "marketplace", "add", market.to_str().unwrap()], vec!["plugin", "install", plugin]] {
        let out = std::process::Command::new(&claude)
            .args(&args)
            .current_dir(project)
            .env("HOME", home)
            .env("DISABLE_AUTOUPDATER", "1")
            .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
            .output()
            .unwrap();
        assert!(out.status.success(), "claude {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

/// CC Safety Net's plugin installed as its README says (see the module's
/// doc), under `d`: (home, project).
fn cc_safety_net_plugin(d: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    let (market, home, project) = (d.join("cc-marketplace"), d.join("home"), d.join("project"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    let package = npm_package(CC_SAFETY_NET, CC_SAFETY_NET_INTEGRITY, &d.join("npm"));
    let plugin = market.join("plugins/cc-safety-net");
    std::fs::create_dir_all(plugin.parent().unwrap()).unwrap();
    std::fs::rename(&package, &plugin).unwrap();
    let write = |p: &Path, v: Value| {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, v.to_string()).unwrap()
    };
    write(
        &market.join(".claude-plugin/marketplace.json"),
        json!({"name": "cc-marketplace", "owner": {"name": "kenryu42"},
               "plugins": [{"name": "cc-safety-net", "source": "./plugins/cc-safety-net"}]}),
    );
    write(
        &plugin.join(".claude-plugin/plugin.json"),
        json!({"name": "cc-safety-net", "version": "2.4.5", "description": "Block destructive commands and secret access"}),
    );
    write(
        &plugin.join("hooks/hooks.json"),
        json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command",
            "command": "node \"${CLAUDE_PLUGIN_ROOT}/dist/bin/cc-safety-net.js\" hook --coding-cli"}]}]}}),
    );
    claude_plugin_install(&market, "cc-safety-net@cc-marketplace", &home, &project);
    (home, project)
}

#[test]
fn cc_safety_net_installed_as_its_readme_says_is_found_exercised_and_fails_open() {
    let d = tempfile::tempdir().unwrap();
    let (home, project) = cc_safety_net_plugin(d.path());
    let (out, v) = audit(&project, &home, &[]);
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    assert_eq!(v["agents"][0]["plugins"][0]["name"], "cc-safety-net@cc-marketplace", "{v:#}");
    assert_eq!(v["agents"][0]["plugins"][0]["loaded"], true, "{v:#}");
    let hook = &v["agents"][0]["hooks"][0];
    assert!(hook["file"].as_str().unwrap().ends_with("cc-marketplace/plugins/cc-safety-net/hooks/hooks.json"), "{v:#}");
    let probe = "Bash:git-reset-hard";
    assert_refuses_as_is_and_fails_open(&v, "Bash", probe);
    assert_eq!(result(&v, "H1", probe, "no-deps"), "skipped", "a bundle with no node_modules: {v:#}");
    crate::audit_sources::assert_census_matches(&v, 1);
    apply_the_plugin_advice_and_audit_again(&v, &home, &project, probe, &[]);
}

/// The plugin with a rule of the project's own: CC Safety Net reads custom
/// rulebooks from `<payload cwd>/.cc-safety-net/rules/` on every call (its
/// `rule doc`), made here as its README says, with its own CLI (`rule add
/// project-rules`, after writing the rulebook: `touch release.lock` is
/// refused, "Releases are cut by CI"). A plugin guard that reads the
/// project's files, from a public package (issue 43: a plugin run in the
/// wrong directory found no rules and was called untested).
///
/// Expected, with the reasoning (measured on 2.1.328 with this setup, `failopen audit --probe ...`):
/// - the user's probe `touch release.lock` is refused on screen and `blocked`
///   in a session only because the hook runs where Claude Code runs it: in
///   a copy of the project, the payload's `cwd` that copy (the built-in
///   rules allow `touch`: the hook run by hand on the project before its
///   rule is added allows it, checked below);
/// - `missing`, `crash`, `signal` and `no-launcher` let it through (the
///   answer is exit 0 + JSON: anything else is no decision), `hang` is not
///   waited for (no timeout): open, exit 3;
/// - the printed fix, `failopen seal --install` on the plugin's hooks file,
///   applied, leaves no hole and the project's rule still refused under every fault.
#[test]
fn cc_safety_net_with_a_project_rulebook_refuses_by_the_projects_rule_and_fails_open() {
    let d = tempfile::tempdir().unwrap();
    let (home, project) = cc_safety_net_plugin(d.path());
    let probe = r#"{"tool": "Bash", "command": "touch release.lock"}"#;
    let label = "Bash:user-touch-release-lock";
    let package = d.path().join("cc-marketplace/plugins/cc-safety-net/dist/bin/cc-safety-net.js");
    // The hook as Claude Code starts it, with the payload's `cwd` the project.
    let hook = |cwd: &Path| {
        let mut child = std::process::Command::new("node")
            .arg(&package)
            .args(["hook", "--coding-cli"])
            .current_dir(cwd)
            .env("HOME", &home)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let payload = json!({"session_id": "s", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                             "tool_input": {"command": "touch release.lock"}, "cwd": cwd});
        std::io::Write::write_all(child.stdin.as_mut().unwrap(), payload.to_string().as_bytes()).unwrap();
        drop(child.stdin.take());
        String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap()
    };
    assert!(!hook(&project).contains("\"deny\""), "without the project's rule, touch is allowed");

    let rulebook = project.join(".cc-safety-net/rules/project-rules/rulebook.json");
    std::fs::create_dir_all(rulebook.parent().unwrap()).unwrap();
    std::fs::write(
        &rulebook,
        json!({"rulebook_version": 1, "name": "project-rules", "version": "1.0.0", "allowed_commands": ["touch"],
               "rules": [{"name": "no-release-lock", "command": "touch", "block_args": ["release.lock"],
                          "reason": "Releases are cut by CI, not by the agent."}]})
        .to_string(),
    )
    .unwrap();
    let add = std::process::Command::new("node")
        .arg(&package)
        .args(["rule", "add", "project-rules"])
        .current_dir(&project)
        .env("HOME", &home)
        .output()
        .unwrap();
    assert!(add.status.success(), "{}", String::from_utf8_lossy(&add.stderr));
    assert!(project.join(".cc-safety-net/rules/rule.json").is_file());
    assert!(hook(&project).contains("\"deny\""), "the project's rule refuses touch release.lock");

    let (out, v) = audit(&project, &home, &["--probe", probe]);
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    assert_eq!(result(&v, "H1", label, "none"), "blocked", "the project's rule, read in the copy: {v:#}");
    for fault in ["missing", "crash", "signal", "no-launcher"] {
        assert_eq!(result(&v, "H1", label, fault), "wrote", "{fault}: {v:#}");
    }
    assert_eq!(result(&v, "H1", label, "hang"), "skipped", "no timeout: {v:#}");
    apply_the_plugin_advice_and_audit_again(&v, &home, &project, label, &["--probe", probe]);
    assert!(!project.join("release.lock").exists(), "the probe acts in its world only");
}

/// The advice for a plugin's hook keeps it where the plugin runs it (user
/// hooks get no CLAUDE_PLUGIN_ROOT): `failopen seal --install` on the
/// plugin's own hooks file, proved by its re-check on a copy before it is
/// printed. Applied exactly so (with no `claude` on PATH), the next audit
/// finds the plugin still loaded and no hole: the probe is refused as-is and
/// under every fault that let it through before, and with the seal binary gone.
fn apply_the_plugin_advice_and_audit_again(v: &Value, home: &Path, project: &Path, probe: &str, args: &[&str]) {
    let file = Path::new(v["agents"][0]["hooks"][0]["file"].as_str().unwrap());
    let path = std::env::var("PATH").unwrap_or_default();
    let faults = ["missing", "crash", "signal", "no-launcher", "no-seal"];
    let after = apply_the_proved_seal_and_audit_again(v, file, project, home, args, &path, probe, &faults);
    assert_eq!(after["agents"][0]["plugins"][0]["loaded"], true, "{after:#}");
    crate::audit_sources::assert_census_matches(&after, 1);
}

/// The fix `v` printed for the hooks in `file`, `failopen seal --install
/// FILE`, proved on a copy before it was printed, applied exactly so (with
/// no `claude` on PATH), then audited again with `args` and `path`: no hole,
/// not exit 3, and `probe` refused as-is and under each of `faults`. The
/// second report.
#[allow(clippy::too_many_arguments)]
pub(crate) fn apply_the_proved_seal_and_audit_again(
    v: &Value,
    file: &Path,
    project: &Path,
    home: &Path,
    args: &[&str],
    path: &str,
    probe: &str,
    faults: &[&str],
) -> Value {
    let fix = v["agents"][0]["advice"].as_array().unwrap().iter().find(|a| a["recheck"]["status"] == "proved");
    let change = fix.unwrap_or_else(|| panic!("no proved fix: {v:#}"))["change"].as_str().unwrap();
    assert!(change.contains(&format!("failopen seal --install {}", file.display())), "{change}");
    let dir = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(crate::support::bin(), dir.path().join("failopen")).unwrap();
    let out = std::process::Command::new(dir.path().join("failopen"))
        .arg("seal")
        .arg("--install")
        .arg(file)
        .env("PATH", format!("{}:/usr/bin:/bin", dir.path().display()))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let (out, after) = audit_with_path(project, home, args, path);
    assert_ne!(out.status.code(), Some(3), "the fix as applied still fails open: {after:#}");
    assert!(after["agents"][0]["holes"].as_array().unwrap().is_empty(), "{after:#}");
    for fault in ["none"].iter().chain(faults) {
        assert_eq!(result(&after, "H1", probe, fault), "blocked", "{fault}: {after:#}");
    }
    after
}

#[test]
fn claude_safety_guard_in_project_settings_as_its_readme_says_is_exercised_and_fails_open() {
    let d = tempfile::tempdir().unwrap();
    let bin = pypi_venv(CLAUDE_SAFETY_GUARD, d.path());
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": "claude-safety-guard hook"}]}]}});
    let (project, home, path) = project_with_settings(d.path(), settings, &bin);
    let (out, v) = audit_with_path(&project, &home, &[], &path);
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    assert!(v["agents"][0]["hooks"][0]["file"].as_str().unwrap().ends_with("project/.claude/settings.json"), "{v:#}");
    assert!(!finding_codes(&v).contains(&"script-missing"), "the console script is on PATH: {v:#}");
    assert_eq!(refused(&v), ["Bash:git-push-force", "Bash:curl-pipe-sh", "Bash:rm-rf-home"], "{v:#}");
    assert_refuses_as_is_and_fails_open(&v, "Bash", "Bash:git-push-force");
}

#[test]
fn agent_guard_run_as_a_python_module_is_found_exercised_and_fails_open_when_the_module_is_gone() {
    let d = tempfile::tempdir().unwrap();
    let bin = pypi_venv(AI_AGENT_HANDOFF, d.path());
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Edit|Write|Bash",
        "hooks": [{"type": "command", "command": "python -m agent_guard"}]}]}});
    let (project, home, path) = project_with_settings(d.path(), settings, &bin);
    let (out, v) = audit_with_path(&project, &home, &[], &path);
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    let codes = finding_codes(&v);
    assert!(!codes.contains(&"script-missing") && !codes.contains(&"interpreter-missing"), "{v:#}");
    assert_eq!(refused(&v), ["Bash:git-push-force", "Bash:curl-pipe-sh", "Write:write-key"], "{v:#}");
    assert_refuses_as_is_and_fails_open(&v, "Write", "Bash:git-push-force");
}

/// What each of these public guards, installed as its README says, shows:
/// a harmless call through `tool` runs, `probe` is refused as-is, and every
/// fault a guard without `onFailure` or seal can meet lets `probe` through
/// (none of them sets a timeout, so the 600 s hang is not waited for), so
/// guard H1 is open.
fn assert_refuses_as_is_and_fails_open(v: &Value, tool: &str, probe: &str) {
    assert_eq!(result(v, "H1", tool, "none"), "wrote", "a harmless write is allowed: {v:#}");
    assert_eq!(result(v, "H1", probe, "none"), "blocked", "{v:#}");
    for fault in ["missing", "crash", "signal", "no-launcher"] {
        assert_eq!(result(v, "H1", probe, fault), "wrote", "{fault}: {v:#}");
    }
    assert_eq!(result(v, "H1", probe, "hang"), "skipped", "no timeout: a 600 s hang is not waited for: {v:#}");
    let guard = v["agents"][0]["guards"].as_array().unwrap().iter().find(|g| g["hook"] == "H1").unwrap();
    assert_eq!(guard["status"], "open", "{v:#}");
}
