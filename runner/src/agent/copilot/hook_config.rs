//! Copilot CLI's hook configs as audit reads them: every `*.json` in a
//! `hooks` directory of `$COPILOT_HOME` (`~/.copilot/hooks/`) or of a
//! project's `.github/` (`.github/hooks/`), each
//! `{"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash":
//! CMD, "timeoutSec": N}]}}`. An entry has no matcher (it runs for every
//! tool), so each becomes a Claude-shaped group without one; `bash` is the
//! command and `timeoutSec` the timeout in seconds.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::config::EVENT;
use crate::agent::hook_config::{self, kind, HookConfig, HookConfigError, COMMAND_ONLY};

/// Copilot CLI's hook configs.
pub struct CopilotHookConfig;

/// The directories whose `hooks/*.json` Copilot reads: the project's
/// `.github` and `$COPILOT_HOME` (`~/.copilot`).
const HOOK_DIR_PARENTS: [&str; 2] = [".github", ".copilot"];

impl HookConfig for CopilotHookConfig {
    /// A `*.json` file in `.github/hooks/` or `.copilot/hooks/`.
    fn owns_path(&self, path: &Path) -> bool {
        let mut up = path.ancestors().skip(1).map(Path::file_name);
        path.extension().is_some_and(|e| e == "json")
            && up.next().flatten().is_some_and(|d| d == "hooks")
            && up.next().flatten().is_some_and(|d| HOOK_DIR_PARENTS.iter().any(|p| d == *p))
    }

    /// The project's `.github/hooks/*.json`, in name order. (Copilot reads
    /// them in `-p` only with `--trust-folder`; the user's
    /// `~/.copilot/hooks/*.json` are named on the command line.)
    fn default_paths(&self, cwd: &Path, _read: &dyn Fn(&Path) -> Option<String>) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(cwd.join(".github/hooks")) else { return Vec::new() };
        let mut out: Vec<PathBuf> = entries
            .filter_map(|e| Some(e.ok()?.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "json") && p.is_file())
            .collect();
        out.sort();
        out
    }

    /// Each `preToolUse` entry as a PreToolUse group of one hook, without a
    /// matcher: `bash` as `command`, `timeoutSec` as `timeout`.
    fn read_groups(&self, _path: &Path, text: &str) -> Result<Vec<Value>, HookConfigError> {
        groups(&hook_config::parse_json(text)?).map_err(HookConfigError::Shape)
    }

    fn id_prefix(&self) -> &'static str {
        "P"
    }

    fn session_layer(&self) -> &'static str {
        "$COPILOT_HOME/hooks/failopen.json"
    }

    fn version_flag(&self) -> &'static str {
        "--copilot"
    }
}

fn groups(value: &Value) -> Result<Vec<Value>, String> {
    let Some(top) = value.as_object() else { return Err("the top level is not an object".into()) };
    let Some(hooks) = top.get("hooks") else { return Ok(Vec::new()) };
    let Some(events) = hooks.as_object() else {
        return Err(format!("field hooks is {}: it must be an object of events ({EVENT}: [...])", kind(hooks)));
    };
    let Some(entries) = events.get(EVENT) else { return Ok(Vec::new()) };
    let Some(entries) = entries.as_array() else {
        return Err(format!("field hooks.{EVENT} is {}: it must be an array of hooks", kind(entries)));
    };
    let mut out = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let at = format!("hooks.{EVENT}[{i}]");
        let Some(entry) = entry.as_object() else {
            return Err(format!("field {at} is {}: it must be an object {{type, bash, timeoutSec}}", kind(entry)));
        };
        let mut hook = Map::new();
        match entry.get("type") {
            Some(Value::String(t)) => {
                hook.insert("type".into(), json!(t));
            }
            None => {}
            Some(other) => {
                let valid = COMMAND_ONLY.map(|t| format!("{t:?}")).join(", ");
                return Err(format!("field {at}.type is {}: valid types are {valid}", kind(other)));
            }
        }
        match entry.get("bash") {
            Some(Value::String(c)) => {
                hook.insert("command".into(), json!(c));
            }
            None => {}
            Some(other) => {
                return Err(format!("field {at}.bash is {}: it must be a string (a shell command)", kind(other)))
            }
        }
        match entry.get("timeoutSec") {
            Some(t) if t.is_number() => {
                hook.insert("timeout".into(), t.clone());
            }
            None => {}
            Some(other) => {
                return Err(format!("field {at}.timeoutSec is {}: it must be a number of seconds", kind(other)))
            }
        }
        out.push(json!({"hooks": [Value::Object(hook)]}));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn its_files_are_told_by_their_directory() {
        let c = CopilotHookConfig;
        assert!(c.owns_path(Path::new("/p/.github/hooks/guard.json")));
        assert!(c.owns_path(Path::new("/h/.copilot/hooks/hooks.json")));
        assert!(!c.owns_path(Path::new("/p/.github/hooks/guard.yml")));
        assert!(!c.owns_path(Path::new("/p/hooks/guard.json")));
        assert!(!c.owns_path(Path::new("/p/.codex/hooks.json")));
    }

    #[test]
    fn each_entry_is_a_group_without_a_matcher() {
        let text = r#"{"version": 1, "hooks": {"preToolUse": [
            {"type": "command", "bash": "./guard.sh", "timeoutSec": 5, "cwd": "."},
            {"type": "command", "bash": "other"}]}}"#;
        let groups = CopilotHookConfig.read_groups(Path::new("g.json"), text).unwrap();
        assert_eq!(
            groups,
            [
                json!({"hooks": [{"type": "command", "command": "./guard.sh", "timeout": 5}]}),
                json!({"hooks": [{"type": "command", "command": "other"}]})
            ]
        );
        // The same file written back for a session gives the same hooks (config::hooks_json).
        let settings = json!({"hooks": {"PreToolUse": groups}});
        let back = super::super::config::hooks_json(&settings);
        assert_eq!(back["hooks"][EVENT][0], json!({"type": "command", "bash": "./guard.sh", "timeoutSec": 5}));
        assert_eq!(
            CopilotHookConfig.read_groups(Path::new("g.json"), r#"{"version": 1}"#).unwrap(),
            Vec::<Value>::new()
        );
    }

    #[test]
    fn a_field_of_the_wrong_type_is_named() {
        let err = |text: &str| match CopilotHookConfig.read_groups(Path::new("g.json"), text) {
            Err(HookConfigError::Shape(m)) => m,
            other => panic!("{other:?}"),
        };
        assert!(err(r#"{"hooks": {"preToolUse": {"bash": "x"}}}"#).contains("hooks.preToolUse is an object"));
        let m = err(r#"{"hooks": {"preToolUse": [{"bash": "x", "timeoutSec": "5"}]}}"#);
        assert!(m.contains("hooks.preToolUse[0].timeoutSec") && m.contains("seconds"), "{m}");
        assert!(err(r#"{"hooks": {"preToolUse": [{"bash": 1}]}}"#).contains("bash is the number 1"));
        assert!(matches!(
            CopilotHookConfig.read_groups(Path::new("g.json"), "{\"hooks\": }"),
            Err(HookConfigError::Parse { line: 1, .. })
        ));
    }

    #[test]
    fn discovery_lists_the_projects_hook_files() {
        let d = tempfile::tempdir().unwrap();
        let none = |_: &Path| None;
        assert!(CopilotHookConfig.default_paths(d.path(), &none).is_empty());
        std::fs::create_dir_all(d.path().join(".github/hooks")).unwrap();
        for f in ["b.json", "a.json", "notes.md"] {
            std::fs::write(d.path().join(".github/hooks").join(f), "{}").unwrap();
        }
        let found = CopilotHookConfig.default_paths(d.path(), &none);
        assert_eq!(found, [d.path().join(".github/hooks/a.json"), d.path().join(".github/hooks/b.json")]);
    }
}
