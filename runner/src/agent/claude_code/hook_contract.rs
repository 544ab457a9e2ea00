//! Claude Code's PreToolUse stdin contract ([`HookContract`]): the payload
//! of a call, and its reading of a hook's ending: exit 2 refuses with
//! stderr as the reason; exit 0 refuses when stdout is a JSON deny that
//! passes Claude Code's hook-output schema, read as seal reads it
//! ([`crate::seal::answer::claude_code`]): a deny with a null reason, no
//! `hookEventName` or another event's is no decision, and the call runs.

use std::path::Path;

use serde_json::{json, Value};

use crate::agent::hook_contract::{first_line, HookContract};

/// Claude Code's contract.
#[derive(Debug)]
pub struct ClaudeCodeContract;

/// The start of an answer when the guard meant to refuse in a shape Claude
/// Code rejects (so the call runs); the rest says why, in seal's words.
pub const REJECTED_DENY: &str = "a deny Claude Code rejects: ";

impl HookContract for ClaudeCodeContract {
    /// Measured on 2.1.328: `CLAUDE_PROJECT_DIR` (and a plugin's hook also
    /// `CLAUDE_PLUGIN_ROOT`, set from where the plugin loads).
    fn project_vars(&self) -> &'static [&'static str] {
        &["CLAUDE_PROJECT_DIR"]
    }

    fn probe_tool(&self, tool: &str) -> Option<&'static str> {
        crate::standin::probe_call::TOOLS.iter().copied().find(|t| *t == tool)
    }

    fn payload(&self, tool: &str, input: &Value, cwd: &Path, transcript: &Path) -> Value {
        json!({
            "session_id": "failopen-screen",
            "transcript_path": transcript,
            "cwd": cwd,
            "permission_mode": "bypassPermissions",
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": input,
            "tool_use_id": "toolu_failopen_screen",
        })
    }

    fn read(&self, code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> (bool, String) {
        match code {
            Some(2) => (true, format!("exit 2: {}", first_line(stderr))),
            Some(0) => exit0(stdout),
            Some(n) => (false, super::hook_census::said(format!("exit {n}"), &String::from_utf8_lossy(stderr))),
            None => (false, "killed by a signal".into()),
        }
    }
}

/// An exit 0's answer, as Claude Code reads it.
fn exit0(stdout: &[u8]) -> (bool, String) {
    use crate::seal::answer::{self, claude_code, Reading};
    // Plain text, or nothing, is an allow.
    let Ok(v) = answer::parse(stdout) else { return (false, "allowed".into()) };
    match claude_code::read(Some("PreToolUse"), &v) {
        Reading::Deny => {
            let reason = v
                .pointer("/hookSpecificOutput/permissionDecisionReason")
                .or_else(|| v.get("reason"))
                .and_then(Value::as_str)
                .unwrap_or("");
            (true, format!("deny: {}", reason.chars().take(120).collect::<String>()))
        }
        Reading::Ask => (false, "ask (not a refusal)".into()),
        Reading::Rejected(why) if answer::means_refusal(&v) => (false, format!("{REJECTED_DENY}{why}")),
        _ => (false, "allowed".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide(code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> (bool, String) {
        ClaudeCodeContract.read(code, stdout, stderr)
    }

    #[test]
    fn a_refusal_is_exit_2_or_a_json_deny() {
        assert!(decide(Some(2), b"", b"no\n").0);
        assert!(
            decide(
                Some(0),
                br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}"#,
                b""
            )
            .0
        );
        assert!(decide(Some(0), br#"{"decision":"block","reason":"x"}"#, b"").0);
        assert!(!decide(Some(0), br#"{"hookSpecificOutput":{"permissionDecision":"allow"}}"#, b"").0);
        assert!(!decide(Some(1), b"", b"boom").0, "a crash is not a refusal");
        assert!(!decide(None, b"", b"").0);
    }

    /// Measured on Claude Code 2.1.328 (arms/shapes.json): each of these
    /// denies is no decision to it, and the call runs.
    #[test]
    fn a_deny_claude_code_rejects_is_no_refusal_and_says_why() {
        for (answer, why) in [
            (r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"x"}}"#, "hookEventName"),
            (
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":null}}"#,
                "permissionDecisionReason",
            ),
            (
                r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}"#,
                "PostToolUse",
            ),
            (r#"{"async":true,"decision":"block","reason":"x"}"#, "async"),
            (r#"{"decision":"deny","reason":"x"}"#, "decision"),
        ] {
            let (refused, said) = decide(Some(0), answer.as_bytes(), b"");
            assert!(!refused, "{answer}");
            assert!(said.starts_with(REJECTED_DENY) && said.contains(why), "{answer}: {said}");
        }
        assert_eq!(decide(Some(0), b"{}", b""), (false, "allowed".into()));
        assert_eq!(decide(Some(0), b"ok\n", b""), (false, "allowed".into()));
    }
}
