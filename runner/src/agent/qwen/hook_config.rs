//! Qwen Code's hook config as audit reads it: `<project>/.qwen/settings.json`
//! (and a named `~/.qwen/settings.json`), Claude Code's shape
//! (`hooks.PreToolUse` matcher groups of `{type, command, timeout}`), the
//! matcher an unanchored regex on Qwen's tool names (Gemini CLI's), and the
//! timeout read as 0.24.4 reads it: seconds, a value of 1000 or more
//! milliseconds (docs/qwen.md).
//!
//! What the hooks as read do not show is said in [`HookConfig::notes`]: a
//! project's hooks load only in a trusted folder, and a timeout under 1000
//! is milliseconds to releases before 0.24.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::config::EVENT;
use crate::agent::hook_config::{self, ConfigNote, HookConfig, HookConfigError, NoteLevel};

/// Qwen Code's hook config.
pub struct QwenHookConfig;

/// The project-directory variables Qwen Code puts in a hook's command text
/// (`expandCommand`: `$GEMINI_PROJECT_DIR`, `$CLAUDE_PROJECT_DIR` and
/// `$QWEN_PROJECT_DIR`, not their `${...}` forms), and sets for the hook.
pub const PROJECT_VARS: [&str; 3] = ["QWEN_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR"];

/// The smallest `timeout` 0.24.4 reads as milliseconds (`readCommandHookTimeout`).
const MILLISECONDS_FROM: f64 = 1000.0;

impl HookConfig for QwenHookConfig {
    /// `settings.json` in a `.qwen` directory.
    fn owns_path(&self, path: &Path) -> bool {
        hook_config::is_settings_in(path, ".qwen")
    }

    fn default_paths(&self, cwd: &Path, _read: &dyn Fn(&Path) -> Option<String>) -> Vec<PathBuf> {
        hook_config::settings_file_in(cwd, ".qwen")
    }

    /// PreToolUse groups as they are, each `timeout` in seconds as 0.24.4
    /// reads it (a value of 1000 or more is milliseconds).
    fn read_groups(&self, _path: &Path, text: &str) -> Result<Vec<Value>, HookConfigError> {
        let mut groups = hook_config::groups(&hook_config::parse_json(text)?, EVENT, "seconds", 1.0)?;
        for hook in groups.iter_mut().filter_map(|g| g["hooks"].as_array_mut()).flatten() {
            if let Some(t) = hook.get("timeout").and_then(Value::as_f64).filter(|t| *t >= MILLISECONDS_FROM) {
                hook["timeout"] = json!(t / 1000.0);
            }
        }
        Ok(groups)
    }

    fn id_prefix(&self) -> &'static str {
        "Q"
    }

    fn session_layer(&self) -> &'static str {
        "~/.qwen/settings.json"
    }

    fn version_flag(&self) -> &'static str {
        "--qwen"
    }

    /// The directory above its `.qwen` directory, else the audit's.
    fn project_dir(&self, abs: &Path, cwd: &Path, _home: Option<&Path>) -> PathBuf {
        hook_config::above_dir(abs, ".qwen", cwd)
    }

    /// Qwen Code replaces these in the command text with the session's directory.
    fn project_dir_vars(&self) -> &'static [&'static str] {
        &PROJECT_VARS
    }

    /// A project's file loads only in a trusted folder; a timeout under 1000
    /// is seconds to 0.24.4 and milliseconds before it.
    fn notes(&self, path: &Path, text: &str) -> Vec<ConfigNote> {
        let mut out = Vec::new();
        if is_project_file(path) {
            out.push(ConfigNote {
                hook: None,
                level: NoteLevel::Info,
                code: "qwen-project-hooks-need-trust",
                message: format!(
                    "Qwen Code loads the hooks of a project's {} only in a trusted folder (getProjectHooks; 0.24.4): \
                     with folder trust on (security.folderTrust.enabled) and this folder not trusted, or in bare or \
                     safe mode, none of them runs and the calls go through unguarded. Audit ran them from the user \
                     layer (~/.qwen/settings.json), which Qwen loads in every folder, so its verdicts hold where the \
                     folder is trusted",
                    path.display()
                ),
            });
        }
        let Ok(value) = serde_json::from_str::<Value>(text) else { return out };
        let groups = value.pointer(&format!("/hooks/{EVENT}")).and_then(Value::as_array).into_iter().flatten();
        for (g, group) in groups.enumerate() {
            for (i, hook) in group.get("hooks").and_then(Value::as_array).into_iter().flatten().enumerate() {
                let Some(t) = hook.get("timeout").and_then(Value::as_f64) else { continue };
                if t > 0.0 && t < MILLISECONDS_FROM {
                    out.push(ConfigNote {
                        hook: Some((g, i)),
                        level: NoteLevel::Warning,
                        code: "qwen-timeout-unit",
                        message: format!(
                            "timeout {t} is {t} s to Qwen Code 0.24.4, which reads a value under 1000 as seconds, but \
                             {t} ms to the releases before it (0.15.6 measured, 0.23.0 reads milliseconds too): there \
                             the guard is killed after {t} ms and the call goes through. Write {} (milliseconds), \
                             which both read alike",
                            (t * 1000.0).round()
                        ),
                    });
                }
            }
        }
        out
    }
}

/// Whether `path` is a project's `.qwen/settings.json`, not the user's
/// (`$HOME/.qwen/settings.json`).
fn is_project_file(path: &Path) -> bool {
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let dir = path.parent().and_then(Path::parent);
    match (home, dir) {
        (Some(home), Some(dir)) => dir != home && std::fs::canonicalize(dir).ok() != std::fs::canonicalize(&home).ok(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qwen_settings_are_owned_by_their_path() {
        assert!(QwenHookConfig.owns_path(Path::new("/p/.qwen/settings.json")));
        assert!(!QwenHookConfig.owns_path(Path::new("/p/.gemini/settings.json")));
        assert!(!QwenHookConfig.owns_path(Path::new("/p/.qwen/other.json")));
    }

    #[test]
    fn timeouts_are_read_as_0_24_4_reads_them() {
        let text = r#"{"hooks": {"PreToolUse": [{"matcher": "run_shell_command", "hooks": [
            {"type": "command", "command": "/g/a.sh", "timeout": 5},
            {"type": "command", "command": "/g/b.sh", "timeout": 5000},
            {"type": "command", "command": "/g/c.sh"}]}], "Stop": []}}"#;
        let groups = QwenHookConfig.read_groups(Path::new("/p/.qwen/settings.json"), text).unwrap();
        let hooks = groups[0]["hooks"].as_array().unwrap();
        assert_eq!(groups[0]["matcher"], "run_shell_command");
        assert_eq!((hooks[0]["timeout"].as_f64(), hooks[1]["timeout"].as_f64()), (Some(5.0), Some(5.0)));
        assert!(hooks[2].get("timeout").is_none());
        let notes = QwenHookConfig.notes(Path::new("/p/.qwen/settings.json"), text);
        let codes: Vec<(Option<(usize, usize)>, &str)> = notes.iter().map(|n| (n.hook, n.code)).collect();
        assert_eq!(codes, [(None, "qwen-project-hooks-need-trust"), (Some((0, 0)), "qwen-timeout-unit")]);
        assert!(notes[1].message.contains("Write 5000"), "{}", notes[1].message);
        assert_eq!(notes[1].level, NoteLevel::Warning);
    }

    #[test]
    fn malformed_settings_name_the_field_and_what_it_may_be() {
        let read = |t: &str| QwenHookConfig.read_groups(Path::new("s.json"), t).unwrap_err();
        assert!(matches!(read("{\"hooks\": "), HookConfigError::Parse { line: 1, .. }));
        let HookConfigError::Shape(m) = read(r#"{"hooks": {"PreToolUse": {"matcher": "x"}}}"#) else { panic!() };
        assert!(m.contains("hooks.PreToolUse") && m.contains("array"), "{m}");
        let HookConfigError::Shape(m) = read(r#"{"hooks": {"PreToolUse": [{"hooks": [{"timeout": "5s"}]}]}}"#) else {
            panic!()
        };
        assert!(m.contains("hooks.PreToolUse[0].hooks[0].timeout") && m.contains("seconds"), "{m}");
        assert!(QwenHookConfig.notes(Path::new("s.json"), "not json").len() <= 1, "notes never fail");
    }
}
