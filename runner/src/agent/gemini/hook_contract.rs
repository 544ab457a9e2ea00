//! Gemini CLI's BeforeTool stdin contract ([`HookContract`]), measured on
//! 0.45.2 and 0.61.0 (docs/gemini.md): the guard reads `{session_id,
//! transcript_path, cwd, hook_event_name: "BeforeTool", timestamp,
//! tool_name, tool_input}`; its output is stdout, else stderr, trimmed;
//! JSON is read whatever the exit code (a top-level `decision` `deny` or
//! `block` refuses); plain text refuses with an exit of 2 or more, and no
//! output at all allows whatever the exit code (a silent exit 2 fails open).

use std::path::Path;

use serde_json::{json, Value};

use super::config::EVENT;
use crate::agent::hook_contract::{first_line, HookContract};
use crate::seal::answer::{self, gemini, Reading};
use crate::standin::gemini::SHELL_TOOL;

/// Gemini CLI's contract.
#[derive(Debug)]
pub struct GeminiContract;

impl HookContract for GeminiContract {
    /// Its hooks get these set to the session's directory (measured for
    /// Gemini CLI by `audit_hook_start`; the others by their docs).
    fn project_vars(&self) -> &'static [&'static str] {
        &super::hook_config::PROJECT_VARS
    }

    /// Its shell takes a probe's `command` (and `description`) as Claude Code's `Bash` does.
    fn probe_tool(&self, tool: &str) -> Option<&'static str> {
        (tool == "Bash").then_some(SHELL_TOOL)
    }

    fn payload(&self, tool: &str, input: &Value, cwd: &Path, transcript: &Path) -> Value {
        json!({
            "session_id": "failopen-screen",
            "transcript_path": transcript,
            "cwd": cwd,
            "hook_event_name": EVENT,
            "timestamp": "1970-01-01T00:00:00.000Z",
            "tool_name": tool,
            "tool_input": input,
        })
    }

    fn read(&self, code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> (bool, String) {
        let Some(code) = code else { return (false, "killed by a signal".into()) };
        let out = if String::from_utf8_lossy(stdout).trim().is_empty() { stderr } else { stdout };
        if let Ok(v) = answer::parse(out) {
            return match gemini::read(&v) {
                Reading::Deny => {
                    let reason = v.get("reason").and_then(Value::as_str).unwrap_or("");
                    (true, format!("deny: {}", reason.chars().take(120).collect::<String>()))
                }
                _ => (false, format!("exit {code}: allowed (its JSON refuses nothing)")),
            };
        }
        let text = first_line(out);
        match code {
            0 => (false, "allowed".into()),
            _ if text.is_empty() => (false, format!("exit {code} with no output: allowed")),
            1 => (false, format!("exit 1: {text} (allowed)")),
            n => (true, format!("exit {n}: {text}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gemini_refuses_on_exit_2_with_words_or_a_json_decision() {
        let c = GeminiContract;
        assert_eq!(c.read(Some(2), b"", b"no reset\n"), (true, "exit 2: no reset".into()));
        assert!(!c.read(Some(2), b"", b"").0, "a silent exit 2 fails open on Gemini CLI");
        assert!(!c.read(Some(1), b"", b"boom").0, "a crash allows");
        assert!(c.read(Some(127), b"", b"sh: 1: /g.sh: not found").0, "any exit of 2 or more with words refuses");
        assert!(c.read(Some(0), br#"{"decision":"deny","reason":"x"}"#, b"").0);
        assert!(c.read(Some(1), b"", br#"{"decision":"block"}"#).0, "stderr is read when stdout is empty");
        let claude = br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#;
        assert!(!c.read(Some(0), claude, b"").0, "Claude Code's shape is no decision here");
        assert!(!c.read(None, b"", b"").0);
        assert_eq!(c.probe_tool("Bash"), Some("run_shell_command"));
        assert_eq!(c.probe_tool("Write"), None);
        let p = c.payload("run_shell_command", &json!({"command": "ls"}), Path::new("/w"), Path::new("/t"));
        assert_eq!((p["hook_event_name"].as_str(), p["tool_input"]["command"].as_str()), (Some(EVENT), Some("ls")));
    }
}
