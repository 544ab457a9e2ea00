//! What a hook sees when `failopen audit` starts it, in a real session of
//! its agent and in audit's direct run (a screen, no session), recorded by
//! the hook itself: its working directory, the payload's `cwd`, and the
//! variables naming the project (issue 43: the hook must run exactly as the
//! agent runs it). Real Claude Code 2.1.328, Gemini CLI 0.61.0, Codex CLI
//! 0.171.0, Copilot CLI 1.0.102, Droid CLI 0.225.2, Qwen Code 0.24.4 and
//! Cline CLI 3.0.65 (Continue CLI never runs a hook: docs/continue.md).
//!
//! The agent runs every hook in its working directory, gives that directory
//! as the payload's `cwd` (Cline: the first of `workspaceRoots`) and sets
//! its project variables to it (`runner/tests/fixtures/hook-start/claude-2.1.328.txt`;
//! the others' as recorded here: every variable whose value is that
//! directory or whose name ends in `PROJECT_DIR`, but `PWD` and the
//! `python3` shim's own `PYENV_DIR`). So must audit: in its sessions and in
//! its screens, those are one directory, a copy of the project (its own
//! files there), never the project itself, with the same variables. Before
//! the sessions ran in the copy, the payload's `cwd` was the session's empty
//! directory while the hook ran in a shared copy; audit set
//! `CLAUDE_PROJECT_DIR` for a Codex or Cline hook, which neither agent
//! does, and not Copilot's `COPILOT_PROJECT_DIR` nor Droid's three
//! (`FACTORY_PROJECT_DIR`, `DROID_PROJECT_DIR`, and one named `cwd`).
//!
//! The census hook reads one JSON object from stdin without waiting for its
//! end (Gemini CLI keeps it open), appends what it saw to a record file
//! named in its command (so audit runs with `--no-sandbox`: the record is
//! outside the sessions' roots), and allows every call.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{json, Value};

use crate::audit_probes::audit;

// The variables naming the project each agent sets for a hook (its session's, learned here; audit's screens must match).
// Recorded on Copilot CLI 1.0.102, Droid CLI 0.225.2, Qwen Code 0.24.4 and Cline CLI 3.0.65 (sessions) by these tests.
const COPILOT_VARS: &[&str] = &["CLAUDE_PROJECT_DIR", "COPILOT_PROJECT_DIR"];
const DROID_VARS: &[&str] = &["CLAUDE_PROJECT_DIR", "DROID_PROJECT_DIR", "FACTORY_PROJECT_DIR", "cwd"];
const QWEN_VARS: &[&str] = &["CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "QWEN_PROJECT_DIR"];
const CLINE_VARS: &[&str] = &[];

const CENSUS: &str = r#"import json, os, sys
buf, obj = "", {}
while True:
    chunk = os.read(0, 65536)
    if not chunk:
        break
    buf += chunk.decode("utf-8", "replace")
    try:
        obj = json.JSONDecoder().raw_decode(buf.lstrip())[0]
        break
    except ValueError:
        continue
cwd = os.getcwd()
rec = {
    "cwd": cwd,
    "payload_cwd": obj.get("cwd") or (obj.get("workspaceRoots") or [None])[0],
    "tool": obj.get("tool_name") or obj.get("toolName") or (obj.get("preToolUse") or {}).get("toolName"),
    "project_vars": {k: v for k, v in os.environ.items()
                     if k not in ("PWD", "OLDPWD") and not k.startswith("PYENV_")
                     and (k.endswith("PROJECT_DIR") or v == cwd)},
    "sees_project_file": os.path.isfile(os.path.join(cwd, "project-marker.txt")),
}
with open(sys.argv[1], "a") as f:
    f.write(json.dumps(rec) + "\n")
"#;

/// The records in `file`: (from a screen, the record), a screen's payload
/// naming its own world (`screen-<hook>/work`).
fn records(file: &Path) -> Vec<(bool, Value)> {
    let text = std::fs::read_to_string(file).unwrap_or_default();
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .map(|r| (r["payload_cwd"].as_str().unwrap_or_default().contains("/screen-"), r))
        .collect()
}

/// The project variables of `r` whose value is its working directory.
fn vars_naming_cwd(r: &Value) -> BTreeSet<String> {
    let cwd = r["cwd"].as_str().unwrap();
    r["project_vars"]
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, v)| v.as_str() == Some(cwd))
        .map(|(k, _)| k.clone())
        .collect()
}

/// Every record: cwd = payload cwd = each of `vars`, a copy holding the
/// project's own files, not the project; screens and sessions alike, with
/// the same project variables.
fn check(file: &Path, project: &Path, vars: &[&str]) {
    let recs = records(file);
    for (screen, r) in &recs {
        eprintln!("{} {r}", if *screen { "screen " } else { "session" });
    }
    let sessions: Vec<&Value> = recs.iter().filter(|(s, _)| !s).map(|(_, r)| r).collect();
    let screens: Vec<&Value> = recs.iter().filter(|(s, _)| *s).map(|(_, r)| r).collect();
    assert!(!sessions.is_empty() && !screens.is_empty(), "the hook ran in sessions and screens: {recs:?}");
    let want: BTreeSet<String> = vars.iter().map(|v| v.to_string()).collect();
    for r in sessions.iter().chain(&screens) {
        let cwd = r["cwd"].as_str().unwrap();
        assert_eq!(r["payload_cwd"].as_str(), Some(cwd), "the payload's cwd is the hook's: {r}");
        assert_eq!(vars_naming_cwd(r), want, "the project variables name the hook's cwd: {r}");
        assert!(r["sees_project_file"].as_bool().unwrap(), "the project's own files are there: {r}");
        assert!(!Path::new(cwd).starts_with(project), "a copy, never the project itself: {r}");
        assert!(cwd.ends_with("/work"), "a session's or screen's own directory: {r}");
    }
    // Each session its own copy: the write it attempts lands in its directory only.
    let dirs: BTreeSet<&str> = sessions.iter().map(|r| r["cwd"].as_str().unwrap()).collect();
    assert!(dirs.len() > 1 || sessions.len() == 1, "{dirs:?}");
}

/// Audits (with `args`, unsandboxed: the record is outside the sessions'
/// roots) a project holding the census hook in `config_dir/hooks/` and
/// `config_dir/file`, whose text `config` makes from the project and the
/// record's path, then checks every record against `vars`.
fn audited(config_dir: &str, file: &str, config: impl FnOnce(&Path, &Path) -> String, args: &[&str], vars: &[&str]) {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let (project, home, record) = (d.path().join("project"), d.path().join("home"), d.path().join("record.jsonl"));
    std::fs::create_dir_all(project.join(config_dir).join("hooks")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(project.join(config_dir).join("hooks/census.py"), CENSUS).unwrap();
    std::fs::write(project.join("project-marker.txt"), "the project's own file\n").unwrap();
    let file = project.join(config_dir).join(file);
    std::fs::write(&file, config(&project, &record)).unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (out, v) = audit(&project, &home, &[&["--no-sandbox"], args].concat());
    assert!(out.status.code().is_some(), "{v:#}");
    check(&record, &project, vars);
}

/// A settings file whose `event` group runs `command` on `matcher`, with Claude Code's shape.
fn settings(event: &str, matcher: &str, command: String, timeout: u32) -> String {
    json!({"hooks": {event: [{"matcher": matcher,
        "hooks": [{"type": "command", "command": command, "timeout": timeout}]}]}})
    .to_string()
}

#[test]
fn a_claude_code_hook_sees_one_project_copy_as_cwd_payload_cwd_and_claude_project_dir() {
    let config = |_: &Path, record: &Path| {
        let command = format!("python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/census.py {}", record.display());
        settings("PreToolUse", "Bash|Write", command, 10)
    };
    audited(".claude", "settings.json", config, &[], &["CLAUDE_PROJECT_DIR"]);
}

#[test]
fn a_gemini_hook_sees_one_project_copy_as_cwd_payload_cwd_and_its_project_variables() {
    let config = |_: &Path, record: &Path| {
        let command = format!("python3 $GEMINI_PROJECT_DIR/.gemini/hooks/census.py {}", record.display());
        settings("BeforeTool", "run_shell_command|write_file", command, 10000)
    };
    // Measured on 0.61.0 (this test): the variables Gemini CLI sets for a hook, each its working directory.
    let vars = ["CLAUDE_PROJECT_DIR", "GEMINI_CWD", "GEMINI_PROJECT_DIR"];
    audited(".gemini", "settings.json", config, &["--gemini", "0.61.0"], &vars);
}

#[test]
fn a_codex_hook_sees_one_project_copy_as_cwd_and_payload_cwd() {
    let config = |project: &Path, record: &Path| {
        let script = project.join(".codex/hooks/census.py");
        settings("PreToolUse", "Bash|apply_patch", format!("python3 {} {}", script.display(), record.display()), 10)
    };
    // Measured on 0.171.0 (this test): Codex CLI sets no project variable for a hook.
    audited(".codex", "hooks.json", config, &["--codex", "0.171.0"], &[]);
}

/// Copilot CLI 1.0.102: `.github/hooks/*.json`, entries without a matcher,
/// the command under `bash`, run from the project directory.
#[test]
fn a_copilot_hook_sees_one_project_copy_as_cwd_and_payload_cwd() {
    let config = |_: &Path, record: &Path| {
        let command = format!("python3 ./.github/hooks/census.py {}", record.display());
        json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": command, "timeoutSec": 10}]}})
            .to_string()
    };
    audited(".github", "hooks/census.json", config, &["--copilot", "1.0.102"], COPILOT_VARS);
}

/// Droid CLI 0.225.2: the project's `.factory/hooks.json` in Claude Code's
/// shape, its shell `Execute` and its write `Create`.
#[test]
fn a_droid_hook_sees_one_project_copy_as_cwd_payload_cwd_and_its_project_variables() {
    let config = |project: &Path, record: &Path| {
        let script = project.join(".factory/hooks/census.py");
        settings("PreToolUse", "Execute|Create", format!("python3 {} {}", script.display(), record.display()), 10)
    };
    audited(".factory", "hooks.json", config, &["--droid", "0.225.2"], DROID_VARS);
}

/// Qwen Code 0.24.4: `.qwen/settings.json`, Claude Code's event over Gemini
/// CLI's tools.
#[test]
fn a_qwen_hook_sees_one_project_copy_as_cwd_payload_cwd_and_its_project_variables() {
    let config = |_: &Path, record: &Path| {
        let command = format!("python3 $QWEN_PROJECT_DIR/.qwen/hooks/census.py {}", record.display());
        settings("PreToolUse", "run_shell_command|write_file", command, 10)
    };
    audited(".qwen", "settings.json", config, &["--qwen", "0.24.4"], QWEN_VARS);
}

/// Cline CLI 3.0.65: the hook is the file `.clinerules/hooks/PreToolUse`
/// itself, its payload's project the first of `workspaceRoots`.
#[test]
fn a_cline_hook_sees_one_project_copy_as_cwd_and_workspace_root() {
    let hook = |_: &Path, record: &Path| {
        format!("#!/bin/sh\nexec python3 \"$(dirname \"$0\")/census.py\" {}\n", record.display())
    };
    audited(".clinerules", "hooks/PreToolUse", hook, &["--cline", "3.0.65"], CLINE_VARS);
}
