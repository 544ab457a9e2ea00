//! What the guard decided, read from its exit code and both its streams,
//! whatever agent's shape it answered in: allow, ask, deny, or could not
//! decide. Seal then writes its own answer ([`crate::caller`]); nothing the
//! guard printed reaches the agent as it was.
//!
//! - Exit 2 is a refusal, with the guard's reason if seal finds one.
//! - Exit 0: a refusal written anywhere an agent looks for one, in any case
//!   and shape, on stdout or stderr (Gemini CLI reads stderr when stdout is
//!   empty), is a refusal. Otherwise stdout decides: nothing or plain text is
//!   an allow without fields; a JSON object is read field by field, and every
//!   field must be one seal knows, of its type; anything else (broken JSON,
//!   a duplicate key, JSON that is not an object, `async: true`,
//!   `continue: false`, a decision word seal does not know) is no decision,
//!   which seal refuses.

use serde_json::{Map, Value};

use crate::lenient::{self, Stream};

/// The guard's decision, as seal reads it.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// Go ahead, with what the guard added.
    Allow(Allow),
    /// Claude Code's `ask`: put the call to the user.
    Ask(Option<String>),
    /// A refusal, with the guard's reason if it gave one.
    Deny(Option<String>),
    /// Seal cannot tell what the guard meant: why, in words (after "the guard's answer").
    Undecided(String),
}

/// An allow and the fields it carries, each validated.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Allow {
    /// The guard said `allow` (or `approve`, or `cancel: false`) in so many
    /// words, rather than saying nothing.
    pub explicit: bool,
    /// `permissionDecisionReason` (or a top-level `reason`) of an allow.
    pub reason: Option<String>,
    /// The tool input to run instead (`updatedInput`).
    pub updated_input: Option<Map<String, Value>>,
    /// Context for the model (`additionalContext`, Cline's `contextModification`).
    pub additional_context: Option<String>,
    /// A message for the user (`systemMessage`).
    pub system_message: Option<String>,
    /// Claude Code's `suppressOutput`.
    pub suppress_output: Option<bool>,
}

impl Allow {
    /// Whether it carries nothing but the allow itself.
    pub fn is_bare(&self) -> bool {
        self.reason.is_none()
            && self.updated_input.is_none()
            && self.additional_context.is_none()
            && self.system_message.is_none()
            && self.suppress_output.is_none()
    }
}

/// Read a guard that exited 0 or 2 (`code`); `event` is the payload's
/// `hook_event_name`, if any.
pub fn read(code: i32, stdout: &[u8], stderr: &[u8], event: Option<&str>) -> Decision {
    let out = lenient::read_stream(stdout);
    let err = lenient::read_stream(stderr);
    if code != 0 {
        return Decision::Deny(reason_of(&err).or_else(|| reason_of(&out)));
    }
    for stream in [&out, &err] {
        if let Stream::Json(v) = stream {
            if means_refusal(v) {
                return Decision::Deny(json_reason(v));
            }
        }
    }
    match out {
        Stream::Empty | Stream::Text(_) => Decision::Allow(Allow::default()),
        Stream::Unreadable(why) => Decision::Undecided(format!("on stdout: {why}")),
        Stream::Json(Value::Object(top)) => object(&top, event),
        Stream::Json(other) => Decision::Undecided(format!("on stdout is JSON but not an object: {}", short(&other))),
    }
}

/// A reason to pass on from a stream: its text, or a JSON answer's reason.
fn reason_of(stream: &Stream) -> Option<String> {
    match stream {
        Stream::Text(t) => Some(t.clone()),
        Stream::Json(v) => json_reason(v),
        Stream::Empty | Stream::Unreadable(_) => None,
    }
}

/// The reason a JSON answer gives, wherever an agent words one.
fn json_reason(v: &Value) -> Option<String> {
    [
        "/hookSpecificOutput/permissionDecisionReason",
        "/permissionDecisionReason",
        "/reason",
        "/errorMessage",
        "/hookSpecificOutput/decision/message",
        "/stopReason",
    ]
    .iter()
    .filter_map(|p| v.pointer(p).and_then(Value::as_str))
    .map(|r| lenient::trim(r).to_string())
    .find(|r| !r.is_empty())
}

/// Whether `v` names a refusal anywhere an agent looks for one, whatever its
/// case or the spaces around it.
pub fn means_refusal(v: &Value) -> bool {
    let says = |p: &str, words: &[&str]| {
        v.pointer(p)
            .and_then(Value::as_str)
            .is_some_and(|s| words.iter().any(|w| lenient::trim(s).eq_ignore_ascii_case(w)))
    };
    says("/hookSpecificOutput/permissionDecision", &["deny", "block"])
        || says("/hookSpecificOutput/decision/behavior", &["deny"])
        || says("/decision", &["block", "deny"])
        || says("/permissionDecision", &["deny", "block"])
        || v.get("cancel").is_some_and(|c| c != &Value::Bool(false))
}

const TOP_KEYS: [&str; 12] = [
    "hookSpecificOutput",
    "decision",
    "reason",
    "permissionDecision",
    "permissionDecisionReason",
    "systemMessage",
    "suppressOutput",
    "continue",
    "async",
    "cancel",
    "contextModification",
    "errorMessage",
];
const SPECIFIC_KEYS: [&str; 6] = [
    "hookEventName",
    "permissionDecision",
    "permissionDecisionReason",
    "updatedInput",
    "additionalContext",
    "decision",
];

/// Read an exit 0's JSON object that refuses nothing.
fn object(top: &Map<String, Value>, event: Option<&str>) -> Decision {
    let no = |why: String| Decision::Undecided(why);
    if let Some(key) = top.keys().find(|k| !TOP_KEYS.contains(&k.as_str())) {
        return no(format!("has the key {key:?}, which seal does not know"));
    }
    let empty = Map::new();
    let specific = match top.get("hookSpecificOutput") {
        None => &empty,
        Some(Value::Object(s)) => s,
        Some(other) => return no(format!("has hookSpecificOutput {}, not an object", short(other))),
    };
    if let Some(key) = specific.keys().find(|k| !SPECIFIC_KEYS.contains(&k.as_str())) {
        return no(format!("has the key hookSpecificOutput.{key}, which seal does not know"));
    }
    match specific.get("hookEventName") {
        None if specific.is_empty() => {}
        None => return no("has a hookSpecificOutput without hookEventName".into()),
        Some(Value::String(name)) if event.is_none_or(|e| e == name) => {}
        Some(other) => {
            return no(format!("names hookEventName {}, but the hook ran for {}", short(other), event.unwrap_or("?")))
        }
    }
    match top.get("async") {
        None | Some(Value::Bool(false)) => {}
        Some(Value::Bool(true)) => return no("says async: true, which is no answer yet".into()),
        Some(other) => return no(format!("has async {}, not true or false", short(other))),
    }
    match top.get("continue") {
        None | Some(Value::Bool(true)) => {}
        Some(Value::Bool(false)) => return no("says continue: false, which stops the session: no decision".into()),
        Some(other) => return no(format!("has continue {}, not true or false", short(other))),
    }
    let mut allow = Allow::default();
    // Decision words: each must be one seal knows; after means_refusal, only allows and asks are left.
    let words = [
        ("hookSpecificOutput.permissionDecision", specific.get("permissionDecision")),
        ("decision", top.get("decision")),
        ("permissionDecision", top.get("permissionDecision")),
        ("hookSpecificOutput.decision.behavior", specific.get("decision").and_then(|d| d.get("behavior"))),
    ];
    let mut ask = false;
    for (name, word) in words {
        let Some(word) = word else { continue };
        match word.as_str().map(|w| lenient::trim(w).to_ascii_lowercase()) {
            Some(w) if w == "allow" || w == "approve" => allow.explicit = true,
            Some(w) if w == "ask" && name.ends_with("permissionDecision") => ask = true,
            _ => return no(format!("has {name} {}, which is no decision seal knows", short(word))),
        }
    }
    if let Some(d) = specific.get("decision") {
        let Some(d) = d.as_object() else {
            return no(format!("has hookSpecificOutput.decision {}", short(d)));
        };
        if let Some(key) = d.keys().find(|k| !["behavior", "updatedInput"].contains(&k.as_str())) {
            return no(format!("has the key hookSpecificOutput.decision.{key}, which seal does not pass on"));
        }
        if d.get("behavior").is_none() {
            return no("has a hookSpecificOutput.decision without behavior".into());
        }
    }
    match top.get("cancel") {
        None => {}
        Some(Value::Bool(false)) => allow.explicit = true,
        Some(other) => return no(format!("has cancel {}, not true or false", short(other))),
    }
    let string = |map: &Map<String, Value>, key: &str, at: &str| -> Result<Option<String>, String> {
        match map.get(key) {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(format!("has {at}{key} {}, not a string", short(other))),
        }
    };
    let fields = (|| -> Result<(), String> {
        let reasons = [
            string(specific, "permissionDecisionReason", "hookSpecificOutput.")?,
            string(top, "permissionDecisionReason", "")?,
            string(top, "reason", "")?,
        ];
        string(top, "errorMessage", "")?;
        allow.reason = reasons.into_iter().flatten().find(|r| !lenient::trim(r).is_empty());
        let contexts =
            [string(specific, "additionalContext", "hookSpecificOutput.")?, string(top, "contextModification", "")?];
        let mut contexts = contexts.into_iter().flatten();
        allow.additional_context = contexts.next();
        if contexts.next().is_some() {
            return Err("gives both additionalContext and contextModification".into());
        }
        allow.system_message = string(top, "systemMessage", "")?;
        allow.suppress_output = match top.get("suppressOutput") {
            None => None,
            Some(Value::Bool(b)) => Some(*b),
            Some(other) => return Err(format!("has suppressOutput {}, not true or false", short(other))),
        };
        let inputs = [specific.get("updatedInput"), specific.get("decision").and_then(|d| d.get("updatedInput"))];
        let mut inputs = inputs.into_iter().flatten();
        allow.updated_input = match inputs.next() {
            None => None,
            Some(Value::Object(m)) => Some(m.clone()),
            Some(other) => return Err(format!("has updatedInput {}, not an object", short(other))),
        };
        if inputs.next().is_some() {
            return Err("gives updatedInput twice".into());
        }
        Ok(())
    })();
    if let Err(why) = fields {
        return no(why);
    }
    if ask {
        return Decision::Ask(allow.reason);
    }
    Decision::Allow(allow)
}

/// A JSON value, cut short for a message.
fn short(v: &Value) -> String {
    let s = v.to_string();
    match s.char_indices().nth(60) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn exit0(stdout: &str) -> Decision {
        read(0, stdout.as_bytes(), b"", Some("PreToolUse"))
    }

    #[test]
    fn exit_2_is_a_refusal_with_the_guards_reason() {
        assert_eq!(read(2, b"", b"no writes\n", None), Decision::Deny(Some("no writes".into())));
        assert_eq!(read(2, b"", "\u{a0}\u{feff}".as_bytes(), None), Decision::Deny(None));
        assert_eq!(read(2, b"", b"null", None), Decision::Deny(None));
        assert_eq!(read(2, br#"{"decision":"deny","reason":"r"}"#, b"", None), Decision::Deny(Some("r".into())));
    }

    /// The issue's holes: a deny behind Unicode spaces or a BOM, in any shape an agent rejects, is a refusal.
    #[test]
    fn a_refusal_in_any_shape_behind_any_space_is_a_refusal() {
        for space in ["", "\u{a0}", "\u{2028}", "\u{feff}"] {
            for deny in [
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":null}}"#,
                r#"{"decision":"deny"}"#,
                r#"{"decision":"Deny"}"#,
                r#"{"async":true,"decision":"block"}"#,
                r#"{"cancel":true}"#,
                r#"{"permissionDecision":"deny"}"#,
                r#"{"hookSpecificOutput":{"permissionDecision":" DENY "}}"#,
            ] {
                assert!(matches!(exit0(&format!("{space}{deny}\n")), Decision::Deny(_)), "{space:?}{deny}");
                let on_stderr = read(0, b"", format!("{space}{deny}").as_bytes(), Some("PreToolUse"));
                assert!(matches!(on_stderr, Decision::Deny(_)), "stderr {space:?}{deny}");
            }
        }
    }

    #[test]
    fn what_seal_cannot_validate_is_no_decision() {
        for answer in [
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecision":"deny","permissionDecisionReason":"x"}}"#,
            r#"{"async":true}"#,
            r#"{"continue":false}"#,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}"#,
            r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"allow"}}"#,
            r#"{"hookSpecificOutput":{"permissionDecision":"allow"}}"#,
            r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":"x"}}"#,
            r#"{"ok":true}"#,
            r#"{"systemMessage":null}"#,
            "null",
            "1",
            "[]",
            r#""{}""#,
            "{broken",
            "log\n{\"a\":1}",
        ] {
            assert!(matches!(exit0(answer), Decision::Undecided(_)), "{answer}");
        }
    }

    #[test]
    fn allows_carry_their_validated_fields() {
        assert_eq!(exit0(""), Decision::Allow(Allow::default()));
        assert_eq!(exit0("checked: fine\n"), Decision::Allow(Allow::default()));
        assert_eq!(exit0("{}"), Decision::Allow(Allow::default()));
        let a = exit0(
            r#"{"systemMessage":"s","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow",
            "permissionDecisionReason":"ok","updatedInput":{"command":"ls"},"additionalContext":"c"}}"#,
        );
        let Decision::Allow(a) = a else { panic!("{a:?}") };
        assert!(a.explicit);
        assert_eq!(a.reason.as_deref(), Some("ok"));
        assert_eq!(a.updated_input, json!({"command": "ls"}).as_object().cloned());
        assert_eq!((a.additional_context.as_deref(), a.system_message.as_deref()), (Some("c"), Some("s")));
        assert_eq!(
            exit0(r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}"#),
            Decision::Ask(None)
        );
        assert!(matches!(exit0(r#"{"decision":"allow"}"#), Decision::Allow(Allow { explicit: true, .. })));
        assert!(matches!(exit0(r#"{"cancel":false}"#), Decision::Allow(Allow { explicit: true, .. })));
        // A JSON log line on stderr that refuses nothing leaves the allow alone.
        assert_eq!(read(0, b"", br#"{"level":"info"}"#, None), Decision::Allow(Allow::default()));
    }
}
