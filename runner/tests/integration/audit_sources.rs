//! `failopen audit` reads the hook sources and events measured in
//! docs/sources-and-events.md: a plugin's `hooks/hooks.json` (`--plugin-dir`,
//! with `${CLAUDE_PLUGIN_ROOT}` put in), skills' frontmatter hooks, and the
//! PermissionRequest and UserPromptSubmit hooks of every file it reads.
//! Without them, each of these configurations reads as "no PreToolUse hooks"
//! or lists nothing for the other events.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use serde_json::{json, Value};

use crate::audit::{audit_in, findings};
use crate::support;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn plugin(dir: &Path, guard: &str) {
    write(&dir.join(".claude-plugin/plugin.json"), r#"{"name": "company-guard", "version": "1.0.0"}"#);
    let hooks = json!({"hooks": {"PreToolUse": [{"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit",
        "hooks": [{"type": "command", "command": format!("${{CLAUDE_PLUGIN_ROOT}}/hooks/{guard}"), "timeout": 5}]}]}});
    write(&dir.join("hooks/hooks.json"), &hooks.to_string());
}

fn codes_of(v: &Value, hook: &str) -> Vec<String> {
    findings(v).into_iter().filter(|(h, _)| h == hook).map(|(_, c)| c).collect()
}

/// A plugin's guard is a source: its hooks file is listed, its command is
/// checked with the plugin's directory put in (a missing script is named by
/// that path), and a present script is not reported missing.
#[test]
fn a_plugin_dirs_hooks_are_read_with_the_plugin_root_put_in() {
    let d = tempfile::tempdir().unwrap();
    let (missing, present) = (d.path().join("missing-plugin"), d.path().join("present-plugin"));
    plugin(&missing, "gone.sh");
    plugin(&present, "deny.sh");
    std::fs::copy(support::fixture("audit").join("guards/deny.sh"), present.join("hooks/deny.sh")).unwrap();
    std::fs::set_permissions(present.join("hooks/deny.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let home = d.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let (out, v) = audit_in(
        d.path(),
        Some(&home),
        &["--static-only", "--plugin-dir", missing.to_str().unwrap(), "--plugin-dir", present.to_str().unwrap()],
    );
    let hooks = v["agents"][0]["hooks"].as_array().unwrap();
    assert_eq!(hooks.len(), 2, "{v:#}");
    let root = missing.canonicalize().unwrap();
    assert_eq!(hooks[0]["kind"]["command"], format!("{}/hooks/gone.sh", root.display()), "{v:#}");
    assert!(codes_of(&v, "H1").contains(&"script-missing".to_string()), "{v:#}");
    assert!(!codes_of(&v, "H2").contains(&"script-missing".to_string()), "{v:#}");
    let sources: Vec<&str> =
        v["agents"][0]["other_sources"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert_eq!(sources.len(), 2, "{v:#}");
    assert!(sources[0].ends_with("missing-plugin/hooks/hooks.json"), "{sources:?}");
    assert_eq!(out.status.code(), Some(3), "warnings fail a static audit");
}

/// Skills of the project and of HOME: hooks written as JSON on the
/// frontmatter's `hooks:` line are audited like any hook; hooks in YAML's
/// block style are named as not read.
#[test]
fn skills_frontmatter_hooks_are_read_or_named() {
    let d = tempfile::tempdir().unwrap();
    let (project, home) = (d.path().join("project"), d.path().join("home"));
    write(&project.join(".claude/settings.json"), "{}");
    let hooks = json!({"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/nonexistent/skill-guard.sh", "timeout": 5}]}]});
    write(
        &project.join(".claude/skills/notes/SKILL.md"),
        &format!("---\nname: notes\ndescription: d\nhooks: {hooks}\n---\nbody\n"),
    );
    write(
        &home.join(".claude/skills/yaml/SKILL.md"),
        "---\nname: yaml\ndescription: d\nhooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          command: /x.sh\n---\n",
    );
    let (_out, v) = audit_in(&project, Some(&home), &["--static-only"]);
    let hooks = v["agents"][0]["hooks"].as_array().unwrap();
    assert_eq!(hooks.len(), 1, "{v:#}");
    assert!(hooks[0]["file"].as_str().unwrap().ends_with("skills/notes/SKILL.md"), "{v:#}");
    assert!(codes_of(&v, "H1").contains(&"script-missing".to_string()), "{v:#}");
    let unread: Vec<_> =
        v["agents"][0]["findings"].as_array().unwrap().iter().filter(|f| f["code"] == "skill-hooks-not-read").collect();
    assert_eq!(unread.len(), 1, "{v:#}");
    assert!(unread[0]["message"].as_str().unwrap().contains("skills/yaml/SKILL.md"), "{v:#}");
}

/// PermissionRequest and UserPromptSubmit hooks are listed with their
/// source and warned about as measured: a prompt guard that breaks lets the
/// prompt through unless an honoured onFailure holds it; a PermissionRequest
/// guard decides only through JSON.
#[test]
fn permission_request_and_prompt_hooks_are_listed_and_warned_about() {
    let d = tempfile::tempdir().unwrap();
    let settings = d.path().join("settings.json");
    let value = json!({"hooks": {
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "/opt/guards/prompt.sh", "timeout": 5}]}],
        "PermissionRequest": [{"matcher": "Bash|Write", "hooks": [{"type": "command", "command": "/opt/guards/perm.sh", "timeout": 5}]}]}});
    std::fs::write(&settings, value.to_string()).unwrap();
    let (_out, v) = audit_in(d.path(), Some(d.path()), &[settings.to_str().unwrap(), "--static-only"]);
    let events = v["agents"][0]["event_hooks"].as_array().unwrap();
    let listed: Vec<(&str, &str)> =
        events.iter().map(|e| (e["id"].as_str().unwrap(), e["event"].as_str().unwrap())).collect();
    assert_eq!(listed, [("E1", "PermissionRequest"), ("E2", "UserPromptSubmit")], "{v:#}");
    assert!(events[1]["location"].as_str().unwrap().ends_with("settings.json UserPromptSubmit[0].hooks[0]"));
    assert_eq!(codes_of(&v, "E1"), ["permission-request-no-decision"], "{v:#}");
    assert_eq!(codes_of(&v, "E2"), ["prompt-guard-fails-open"], "{v:#}");
}

/// The plugin's guard runs in the dynamic checks as Claude Code runs it
/// (its directory put in): a deny guard blocks every offered tool as is,
/// and a crash through Bash and Write fails open, as measured for a plugin
/// hook in arms/surface.json (`deny/bare@plugin`, `crash/bare@plugin`).
#[test]
fn a_plugins_deny_guard_runs_in_the_dynamic_checks() {
    let d = tempfile::tempdir().unwrap();
    let dir = d.path().join("plugin");
    plugin(&dir, "deny.sh");
    std::fs::copy(support::fixture("audit").join("guards/deny.sh"), dir.join("hooks/deny.sh")).unwrap();
    std::fs::set_permissions(dir.join("hooks/deny.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let home = d.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let (out, v) = audit_in(d.path(), Some(&home), &["--plugin-dir", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    for tool in ["Bash", "Write"] {
        assert_eq!(crate::audit::cell(&v, "H1", tool, "none")["result"], "blocked", "{tool}: {v:#}");
        assert_eq!(crate::audit::cell(&v, "H1", tool, "crash")["result"], "wrote", "{tool}: {v:#}");
    }
    assert_census_matches(&v, 1);
}

/// The census session (Claude Code with copies of the user's configuration)
/// made at least one call, and for each tool called, Claude Code started
/// `per_call` PreToolUse hooks per call, as many as audit lists: no finding.
pub(crate) fn assert_census_matches(v: &Value, per_call: u64) {
    let census = &v["agents"][0]["loaded_hooks"];
    let tools = census["tools"].as_array().unwrap_or_else(|| panic!("no census: {v:#}"));
    assert!(!tools.is_empty() && census.get("inconclusive").is_none(), "{census:#}");
    for t in tools {
        let calls = t["calls"].as_u64().unwrap();
        assert!(calls >= 1, "{t:#}");
        assert_eq!(t["hooks_started"].as_u64(), Some(calls * per_call), "{t:#}");
        assert_eq!(t["listed"].as_u64(), Some(per_call), "{t:#}");
    }
    let codes: Vec<String> = findings(v).into_iter().map(|(_, c)| c).collect();
    for code in ["hook-not-listed", "listed-hook-not-run", "census-inconclusive"] {
        assert!(!codes.iter().any(|c| c == code), "{code}: {v:#}");
    }
}

/// A plugin installed by `claude plugin install` whose `plugin.json` lists
/// its hooks file in an array (`"hooks": ["./extra/guard.json"]`). Claude
/// Code 2.1.328 runs that hook (measured by hand: one `hook_started` per
/// Bash call); audit used to say "loaded; no hooks" and "no PreToolUse
/// hooks", and exit 0 for a guard it never saw. Now the hook is listed and
/// exercised, and the census session agrees with the list. Without the
/// array read, the census would report `hook-not-listed` (an error): the
/// guard against a source audit does not read.
#[test]
fn a_plugin_whose_manifest_lists_its_hooks_file_in_an_array_is_found_and_matches_what_claude_code_ran() {
    let d = tempfile::tempdir().unwrap();
    let (market, home, project) = (d.path().join("market"), d.path().join("home"), d.path().join("project"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    let plugin = market.join("plugins/array-guard");
    write(
        &market.join(".claude-plugin/marketplace.json"),
        &json!({"name": "local", "owner": {"name": "x"},
                "plugins": [{"name": "array-guard", "source": "./plugins/array-guard"}]})
        .to_string(),
    );
    write(
        &plugin.join(".claude-plugin/plugin.json"),
        &json!({"name": "array-guard", "version": "1.0.0", "hooks": ["./extra/guard.json"]}).to_string(),
    );
    let hooks = json!({"hooks": {"PreToolUse": [{"matcher": "Bash|Write",
        "hooks": [{"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/extra/deny.sh", "timeout": 5}]}]}});
    write(&plugin.join("extra/guard.json"), &hooks.to_string());
    std::fs::copy(support::fixture("audit").join("guards/deny.sh"), plugin.join("extra/deny.sh")).unwrap();
    std::fs::set_permissions(plugin.join("extra/deny.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    crate::audit_public_guards::claude_plugin_install(&market, "array-guard@local", &home, &project);
    let (out, v) = audit_in(&project, Some(&home), &[]);
    assert_eq!(out.status.code(), Some(3), "a guard with no onFailure fails open: {v:#}");
    assert_eq!(v["agents"][0]["plugins"][0]["reason"], "loaded", "{v:#}");
    // A directory marketplace's plugin runs from its source, not the cache copy (measured on 2.1.328:
    // audit::probe::hook_start), so that is where audit reads its hooks file.
    let file = v["agents"][0]["hooks"][0]["file"].as_str().unwrap();
    assert!(file.ends_with("market/plugins/array-guard/extra/guard.json"), "{v:#}");
    assert_eq!(crate::audit::cell(&v, "H1", "Bash", "none")["result"], "blocked", "{v:#}");
    assert_eq!(crate::audit::cell(&v, "H1", "Bash", "crash")["result"], "wrote", "{v:#}");
    assert_census_matches(&v, 1);
}
