//! What a Copilot SDK session's stdout says: the session's events, one JSON
//! line each (`session.mjs` prints them), and the callback's own
//! `failopen_callback` lines. The runtime's `hook.end` event of a
//! preToolUse hook carries, per call id, the refusal it sent back to the
//! model (`{"output": {"toolu_…": "Denied by preToolUse hook: <reason>"}}`):
//! the stream's confirmation that the call was refused there. Its
//! `success` is `true` for a callback that threw too (the SDK caught it).

use std::collections::HashSet;

use serde_json::Value;

use crate::agent::copilot::wording::is_hook_refusal;
use crate::evidence::StreamFacts;

/// The facts of one session's stdout: the callback's answers as hook
/// outcomes, and the calls a preToolUse hook refused as confirmed refusals.
pub fn parse_stream(stdout: &str) -> StreamFacts {
    StreamFacts {
        hook_outcomes: crate::agent::agent_sdk::wording::callback_answers(stdout),
        confirmed_refusals: Some(refused_at_hook(stdout)),
        ..StreamFacts::default()
    }
}

/// The call ids a preToolUse `hook.end` event says were refused.
fn refused_at_hook(stdout: &str) -> HashSet<String> {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "hook.end" && v["data"]["hookType"] == "preToolUse")
        .flat_map(|v| v["data"]["output"].as_object().cloned().unwrap_or_default())
        .filter(|(_, text)| text.as_str().is_some_and(is_hook_refusal))
        .map(|(id, _)| id)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_is_confirmed_by_the_hooks_end_and_answers_are_outcomes() {
        let denied = r#"{"type":"hook.end","data":{"hookType":"preToolUse","success":true,"output":{"toolu_fo00000000":"Denied by preToolUse hook: no"}}}"#;
        let ran = r#"{"type":"hook.end","data":{"hookType":"preToolUse","success":true}}"#;
        let other = r#"{"type":"hook.end","data":{"hookType":"sessionStart","output":{"toolu_x":"Denied by preToolUse hook: no"}}}"#;
        let answer = r#"{"type":"failopen_callback","kind":"callback","outcome":"threw","value":"boom"}"#;
        let facts = parse_stream(&[denied, ran, other, answer, "not json"].join("\n"));
        assert_eq!(facts.confirmed_refusals, Some(HashSet::from(["toolu_fo00000000".to_string()])));
        assert_eq!(facts.hook_outcomes, ["callback:threw:boom"]);
        assert_eq!(parse_stream(ran).confirmed_refusals, Some(HashSet::new()));
    }
}
