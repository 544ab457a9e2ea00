//! `--expect-json`: an exit 0 must carry a decision for the payload's event.
//!
//! Any JSON object is not enough: `{}` or `{"continue": true}` on exit 0 is
//! "no objection" to Claude Code, so a JSON guard that lost its decision
//! would allow. The decision fields follow Claude Code's hooks reference
//! ("Decision control"), keyed on the payload's `hook_event_name`:
//!
//! | event | accepted decision |
//! |---|---|
//! | `PreToolUse` | `hookSpecificOutput.permissionDecision`: `allow`, `deny` or `ask`; or the deprecated top-level `decision`: `approve` or `block` |
//! | `PermissionRequest` | `hookSpecificOutput.decision.behavior`: `allow` or `deny` |
//! | `UserPromptSubmit`, `PostToolUse`, `PostToolUseFailure`, `Stop`, `SubagentStop`, `ConfigChange` | top-level `decision`: `block` (or `approve`) |
//! | `BeforeTool` (Gemini CLI's) | top-level `decision`: `allow`, `deny` or `block` (its alias of `deny`); Gemini CLI reads no `hookSpecificOutput` decision, so Claude Code's shape is no answer there |
//! | any other event, or a payload that is not a JSON object with a `hook_event_name` | `hookSpecificOutput.permissionDecision` or top-level `decision`, values as for `PreToolUse` |
//!
//! A decision field that is present with a value outside its list is a
//! problem too (a typo must not pass for an answer). `permissionDecision`
//! `defer`, which newer Claude Code versions accept in `-p` mode only, is not
//! accepted: a version that does not know it would let the call through.

use serde_json::Value;

/// Values of `hookSpecificOutput.permissionDecision` (PreToolUse).
pub const PERMISSION_DECISIONS: [&str; 3] = ["allow", "deny", "ask"];
/// Values of the top-level `decision` (`approve` is deprecated for PreToolUse).
pub const TOP_LEVEL_DECISIONS: [&str; 2] = ["approve", "block"];
/// Values of Gemini CLI's top-level `decision` (`BeforeTool`), from its hooks
/// reference: `block` is an alias of `deny`; anything else it takes as allow.
pub const GEMINI_DECISIONS: [&str; 3] = ["allow", "deny", "block"];
/// Gemini CLI's event before a tool runs (Claude Code's `PreToolUse`).
pub const GEMINI_BEFORE_TOOL: &str = "BeforeTool";
/// Values of `hookSpecificOutput.decision.behavior` (PermissionRequest).
pub const PERMISSION_REQUEST_BEHAVIORS: [&str; 2] = ["allow", "deny"];
/// Events whose decision is the top-level `decision` field.
pub const TOP_LEVEL_DECISION_EVENTS: [&str; 6] =
    ["UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "Stop", "SubagentStop", "ConfigChange"];

/// One place a decision can be written, and its valid values.
struct Field {
    /// JSON pointer into the guard's answer.
    pointer: &'static str,
    /// Its name as shown in messages.
    name: &'static str,
    values: &'static [&'static str],
}

const PERMISSION_DECISION: Field = Field {
    pointer: "/hookSpecificOutput/permissionDecision",
    name: "hookSpecificOutput.permissionDecision",
    values: &PERMISSION_DECISIONS,
};
const TOP_LEVEL_DECISION: Field = Field { pointer: "/decision", name: "decision", values: &TOP_LEVEL_DECISIONS };
const GEMINI_DECISION: Field = Field { pointer: "/decision", name: "decision", values: &GEMINI_DECISIONS };
const BEHAVIOR: Field = Field {
    pointer: "/hookSpecificOutput/decision/behavior",
    name: "hookSpecificOutput.decision.behavior",
    values: &PERMISSION_REQUEST_BEHAVIORS,
};

/// The `hook_event_name` of a payload, if it is a JSON object that has one.
pub fn event_name(payload: &[u8]) -> Option<String> {
    let value: Value = serde_json::from_slice(payload).ok()?;
    value.get("hook_event_name")?.as_str().map(str::to_string)
}

/// `None` if `stdout` (a guard's answer on exit 0) carries a decision for
/// the event named in `payload`; otherwise why not, worded to follow
/// "exited 0 ".
pub fn decision_problem(payload: &[u8], stdout: &[u8]) -> Option<String> {
    let answer = match parse_object(stdout) {
        Ok(answer) => answer,
        Err(why) => return Some(format!("exited 0 without a JSON decision: {why}")),
    };
    let event = event_name(payload);
    let fields: &[Field] = match event.as_deref() {
        Some("PermissionRequest") => &[BEHAVIOR],
        Some(GEMINI_BEFORE_TOOL) => &[GEMINI_DECISION],
        Some(e) if TOP_LEVEL_DECISION_EVENTS.contains(&e) => &[TOP_LEVEL_DECISION],
        _ => &[PERMISSION_DECISION, TOP_LEVEL_DECISION],
    };
    let for_event = match &event {
        Some(e) => format!("a {e} decision"),
        None => "a decision".to_string(),
    };
    let mut found = false;
    for field in fields {
        match answer.pointer(field.pointer) {
            None => {}
            Some(Value::String(v)) if field.values.contains(&v.as_str()) => found = true,
            Some(other) => {
                return Some(format!(
                    "exited 0 without {for_event}: {} is {other}, not one of {}",
                    field.name,
                    field.values.join(", ")
                ))
            }
        }
    }
    if found {
        return None;
    }
    let wanted = fields.iter().map(|f| format!("{} ({})", f.name, f.values.join("|"))).collect::<Vec<_>>().join(" or ");
    Some(format!("exited 0 without {for_event}: its JSON has no {wanted}"))
}

/// `stdout` as a JSON object (surrounding whitespace allowed), or why not.
fn parse_object(stdout: &[u8]) -> Result<Value, String> {
    let trimmed = stdout.trim_ascii();
    if trimmed.is_empty() {
        return Err("stdout was empty".into());
    }
    match serde_json::from_slice::<Value>(trimmed) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err("stdout is JSON but not an object".into()),
        Err(e) => Err(format!("stdout is not JSON ({e})")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payload(event: &str) -> Vec<u8> {
        format!(r#"{{"session_id":"s","hook_event_name":"{event}","tool_name":"Bash"}}"#).into_bytes()
    }

    fn ok(event: &[u8], answer: &str) -> bool {
        decision_problem(event, answer.as_bytes()).is_none()
    }

    #[test]
    fn any_object_is_not_enough() {
        for event in ["PreToolUse", "PermissionRequest", "Stop", "Notification"] {
            for answer in ["{}", r#"{"continue":true}"#, r#"{"suppressOutput":true,"systemMessage":"hi"}"#] {
                let why = decision_problem(&payload(event), answer.as_bytes());
                assert!(why.is_some(), "{event}: {answer} passed");
            }
        }
        let why = decision_problem(&payload("PreToolUse"), b"{}").unwrap();
        assert_eq!(
            why,
            "exited 0 without a PreToolUse decision: its JSON has no hookSpecificOutput.permissionDecision \
             (allow|deny|ask) or decision (approve|block)"
        );
    }

    #[test]
    fn pre_tool_use() {
        let p = payload("PreToolUse");
        for d in ["allow", "deny", "ask"] {
            assert!(ok(
                &p,
                &format!(r#"{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"{d}"}}}}"#)
            ));
        }
        assert!(ok(&p, r#"{"decision":"block","reason":"no"}"#), "deprecated form");
        assert!(ok(&p, r#"{"decision":"approve"}"#), "deprecated form");
        assert!(!ok(&p, r#"{"hookSpecificOutput":{"permissionDecision":"defer"}}"#), "not known to every version");
        assert!(!ok(&p, r#"{"hookSpecificOutput":{"decision":{"behavior":"allow"}}}"#), "PermissionRequest's field");
        let why = decision_problem(&p, br#"{"hookSpecificOutput":{"permissionDecision":"Deny"}}"#).unwrap();
        assert_eq!(
            why,
            "exited 0 without a PreToolUse decision: hookSpecificOutput.permissionDecision is \"Deny\", \
             not one of allow, deny, ask"
        );
        // A typo next to a valid field still fails.
        assert!(!ok(&p, r#"{"decision":"block","hookSpecificOutput":{"permissionDecision":"nope"}}"#));
        assert!(!ok(&p, r#"{"decision":true}"#));
    }

    #[test]
    fn gemini_before_tool_reads_only_its_top_level_decision() {
        let p = payload(GEMINI_BEFORE_TOOL);
        for d in ["allow", "deny", "block"] {
            assert!(ok(&p, &format!(r#"{{"decision":"{d}","reason":"r"}}"#)), "{d}");
        }
        // Claude Code's shape carries no decision Gemini CLI reads: it would allow.
        let why = decision_problem(&p, br#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#).unwrap();
        assert_eq!(why, "exited 0 without a BeforeTool decision: its JSON has no decision (allow|deny|block)");
        assert!(!ok(&p, r#"{"decision":"approve"}"#), "not in Gemini CLI's list");
        assert!(!ok(&p, r#"{"decision":"ask"}"#), "not measured: refused");
        // PreToolUse (Claude Code, Codex) still reads Gemini's "deny" as no decision.
        assert!(!ok(&payload("PreToolUse"), r#"{"decision":"deny"}"#));
    }

    #[test]
    fn permission_request() {
        let p = payload("PermissionRequest");
        assert!(ok(
            &p,
            r#"{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}"#
        ));
        assert!(ok(&p, r#"{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"no"}}}"#));
        assert!(!ok(&p, r#"{"hookSpecificOutput":{"permissionDecision":"allow"}}"#));
        assert!(!ok(&p, r#"{"decision":"block"}"#));
        assert!(!ok(&p, r#"{"hookSpecificOutput":{"decision":{"behavior":"ask"}}}"#));
    }

    #[test]
    fn top_level_decision_events() {
        for event in TOP_LEVEL_DECISION_EVENTS {
            let p = payload(event);
            assert!(ok(&p, r#"{"decision":"block","reason":"keep going"}"#), "{event}");
            assert!(!ok(&p, r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#), "{event}");
            assert!(!ok(&p, r#"{"decision":"stop"}"#), "{event}");
        }
    }

    #[test]
    fn unknown_events_and_unreadable_payloads() {
        for p in [payload("SomethingNew"), b"not json".to_vec(), b"{}".to_vec(), b"[1]".to_vec(), Vec::new()] {
            assert!(ok(&p, r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#));
            assert!(ok(&p, r#"{"decision":"block"}"#));
            assert!(!ok(&p, r#"{"continue":false}"#));
        }
        let why = decision_problem(b"garbage", b"{}").unwrap();
        assert!(why.starts_with("exited 0 without a decision: its JSON has no"), "{why}");
    }

    #[test]
    fn not_an_object() {
        let p = payload("PreToolUse");
        assert_eq!(decision_problem(&p, b" \n").unwrap(), "exited 0 without a JSON decision: stdout was empty");
        assert!(decision_problem(&p, b"[1]").unwrap().contains("not an object"));
        assert!(decision_problem(&p, b"allowed!").unwrap().contains("not JSON"));
        assert!(ok(&p, "  {\"decision\":\"block\"}\n"), "surrounding whitespace is fine");
    }
}
