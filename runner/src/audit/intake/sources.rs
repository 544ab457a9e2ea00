//! The hook sources an audit reads beyond settings files, and the hooks of
//! the other events that can refuse (docs/sources-and-events.md):
//!
//! - a plugin's `hooks/hooks.json` (`--plugin-dir DIR`), with
//!   `${CLAUDE_PLUGIN_ROOT}` put in, as Claude Code does before running it;
//! - skills' frontmatter `hooks:` (`.claude/skills/*/SKILL.md` in the
//!   project and in HOME): read when written as JSON (YAML's flow style),
//!   else named in a finding;
//! - `PermissionRequest` and `UserPromptSubmit` hook entries of every file
//!   read: listed with their source, and warned about where they were
//!   measured to fail open (they are not run: the dynamic checks attempt
//!   writes through PreToolUse hooks).

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use super::config::SettingsFile;
use crate::audit::model::{Finding, Severity};

/// The variable a plugin's hook commands use for the plugin's directory.
pub const PLUGIN_ROOT_VAR: &str = "${CLAUDE_PLUGIN_ROOT}";

/// The first Claude Code that runs a PermissionRequest hook in `claude -p`
/// (manual bisect: `results/bisect-perm-deny-bare-PermissionRequest.txt`).
pub const PERMISSION_REQUEST_IN_PRINT_SINCE: &str = "2.1.268";

/// The events besides PreToolUse whose hooks can refuse.
pub const OTHER_EVENTS: [&str; 2] = ["PermissionRequest", "UserPromptSubmit"];

pub(crate) fn put_in(v: &mut Value, root: &str) {
    match v {
        Value::String(s) if s.contains("$CLAUDE_PLUGIN_ROOT") || s.contains(PLUGIN_ROOT_VAR) => {
            *s = put_in_text(&s.replace(PLUGIN_ROOT_VAR, root), root)
        }
        Value::Array(items) => items.iter_mut().for_each(|i| put_in(i, root)),
        Value::Object(map) => map.values_mut().for_each(|i| put_in(i, root)),
        _ => {}
    }
}

/// `text` with `$CLAUDE_PLUGIN_ROOT` (unbraced, not the start of a longer
/// name) replaced by `root`: the hook's shell expands it to the same path,
/// from the variable Claude Code sets (measured on 2.1.328).
fn put_in_text(text: &str, root: &str) -> String {
    const BARE: &str = "$CLAUDE_PLUGIN_ROOT";
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(BARE) {
        let after = &rest[i + BARE.len()..];
        out.push_str(&rest[..i]);
        if after.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
            out.push_str(BARE);
        } else {
            out.push_str(root);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// A skill whose frontmatter declares hooks.
#[derive(Debug, Clone)]
pub struct SkillHooks {
    /// Its `SKILL.md`.
    pub path: PathBuf,
    /// The hooks, when written as JSON; `None` when in YAML's block style.
    pub hooks: Option<Value>,
}

/// The skills under `.claude/skills/*/SKILL.md` of the project (`cwd`) and
/// of HOME whose frontmatter has a `hooks:` key.
pub fn skills_with_hooks(cwd: &Path, home: Option<&Path>) -> Vec<SkillHooks> {
    let mut out = Vec::new();
    for base in std::iter::once(cwd).chain(home) {
        let Ok(dirs) = std::fs::read_dir(base.join(".claude/skills")) else { continue };
        let mut paths: Vec<PathBuf> =
            dirs.flatten().map(|d| d.path().join("SKILL.md")).filter(|p| p.is_file()).collect();
        paths.sort();
        for path in paths {
            if let Some(hooks) = super::file_read::read_text(&path, super::file_read::MAX_CONFIG_BYTES)
                .ok()
                .and_then(|t| frontmatter_hooks(&t))
            {
                out.push(SkillHooks { path, hooks });
            }
        }
    }
    out
}

/// The `hooks:` of a skill's frontmatter: `Some(Some(json))` when written
/// as JSON on its line, `Some(None)` when present in another form, `None`
/// when absent.
pub fn frontmatter_hooks(text: &str) -> Option<Option<Value>> {
    let mut lines = text.lines();
    if lines.next()?.trim_end() != "---" {
        return None;
    }
    let line = lines.take_while(|l| l.trim_end() != "---").find(|l| l.starts_with("hooks:"))?;
    Some(serde_json::from_str::<Value>(line["hooks:".len()..].trim()).ok().filter(Value::is_object))
}

/// A skill's JSON hooks as a settings file (path: its `SKILL.md`).
pub fn skill_settings(skill: &SkillHooks, project_dir: PathBuf) -> Option<SettingsFile> {
    let hooks = skill.hooks.clone()?;
    Some(SettingsFile {
        path: skill.path.clone(),
        project_dir,
        value: serde_json::json!({ "hooks": hooks }),
        managed: false,
        plugin: None,
    })
}

/// A hook entry of an event other than PreToolUse that can refuse.
#[derive(Debug, Clone, Serialize)]
pub struct EventHook {
    /// Short id in reports: `E1`, `E2`, ...
    pub id: String,
    /// `PermissionRequest` or `UserPromptSubmit`.
    pub event: String,
    /// Where it is, e.g. `.claude/settings.json UserPromptSubmit[0].hooks[0]`.
    pub location: String,
    /// What it runs: `command ...`, `http ...`, or `type ...`.
    pub what: String,
    /// `timeout` in seconds, if set.
    pub timeout: Option<f64>,
    /// `"onFailure": "block"` is set.
    pub on_failure_block: bool,
    /// It comes from a managed settings file.
    pub managed: bool,
}

/// The PermissionRequest and UserPromptSubmit hooks of `files`.
pub fn event_hooks(files: &[SettingsFile]) -> Vec<EventHook> {
    let mut out = Vec::new();
    for f in files {
        for event in OTHER_EVENTS {
            let groups = f.value.pointer(&format!("/hooks/{event}")).and_then(Value::as_array);
            for (group, g) in groups.into_iter().flatten().enumerate() {
                for (index, h) in g.get("hooks").and_then(Value::as_array).into_iter().flatten().enumerate() {
                    let kind = h.get("type").and_then(Value::as_str).unwrap_or("(none)");
                    let target = ["command", "url", "prompt"].iter().find_map(|k| h.get(*k).and_then(Value::as_str));
                    out.push(EventHook {
                        id: format!("E{}", out.len() + 1),
                        event: event.to_string(),
                        location: format!("{} {event}[{group}].hooks[{index}]", f.path.display()),
                        what: format!("{kind} {}", target.unwrap_or_default()),
                        timeout: h.get("timeout").and_then(Value::as_f64),
                        on_failure_block: h.get("onFailure").and_then(Value::as_str) == Some("block"),
                        managed: f.managed,
                    });
                }
            }
        }
    }
    out
}

/// Static findings on the other events' hooks and on skills failopen cannot
/// read, for Claude Code `agent_version` (when known).
pub fn findings(hooks: &[EventHook], skills: &[SkillHooks], agent_version: Option<&str>) -> Vec<Finding> {
    let honoured = agent_version.map(crate::seal::on_failure::honours);
    let mut out = Vec::new();
    for h in hooks {
        let finding = |severity, code: &str, message: String| Finding {
            hook: Some(h.id.clone()),
            severity,
            code: code.into(),
            message,
        };
        match h.event.as_str() {
            "UserPromptSubmit" if !(h.on_failure_block && honoured == Some(true)) => out.push(finding(
                Severity::Warning,
                "prompt-guard-fails-open",
                format!(
                    "a UserPromptSubmit guard that crashes, is missing or hangs past its timeout lets the prompt through \
                     (measured on Claude Code 2.1.240 and 2.1.328){}",
                    match (h.on_failure_block, honoured) {
                        (true, Some(false)) => "; this Claude Code ignores its onFailure (honoured from 2.1.295)".to_string(),
                        (true, _) => "; its onFailure holds from Claude Code 2.1.295 on".to_string(),
                        (false, _) => "; add \"onFailure\": \"block\" (honoured from Claude Code 2.1.295)".to_string(),
                    }
                ),
            )),
            "PermissionRequest" => {
                out.push(finding(
                    Severity::Warning,
                    "permission-request-no-decision",
                    "a PermissionRequest hook refuses only through JSON decision.behavior \"deny\" (exit 2 is ignored), \
                     and it runs only when Claude Code would ask (never under bypassPermissions); when it breaks, \
                     the decision falls back to the user, or in claude -p to Claude Code's refusal (measured on 2.1.328)"
                        .into(),
                ));
                let old = agent_version.and_then(|v| v.parse::<crate::version::Version>().ok()).is_some_and(|v| {
                    PERMISSION_REQUEST_IN_PRINT_SINCE.parse::<crate::version::Version>().is_ok_and(|since| v < since)
                });
                if old {
                    out.push(finding(
                        Severity::Warning,
                        "permission-request-not-run",
                        format!(
                            "Claude Code {} never runs PermissionRequest hooks in claude -p (from \
                             {PERMISSION_REQUEST_IN_PRINT_SINCE} on it does)",
                            agent_version.unwrap_or_default()
                        ),
                    ));
                }
            }
            _ => {}
        }
    }
    for s in skills.iter().filter(|s| s.hooks.is_none()) {
        out.push(Finding {
            hook: None,
            severity: Severity::Warning,
            code: "skill-hooks-not-read".into(),
            message: format!(
                "{}: the skill's frontmatter declares hooks, which run while the skill is active (measured in claude -p \
                 on 2.1.240 and 2.1.328) and fail open like any hook; failopen reads them only when written as JSON \
                 on the hooks: line, so they are not audited",
                s.path.display()
            ),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plugin_root_is_put_in_braced_or_bare() {
        let mut v =
            serde_json::json!({"c": "sh \"$CLAUDE_PLUGIN_ROOT/g.sh\" ${CLAUDE_PLUGIN_ROOT}/x $CLAUDE_PLUGIN_ROOTS"});
        put_in(&mut v, "/r");
        assert_eq!(v["c"], "sh \"/r/g.sh\" /r/x $CLAUDE_PLUGIN_ROOTS");
    }
    use serde_json::json;

    #[test]
    fn skill_frontmatter_hooks_are_read_when_json() {
        let json_hooks = "---\nname: s\nhooks: {\"PreToolUse\": []}\n---\nbody\n";
        assert_eq!(frontmatter_hooks(json_hooks), Some(Some(json!({"PreToolUse": []}))));
        let yaml = "---\nname: s\nhooks:\n  PreToolUse:\n    - matcher: Bash\n---\n";
        assert_eq!(frontmatter_hooks(yaml), Some(None));
        assert_eq!(frontmatter_hooks("---\nname: s\n---\nhooks: {}\n"), None, "outside the frontmatter");
        assert_eq!(frontmatter_hooks("no frontmatter"), None);
    }

    #[test]
    fn other_events_are_listed_and_warned_about_by_version() {
        let value = json!({"hooks": {
            "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "/g/p.sh", "onFailure": "block"}]}],
            "PermissionRequest": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/g/q.sh"}]}],
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/g/r.sh"}]}]}});
        let f = SettingsFile { path: "s.json".into(), project_dir: "/p".into(), value, managed: false, plugin: None };
        let hooks = event_hooks(&[f]);
        assert_eq!(hooks.len(), 2);
        assert_eq!(
            (hooks[0].event.as_str(), hooks[0].location.as_str()),
            ("PermissionRequest", "s.json PermissionRequest[0].hooks[0]")
        );
        assert_eq!(hooks[1].what, "command /g/p.sh");
        let codes = |v: Option<&str>| -> Vec<String> { findings(&hooks, &[], v).into_iter().map(|f| f.code).collect() };
        assert_eq!(
            codes(Some("2.1.240")),
            ["permission-request-no-decision", "permission-request-not-run", "prompt-guard-fails-open"]
        );
        // onFailure holds the prompt guard from 2.1.295; PermissionRequest hooks run in -p from 2.1.268.
        assert_eq!(codes(Some("2.1.328")), ["permission-request-no-decision"]);
        assert_eq!(codes(None), ["permission-request-no-decision", "prompt-guard-fails-open"]);
        let skill = SkillHooks { path: "/h/.claude/skills/s/SKILL.md".into(), hooks: None };
        let f = findings(&[], &[skill], None);
        assert_eq!(f[0].code, "skill-hooks-not-read");
    }
}
