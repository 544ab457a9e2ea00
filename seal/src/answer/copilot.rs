//! GitHub Copilot CLI's reading of a `preToolUse` hook's answer: a
//! top-level `permissionDecision` (with `permissionDecisionReason`), as its
//! hooks reference and a run show (`{"permissionDecision":"deny",
//! "permissionDecisionReason":"x"}` refused with "Denied by preToolUse hook:
//! x", 1.0.102). It reads no `hookSpecificOutput`: Claude Code's shape of
//! the same deny ran the call bare and, passed on by seal before seal knew
//! Copilot, sealed too (`json-deny/bare` and `/sealed` wrote on 1.0.102).
//! Its payload is camelCase (`toolName`, `toolArgs`) and names no event.
//!
//! Copilot reads that JSON on exit 2 too, and from 1.0.55 to 1.0.69 it is
//! the only refusal there: those releases ran the call after a plain exit 2
//! (results/copilot-history.csv), while `{"permissionDecision":"deny"}`
//! printed with exit 2 was refused on every release measured
//! (results/copilot-seal.csv). So seal writes [`deny`] on stdout beside
//! every exit 2 on a Copilot payload.

use serde_json::{json, Value};

use super::Reading;

/// Whether `payload` is Copilot CLI's: `toolName` and no `hook_event_name`.
pub fn is_its_payload(payload: &Value) -> bool {
    payload.get("toolName").is_some() && payload.get("hook_event_name").is_none()
}

/// How Copilot CLI reads `answer` (a JSON object).
pub fn read(answer: &Value) -> Reading {
    match answer.get("permissionDecision") {
        Some(Value::String(d)) if d == "deny" => Reading::Deny,
        Some(Value::String(d)) if d == "allow" => Reading::Allow,
        // Not measured: seal refuses rather than guess.
        Some(other) => {
            Reading::Rejected(format!("permissionDecision {other} is not a decision measured on Copilot CLI"))
        }
        None if answer.get("hookSpecificOutput").is_some() => Reading::Rejected(
            "Copilot CLI reads a top-level permissionDecision, not hookSpecificOutput: the call runs".into(),
        ),
        None => Reading::NoDecision("its JSON has no top-level permissionDecision".into()),
    }
}

/// Whether `answer` is Copilot's deny worded with a reason of its own.
pub fn is_worded_deny(answer: &Value) -> bool {
    read(answer) == Reading::Deny
        && answer.get("permissionDecisionReason").and_then(Value::as_str).is_some_and(|r| !r.trim().is_empty())
}

/// The stdout that makes every Copilot release measured refuse, beside an
/// exit 2: a top-level deny with `reason` (seal's line).
pub fn deny(reason: &str) -> Vec<u8> {
    let mut out =
        json!({"permissionDecision": "deny", "permissionDecisionReason": reason.trim()}).to_string().into_bytes();
    out.push(b'\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_the_top_level_permission_decision_counts() {
        assert_eq!(read(&json!({"permissionDecision": "deny", "permissionDecisionReason": "x"})), Reading::Deny);
        assert_eq!(read(&json!({"permissionDecision": "allow"})), Reading::Allow);
        let claude = json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
            "permissionDecisionReason": "x"}});
        assert!(matches!(read(&claude), Reading::Rejected(_)));
        assert!(matches!(read(&json!({"permissionDecision": "ask"})), Reading::Rejected(_)));
        assert!(matches!(read(&json!({})), Reading::NoDecision(_)));
    }

    /// The cell `json-deny/sealed` wrote on Copilot CLI 1.0.102: seal passed
    /// Claude Code's deny on, and Copilot ran the call. Now it is refused.
    #[test]
    fn its_payload_is_told_apart() {
        // As recorded by the battery's guard on Copilot CLI 1.0.102.
        let p =
            json!({"sessionId": "s", "timestamp": 1, "cwd": "/w", "toolName": "bash", "toolArgs": {"command": "ls"}});
        assert!(is_its_payload(&p));
        assert!(!is_its_payload(&json!({"hook_event_name": "PreToolUse", "tool_name": "Bash"})));
    }
}
