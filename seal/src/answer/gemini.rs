//! Gemini CLI's reading of a `BeforeTool` hook's answer: a top-level
//! `decision` of `allow`, `deny` or `block` (its alias of `deny`), per its
//! hooks reference; it reads no `hookSpecificOutput` decision, so Claude
//! Code's shape is no answer there. Measured: 0.45.2 and 0.61.0
//! (arms/shapes.json).

use serde_json::Value;

use super::Reading;

/// Gemini CLI's event before a tool runs (Claude Code's `PreToolUse`).
pub const BEFORE_TOOL: &str = "BeforeTool";

/// Values of its top-level `decision`.
pub const DECISIONS: [&str; 3] = ["allow", "deny", "block"];

/// How Gemini CLI reads `answer` (a JSON object).
pub fn read(answer: &Value) -> Reading {
    match answer.get("decision") {
        None => Reading::NoDecision("its JSON has no decision (allow|deny|block)".into()),
        Some(Value::String(d)) if d == "allow" => Reading::Allow,
        Some(Value::String(d)) if d == "deny" || d == "block" => Reading::Deny,
        Some(other) => Reading::Rejected(format!("decision is {other}, not one of {}", DECISIONS.join(", "))),
    }
}

/// Whether `bytes` (a hook's stdout or stderr) is a refusal to Gemini CLI:
/// a JSON object whose top-level `decision` is `deny` or `block`.
pub fn is_deny(bytes: &[u8]) -> bool {
    super::parse(bytes).is_ok_and(|v| read(&v) == Reading::Deny)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_the_top_level_decision_counts() {
        assert_eq!(read(&json!({"decision": "deny", "reason": "r"})), Reading::Deny);
        assert_eq!(read(&json!({"decision": "block"})), Reading::Deny);
        assert_eq!(read(&json!({"decision": "allow"})), Reading::Allow);
        assert!(matches!(read(&json!({"hookSpecificOutput": {"permissionDecision": "deny"}})), Reading::NoDecision(_)));
        assert!(matches!(read(&json!({"decision": "ask"})), Reading::Rejected(_)));
        assert!(is_deny(b" {\"decision\":\"deny\"}\n"));
        assert!(!is_deny(b"{\"level\":\"error\"}"));
        assert!(!is_deny(b"denied"));
    }
}
