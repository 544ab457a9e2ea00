//! Every agent's hook configs an audit reads: Claude Code's settings files
//! (whole, as written), Codex CLI's
//! `<project>/.codex/hooks.json` (Claude Code's shape: events, matcher
//! groups, `{type: "command", command, timeout}` in seconds) and the
//! `[hooks]` table of `<project>/.codex/config.toml` in the same shape, and
//! Gemini CLI's `<project>/.gemini/settings.json` (`hooks.BeforeTool`
//! groups, `timeout` in milliseconds, the matcher an unanchored regex on
//! Gemini's tool names), and Copilot CLI's `<project>/.github/hooks/*.json`
//! (`hooks.preToolUse` entries without a matcher, `timeoutSec`).
//!
//! Which files are whose, and how each is read, is the agent's
//! ([`crate::agent::hook_config::HookConfig`], from its driver). Each is read
//! into a Claude-shaped [`SettingsFile`] (`hooks.PreToolUse`,
//! timeouts in seconds) so that the entries, faults, judge and seal re-check
//! apply to every agent alike; a session of the agent turns
//! the entry back into its own format (`agent::codex::config::hooks_json`,
//! `agent::gemini::config::settings_json`).

use std::path::{Path, PathBuf};

use super::config::{ConfigError, SettingsFile};
use crate::agent::hook_config::{ConfigNote, HookConfig, HookConfigError};
use crate::agent::Agent;

/// A hook config of another agent, read.
#[derive(Debug, Clone)]
pub struct AgentFile {
    /// Whose config it is.
    pub agent: Agent,
    /// The file, Claude-shaped: its PreToolUse (Gemini: BeforeTool) groups
    /// under `hooks.PreToolUse`, timeouts in seconds.
    pub file: SettingsFile,
    /// What the agent does with the file that its hooks as read do not show
    /// ([`HookConfig::notes`]), for lint.
    pub notes: Vec<ConfigNote>,
}

/// Every agent's hook configs in the project `cwd` (and, under `home`, the
/// user's) that exist, each agent's in the order it lists them
/// ([`HookConfig::default_paths`], [`HookConfig::home_paths`]); a file
/// found twice (HOME as the project) once.
pub fn default_paths(cwd: &Path, home: Option<&Path>) -> Vec<(Agent, PathBuf)> {
    let read = |p: &Path| super::file_read::read_text(p, super::file_read::MAX_CONFIG_BYTES).ok();
    let mut out: Vec<(Agent, PathBuf)> = Vec::new();
    for (agent, c) in readers() {
        let mut found = c.default_paths(cwd, &read);
        found.extend(home.map(|h| c.home_paths(h)).unwrap_or_default());
        for p in found {
            if !out.iter().any(|(_, seen)| same_file(seen, &p)) {
                out.push((agent, p));
            }
        }
    }
    out
}

fn same_file(a: &Path, b: &Path) -> bool {
    a == b || matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
}

/// Every agent whose hook configs audit reads through its driver.
fn readers() -> impl Iterator<Item = (Agent, &'static dyn HookConfig)> {
    Agent::ALL.iter().filter_map(|(_, a)| a.driver().hook_config().map(|c| (*a, c)))
}

/// Read `path` as `agent`'s hook config, with `project_dir` as the
/// project its hooks run in. Errors name the file, the field and what it
/// may be.
pub fn load(agent: Agent, path: &Path, project_dir: PathBuf) -> Result<AgentFile, ConfigError> {
    let shown = path.display().to_string();
    let Some(reader) = agent.driver().hook_config() else {
        let valid: Vec<&str> = readers().map(|(a, _)| a.as_str()).collect();
        return Err(ConfigError::Shape {
            path: shown,
            message: format!(
                "audit does not read {}'s hook files yet; the agents it reads are {}",
                agent.display_name(),
                valid.join(", ")
            ),
        });
    };
    let text = super::file_read::read_text(path, super::file_read::MAX_CONFIG_BYTES)
        .map_err(|source| ConfigError::Read { path: shown.clone(), source })?;
    let value = reader.read_settings(path, &text).map_err(|e| match e {
        HookConfigError::Parse { line, column, message } => {
            ConfigError::Parse { path: shown.clone(), line, column, message }
        }
        HookConfigError::Shape(message) => ConfigError::Shape { path: shown.clone(), message },
    })?;
    let notes = reader.notes(path, &text);
    let file = SettingsFile { path: path.to_path_buf(), project_dir, value, managed: false, plugin: None };
    Ok(AgentFile { agent, file, notes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
        let p = dir.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn the_agent_is_told_by_the_path() {
        assert_eq!(crate::agent::hook_config::owner_of(Path::new("/p/.codex/hooks.json")), Some(Agent::Codex));
        assert_eq!(crate::agent::hook_config::owner_of(Path::new("/p/.codex/config.toml")), Some(Agent::Codex));
        assert_eq!(crate::agent::hook_config::owner_of(Path::new("hooks.json")), Some(Agent::Codex));
        assert_eq!(crate::agent::hook_config::owner_of(Path::new("/p/.gemini/settings.json")), Some(Agent::Gemini));
        assert_eq!(crate::agent::hook_config::owner_of(Path::new("/p/.claude/settings.json")), Some(Agent::ClaudeCode));
        assert_eq!(crate::agent::hook_config::owner_of(Path::new("settings.json")), Some(Agent::ClaudeCode));
        assert_eq!(crate::agent::hook_config::owner_of(Path::new("/p/.github/hooks/guard.json")), Some(Agent::Copilot));
        assert_eq!(
            crate::agent::hook_config::owner_of(Path::new("/h/.copilot/hooks/hooks.json")),
            Some(Agent::Copilot)
        );
    }

    #[test]
    fn discovery_finds_the_configs_that_exist() {
        let d = tempfile::tempdir().unwrap();
        assert!(default_paths(d.path(), None).is_empty());
        write(d.path(), ".codex/config.toml", "model = \"x\"\n");
        assert!(default_paths(d.path(), None).is_empty(), "a config.toml without [hooks]");
        write(d.path(), ".codex/hooks.json", "{}");
        write(d.path(), ".gemini/settings.json", "{}");
        let found: Vec<Agent> = default_paths(d.path(), None).into_iter().map(|(a, _)| a).collect();
        assert_eq!(found, [Agent::Codex, Agent::Gemini]);
        write(d.path(), ".github/hooks/guard.json", "{}");
        let found: Vec<Agent> = default_paths(d.path(), None).into_iter().map(|(a, _)| a).collect();
        assert_eq!(found, [Agent::Codex, Agent::Gemini, Agent::Copilot]);
    }

    #[test]
    fn codex_hooks_are_read_as_written_from_json_and_toml() {
        let d = tempfile::tempdir().unwrap();
        let hooks = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash|apply_patch", "hooks": [
            {"type": "command", "command": "/g/deny.sh", "timeout": 5}]}], "Stop": []}}"#;
        let f = load(Agent::Codex, &write(d.path(), ".codex/hooks.json", hooks), "/p".into()).unwrap();
        let e = crate::audit::intake::config::entries(&[f.file]);
        assert_eq!((e.len(), e[0].matcher.as_deref(), e[0].timeout), (1, Some("Bash|apply_patch"), Some(5.0)));
        assert_eq!(e[0].raw["timeout"], json!(5), "an integer stays one: Codex reads nothing else");
        let toml = "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n[[hooks.PreToolUse.hooks]]\ntype = \"command\"\ncommand = \"/g/x.sh\"\ntimeout = 7\n";
        let f = load(Agent::Codex, &write(d.path(), ".codex/config.toml", toml), "/p".into()).unwrap();
        let e = crate::audit::intake::config::entries(&[f.file]);
        assert_eq!((e[0].matcher.as_deref(), e[0].timeout), (Some("Bash"), Some(7.0)));
    }

    #[test]
    fn gemini_before_tool_hooks_become_entries_with_timeouts_in_seconds() {
        let d = tempfile::tempdir().unwrap();
        let settings = r#"{"general": {}, "hooks": {"BeforeTool": [{"matcher": "write_file|replace", "hooks": [
            {"type": "command", "command": "/g/deny.sh", "timeout": 5000, "name": "guard"}]}]}}"#;
        let f = load(Agent::Gemini, &write(d.path(), ".gemini/settings.json", settings), "/p".into()).unwrap();
        let e = crate::audit::intake::config::entries(&[f.file]);
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
