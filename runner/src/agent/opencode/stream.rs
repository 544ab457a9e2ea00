//! Facts from `opencode run --format json` (one JSON object a line):
//! `step_start`, `tool_use` (the part of one tool call: `part.tool`,
//! `part.callID`, the model's call id, and `part.state` with `status`
//! `completed` and its `output`, or `error` and its `error`, the thrown
//! message when a plugin refused), `text`, `step_finish`, and `error` when
//! the session failed (measured on 1.17.18 and 1.18.33, docs/opencode.md).

use std::collections::HashSet;

use serde_json::Value;

use crate::evidence::StreamFacts;

/// Read OpenCode's JSON lines. Every `tool_use` part is an outcome
/// (`ran:<tool>` or `error:<tool>`): OpenCode calls its plugins'
/// `tool.execute.before` before every tool, so each part shows the hook point
/// ran for that call, loaded plugin or not. A part in `error` was refused or
/// failed: its call id is a refusal the stream confirms
/// ([`StreamFacts::confirmed_refusals`]), which counts as the guard's only
/// when the plugin's own trace shows it threw for that very call
/// (`crate::evidence`). An `error` event is an API error.
pub fn parse(stdout: &str) -> StreamFacts {
    let mut facts = StreamFacts::default();
    let mut refused = HashSet::new();
    for event in stdout.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()) {
        match event["type"].as_str() {
            Some("tool_use") => {
                let part = &event["part"];
                let tool = part["tool"].as_str().unwrap_or("?");
                let state = &part["state"];
                let (failed, text) = match state["status"].as_str() {
                    Some("error") => (true, text_of(&state["error"])),
                    Some("completed") => (false, text_of(&state["output"])),
                    _ => continue,
                };
                facts.hook_outcomes.push(format!("{}:{tool}", if failed { "error" } else { "ran" }));
                if let Some(id) = part["callID"].as_str() {
                    if failed {
                        refused.insert(id.to_string());
                        facts.not_executed.insert(id.to_string());
                    }
                    facts.results.insert(id.to_string(), (failed, text));
                }
            }
            Some("step_finish") => facts.saw_result = true,
            Some("error") => {
                let e = &event["error"];
                let message = e["data"]["message"].as_str().or(e["message"].as_str()).or(e["name"].as_str());
                facts.api_error.get_or_insert_with(|| message.unwrap_or("error").to_string());
            }
            _ => {}
        }
    }
    facts.confirmed_refusals = Some(refused);
    facts
}

/// A state's `output` or `error` as text (a string, else its JSON).
fn text_of(v: &Value) -> String {
    v.as_str().map(String::from).unwrap_or_else(|| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const REFUSED: &str = r#"{"type":"tool_use","part":{"tool":"bash","callID":"call_fo1","state":{"status":"error","input":{"command":"x"},"error":"failopen guard: refused bash"}}}"#;
    const RAN: &str = r#"{"type":"tool_use","part":{"tool":"write","callID":"call_fo2","state":{"status":"completed","input":{},"output":"Wrote file successfully."}}}"#;

    #[test]
    fn a_failed_part_is_a_confirmed_refusal_and_a_completed_one_ran() {
        let f =
            parse(&format!("{{\"type\":\"step_start\"}}\n{REFUSED}\nnot json\n{RAN}\n{{\"type\":\"step_finish\"}}\n"));
        assert_eq!(f.hook_outcomes, ["error:bash", "ran:write"]);
        assert_eq!(f.results["call_fo1"], (true, "failopen guard: refused bash".to_string()));
        assert_eq!(f.results["call_fo2"], (false, "Wrote file successfully.".to_string()));
        let confirmed = f.confirmed_refusals.as_ref().unwrap();
        assert!(confirmed.contains("call_fo1") && !confirmed.contains("call_fo2"));
        assert!(f.not_executed.contains("call_fo1") && !f.not_executed.contains("call_fo2"));
        assert!(f.saw_result && f.api_error.is_none());
    }

    #[test]
    fn an_error_event_is_an_api_error_and_an_empty_stream_confirms_nothing() {
        let f = parse(r#"{"type":"error","error":{"name":"APIError","data":{"message":"Connection refused"}}}"#);
        assert_eq!(f.api_error.as_deref(), Some("Connection refused"));
        let empty = parse("");
        assert_eq!(empty.confirmed_refusals, Some(HashSet::new()));
        assert!(!empty.saw_result && empty.hook_outcomes.is_empty());
    }
}
