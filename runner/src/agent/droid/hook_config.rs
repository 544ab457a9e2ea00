//! Droid's hook config as audit reads it: `<project>/.factory/hooks.json`
//! and `~/.factory/hooks.json` (Claude Code's `PreToolUse` matcher groups at
//! the top level), and a `hooks` key in `.factory/settings.json`, the same
//! shape under `hooks`. Timeouts are seconds, matchers Claude Code's rule
//! on Droid's tool names (`Execute`, `Create`, `Edit`): docs/droid.md.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::config::EVENT;
use crate::agent::hook_config::{self, HookConfig, HookConfigError};

/// Droid's hook config.
pub struct DroidHookConfig;

/// The directory Droid keeps its config in, in a project and in HOME.
const DIR: &str = ".factory";

/// Its hook file in that directory.
const HOOKS_FILE: &str = "hooks.json";

/// Whether `path` is `hooks.json` in a `.factory` directory.
fn is_hooks_file(path: &Path) -> bool {
    let parent = path.parent().and_then(Path::file_name);
    parent.is_some_and(|p| p == DIR) && path.file_name().is_some_and(|n| n == HOOKS_FILE)
}

impl HookConfig for DroidHookConfig {
    /// `hooks.json` or `settings.json` in a `.factory` directory.
    fn owns_path(&self, path: &Path) -> bool {
        is_hooks_file(path) || hook_config::is_settings_in(path, DIR)
    }

    fn default_paths(&self, cwd: &Path, read: &dyn Fn(&Path) -> Option<String>) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = vec![cwd.join(DIR).join(HOOKS_FILE)];
        out.retain(|p| p.is_file());
        out.extend(
            hook_config::settings_file_in(cwd, DIR)
                .into_iter()
                .filter(|p| read(p).is_some_and(|text| text.contains("\"hooks\""))),
        );
        out
    }

    /// A `hooks.json` holds the events at its top level (or under `hooks`),
    /// a `settings.json` under `hooks`.
    fn read_groups(&self, path: &Path, text: &str) -> Result<Vec<Value>, HookConfigError> {
        let value = hook_config::parse_json(text)?;
        let value = if is_hooks_file(path) && value.get("hooks").is_none() { json!({"hooks": value}) } else { value };
        hook_config::groups(&value, EVENT, "seconds", 1.0)
    }

    fn id_prefix(&self) -> &'static str {
        "D"
    }

    fn session_layer(&self) -> &'static str {
        "~/.factory/hooks.json"
    }

    fn version_flag(&self) -> &'static str {
        "--droid"
    }

    /// Droid's `Edit` must `Read` the file first: audit's sessions write
    /// through `Execute` and `Create`, which the stand-in scripts.
    fn session_write_tools(&self) -> Option<&'static [&'static str]> {
        Some(&SESSION_WRITE_TOOLS)
    }
}

/// The tools an audit's Droid sessions write through.
const SESSION_WRITE_TOOLS: [&str; 2] = ["Execute", "Create"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn droids_files_are_owned_by_their_path() {
        assert!(DroidHookConfig.owns_path(Path::new("/p/.factory/hooks.json")));
        assert!(DroidHookConfig.owns_path(Path::new("/p/.factory/settings.json")));
        assert!(!DroidHookConfig.owns_path(Path::new("/p/.claude/settings.json")));
        assert!(!DroidHookConfig.owns_path(Path::new("/p/.factory/mcp.json")));
        let codex = crate::agent::Agent::Codex.driver().hook_config().unwrap();
        assert!(!codex.owns_path(Path::new("/p/.factory/hooks.json")), "Codex claims any other hooks.json");
    }

    #[test]
    fn a_hooks_file_and_a_settings_file_give_the_same_groups() {
        let groups = r#"{"PreToolUse": [{"matcher": "Execute", "hooks": [{"type": "command", "command": "/g/a.sh", "timeout": 5}]}]}"#;
        let from_hooks = DroidHookConfig.read_groups(Path::new("/p/.factory/hooks.json"), groups).unwrap();
        let settings = format!(r#"{{"customModels": [], "hooks": {groups}}}"#);
        let from_settings = DroidHookConfig.read_groups(Path::new("/p/.factory/settings.json"), &settings).unwrap();
        assert_eq!(from_hooks, from_settings);
        assert_eq!(from_hooks[0]["matcher"], "Execute");
        assert_eq!(from_hooks[0]["hooks"][0]["timeout"].as_f64(), Some(5.0));
        let HookConfigError::Shape(m) = DroidHookConfig
            .read_groups(Path::new("/p/.factory/hooks.json"), r#"{"PreToolUse": {"matcher": "x"}}"#)
            .unwrap_err()
        else {
            panic!()
        };
        assert!(m.contains("hooks.PreToolUse") && m.contains("array"), "{m}");
    }
}
