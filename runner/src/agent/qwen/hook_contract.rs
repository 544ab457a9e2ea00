//! Qwen Code's PreToolUse stdin contract ([`HookContract`]), as 0.24.4
//! reads a command hook (docs/qwen.md, and its hook runner): the guard gets
//! Claude Code's payload with Qwen's (Gemini CLI's) tool names, a shell call
//! being `run_shell_command` with the command in `tool_input.command`.
//! Exit 2 refuses (its stderr the reason, `Tool execution blocked by hook`
//! when there is none); exit 0 refuses when stdout is JSON whose top-level
//! `decision` is `deny` or `block`, or Claude Code's
//! `hookSpecificOutput.permissionDecision: "deny"`; every other ending (exit
//! 1, 126, 127, a signal, garbage) is a non-blocking error and the call runs.
//! 0.15.6 took any exit of 2 or more with text as a refusal: a screen reads
//! the pinned release's rule, and the sessions judge the release they run.

use std::path::Path;

use serde_json::{json, Value};

use super::config::EVENT;
use crate::agent::gemini::hook_contract::GeminiContract;
use crate::agent::hook_contract::{first_line, HookContract};
use crate::seal::answer;

/// Qwen Code's contract.
#[derive(Debug)]
pub struct QwenContract;

impl HookContract for QwenContract {
    /// Its hooks get these set to the session's directory (measured for
    /// Gemini CLI by `audit_hook_start`; the others by their docs).
    fn project_vars(&self) -> &'static [&'static str] {
        &super::hook_config::PROJECT_VARS
    }

    /// Its shell is Gemini CLI's.
    fn probe_tool(&self, tool: &str) -> Option<&'static str> {
        GeminiContract.probe_tool(tool)
    }

    /// Gemini CLI's payload under Claude Code's event, with the keys Qwen adds.
    fn payload(&self, tool: &str, input: &Value, cwd: &Path, transcript: &Path) -> Value {
        let mut payload = GeminiContract.payload(tool, input, cwd, transcript);
        payload["hook_event_name"] = json!(EVENT);
        payload["permission_mode"] = json!("yolo");
        payload["tool_use_id"] = json!("toolu_failopen_screen");
        payload
    }

    fn read(&self, code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> (bool, String) {
        match code {
            None => (false, "killed by a signal (allowed)".into()),
            Some(2) => {
                let reason = first_line(stderr);
                let reason = if reason.is_empty() { super::wording::NO_REASON.to_string() } else { reason };
                (true, format!("exit 2: {reason}"))
            }
            Some(0) => exit0(stdout),
            Some(n) => (false, format!("exit {n}: {} (allowed)", first_line(stderr))),
        }
    }
}

/// An exit 0's answer, as Qwen reads it.
fn exit0(stdout: &[u8]) -> (bool, String) {
    let Ok(v) = answer::parse(stdout) else { return (false, "allowed".into()) };
    let top = v.get("decision").and_then(Value::as_str);
    let specific = v.pointer("/hookSpecificOutput/permissionDecision").and_then(Value::as_str);
    if matches!(top, Some("deny" | "block")) || specific == Some("deny") {
        let reason = v
            .pointer("/hookSpecificOutput/permissionDecisionReason")
            .or_else(|| v.get("reason"))
            .and_then(Value::as_str)
            .unwrap_or("");
        return (true, format!("deny: {}", reason.chars().take(120).collect::<String>()));
    }
    (false, "allowed".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qwen_refuses_on_exit_2_or_a_json_deny_only() {
        let c = QwenContract;
        assert_eq!(c.read(Some(2), b"", b"no reset\n"), (true, "exit 2: no reset".into()));
        assert!(c.read(Some(2), b"", b"").0, "exit 2 refuses with no reason too");
        assert!(!c.read(Some(1), b"", b"boom").0, "a crash is a non-blocking error");
        assert!(!c.read(Some(127), b"", b"sh: 1: /g.sh: not found").0, "0.24.4: only exit 2 refuses");
        let claude = br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no"}}"#;
        assert_eq!(c.read(Some(0), claude, b""), (true, "deny: json says no".into()));
        assert!(c.read(Some(0), br#"{"decision":"block","reason":"x"}"#, b"").0);
        assert!(!c.read(Some(0), br#"{"decision":"allow"}"#, b"").0);
        assert!(!c.read(Some(0), b"garbage", b"").0);
        assert!(!c.read(None, b"", b"").0);
        assert_eq!((c.probe_tool("Bash"), c.probe_tool("Write")), (Some("run_shell_command"), None));
        let p = c.payload("run_shell_command", &json!({"command": "ls"}), Path::new("/w"), Path::new("/t"));
        assert_eq!((p["hook_event_name"].as_str(), p["tool_input"]["command"].as_str()), (Some(EVENT), Some("ls")));
    }
}
