//! Codex CLI's hook configs as audit reads them: `<project>/.codex/hooks.json`
//! (Claude Code's shape: events, matcher groups, `{type: "command",
//! command, timeout}` in seconds) and the `[hooks]` table of
//! `<project>/.codex/config.toml` in the same shape.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::agent::hook_config::{self, HookConfig, HookConfigError};

/// Codex CLI's hook configs.
pub struct CodexHookConfig;

impl HookConfig for CodexHookConfig {
    /// A file in a `.codex` directory, or one named `hooks.json` that is
    /// not in a `hooks` directory (Copilot CLI's `.github/hooks/*.json`).
    fn owns_path(&self, path: &Path) -> bool {
        let Some(name) = path.file_name() else { return false };
        let parent = path.parent().and_then(Path::file_name);
        parent.is_some_and(|p| p == ".codex")
            || (name == "hooks.json" && parent.is_none_or(|p| p != "hooks" && p != ".factory"))
    }

    /// `.codex/hooks.json`, and `.codex/config.toml` when it has a `[hooks]` table.
    fn default_paths(&self, cwd: &Path, read: &dyn Fn(&Path) -> Option<String>) -> Vec<PathBuf> {
        let mut out = Vec::new();
        let hooks = cwd.join(".codex/hooks.json");
        if hooks.is_file() {
            out.push(hooks);
        }
        let toml = cwd.join(".codex/config.toml");
        if read(&toml).is_some_and(|t| t.lines().any(|l| l.trim_start().starts_with("[hooks"))) {
            out.push(toml);
        }
        out
    }

    /// PreToolUse groups, checked: Claude Code's shape, timeout in seconds.
    fn read_groups(&self, path: &Path, text: &str) -> Result<Vec<Value>, HookConfigError> {
        let value: Value = if path.extension().is_some_and(|e| e == "toml") {
            let parsed: toml::Table = toml::from_str(text).map_err(|e| HookConfigError::Parse {
                line: e.span().map_or(0, |s| text[..s.start].lines().count().max(1)),
                column: 0,
                message: e.message().to_string(),
            })?;
            serde_json::to_value(parsed).map_err(|e| HookConfigError::Shape(e.to_string()))?
        } else {
            hook_config::parse_json(text)?
        };
        hook_config::groups(&value, "PreToolUse", "seconds", 1.0)
    }

    fn id_prefix(&self) -> &'static str {
        "C"
    }

    fn session_layer(&self) -> &'static str {
        "$CODEX_HOME/hooks.json"
    }

    fn version_flag(&self) -> &'static str {
        "--codex"
    }

    /// The directory above its `.codex` directory, else the audit's.
    fn project_dir(&self, abs: &Path, cwd: &Path, _home: Option<&Path>) -> PathBuf {
        hook_config::above_dir(abs, ".codex", cwd)
    }

    /// Codex CLI fails to parse the whole hooks file ("expected u64").
    fn timeout_must_be_whole_seconds(&self) -> bool {
        true
    }
}
