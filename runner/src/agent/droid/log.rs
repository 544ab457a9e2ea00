//! Droid's own log, `~/.factory/logs/droid-log-single.log` under the
//! session's HOME: its stream-json names no hook run, but the log says
//! when Droid ignored a whole hooks file (measured on 0.225.2: a
//! `~/.factory/hooks.json` whose sibling entry has the string timeout
//! `"5"` is `WARN: Invalid hooks file, ignoring | Context: {"path": ...}`,
//! and none of its hooks runs).

use std::path::{Path, PathBuf};

/// The log, relative to the session's HOME.
pub const LOG_FILE: &str = ".factory/logs/droid-log-single.log";

/// How a log line tells of a hooks file Droid ignored; its JSON context follows.
const INVALID_HOOKS_FILE: &str = "WARN: Invalid hooks file, ignoring | Context: ";

/// The hooks files the log says Droid ignored, in order (repeats kept).
pub fn ignored_hook_files(log: &str) -> Vec<PathBuf> {
    log.lines()
        .filter_map(|line| line.split_once(INVALID_HOOKS_FILE).map(|(_, context)| context))
        .filter_map(|context| serde_json::from_str::<serde_json::Value>(context).ok())
        .filter_map(|context| context["path"].as_str().map(PathBuf::from))
        .collect()
}

/// The log of a session whose HOME is `home`, if Droid wrote one.
pub fn read(home: &Path) -> Option<String> {
    crate::file_read::read_text(&home.join(LOG_FILE), crate::file_read::MAX_AGENT_FILE_BYTES).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ignored_hooks_file_is_read_off_its_warning() {
        let log = r#"[2026-12-05T10:16:51.563Z] WARN: Invalid hooks file, ignoring | Context: {"path":"/s/home/.factory/hooks.json","name":"hooks.json","tags":{"version":"0.225.2"}}
[2026-12-05T10:16:51.568Z] INFO: [SettingsService] Hooks and custom models refreshed | Context: {"tags":{}}
[2026-12-05T10:16:51.601Z] WARN: Invalid hooks file, ignoring | Context: not json"#;
        assert_eq!(ignored_hook_files(log), [PathBuf::from("/s/home/.factory/hooks.json")]);
        assert!(ignored_hook_files("[t] INFO: [Hooks] Executing hook | Context: {\"path\":\"/x\"}").is_empty());
    }
}
