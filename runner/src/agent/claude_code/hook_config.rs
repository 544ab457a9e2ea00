//! Claude Code's hook configs as audit reads them: its settings files
//! (`<project>/.claude/settings.json`, `.claude/settings.local.json`,
//! `~/.claude/settings.json`, or any file named), whole, in the shape they
//! are written (`hooks.PreToolUse` matcher groups, timeouts in seconds). What
//! an audit reads beyond them (managed settings, plugins, skills) and
//! measures (`onFailure`, the census) is its [`AuditReach`].

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::agent::hook_config::{self, AuditReach, HookConfig, HookConfigError};

/// Claude Code's settings files.
pub struct ClaudeCodeHookConfig;

/// The hook types Claude Code runs.
const HOOK_TYPES: [&str; 5] = ["command", "http", "prompt", "agent", "mcp_tool"];

impl HookConfig for ClaudeCodeHookConfig {
    /// A file in a `.claude` directory (and, as [`Self::owns_unclaimed_paths`]
    /// says, any file another agent does not claim).
    fn owns_path(&self, path: &Path) -> bool {
        path.parent().and_then(Path::file_name).is_some_and(|n| n == ".claude")
    }

    fn owns_unclaimed_paths(&self) -> bool {
        true
    }

    /// The project's settings, then its local settings, those that exist.
    fn default_paths(&self, cwd: &Path, _read: &dyn Fn(&Path) -> Option<String>) -> Vec<PathBuf> {
        [".claude/settings.json", ".claude/settings.local.json"]
            .iter()
            .map(|p| cwd.join(p))
            .filter(|p| p.is_file())
            .collect()
    }

    /// The user's settings, if they exist.
    fn home_paths(&self, home: &Path) -> Vec<PathBuf> {
        let user = home.join(".claude/settings.json");
        if user.is_file() {
            vec![user]
        } else {
            Vec::new()
        }
    }

    /// The PreToolUse groups as written.
    fn read_groups(&self, path: &Path, text: &str) -> Result<Vec<Value>, HookConfigError> {
        let value = self.read_settings(path, text)?;
        Ok(value.pointer("/hooks/PreToolUse").and_then(Value::as_array).cloned().unwrap_or_default())
    }

    /// The whole settings file: lint reads its other keys and events.
    fn read_settings(&self, _path: &Path, text: &str) -> Result<Value, HookConfigError> {
        let value = hook_config::parse_json(text)?;
        if !value.is_object() {
            return Err(HookConfigError::Shape("the top level is not a JSON object".into()));
        }
        if value.pointer("/hooks/PreToolUse").is_some_and(|p| !p.is_array()) {
            return Err(HookConfigError::Shape("hooks.PreToolUse is not an array".into()));
        }
        Ok(value)
    }

    fn id_prefix(&self) -> &'static str {
        "H"
    }

    fn session_layer(&self) -> &'static str {
        "--settings"
    }

    fn version_flag(&self) -> &'static str {
        "--claude"
    }

    fn hook_types(&self) -> &'static [&'static str] {
        &HOOK_TYPES
    }

    /// `X` for `X/.claude/*.json` (unless `X` is HOME: the user's
    /// settings), else `cwd`: its `$CLAUDE_PROJECT_DIR`.
    fn project_dir(&self, abs: &Path, cwd: &Path, home: Option<&Path>) -> PathBuf {
        let parent = abs.parent();
        if parent.and_then(Path::file_name).is_some_and(|n| n == ".claude") {
            if let Some(x) = parent.and_then(Path::parent) {
                let same =
                    |a: &Path, b: &Path| matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y);
                if !home.is_some_and(|h| same(h, x)) {
                    return x.to_path_buf();
                }
            }
        }
        cwd.to_path_buf()
    }

    /// Everything: managed settings, plugins and skills, its settings'
    /// schema, `onFailure` measured, the census, every write route, and
    /// `failopen seal --install` for its settings files.
    fn reach(&self) -> AuditReach {
        AuditReach {
            managed_settings: true,
            plugins_and_skills: true,
            settings_schema: true,
            on_failure_key: true,
            census: true,
            every_write_route: true,
            rejects_malformed_answers: true,
            seal_install: true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_project_is_above_dot_claude_unless_it_is_home() {
        let c = ClaudeCodeHookConfig;
        let cwd = Path::new("/w");
        assert_eq!(c.project_dir(Path::new("/p/.claude/settings.json"), cwd, None), Path::new("/p"));
        assert_eq!(c.project_dir(Path::new("/x/s.json"), cwd, None), Path::new("/w"));
    }

    #[test]
    fn a_file_no_other_agent_claims_is_claude_codes() {
        use crate::agent::Agent;
        assert_eq!(hook_config::owner_of(Path::new("settings.json")), Some(Agent::ClaudeCode));
        assert_eq!(hook_config::owner_of(Path::new("/p/.claude/settings.json")), Some(Agent::ClaudeCode));
        assert_eq!(hook_config::owner_of(Path::new("/p/.gemini/settings.json")), Some(Agent::Gemini));
    }

    #[test]
    fn a_settings_file_is_kept_whole_and_its_shape_checked() {
        let c = ClaudeCodeHookConfig;
        let v = c.read_settings(Path::new("s.json"), r#"{"model": "x", "hooks": {"PreToolUse": []}}"#).unwrap();
        assert_eq!(v["model"], "x");
        assert!(c.read_settings(Path::new("s.json"), "[]").is_err());
        assert!(c.read_settings(Path::new("s.json"), r#"{"hooks": {"PreToolUse": {}}}"#).is_err());
    }
}
