//! `failopen audit` of the hook configs of Qwen Code (`.qwen/settings.json`),
//! Cline CLI (`.clinerules/hooks/PreToolUse`), Continue CLI
//! (`.continue/settings.json`) and the plugins of OpenCode and
//! Kilo CLI (`.opencode/plugins/`, `.kilo/plugins/`), end to end: the real
//! binary, a throwaway project, and the pinned agent from failopen's cache,
//! driven by the stand-in. Each guard refuses only a dangerous call (`git
//! reset --hard`); the report must show it found, exercised, and what opens it.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::audit_agents::{audit, cell, holes_and_recheck, json, project, refused_probes, uncommitted_change};

/// A guard written for Claude Code: exit 2 with a reason on `git reset --hard`, else allow.
const CLAUDE_STYLE_GUARD: &str =
    "#!/bin/sh\nif grep -q 'reset --hard'; then echo 'BLOCKED: destructive' >&2; exit 2; fi\nexit 0\n";

fn executable(path: &Path, text: &str) {
    std::fs::write(path, text).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The finding codes of an agent section.
fn codes(a: &serde_json::Value) -> Vec<String> {
    a["findings"].as_array().unwrap().iter().filter_map(|f| f["code"].as_str().map(String::from)).collect()
}

/// A Qwen Code guard in the project's `.qwen/settings.json` (Claude Code's
/// shape, matcher `run_shell_command`, `"timeout": 5`) that refuses only `git
/// reset --hard` with exit 2. Expected on real Qwen Code 0.24.4, with the
/// reasoning (docs/qwen.md):
/// - it is found and read as Qwen's (`Q1`), and lint says that a project's
///   hooks load only in a trusted folder, and that `5` is 5 s on 0.24.4 but
///   5 ms on the releases before it;
/// - screened through Qwen's contract it refuses `run_shell_command:git-reset-hard`
///   only; the session makes the call through Qwen's shell (the hook in the
///   user layer, as Qwen loads it in any folder) and it comes back refused,
///   in `permission_denials`, the change intact: `blocked`;
/// - 0.24.4 reads only exit 2 as a refusal: a missing script (127), a crash
///   (1), a hang past its timeout and a signal each let the reset run: four
///   holes, exit 3;
/// - the user's own repository is untouched.
#[test]
fn a_qwen_guard_that_refuses_only_git_reset_hard_is_found_exercised_and_opened_by_four_faults_on_real_qwen() {
    let config = r#"{"hooks": {"PreToolUse": [{"matcher": "run_shell_command", "hooks": [
        {"type": "command", "command": "$QWEN_PROJECT_DIR/.qwen/hooks/guard.sh", "timeout": 5}]}]}}"#;
    let (_t, root, home) = project(".qwen", ".qwen/settings.json", config);
    executable(&root.join(".qwen/hooks/guard.sh"), CLAUDE_STYLE_GUARD);
    let change = uncommitted_change(&root);

    let out = audit(&root, &home, &["--qwen", "0.24.4"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(3), "holes: exit 3; {v:#}");
    let a = &v["agents"][0];
    assert_eq!((a["agent"].as_str(), a["version"].as_str()), (Some("qwen"), Some("0.24.4")), "{a}");
    let hook = &a["hooks"][0];
    assert_eq!((hook["id"].as_str(), hook["timeout"].as_f64()), (Some("Q1"), Some(5.0)), "{hook}");
    let found = codes(a);
    for code in ["qwen-project-hooks-need-trust", "qwen-timeout-unit", "unprotected"] {
        assert!(found.iter().any(|c| c == code), "{code}: {found:?}");
    }
    let probe = "run_shell_command:git-reset-hard";
    assert_eq!(refused_probes(a), [probe], "{a:#}");
    assert_eq!(cell(a, "Q1", "run_shell_command", "none"), "wrote", "a plain write is allowed: {a:#}");
    assert_eq!(cell(a, "Q1", probe, "none"), "blocked", "{a:#}");
    let (holes, _) = holes_and_recheck(a);
    for fault in ["missing", "crash", "hang", "signal"] {
        assert_eq!(cell(a, "Q1", probe, fault), "wrote", "{fault}: {a:#}");
        assert!(holes.contains(&("fails-open".into(), probe.to_string(), fault.to_string())), "{fault}: {holes:?}");
    }
    let g = &a["guards"][0];
    assert_eq!((g["hook"].as_str(), g["status"].as_str()), (Some("Q1"), Some("open")), "{g}");
    assert_eq!(std::fs::read_to_string(root.join("tracked.txt")).unwrap(), change, "the probe acts in its world only");
}

/// The same Claude-Code-style guard (exit 2 with a reason on `git reset
/// --hard`) as Cline CLI's hook file, `.clinerules/hooks/PreToolUse`.
/// Cline reads no exit code: only `{"cancel": true}` on stdout refuses
/// (docs/cline.md). Expected on real Cline CLI 3.0.65, with the reasoning:
/// - it is found and read as Cline's (`L1`, no matcher, the file as its
///   command), and lint warns that it never writes `cancel`;
/// - on screen it means to refuse `run_commands:git-reset-hard` with exit
///   2, which Cline does not read: not refused, and `refusal-not-read`;
/// - the session that makes that call through Cline's `run_commands` shows
///   the reset run as configured: a hole (`broken-as-configured`), the guard
///   `open`, never `held`; exit 3;
/// - the user's own repository is untouched.
#[test]
fn a_claude_style_guard_as_a_cline_hook_file_refuses_nothing_and_the_audit_says_so_on_real_cline() {
    let (_t, root, home) = project(".clinerules", ".clinerules/README.md", "hooks live in hooks/\n");
    std::fs::create_dir_all(root.join(".clinerules/hooks")).unwrap();
    executable(&root.join(".clinerules/hooks/PreToolUse"), CLAUDE_STYLE_GUARD);
    let change = uncommitted_change(&root);

    let out = audit(&root, &home, &["--cline", "3.0.65"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(3), "a hole: exit 3; {v:#}");
    let a = &v["agents"][0];
    assert_eq!((a["agent"].as_str(), a["version"].as_str()), (Some("cline"), Some("3.0.65")), "{a}");
    let hook = &a["hooks"][0];
    assert_eq!((hook["id"].as_str(), hook["matcher"].as_str()), (Some("L1"), None), "{hook}");
    let found = codes(a);
    for code in ["cline-no-cancel", "refusal-not-read"] {
        assert!(found.iter().any(|c| c == code), "{code}: {found:?}");
    }
    assert!(refused_probes(a).is_empty(), "Cline reads no exit 2: {a:#}");
    let probe = "run_commands:git-reset-hard";
    assert_eq!(cell(a, "L1", probe, "none"), "wrote", "the reset runs as configured: {a:#}");
    let (holes, _) = holes_and_recheck(a);
    assert!(holes.contains(&("broken-as-configured".into(), probe.to_string(), "none".into())), "{holes:?}");
    let g = &a["guards"][0];
    assert_eq!((g["hook"].as_str(), g["status"].as_str()), (Some("L1"), Some("open")), "{g}");
    assert_eq!(std::fs::read_to_string(root.join("tracked.txt")).unwrap(), change, "the probe acts in its world only");
}

/// The same Claude-Code-style guard in Continue CLI's project file,
/// `.continue/settings.json` (Claude Code's shape, matcher `Bash`, `"timeout":
/// 5`). Expected on real Continue CLI 1.5.47, with the reasoning
/// (docs/continue.md):
/// - it is found and read as Continue's (`N1`), and lint warns that Continue
///   loads the file's hooks and fires no hook event;
/// - screened through Continue's contract (hookRunner's: exit 2 refuses) it
///   refuses `Bash:git-reset-hard` only;
/// - the session that makes that call through Continue's `Bash` shows the
///   reset run and the guard never run (no trace): a `never-ran` hole, the
///   guard `open`, never `held`; exit 3; no advice to wrap it with seal,
///   which Continue would never run either;
/// - the user's own repository is untouched.
#[test]
fn a_guard_in_continues_settings_is_never_run_and_the_audit_proves_it_on_real_continue() {
    let config = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "\"$CONTINUE_PROJECT_DIR\"/.continue/guard.sh", "timeout": 5}]}]}}"#;
    let (_t, root, home) = project(".continue", ".continue/settings.json", config);
    executable(&root.join(".continue/guard.sh"), CLAUDE_STYLE_GUARD);
    let change = uncommitted_change(&root);

    let out = audit(&root, &home, &["--continue", "1.5.47"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(3), "a hole: exit 3; {v:#}");
    let a = &v["agents"][0];
    assert_eq!((a["agent"].as_str(), a["version"].as_str()), (Some("continue"), Some("1.5.47")), "{a}");
    let hook = &a["hooks"][0];
    assert_eq!((hook["id"].as_str(), hook["timeout"].as_f64()), (Some("N1"), Some(5.0)), "{hook}");
    assert!(codes(a).iter().any(|c| c == "continue-hooks-never-fire"), "{:?}", codes(a));
    let probe = "Bash:git-reset-hard";
    assert_eq!(refused_probes(a), [probe], "{a:#}");
    assert_eq!(cell(a, "N1", probe, "none"), "wrote", "the reset runs, the hook never: {a:#}");
    let (holes, _) = holes_and_recheck(a);
    assert!(holes.contains(&("never-ran".into(), probe.to_string(), "none".into())), "{holes:?}");
    let g = &a["guards"][0];
    assert_eq!((g["hook"].as_str(), g["status"].as_str()), (Some("N1"), Some("open")), "{g}");
    let advice = a["advice"].to_string();
    assert!(!advice.contains("seal --"), "no seal snippet: seal cannot help a hook that never runs: {advice}");
    assert_eq!(std::fs::read_to_string(root.join("tracked.txt")).unwrap(), change, "the probe acts in its world only");
}

/// OpenCode's plugins in `.opencode/plugins/` and Kilo CLI's in
/// `.kilo/plugins/`, and an npm plugin in `opencode.json`: a plugin is JS in
/// the agent's process, checked statically here (`--static-only`; its
/// sessions: `audit_plugin_faults.rs`).
/// Expected (no agent binary is needed: nothing runs): each is listed as a
/// plugin hook of its agent; lint says that a plugin that fails to load is
/// dropped silently, that a hang has no timeout, that a hook returning a
/// deny object refuses nothing, and that an import not installed beside it
/// may drop it; every guard is `untested` with that reason, never `held`;
/// the static warnings make it exit 3.
#[test]
fn opencode_and_kilo_plugins_are_listed_linted_and_untested_never_held() {
    let throws = "export const Guard = async () => ({\n  \"tool.execute.before\": async (input, output) => {\n    \
                  if (String(output.args?.command ?? \"\").includes(\"reset --hard\")) throw new Error(\"BLOCKED\");\n  },\n});\n";
    let returns = "import pad from \"left-pad\";\nexport const Guard = async () => ({\n  \"tool.execute.before\": \
                   async () => ({ permissionDecision: \"deny\" }),\n});\n";
    let (_t, root, home) = project(".opencode/plugins", ".opencode/plugins/guard.js", throws);
    std::fs::write(root.join("opencode.json"), r#"{"plugin": ["opencode-safety-guard"]}"#).unwrap();
    std::fs::create_dir_all(root.join(".kilo/plugins")).unwrap();
    std::fs::write(root.join(".kilo/plugins/guard.ts"), returns).unwrap();

    // The text report, its paths redacted.
    let text = crate::support::failopen()
        .current_dir(&root)
        .args(["audit", "--static-only", "--format", "text"])
        .env("HOME", &home)
        .timeout(std::time::Duration::from_secs(60))
        .output()
        .unwrap();
    let root_text = std::fs::canonicalize(&root).unwrap().display().to_string();
    insta::assert_snapshot!(String::from_utf8_lossy(&text.stdout).replace(&root_text, "[PROJECT]"));

    let out = audit(&root, &home, &["--static-only"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(3), "static warnings: exit 3; {v:#}");
    let agents = v["agents"].as_array().unwrap();
    let names: Vec<&str> = agents.iter().map(|a| a["agent"].as_str().unwrap()).collect();
    assert_eq!(names, ["opencode", "kilo"], "{v:#}");
    let (opencode, kilo) = (&agents[0], &agents[1]);
    assert!(opencode["version"].is_null() && kilo["version"].is_null(), "static checks only: no session runs");
    let ids: Vec<&str> = opencode["hooks"].as_array().unwrap().iter().map(|h| h["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["O1", "O2"]);
    for a in agents {
        for g in a["guards"].as_array().unwrap() {
            assert_eq!(g["status"], "untested", "never held untested: {g}");
            assert!(g["reason"].as_str().unwrap().contains("checked statically only"), "{g}");
        }
    }
    let found = codes(opencode);
    for code in ["plugin-dropped-on-load-failure", "plugin-no-timeout", "plugin-dropped-if-not-installed"] {
        assert!(found.iter().any(|c| c == code), "{code}: {found:?}");
    }
    assert!(!found.iter().any(|c| c == "plugin-never-throws"), "the OpenCode guard throws: {found:?}");
    let found = codes(kilo);
    for code in ["plugin-never-throws", "plugin-dependency-missing"] {
        assert!(found.iter().any(|c| c == code), "{code}: {found:?}");
    }
}
