//! Facts from `droid exec --output-format stream-json`: one event a line,
//! `tool_call` (`id`, `toolName`, `parameters`), `tool_result` (`id`,
//! `isError`, the output in `value` or the failure in `error.message`), a
//! final `completion`, and `error` when the run fails (measured on 0.215.0
//! and 0.225.2). It reports no hook runs and marks no call as stopped
//! before it ran: a hook's refusal is a `tool_result` with `isError`, worded
//! `Error: <reason>` ([`super::wording`]).

use serde_json::Value;

use crate::evidence::StreamFacts;

/// Read Droid's stream-json lines: each `tool_result` is a result by call
/// id, and an outcome (`ran`, or `error` for one flagged `isError`); an
/// `error` event is the run's error, and an API error when it is about the
/// model's answer.
pub fn parse(stdout: &str) -> StreamFacts {
    let mut facts = StreamFacts::default();
    for event in stdout.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()) {
        match event["type"].as_str() {
            Some("tool_result") => {
                let id = event["id"].as_str().unwrap_or_default().to_string();
                let is_error = event["isError"].as_bool().unwrap_or(false);
                let text = if is_error { &event["error"]["message"] } else { &event["value"] };
                let text = text.as_str().map(str::to_string).unwrap_or_else(|| text.to_string());
                facts.hook_outcomes.push(if is_error { "error" } else { "ran" }.to_string());
                facts.results.insert(id, (is_error, text));
            }
            Some("completion") => facts.saw_result = true,
            Some("error") => {
                let text = event["message"].as_str().unwrap_or("error").to_string();
                if is_api_error(&text) {
                    facts.api_error.get_or_insert_with(|| text.clone());
                }
                facts.result_error.get_or_insert(text);
            }
            _ => {}
        }
    }
    facts
}

/// Whether an `error` event's message is about the model's endpoint (its
/// status, its stream), not the run itself.
fn is_api_error(text: &str) -> bool {
    ["API", "status code", "stream", "overloaded", "Overloaded"].iter().any(|w| text.contains(w))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_read_by_call_id_and_the_completion_ends_the_run() {
        let stream = r#"{"type":"system","subtype":"init","tools":["Execute"]}
{"type":"tool_call","id":"toolu_1","toolName":"Execute","parameters":{"command":"x"}}
{"type":"tool_result","id":"toolu_1","toolId":"Execute","isError":true,"error":{"type":"tool_error","message":"Error: no writes\n"}}
{"type":"tool_result","id":"toolu_2","toolId":"Create","isError":false,"value":"File created"}
{"type":"completion","finalText":"done","numTurns":3}"#;
        let f = parse(stream);
        assert!(f.saw_result && f.result_error.is_none() && f.api_error.is_none());
        assert_eq!(f.results["toolu_1"], (true, "Error: no writes\n".to_string()));
        assert_eq!(f.results["toolu_2"], (false, "File created".to_string()));
        assert_eq!(f.hook_outcomes, ["error", "ran"]);
        assert!(f.not_executed.is_empty(), "Droid marks no call as not run");
    }

    #[test]
    fn an_error_event_is_the_runs_error() {
        let f = parse(r#"{"type":"error","source":"cli","message":"Error: Authentication failed. Please log in"}"#);
        assert!(!f.saw_result);
        assert_eq!(f.result_error.as_deref(), Some("Error: Authentication failed. Please log in"));
        assert!(f.api_error.is_none());
        let f = parse(r#"{"type":"error","source":"cli","message":"API Error: 529 Overloaded"}"#);
        assert_eq!(f.api_error.as_deref(), Some("API Error: 529 Overloaded"));
    }
}
