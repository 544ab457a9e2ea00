//! Cline CLI's reading of a `PreToolUse` hook's answer: stdout JSON whose
//! `cancel: true` aborts the whole run (with `errorMessage`), whatever the
//! exit code; it reads no exit code and no other key (an exit 2, a crash
//! and Claude Code's `permissionDecision: "deny"` all ran the call on 3.0.57
//! and 3.0.65: docs/cline.md). So on a Cline payload every refusal of seal's
//! (its own, or the guard's exit 2) is also written as a cancel on stdout
//! ([`cancel`]), beside the exit 2 the other agents read.
//! Its payload names the hook `hookName: "tool_call"`, with the call under
//! `tool_call` and `preToolUse`, and no `hook_event_name`.

use serde_json::{json, Value};

use super::Reading;

/// Whether `payload` is Cline CLI's: `hookName` and `preToolUse`, no `hook_event_name`.
pub fn is_its_payload(payload: &Value) -> bool {
    payload.get("hookName").is_some() && payload.get("preToolUse").is_some() && payload.get("hook_event_name").is_none()
}

/// How Cline CLI reads `answer` (a JSON object).
pub fn read(answer: &Value) -> Reading {
    match answer.get("cancel") {
        Some(Value::Bool(true)) => Reading::Deny,
        Some(Value::Bool(false)) | None if super::means_refusal(answer) => {
            Reading::Rejected("Cline CLI reads only `cancel: true`: the call runs".into())
        }
        Some(Value::Bool(false)) => Reading::Allow,
        None => Reading::NoDecision("its JSON has no cancel".into()),
        Some(other) => Reading::Rejected(format!("cancel {other} is not a boolean: Cline runs the call")),
    }
}

/// Whether a `cancel: true` carries a non-blank `errorMessage`.
pub fn is_worded_cancel(answer: &Value) -> bool {
    answer.get("cancel") == Some(&Value::Bool(true))
        && answer.get("errorMessage").and_then(Value::as_str).is_some_and(|m| !m.trim().is_empty())
}

/// The stdout that makes Cline refuse: a cancel with `reason` (seal's line).
pub fn cancel(reason: &str) -> Vec<u8> {
    let mut out = json!({"cancel": true, "errorMessage": reason.trim()}).to_string().into_bytes();
    out.push(b'\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// As recorded by the battery's guard on Cline 3.0.65.
    fn payload() -> Value {
        json!({"clineVersion": "", "hookName": "tool_call", "taskId": "t", "workspaceRoots": ["/w"],
            "tool_call": {"id": "call_fo1", "name": "run_commands", "input": {"commands": ["ls"]}},
            "preToolUse": {"toolName": "run_commands", "parameters": {"commands": "[\"ls\"]"}}})
    }

    #[test]
    fn only_cancel_counts() {
        assert_eq!(read(&json!({"cancel": true, "errorMessage": "no"})), Reading::Deny);
        assert_eq!(read(&json!({"cancel": false})), Reading::Allow);
        assert!(matches!(read(&json!({})), Reading::NoDecision(_)));
        let claude = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": "x"}});
        assert!(matches!(read(&claude), Reading::Rejected(_)));
        assert!(matches!(read(&json!({"cancel": "yes"})), Reading::Rejected(_)));
        assert!(is_worded_cancel(&json!({"cancel": true, "errorMessage": "no"})));
        assert!(!is_worded_cancel(&json!({"cancel": true, "errorMessage": " "})));
        let c: Value = serde_json::from_slice(&cancel("guard x refused\n")).unwrap();
        assert_eq!(c, json!({"cancel": true, "errorMessage": "guard x refused"}));
    }

    #[test]
    fn its_payload_is_told_apart() {
        assert!(is_its_payload(&payload()));
        assert!(!is_its_payload(&json!({"hook_event_name": "PreToolUse", "tool_name": "Bash"})));
        assert!(!is_its_payload(&json!({"toolName": "bash"})));
    }
}
