//! Continue CLI's hook config as audit reads it: the project's
//! `.continue/settings.json` and `.continue/settings.local.json` (and a
//! named `~/.continue/settings.json`), Claude Code's shape as it is
//! (`hooks.PreToolUse` matcher groups of `{type, command, timeout}`,
//! `timeout` in seconds, 600 by default; `hookConfig.ts`). Continue also
//! reads Claude Code's own `.claude/settings*.json`, which audit reads as
//! Claude Code's.
//!
//! What the hooks as read do not show is said in [`HookConfig::notes`]:
//! 1.5.45 and 1.5.47, the releases with hooks, load them and fire no hook
//! event, so no guard in the file runs (docs/continue.md). Audit's sessions
//! show it: a call the guard refuses on its own goes through with no hook
//! run, a `never-ran` hole.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::config::EVENT;
use crate::agent::hook_config::{self, ConfigNote, HookConfig, HookConfigError, NoteLevel};

/// Continue CLI's hook config.
pub struct ContinueHookConfig;

/// The project's files Continue reads hooks from besides Claude Code's, in its order.
const PROJECT_FILES: [&str; 2] = ["settings.json", "settings.local.json"];

/// The variables Continue sets for a hook (`CLAUDE_PROJECT_DIR`,
/// `CONTINUE_PROJECT_DIR`: the project directory), which a command's shell
/// expands.
pub const PROJECT_VARS: [&str; 2] = ["CONTINUE_PROJECT_DIR", "CLAUDE_PROJECT_DIR"];

/// The write tools audit's sessions on Continue write through.
const SESSION_WRITE_TOOLS: [&str; 2] = ["Bash", "Write"];

/// The hook types `hookRunner.ts` runs (`prompt` and `agent` it skips).
const HOOK_TYPES: [&str; 2] = ["command", "http"];

impl HookConfig for ContinueHookConfig {
    /// `settings.json` or `settings.local.json` in a `.continue` directory.
    fn owns_path(&self, path: &Path) -> bool {
        let parent = path.parent().and_then(Path::file_name);
        parent.is_some_and(|p| p == ".continue")
            && path.file_name().and_then(|n| n.to_str()).is_some_and(|n| PROJECT_FILES.contains(&n))
    }

    fn default_paths(&self, cwd: &Path, _read: &dyn Fn(&Path) -> Option<String>) -> Vec<PathBuf> {
        PROJECT_FILES.iter().map(|f| cwd.join(".continue").join(f)).filter(|p| p.is_file()).collect()
    }

    /// PreToolUse groups as they are: Continue reads Claude Code's shape,
    /// `timeout` in seconds.
    fn read_groups(&self, _path: &Path, text: &str) -> Result<Vec<Value>, HookConfigError> {
        hook_config::groups(&hook_config::parse_json(text)?, EVENT, "seconds", 1.0)
    }

    fn id_prefix(&self) -> &'static str {
        "N"
    }

    fn session_layer(&self) -> &'static str {
        "~/.continue/settings.json"
    }

    fn version_flag(&self) -> &'static str {
        "--continue"
    }

    fn project_dir_vars(&self) -> &'static [&'static str] {
        &PROJECT_VARS
    }

    /// Bash and Write: an Edit or MultiEdit session needs `notes.txt`
    /// seeded first, which audit does with a SessionStart hook, and Continue
    /// fires none.
    fn session_write_tools(&self) -> Option<&'static [&'static str]> {
        Some(&SESSION_WRITE_TOOLS)
    }

    fn hook_types(&self) -> &'static [&'static str] {
        &HOOK_TYPES
    }

    /// A file with PreToolUse hooks: Continue loads them and runs none.
    fn notes(&self, path: &Path, text: &str) -> Vec<ConfigNote> {
        let has_hooks = self.read_groups(path, text).is_ok_and(|groups| {
            groups.iter().any(|g| g.get("hooks").and_then(Value::as_array).is_some_and(|h| !h.is_empty()))
        });
        if !has_hooks {
            return Vec::new();
        }
        vec![ConfigNote {
            hook: None,
            level: NoteLevel::Warning,
            code: "continue-hooks-never-fire",
            message: format!(
                "Continue CLI loads the hooks of {} and fires no hook event: in 1.5.45 and 1.5.47 (the releases \
                 with hooks) nothing calls firePreToolUse, so no guard here runs, a working deny included \
                 (docs/continue.md). Until a release wires the calls, keep Continue from the calls these guards \
                 refuse by its own permissions (`--exclude`, or an `ask` policy), not by a hook",
                path.display()
            ),
        }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_project_files_are_told_by_name_and_read_as_claude_codes_shape() {
        assert!(ContinueHookConfig.owns_path(Path::new("/p/.continue/settings.json")));
        assert!(ContinueHookConfig.owns_path(Path::new("/p/.continue/settings.local.json")));
        assert!(!ContinueHookConfig.owns_path(Path::new("/p/.claude/settings.json")));
        assert!(!ContinueHookConfig.owns_path(Path::new("/p/.continue/config.yaml")));
        let d = tempfile::tempdir().unwrap();
        assert!(ContinueHookConfig.default_paths(d.path(), &|_| None).is_empty());
        std::fs::create_dir_all(d.path().join(".continue")).unwrap();
        std::fs::write(d.path().join(".continue/settings.local.json"), "{}").unwrap();
        std::fs::write(d.path().join(".continue/settings.json"), "{}").unwrap();
        let found = ContinueHookConfig.default_paths(d.path(), &|_| None);
        assert_eq!(found, [d.path().join(".continue/settings.json"), d.path().join(".continue/settings.local.json")]);
        let text = r#"{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/g.sh", "timeout": 5}]}]}}"#;
        let groups = ContinueHookConfig.read_groups(&found[0], text).unwrap();
        assert_eq!(
            (groups[0]["matcher"].as_str(), groups[0]["hooks"][0]["timeout"].as_f64()),
            (Some("Bash"), Some(5.0))
        );
        let err = ContinueHookConfig.read_groups(&found[0], r#"{"hooks": {"PreToolUse": {}}}"#).unwrap_err();
        assert!(matches!(&err, HookConfigError::Shape(m) if m.contains("hooks.PreToolUse")), "{err:?}");
    }

    #[test]
    fn a_file_with_hooks_is_noted_as_never_fired_and_one_without_is_not() {
        let p = Path::new("/p/.continue/settings.json");
        let with = r#"{"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "/g.sh"}]}]}}"#;
        let notes = ContinueHookConfig.notes(p, with);
        assert_eq!((notes.len(), notes[0].code, notes[0].level), (1, "continue-hooks-never-fire", NoteLevel::Warning));
        assert!(ContinueHookConfig.notes(p, r#"{"hooks": {"Stop": []}}"#).is_empty());
        assert!(ContinueHookConfig.notes(p, "not json").is_empty(), "a broken file is lint's, not a note");
        assert_eq!(ContinueHookConfig.session_write_tools(), Some(&["Bash", "Write"][..]));
    }
}
