//! Gemini CLI's hook config as audit reads it: `<project>/.gemini/settings.json`
//! (`hooks.BeforeTool` groups, `timeout` in milliseconds, the matcher an
//! unanchored regex on Gemini's tool names).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::config::EVENT;
use crate::agent::hook_config::{self, HookConfig, HookConfigError};

/// Gemini CLI's hook config.
pub struct GeminiHookConfig;

/// The project-directory variables Gemini CLI puts in a hook's command text.
pub const PROJECT_VARS: [&str; 3] = ["GEMINI_PROJECT_DIR", "GEMINI_CWD", "CLAUDE_PROJECT_DIR"];

impl HookConfig for GeminiHookConfig {
    /// `settings.json` in a `.gemini` directory.
    fn owns_path(&self, path: &Path) -> bool {
        hook_config::is_settings_in(path, ".gemini")
    }

    fn default_paths(&self, cwd: &Path, _read: &dyn Fn(&Path) -> Option<String>) -> Vec<PathBuf> {
        hook_config::settings_file_in(cwd, ".gemini")
    }

    /// BeforeTool groups as PreToolUse groups: timeout from milliseconds to
    /// seconds, the rest as written.
    fn read_groups(&self, _path: &Path, text: &str) -> Result<Vec<Value>, HookConfigError> {
        hook_config::groups(&hook_config::parse_json(text)?, EVENT, "milliseconds", 1000.0)
    }

    fn id_prefix(&self) -> &'static str {
        "G"
    }

    fn session_layer(&self) -> &'static str {
        "~/.gemini/settings.json"
    }

    fn version_flag(&self) -> &'static str {
        "--gemini"
    }

    /// The directory above its `.gemini` directory, else the audit's.
    fn project_dir(&self, abs: &Path, cwd: &Path, _home: Option<&Path>) -> PathBuf {
        hook_config::above_dir(abs, ".gemini", cwd)
    }

    /// Gemini CLI replaces these in the command text with the session's directory.
    fn project_dir_vars(&self) -> &'static [&'static str] {
        &PROJECT_VARS
    }
}
