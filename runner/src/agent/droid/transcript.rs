//! Droid's own session transcript, `~/.factory/sessions/<cwd>/<id>.jsonl`
//! under the session's HOME: its stream-json names no hook run, but the
//! transcript records each one. Every run of an event's matched hooks is a
//! `message` line whose `message` has `hookEventName`, `hookCommands` (each
//! `{"type": "command", "command": ...}`) and `hookResults` (each
//! `{"exitCode": ...}`, in the commands' order), and `hookToolCallId`, the
//! call it ran for (measured on 0.225.2 and 0.215.0: a guard's exit 2 is
//! `"exitCode": 2`, a missing script 127, a hang cut at its timeout 1).

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The sessions' directory, relative to the session's HOME.
pub const SESSIONS_DIR: &str = ".factory/sessions";

/// The PreToolUse runs of a command spelt as one of `commands`, in the
/// transcript's text, in order, in Claude Code's words: `success:0` for an
/// exit 0, `error:<code>` otherwise.
pub fn hook_runs(text: &str, commands: &[&str]) -> Vec<String> {
    let mut runs = Vec::new();
    for line in text.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()) {
        let message = &line["message"];
        if message["hookEventName"].as_str() != Some("PreToolUse") {
            continue;
        }
        let entries = message["hookCommands"].as_array().map(Vec::as_slice).unwrap_or_default();
        let results = message["hookResults"].as_array().map(Vec::as_slice).unwrap_or_default();
        for (entry, result) in entries.iter().zip(results) {
            if !entry["command"].as_str().is_some_and(|c| commands.contains(&c)) {
                continue;
            }
            runs.push(match &result["exitCode"] {
                Value::Number(n) if n.as_i64() == Some(0) => "success:0".to_string(),
                Value::Number(n) => format!("error:{n}"),
                _ => "error".to_string(),
            });
        }
    }
    runs
}

/// The transcripts of a session whose HOME is `home`, read whole, in path
/// order (one session writes one); none when Droid wrote none.
pub fn read(home: &Path) -> Vec<String> {
    let Ok(dirs) = std::fs::read_dir(home.join(SESSIONS_DIR)) else { return Vec::new() };
    let mut files: Vec<PathBuf> = dirs
        .flatten()
        .filter_map(|d| std::fs::read_dir(d.path()).ok())
        .flat_map(|entries| entries.flatten().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .filter(|p| std::fs::symlink_metadata(p).is_ok_and(|m| !m.is_symlink()))
        .collect();
    files.sort();
    files.iter().filter_map(|p| crate::file_read::read_text(p, crate::file_read::MAX_AGENT_FILE_BYTES).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_line(event: &str, commands: &[&str], codes: &[Value]) -> String {
        let commands: Vec<Value> =
            commands.iter().map(|c| serde_json::json!({"type": "command", "command": c, "timeout": 5})).collect();
        let results: Vec<Value> = codes.iter().map(|c| serde_json::json!({"exitCode": c, "stderr": ""})).collect();
        serde_json::json!({"type": "message", "message": {"role": "user", "content": [], "hookEventName": event,
            "hookMatcher": "Execute", "hookCommands": commands, "hookResults": results, "hookToolCallId": "toolu_1"}})
        .to_string()
    }

    #[test]
    fn the_runs_of_the_hook_under_test_are_read_in_claude_codes_words() {
        let guard = "/r/guards/cell-0/deny.sh";
        let text = [
            r#"{"type":"session_start","id":"s"}"#.to_string(),
            run_line("PreToolUse", &[guard], &[2.into()]),
            run_line("PreToolUse", &["/other.sh", guard], &[0.into(), 127.into()]),
            run_line("PreToolUse", &[guard], &[0.into()]),
            run_line("PostToolUse", &[guard], &[1.into()]),
            run_line("PreToolUse", &[guard], &[Value::Null]),
            "not json".to_string(),
        ]
        .join("\n");
        assert_eq!(hook_runs(&text, &[guard]), ["error:2", "error:127", "success:0", "error"], "not PostToolUse's");
        assert!(hook_runs(&run_line("PreToolUse", &["/other.sh"], &[2.into()]), &[guard]).is_empty());
        let said = r#"{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"/r/guards/cell-0/deny.sh"}]}}"#;
        assert!(hook_runs(said, &[guard]).is_empty(), "a message naming the guard is no run");
    }

    #[test]
    fn only_the_sessions_transcripts_are_read() {
        let home = tempfile::tempdir().unwrap();
        assert!(read(home.path()).is_empty(), "no sessions directory");
        let dir = home.path().join(SESSIONS_DIR).join("-tmp-work");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("a.jsonl"), "one").unwrap();
        std::fs::write(dir.join("a.settings.json"), "{}").unwrap();
        std::os::unix::fs::symlink("/etc/passwd", dir.join("b.jsonl")).unwrap();
        assert_eq!(read(home.path()), ["one"], "the settings file and a symlink are not read");
    }
}
