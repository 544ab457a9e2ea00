//! The other agents' hook configs an audit reads: Codex CLI's
//! `<project>/.codex/hooks.json` (Claude Code's shape: events, matcher
//! groups, `{type: "command", command, timeout}` in seconds) and the
//! `[hooks]` table of `<project>/.codex/config.toml` in the same shape, and
//! Gemini CLI's `<project>/.gemini/settings.json` (`hooks.BeforeTool`
//! groups, `timeout` in milliseconds, the matcher an unanchored regex on
//! Gemini's tool names).
//!
//! Each is read into a Claude-shaped [`SettingsFile`] (`hooks.PreToolUse`,
//! timeouts in seconds) so that the entries, faults, judge and seal re-check
//! of a Claude Code audit apply as they are; a session of the agent turns
//! the entry back into its own format (`agent::codex::config::hooks_json`,
//! `agent::gemini::config::settings_json`).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::config::{ConfigError, SettingsFile};
use crate::agent::Agent;

/// A hook config of another agent, read.
#[derive(Debug, Clone)]
pub struct AgentFile {
    /// Whose config it is.
    pub agent: Agent,
    /// The file, Claude-shaped: its PreToolUse (Gemini: BeforeTool) groups
    /// under `hooks.PreToolUse`, timeouts in seconds.
    pub file: SettingsFile,
}

/// The agent a hook config belongs to, by its path: a file in a `.codex`
/// directory or named `hooks.json` is Codex CLI's; `settings.json` in a
/// `.gemini` directory is Gemini CLI's. `None`: a Claude Code settings file.
pub fn agent_of_path(path: &Path) -> Option<Agent> {
    let name = path.file_name()?.to_string_lossy();
    let parent = path.parent().and_then(Path::file_name).map(|n| n.to_string_lossy().into_owned());
    match (parent.as_deref(), name.as_ref()) {
        (Some(".gemini"), "settings.json") => Some(Agent::Gemini),
        (Some(".codex"), _) | (_, "hooks.json") => Some(Agent::Codex),
        _ => None,
    }
}

/// The other agents' hook configs in the project `cwd` that exist:
/// `.codex/hooks.json`, `.codex/config.toml` when it has a `[hooks]` table,
/// and `.gemini/settings.json`.
pub fn default_paths(cwd: &Path) -> Vec<(Agent, PathBuf)> {
    let mut out = Vec::new();
    let hooks = cwd.join(".codex/hooks.json");
    if hooks.is_file() {
        out.push((Agent::Codex, hooks));
    }
    let toml = cwd.join(".codex/config.toml");
    let has_hooks = super::file_read::read_text(&toml, super::file_read::MAX_CONFIG_BYTES)
        .is_ok_and(|t| t.lines().any(|l| l.trim_start().starts_with("[hooks")));
    if has_hooks {
        out.push((Agent::Codex, toml));
    }
    let gemini = cwd.join(".gemini/settings.json");
    if gemini.is_file() {
        out.push((Agent::Gemini, gemini));
    }
    out
}

/// Read `path` as `agent`'s hook config, with `project_dir` as the
/// project its hooks run in. Errors name the file, the field and what it
/// may be.
pub fn load(agent: Agent, path: &Path, project_dir: PathBuf) -> Result<AgentFile, ConfigError> {
    let shown = path.display().to_string();
    let text = super::file_read::read_text(path, super::file_read::MAX_CONFIG_BYTES)
        .map_err(|source| ConfigError::Read { path: shown.clone(), source })?;
    let shape = |message: String| ConfigError::Shape { path: shown.clone(), message };
    let value: Value = if path.extension().is_some_and(|e| e == "toml") {
        let parsed: toml::Table = toml::from_str(&text).map_err(|e| ConfigError::Parse {
            path: shown.clone(),
            line: e.span().map_or(0, |s| text[..s.start].lines().count().max(1)),
            column: 0,
            message: e.message().to_string(),
        })?;
        serde_json::to_value(parsed).map_err(|e| shape(e.to_string()))?
    } else {
        serde_json::from_str(&text).map_err(|e| ConfigError::Parse {
            path: shown.clone(),
            line: e.line(),
            column: e.column(),
            message: crate::json_error::message_without_position(&e),
        })?
    };
    let hooks = match agent {
        Agent::Gemini => gemini_groups(&value).map_err(shape)?,
        _ => codex_groups(&value).map_err(shape)?,
    };
    let file = SettingsFile {
        path: path.to_path_buf(),
        project_dir,
        value: json!({"hooks": {"PreToolUse": hooks}}),
        managed: false,
    };
    Ok(AgentFile { agent, file })
}

/// The event Gemini CLI runs before a tool, under which its guards are.
pub const GEMINI_EVENT: &str = "BeforeTool";

/// The hook types each agent runs: Codex CLI and Gemini CLI run command hooks only.
pub const HOOK_TYPES: [&str; 1] = ["command"];

/// Codex's PreToolUse groups, checked: Claude Code's shape, timeout in seconds.
fn codex_groups(value: &Value) -> Result<Vec<Value>, String> {
    groups(value, "PreToolUse", "seconds", 1.0)
}

/// Gemini's BeforeTool groups as PreToolUse groups: timeout from
/// milliseconds to seconds, the rest as written.
fn gemini_groups(value: &Value) -> Result<Vec<Value>, String> {
    groups(value, GEMINI_EVENT, "milliseconds", 1000.0)
}

/// The groups of `event`, each hook's `timeout` (in `unit`) divided by
/// `per_second` into seconds. A field of the wrong type is an error that
/// names it and says what it may be.
fn groups(value: &Value, event: &str, unit: &str, per_second: f64) -> Result<Vec<Value>, String> {
    let Some(top) = value.as_object() else { return Err("the top level is not an object".into()) };
    let Some(hooks) = top.get("hooks") else { return Ok(Vec::new()) };
    let Some(events) = hooks.as_object() else {
        return Err(format!("field hooks is {}: it must be an object of events ({event}: [...])", kind(hooks)));
    };
    let Some(groups) = events.get(event) else { return Ok(Vec::new()) };
    let Some(groups) = groups.as_array() else {
        return Err(format!("field hooks.{event} is {}: it must be an array of matcher groups", kind(groups)));
    };
    let mut out = Vec::new();
    for (g, group) in groups.iter().enumerate() {
        let at = format!("hooks.{event}[{g}]");
        let Some(obj) = group.as_object() else {
            return Err(format!("field {at} is {}: it must be an object {{matcher, hooks}}", kind(group)));
        };
        if let Some(m) = obj.get("matcher").filter(|m| !m.is_string()) {
            return Err(format!("field {at}.matcher is {}: it must be a string (a tool name or regex)", kind(m)));
        }
        let entries = match obj.get("hooks") {
            None => &Vec::new(),
            Some(Value::Array(a)) => a,
            Some(other) => return Err(format!("field {at}.hooks is {}: it must be an array of hooks", kind(other))),
        };
        let mut converted = Vec::new();
        for (i, h) in entries.iter().enumerate() {
            let at = format!("{at}.hooks[{i}]");
            let Some(mut hook) = h.as_object().cloned() else {
                return Err(format!("field {at} is {}: it must be an object {{type, command, timeout}}", kind(h)));
            };
            match hook.get("type") {
                Some(Value::String(_)) | None => {}
                Some(other) => {
                    return Err(format!("field {at}.type is {}: valid types are {}", kind(other), quoted(&HOOK_TYPES)))
                }
            }
            if let Some(c) = hook.get("command").filter(|c| !c.is_string()) {
                return Err(format!("field {at}.command is {}: it must be a string (a shell command)", kind(c)));
            }
            match hook.get("timeout") {
                None => {}
                Some(t) => match t.as_f64() {
                    // Seconds stay as written: Codex reads an integer only (a `5.0` is its own finding).
                    Some(n) if per_second != 1.0 => {
                        hook.insert("timeout".into(), json!(n / per_second));
                    }
                    Some(_) => {}
                    None => return Err(format!("field {at}.timeout is {}: it must be a number of {unit}", kind(t))),
                },
            }
            converted.push(Value::Object(hook));
        }
        let mut group = json!({"hooks": converted});
        if let Some(m) = obj.get("matcher") {
            group["matcher"] = m.clone();
        }
        out.push(group);
    }
    Ok(out)
}

fn quoted(items: &[&str]) -> String {
    items.iter().map(|i| format!("{i:?}")).collect::<Vec<_>>().join(", ")
}

fn kind(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("{b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn the_agent_is_told_by_the_path() {
        assert_eq!(agent_of_path(Path::new("/p/.codex/hooks.json")), Some(Agent::Codex));
        assert_eq!(agent_of_path(Path::new("/p/.codex/config.toml")), Some(Agent::Codex));
        assert_eq!(agent_of_path(Path::new("hooks.json")), Some(Agent::Codex));
        assert_eq!(agent_of_path(Path::new("/p/.gemini/settings.json")), Some(Agent::Gemini));
        assert_eq!(agent_of_path(Path::new("/p/.claude/settings.json")), None);
        assert_eq!(agent_of_path(Path::new("settings.json")), None);
    }

    #[test]
    fn discovery_finds_the_configs_that_exist() {
        let d = tempfile::tempdir().unwrap();
        assert!(default_paths(d.path()).is_empty());
        write(d.path(), ".codex/config.toml", "model = \"x\"\n");
        assert!(default_paths(d.path()).is_empty(), "a config.toml without [hooks]");
        write(d.path(), ".codex/hooks.json", "{}");
        write(d.path(), ".gemini/settings.json", "{}");
        let found: Vec<Agent> = default_paths(d.path()).into_iter().map(|(a, _)| a).collect();
        assert_eq!(found, [Agent::Codex, Agent::Gemini]);
    }

    #[test]
    fn codex_hooks_are_read_as_written_from_json_and_toml() {
        let d = tempfile::tempdir().unwrap();
        let hooks = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash|apply_patch", "hooks": [
            {"type": "command", "command": "/g/deny.sh", "timeout": 5}]}], "Stop": []}}"#;
        let f = load(Agent::Codex, &write(d.path(), ".codex/hooks.json", hooks), "/p".into()).unwrap();
        let e = super::super::config::entries(&[f.file]);
        assert_eq!((e.len(), e[0].matcher.as_deref(), e[0].timeout), (1, Some("Bash|apply_patch"), Some(5.0)));
        assert_eq!(e[0].raw["timeout"], json!(5), "an integer stays one: Codex reads nothing else");
        let toml = "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"/g/x.sh\"\ntimeout = 7\n";
        let f = load(Agent::Codex, &write(d.path(), ".codex/config.toml", toml), "/p".into()).unwrap();
        let e = super::super::config::entries(&[f.file]);
        assert_eq!((e[0].matcher.as_deref(), e[0].timeout), (Some("Bash"), Some(7.0)));
    }

    #[test]
    fn gemini_before_tool_hooks_become_entries_with_timeouts_in_seconds() {
        let d = tempfile::tempdir().unwrap();
        let settings = r#"{"general": {}, "hooks": {"BeforeTool": [{"matcher": "write_file|replace", "hooks": [
            {"type": "command", "command": "/g/deny.sh", "timeout": 5000, "name": "guard"}]}]}}"#;
        let f = load(Agent::Gemini, &write(d.path(), ".gemini/settings.json", settings), "/p".into()).unwrap();
        let e = super::super::config::entries(&[f.file]);
        assert_eq!((e[0].matcher.as_deref(), e[0].timeout), (Some("write_file|replace"), Some(5.0)));
        assert_eq!(e[0].raw["name"], "guard");
        // Back in a session, the seconds become Gemini's milliseconds again.
        let back =
            crate::agent::gemini::config::hooks(&json!({"hooks": {"PreToolUse": [{"hooks": [e[0].raw.clone()]}]}}));
        assert_eq!(back["BeforeTool"][0]["hooks"][0]["timeout"], 5000);
    }

    #[test]
    fn bad_input_names_the_file_the_field_and_the_choices() {
        let d = tempfile::tempdir().unwrap();
        let p = write(d.path(), ".codex/hooks.json", "{\"hooks\": {\"PreToolUse\": [}");
        let e = load(Agent::Codex, &p, "/p".into()).unwrap_err().to_string();
        assert!(e.contains(".codex/hooks.json:1:"), "{e}");
        let p = write(d.path(), ".codex/hooks.json", r#"{"hooks": {"PreToolUse": {"matcher": "Bash"}}}"#);
        let e = load(Agent::Codex, &p, "/p".into()).unwrap_err().to_string();
        assert!(e.contains("hooks.json") && e.contains("hooks.PreToolUse") && e.contains("array"), "{e}");
        let p = write(d.path(), ".gemini/settings.json", r#"{"hooks": {"BeforeTool": [{"hooks": [{"type": 3}]}]}}"#);
        let e = load(Agent::Gemini, &p, "/p".into()).unwrap_err().to_string();
        assert!(e.contains("hooks.BeforeTool[0].hooks[0].type") && e.contains("\"command\""), "{e}");
        let p =
            write(d.path(), ".gemini/settings.json", r#"{"hooks": {"BeforeTool": [{"hooks": [{"timeout": "5s"}]}]}}"#);
        let e = load(Agent::Gemini, &p, "/p".into()).unwrap_err().to_string();
        assert!(e.contains("timeout") && e.contains("milliseconds"), "{e}");
        let p = write(d.path(), ".codex/config.toml", "[hooks\n");
        let e = load(Agent::Codex, &p, "/p".into()).unwrap_err().to_string();
        assert!(e.contains("config.toml"), "{e}");
    }
}
