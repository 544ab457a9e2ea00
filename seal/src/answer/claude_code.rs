//! Claude Code's reading of a command hook's JSON answer on exit 0.
//!
//! From its hook runner (2.1.328, checked on 2.1.240 by arms/shapes.json):
//! stdout that starts with `{` is parsed; `async: true` means "no answer
//! yet"; the rest is validated against a schema (zod, unknown keys
//! ignored), and output that fails it is a non-blocking error: the call
//! runs. The schema's top level: `continue` and `suppressOutput` booleans;
//! `stopReason`, `systemMessage`, `terminalSequence` and `reason` strings;
//! `decision` `approve` or `block`; `hookSpecificOutput`, an object chosen by
//! its `hookEventName` (required), which must also name the event the hook
//! ran for ("Hook returned incorrect event name"). Optional fields are a
//! value of their type or absent: `null` fails (Python's `None` through
//! `json.dumps`).
//!
//! The decision, by event (its hooks reference, "Decision control"):
//!
//! | event | decision |
//! |---|---|
//! | `PreToolUse` | `hookSpecificOutput.permissionDecision`: `allow`, `deny` or `ask`; or the deprecated top-level `decision`: `approve` or `block` |
//! | `PermissionRequest` | `hookSpecificOutput.decision.behavior`: `allow` or `deny` |
//! | `UserPromptSubmit`, `PostToolUse`, `PostToolUseFailure`, `Stop`, `SubagentStop`, `ConfigChange` | top-level `decision`: `block` (or `approve`) |
//! | any other event, or none | as for `PreToolUse` |
//!
//! `permissionDecision` `defer`, which newer versions accept in `-p` mode
//! only, is read as no decision: a version that does not know it would let
//! the call through.

use serde_json::{Map, Value};

use super::Reading;

/// Values of `hookSpecificOutput.permissionDecision` (PreToolUse) seal takes as decisions.
pub const PERMISSION_DECISIONS: [&str; 3] = ["allow", "deny", "ask"];
/// Every value Claude Code 2.1.328's schema accepts there.
const SCHEMA_PERMISSION_DECISIONS: [&str; 4] = ["allow", "deny", "ask", "defer"];
/// Values of the top-level `decision`.
pub const TOP_LEVEL_DECISIONS: [&str; 2] = ["approve", "block"];
/// Events whose decision is the top-level `decision` field.
pub const TOP_LEVEL_DECISION_EVENTS: [&str; 6] =
    ["UserPromptSubmit", "PostToolUse", "PostToolUseFailure", "Stop", "SubagentStop", "ConfigChange"];
/// The `hookEventName`s the schema knows (2.1.328).
const EVENTS: [&str; 23] = [
    "PreToolUse",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "Setup",
    "PreModelSwitch",
    "PostModelSwitch",
    "SubagentStart",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Stop",
    "SubagentStop",
    "PermissionDenied",
    "Notification",
    "PermissionRequest",
    "Elicitation",
    "ElicitationResult",
    "CwdChanged",
    "FileChanged",
    "WorktreeCreate",
    "MessageDisplay",
    "ConfigChange",
];

/// The JSON type a field must have.
#[derive(Clone, Copy)]
enum Kind {
    Bool,
    Str,
    Object,
    Array,
    OneOf(&'static [&'static str]),
}

const TOP_LEVEL: [(&str, Kind); 8] = [
    ("continue", Kind::Bool),
    ("suppressOutput", Kind::Bool),
    ("stopReason", Kind::Str),
    ("decision", Kind::OneOf(&TOP_LEVEL_DECISIONS)),
    ("systemMessage", Kind::Str),
    ("terminalSequence", Kind::Str),
    ("reason", Kind::Str),
    ("hookSpecificOutput", Kind::Object),
];

const PRE_TOOL_USE: [(&str, Kind); 4] = [
    ("permissionDecision", Kind::OneOf(&SCHEMA_PERMISSION_DECISIONS)),
    ("permissionDecisionReason", Kind::Str),
    ("updatedInput", Kind::Object),
    ("additionalContext", Kind::Str),
];

/// How Claude Code reads `answer` (a JSON object) for `event`.
pub fn read(event: Option<&str>, answer: &Value) -> Reading {
    let Some(top) = answer.as_object() else {
        return Reading::Rejected("its JSON is not an object".into());
    };
    if top.get("async") == Some(&Value::Bool(true)) {
        return Reading::Rejected("it says async: true, which means no answer yet".into());
    }
    if let Some(why) = check(top, &TOP_LEVEL, "") {
        return Reading::Rejected(why);
    }
    if let Some(specific) = top.get("hookSpecificOutput").and_then(Value::as_object) {
        if let Some(why) = check_specific(event, specific) {
            return Reading::Rejected(why);
        }
    }
    decide(event, top)
}

/// The `hookSpecificOutput` checks: a known `hookEventName` naming this
/// event, and its event's fields typed.
fn check_specific(event: Option<&str>, specific: &Map<String, Value>) -> Option<String> {
    let name = match specific.get("hookEventName") {
        None => return Some("hookSpecificOutput has no hookEventName".into()),
        Some(Value::String(n)) => n.as_str(),
        Some(other) => return Some(format!("hookSpecificOutput.hookEventName is {other}, not an event name")),
    };
    if !EVENTS.contains(&name) {
        return Some(format!("hookSpecificOutput.hookEventName {name:?} is not an event it knows"));
    }
    if let Some(event) = event.filter(|e| *e != name) {
        return Some(format!("hookSpecificOutput.hookEventName is {name:?}, but the hook ran for {event}"));
    }
    match name {
        "PreToolUse" => check(specific, &PRE_TOOL_USE, "hookSpecificOutput."),
        "PermissionRequest" => check_permission_request(specific),
        _ => check(specific, &[("additionalContext", Kind::Str)], "hookSpecificOutput."),
    }
}

fn check_permission_request(specific: &Map<String, Value>) -> Option<String> {
    let Some(decision) = specific.get("decision") else {
        return Some("hookSpecificOutput.decision is missing".into());
    };
    let Some(decision) = decision.as_object() else {
        return Some(format!("hookSpecificOutput.decision is {decision}, not an object"));
    };
    let prefix = "hookSpecificOutput.decision.";
    match decision.get("behavior").and_then(Value::as_str) {
        Some("allow") => {
            check(decision, &[("updatedInput", Kind::Object), ("updatedPermissions", Kind::Array)], prefix)
        }
        Some("deny") => check(decision, &[("message", Kind::Str), ("interrupt", Kind::Bool)], prefix),
        _ => Some(format!(
            "hookSpecificOutput.decision.behavior is {}, not allow or deny",
            decision.get("behavior").map_or("missing".to_string(), Value::to_string)
        )),
    }
}

/// Each present field of `fields` in `object` has its kind (`null` never does).
fn check(object: &Map<String, Value>, fields: &[(&str, Kind)], prefix: &str) -> Option<String> {
    for (name, kind) in fields {
        let Some(value) = object.get(*name) else {
            continue;
        };
        let ok = match kind {
            Kind::Bool => value.is_boolean(),
            Kind::Str => value.is_string(),
            Kind::Object => value.is_object(),
            Kind::Array => value.is_array(),
            Kind::OneOf(values) => value.as_str().is_some_and(|v| values.contains(&v)),
        };
        if !ok {
            let wanted = match kind {
                Kind::Bool => "true or false".to_string(),
                Kind::Str => "a string".to_string(),
                Kind::Object => "an object".to_string(),
                Kind::Array => "an array".to_string(),
                Kind::OneOf(values) => format!("one of {}", values.join(", ")),
            };
            return Some(format!("{prefix}{name} is {value}, not {wanted}"));
        }
    }
    None
}

/// The decision in a schema-valid answer.
fn decide(event: Option<&str>, top: &Map<String, Value>) -> Reading {
    let specific = top.get("hookSpecificOutput");
    let top_level = top.get("decision").and_then(Value::as_str);
    let from_top = || match top_level {
        Some("block") => Some(Reading::Deny),
        Some("approve") => Some(Reading::Allow),
        _ => None,
    };
    match event {
        Some("PermissionRequest") => {
            match specific.and_then(|s| s.pointer("/decision/behavior")).and_then(Value::as_str) {
                Some("allow") => Reading::Allow,
                Some("deny") => Reading::Deny,
                _ => Reading::NoDecision("its JSON has no hookSpecificOutput.decision.behavior (allow|deny)".into()),
            }
        }
        Some(e) if TOP_LEVEL_DECISION_EVENTS.contains(&e) => {
            from_top().unwrap_or_else(|| Reading::NoDecision("its JSON has no decision (approve|block)".into()))
        }
        _ => match specific.and_then(|s| s.get("permissionDecision")).and_then(Value::as_str) {
            Some("allow") => Reading::Allow,
            Some("deny") => Reading::Deny,
            Some("ask") => Reading::Ask,
            Some(other) => Reading::NoDecision(format!(
                "hookSpecificOutput.permissionDecision is {other:?}, not one of {} (not every version knows it)",
                PERMISSION_DECISIONS.join(", ")
            )),
            None => from_top().unwrap_or_else(|| {
                Reading::NoDecision(
                    "its JSON has no hookSpecificOutput.permissionDecision (allow|deny|ask) or decision \
                     (approve|block)"
                        .into(),
                )
            }),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pre(answer: Value) -> Reading {
        read(Some("PreToolUse"), &answer)
    }

    fn rejected(r: Reading) -> String {
        match r {
            Reading::Rejected(why) => why,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn decisions_of_pre_tool_use() {
        for (d, r) in [("allow", Reading::Allow), ("deny", Reading::Deny), ("ask", Reading::Ask)] {
            assert_eq!(pre(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": d}})), r);
        }
        assert_eq!(pre(json!({"decision": "block", "reason": "no"})), Reading::Deny, "deprecated form");
        assert_eq!(pre(json!({"decision": "approve"})), Reading::Allow);
        assert!(matches!(pre(json!({})), Reading::NoDecision(_)));
        assert!(matches!(pre(json!({"continue": true})), Reading::NoDecision(_)));
        let defer = pre(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "defer"}}));
        assert!(matches!(defer, Reading::NoDecision(_)), "{defer:?}");
        // Unknown keys are ignored, as zod does.
        assert_eq!(
            pre(
                json!({"x": 1, "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "ruleId": "r"}})
            ),
            Reading::Deny
        );
    }

    #[test]
    fn what_its_schema_rejects_is_no_decision() {
        let why = rejected(pre(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse",
            "permissionDecision": "deny", "permissionDecisionReason": null}})));
        assert_eq!(why, "hookSpecificOutput.permissionDecisionReason is null, not a string");
        let why = rejected(pre(json!({"hookSpecificOutput": {"permissionDecision": "deny"}})));
        assert_eq!(why, "hookSpecificOutput has no hookEventName");
        let why = rejected(pre(
            json!({"hookSpecificOutput": {"hookEventName": "PostToolUse", "permissionDecision": "deny"}}),
        ));
        assert_eq!(why, "hookSpecificOutput.hookEventName is \"PostToolUse\", but the hook ran for PreToolUse");
        let why = rejected(pre(json!({"async": true, "decision": "block"})));
        assert!(why.contains("async: true"), "{why}");
        let why =
            rejected(pre(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "Deny"}})));
        assert!(why.contains("not one of allow, deny, ask, defer"), "{why}");
        assert!(rejected(pre(json!({"decision": true}))).contains("decision is true"));
        assert!(rejected(pre(json!({"reason": null, "decision": "block"}))).contains("reason is null"));
        assert!(rejected(pre(json!({"continue": "yes"}))).contains("continue"));
        assert!(rejected(pre(json!({"hookSpecificOutput": "deny"}))).contains("not an object"));
        assert!(rejected(pre(json!({"hookSpecificOutput": {"hookEventName": "Nope"}}))).contains("not an event"));
        // `async: false` is an ordinary answer.
        assert_eq!(pre(json!({"async": false, "decision": "block"})), Reading::Deny);
    }

    #[test]
    fn other_events() {
        let p = |a: Value| read(Some("PermissionRequest"), &a);
        assert_eq!(
            p(
                json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "deny", "message": "no"}}})
            ),
            Reading::Deny
        );
        assert_eq!(
            p(json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "allow"}}})),
            Reading::Allow
        );
        assert!(matches!(
            p(json!({"hookSpecificOutput": {"hookEventName": "PermissionRequest", "decision": {"behavior": "ask"}}})),
            Reading::Rejected(_)
        ));
        assert!(matches!(p(json!({"decision": "block"})), Reading::NoDecision(_)));
        for e in TOP_LEVEL_DECISION_EVENTS {
            assert_eq!(read(Some(e), &json!({"decision": "block", "reason": "r"})), Reading::Deny, "{e}");
            assert!(
                matches!(
                    read(
                        Some(e),
                        &json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}})
                    ),
                    Reading::Rejected(_)
                ),
                "{e}"
            );
        }
        // No event: read as PreToolUse, with no event name to match.
        assert_eq!(
            read(None, &json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}})),
            Reading::Deny
        );
    }
}
