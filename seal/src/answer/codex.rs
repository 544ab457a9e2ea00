//! Codex CLI's reading of a `PreToolUse` hook's JSON answer on exit 0.
//!
//! From its hook runner (codex-rs/hooks, `output_parser.rs` and the
//! generated `pre-tool-use.command.output.schema.json`), measured on 0.149.0
//! and 0.171.0 (arms/shapes.json): stdout is parsed into a struct that takes
//! no unknown keys, at the top level (`continue`, `stopReason`,
//! `suppressOutput`, `systemMessage`, `decision`, `reason`,
//! `hookSpecificOutput`) or in `hookSpecificOutput` (`hookEventName`,
//! required; `permissionDecision`, `permissionDecisionReason`,
//! `updatedInput`, `additionalContext`); an answer that does not parse is no
//! decision, and the call runs. Then:
//!
//! - `continue: false`, a `stopReason` and `suppressOutput: true` are
//!   "unsupported": the whole answer is dropped;
//! - `permissionDecision: deny` refuses only with a non-empty
//!   `permissionDecisionReason` (trimmed); `ask` is unsupported; a plain
//!   `allow` (without `updatedInput`) is unsupported, which runs the call
//!   as an allow would;
//! - the legacy top-level `decision: block` refuses only with a non-empty
//!   `reason`; `approve` is unsupported (the call runs).
//!
//! Other events are read as Claude Code reads them.

use serde_json::{Map, Value};

use super::{claude_code, Reading};

const TOP_LEVEL_KEYS: [&str; 7] =
    ["continue", "stopReason", "suppressOutput", "systemMessage", "decision", "reason", "hookSpecificOutput"];
const SPECIFIC_KEYS: [&str; 5] =
    ["hookEventName", "permissionDecision", "permissionDecisionReason", "updatedInput", "additionalContext"];

/// How Codex reads `answer` (a JSON object) for `event`.
pub fn read(event: Option<&str>, answer: &Value) -> Reading {
    if event.is_some_and(|e| e != "PreToolUse") {
        return claude_code::read(event, answer);
    }
    let Some(top) = answer.as_object() else {
        return Reading::Rejected("its JSON is not an object".into());
    };
    if let Some(why) = unknown_key(top, &TOP_LEVEL_KEYS, "") {
        return Reading::Rejected(why);
    }
    let string = |map: &Map<String, Value>, key: &str| -> Result<Option<String>, String> {
        match map.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(format!("{key} is {other}, not a string")),
        }
    };
    let flag = |key: &str, default: bool| -> Result<bool, String> {
        match top.get(key) {
            None | Some(Value::Null) => Ok(default),
            Some(Value::Bool(b)) => Ok(*b),
            Some(other) => Err(format!("{key} is {other}, not true or false")),
        }
    };
    let universal = (|| -> Result<Option<String>, String> {
        if !flag("continue", true)? {
            return Ok(Some("it does not support continue: false there".into()));
        }
        if string(top, "stopReason")?.is_some() {
            return Ok(Some("it does not support stopReason there".into()));
        }
        if flag("suppressOutput", false)? {
            return Ok(Some("it does not support suppressOutput there".into()));
        }
        string(top, "systemMessage")?;
        Ok(None)
    })();
    match universal {
        Err(why) | Ok(Some(why)) => return Reading::Rejected(why),
        Ok(None) => {}
    }
    let specific = match top.get("hookSpecificOutput") {
        None | Some(Value::Null) => None,
        Some(Value::Object(s)) => Some(s),
        Some(other) => return Reading::Rejected(format!("hookSpecificOutput is {other}, not an object")),
    };
    if let Some(s) = specific {
        if let Some(why) = unknown_key(s, &SPECIFIC_KEYS, "hookSpecificOutput.") {
            return Reading::Rejected(why);
        }
        match s.get("hookEventName").and_then(Value::as_str) {
            Some(_) => {}
            None => return Reading::Rejected("hookSpecificOutput has no hookEventName".into()),
        }
    }
    let decided_in_specific = specific.is_some_and(|s| {
        ["permissionDecision", "permissionDecisionReason", "updatedInput"]
            .iter()
            .any(|k| !s.get(*k).is_none_or(Value::is_null))
    });
    match (specific, decided_in_specific) {
        (Some(s), true) => read_specific(s),
        _ => read_legacy(top),
    }
}

fn read_specific(s: &Map<String, Value>) -> Reading {
    let reason = s.get("permissionDecisionReason").and_then(Value::as_str).map(str::trim).filter(|r| !r.is_empty());
    let updated = !s.get("updatedInput").is_none_or(Value::is_null);
    match s.get("permissionDecision").and_then(Value::as_str) {
        _ if updated && s.get("permissionDecision").and_then(Value::as_str) != Some("allow") => {
            Reading::Rejected("it takes updatedInput only with permissionDecision: allow".into())
        }
        Some("allow") => Reading::Allow,
        Some("deny") if reason.is_some() => Reading::Deny,
        Some("deny") => Reading::Rejected("it takes a deny only with a non-empty permissionDecisionReason".into()),
        Some("ask") => Reading::Rejected("it does not support permissionDecision: ask (the call runs)".into()),
        Some(other) => {
            Reading::Rejected(format!("hookSpecificOutput.permissionDecision {other:?} is not allow, deny or ask"))
        }
        None => Reading::Rejected("it takes a permissionDecisionReason only with a permissionDecision".into()),
    }
}

fn read_legacy(top: &Map<String, Value>) -> Reading {
    let reason = top.get("reason").and_then(Value::as_str).map(str::trim).filter(|r| !r.is_empty());
    match top.get("decision") {
        None | Some(Value::Null) if top.get("reason").is_some_and(|r| !r.is_null()) => {
            Reading::Rejected("it takes a reason only with a decision".into())
        }
        None | Some(Value::Null) => {
            Reading::NoDecision("its JSON has no hookSpecificOutput.permissionDecision or decision (block)".into())
        }
        Some(Value::String(d)) if d == "block" && reason.is_some() => Reading::Deny,
        Some(Value::String(d)) if d == "block" => {
            Reading::Rejected("it takes decision: block only with a non-empty reason".into())
        }
        // Unsupported: dropped, and the call runs as on an allow.
        Some(Value::String(d)) if d == "approve" => Reading::Allow,
        Some(other) => Reading::Rejected(format!("decision is {other}, not block or approve")),
    }
}

fn unknown_key(map: &Map<String, Value>, known: &[&str], prefix: &str) -> Option<String> {
    map.keys()
        .find(|k| !known.contains(&k.as_str()))
        .map(|k| format!("it takes no key {prefix}{k} and drops the whole answer"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pre(a: Value) -> Reading {
        read(Some("PreToolUse"), &a)
    }

    fn deny(extra: Value) -> Value {
        let mut s =
            json!({"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "no"});
        for (k, v) in extra.as_object().unwrap() {
            s[k] = v.clone();
        }
        json!({"hookSpecificOutput": s})
    }

    #[test]
    fn what_codex_refuses_on() {
        assert_eq!(pre(deny(json!({}))), Reading::Deny);
        assert_eq!(pre(deny(json!({"additionalContext": "c"}))), Reading::Deny);
        assert_eq!(pre(json!({"decision": "block", "reason": "no"})), Reading::Deny);
        // The measured cells where Claude Code refuses and Codex runs the call.
        assert!(
            matches!(pre(deny(json!({"ruleId": "r"}))), Reading::Rejected(w) if w.contains("no key hookSpecificOutput.ruleId"))
        );
        let mut suppress = deny(json!({}));
        suppress["suppressOutput"] = json!(true);
        assert!(matches!(pre(suppress), Reading::Rejected(w) if w.contains("suppressOutput")));
        let top_reason = json!({"reason": "no", "hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny"}});
        assert!(matches!(pre(top_reason), Reading::Rejected(w) if w.contains("non-empty permissionDecisionReason")));
        assert!(matches!(pre(deny(json!({"permissionDecisionReason": "  "}))), Reading::Rejected(_)));
        assert!(matches!(pre(deny(json!({"permissionDecisionReason": null}))), Reading::Rejected(_)));
        assert!(
            matches!(pre(json!({"async": true, "decision": "block", "reason": "no"})), Reading::Rejected(w) if w.contains("no key async"))
        );
        assert!(matches!(pre(json!({"decision": "block"})), Reading::Rejected(_)));
        assert!(matches!(pre(deny(json!({"permissionDecision": "ask"}))), Reading::Rejected(w) if w.contains("ask")));
        assert!(matches!(
            pre(json!({"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": "no"}})),
            Reading::Rejected(_)
        ));
        // Allows, supported or not, run the call.
        assert_eq!(
            pre(json!({"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow"}})),
            Reading::Allow
        );
        assert_eq!(pre(json!({"decision": "approve"})), Reading::Allow);
        assert!(matches!(pre(json!({})), Reading::NoDecision(_)));
        assert!(matches!(pre(json!({"systemMessage": "hi"})), Reading::NoDecision(_)));
    }
}
