//! Models of how each agent reads a hook's answer, as measured
//! (arms/shapes.json, docs/seal.md). Seal itself does not pass a guard's
//! answer on: it reads it ([`crate::reading`]) and writes its own
//! ([`crate::caller`]). These models are what failopen's agent contracts
//! screen a guard with, and what seal's property test checks seal's own
//! refusals against. On a JSON deny printed on exit 0:
//!
//! | the deny | Claude Code | Codex | Gemini CLI |
//! | --- | --- | --- | --- |
//! | `permissionDecisionReason: null` | runs (schema: a string or nothing) | runs (a deny needs a reason) | runs |
//! | no `hookEventName` | runs (the schema is keyed on it) | runs | runs |
//! | `hookEventName: "PostToolUse"` | runs ("incorrect event name") | refuses | runs |
//! | `async: true` beside `decision: block` | runs (async: no answer yet) | runs (unknown key) | refuses |
//! | the reason only in the top-level `reason` | refuses | runs | runs |
//! | `suppressOutput: true` | refuses | runs (unsupported) | runs |
//! | a key of the guard's own in `hookSpecificOutput` | refuses | runs (unknown key) | runs |

pub mod claude_code;
pub mod cline;
pub mod codex;
pub mod copilot;
pub mod gemini;
pub mod host;

use serde_json::Value;

pub use host::Host;

/// What one agent reads in an answer on exit 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// An allow (or an answer the agent runs the call on as if it were one,
    /// such as Codex's unsupported plain allow).
    Allow,
    /// A refusal, worded with the guard's own reason.
    Deny,
    /// Claude Code's `ask`.
    Ask,
    /// A well-formed answer without a decision (`{}`, plain text).
    NoDecision(String),
    /// An answer the agent rejects as malformed, or reads no decision from
    /// although it names one: the call runs. Why, in words.
    Rejected(String),
}

/// Whether the answer names a refusal anywhere an agent looks for one,
/// whatever its shape or case: the guard meant to refuse.
pub fn means_refusal(answer: &Value) -> bool {
    let refusing = |v: Option<&Value>, words: &[&str]| {
        v.and_then(Value::as_str).is_some_and(|s| words.iter().any(|w| s.trim().eq_ignore_ascii_case(w)))
    };
    let specific = answer.get("hookSpecificOutput");
    refusing(specific.and_then(|s| s.get("permissionDecision")), &["deny", "ask"])
        || refusing(specific.and_then(|s| s.pointer("/decision/behavior")), &["deny"])
        || refusing(answer.get("decision"), &["block", "deny"])
        || refusing(answer.get("permissionDecision"), &["deny", "ask"])
        || answer.get("cancel") == Some(&Value::Bool(true))
}

/// `stdout` as a JSON object (surrounding whitespace allowed), or why not.
pub fn parse(stdout: &[u8]) -> Result<Value, String> {
    let trimmed = trim(stdout);
    if trimmed.is_empty() {
        return Err("stdout was empty".into());
    }
    match serde_json::from_slice::<Value>(trimmed) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err("stdout is JSON but not an object".into()),
        Err(e) => Err(format!("stdout is not JSON ({e})")),
    }
}

fn trim(bytes: &[u8]) -> &[u8] {
    bytes.trim_ascii()
}
