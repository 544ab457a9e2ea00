//! Cline CLI's PreToolUse stdin contract ([`HookContract`]), measured on
//! 3.0.57 and 3.0.65 (docs/cline.md): the hook gets `{clineVersion,
//! hookName: "tool_call", taskId, workspaceRoots, tool_call: {id, name,
//! input}, preToolUse: {toolName, parameters}}`, a shell call being
//! `run_commands` with `{"commands": [line]}`. Cline reads only stdout JSON
//! with `cancel: true` as a refusal (whatever the exit code), read as seal
//! reads it ([`crate::seal::answer::cline`]); an exit 2 with a reason, or
//! Claude Code's JSON deny, runs the call. A guard that answers so means to
//! refuse, and Cline does not read it: its answer starts with
//! [`UNREAD_REFUSAL`], and audit confirms in a session that the call runs.

use std::path::Path;

use serde_json::{json, Value};

use crate::agent::hook_contract::{first_line, HookContract, UNREAD_REFUSAL};
use crate::seal::answer::{self, cline, Reading};
use crate::standin::chat_completions::SHELL_TOOL;

/// Cline CLI's contract.
#[derive(Debug)]
pub struct ClineContract;

/// What Cline reads as a refusal, for the answers it does not read.
const READS: &str = "Cline CLI reads only {\"cancel\": true} on stdout";

impl HookContract for ClineContract {
    /// Measured on 3.0.65: none (the project is the payload's `workspaceRoots`).
    fn project_vars(&self) -> &'static [&'static str] {
        &[]
    }

    /// Its shell (`run_commands`) takes a probe's `command` as one line of `commands`.
    fn probe_tool(&self, tool: &str) -> Option<&'static str> {
        (tool == "Bash").then_some(SHELL_TOOL)
    }

    fn payload(&self, tool: &str, input: &Value, cwd: &Path, _transcript: &Path) -> Value {
        let input = match input.get("command") {
            Some(command) if tool == SHELL_TOOL => json!({"commands": [command]}),
            _ => input.clone(),
        };
        json!({
            "clineVersion": "failopen-screen",
            "hookName": "tool_call",
            "taskId": "failopen-screen",
            "workspaceRoots": [cwd],
            "tool_call": {"id": "call_failopen_screen", "name": tool, "input": input},
            "preToolUse": {"toolName": tool, "parameters": input},
        })
    }

    fn read(&self, code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> (bool, String) {
        let parsed = answer::parse(stdout).ok();
        if let Some(v) = &parsed {
            match cline::read(v) {
                Reading::Deny => {
                    let reason = v.get("errorMessage").and_then(Value::as_str).unwrap_or("");
                    return (true, format!("cancel: {}", reason.chars().take(120).collect::<String>()));
                }
                Reading::Rejected(why) if answer::means_refusal(v) => {
                    return (false, format!("{UNREAD_REFUSAL}a JSON deny ({why})"));
                }
                _ => {}
            }
        }
        match code {
            None => (false, "killed by a signal (allowed)".into()),
            Some(2) if !first_line(stderr).is_empty() => {
                (false, format!("{UNREAD_REFUSAL}exit 2: {} ({READS}: the call runs)", first_line(stderr)))
            }
            Some(n) => (false, format!("exit {n}: allowed")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_cancel_refuses_and_a_claude_code_refusal_is_one_cline_does_not_read() {
        let c = ClineContract;
        assert_eq!(
            c.read(Some(0), br#"{"cancel": true, "errorMessage": "no reset"}"#, b""),
            (true, "cancel: no reset".into())
        );
        assert!(c.read(Some(2), br#"{"cancel": true}"#, b"").0, "a cancel refuses on exit 2 too");
        let (refused, answer) = c.read(Some(2), b"", b"BLOCKED: destructive\n");
        assert!(!refused && answer.starts_with(UNREAD_REFUSAL) && answer.contains("BLOCKED"), "{answer}");
        let deny = br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}"#;
        let (refused, answer) = c.read(Some(0), deny, b"");
        assert!(!refused && answer.starts_with(UNREAD_REFUSAL), "{answer}");
        assert_eq!(c.read(Some(0), b"", b""), (false, "exit 0: allowed".into()));
        assert_eq!(c.read(Some(1), b"", b"boom"), (false, "exit 1: allowed".into()));
        assert!(!c.read(Some(2), b"", b"").0 && !c.read(None, b"", b"").0);
        assert_eq!((c.probe_tool("Bash"), c.probe_tool("Write")), (Some("run_commands"), None));
        let p = c.payload("run_commands", &json!({"command": "git reset --hard"}), Path::new("/w"), Path::new("/t"));
        assert!(answer::cline::is_its_payload(&p));
        assert_eq!(p["tool_call"]["input"], json!({"commands": ["git reset --hard"]}));
        assert_eq!(p["preToolUse"]["toolName"], "run_commands");
    }
}
