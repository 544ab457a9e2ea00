//! Facts from `qwen ... --output-format stream-json`: Claude Code's shape
//! (`assistant` messages with `tool_use` blocks, `user` messages with
//! `tool_result` blocks, a final `result`), without hook events. The final
//! `result` lists under `permission_denials` each call stopped before it ran
//! with an `execution_denied` error: a PreToolUse hook's refusal (measured,
//! 0.15.6 and 0.24.4), or a permission rule's (a session has none: `--yolo`
//! and no `permissions` in its settings).

use serde_json::Value;

use crate::evidence::StreamFacts;

/// Read Qwen Code's stream-json lines: each `tool_result` is an outcome
/// (`denied` when the result lists it under `permission_denials`, else `ran`
/// or `error`) and a result by call id; the denied calls are
/// [`StreamFacts::not_executed`]; a `result` with `is_error` is an API error
/// when its message is Qwen's `[API Error: …]`, else the run's error.
pub fn parse(stdout: &str) -> StreamFacts {
    let mut facts = StreamFacts::default();
    let mut outcomes: Vec<(String, bool)> = Vec::new();
    for event in stdout.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()) {
        match event["type"].as_str() {
            Some("user") => {
                let blocks = event["message"]["content"].as_array().into_iter().flatten();
                for block in blocks.filter(|b| b["type"] == "tool_result") {
                    let id = block["tool_use_id"].as_str().unwrap_or_default().to_string();
                    let is_error = block["is_error"].as_bool().unwrap_or(false);
                    let text = crate::standin::result_text(block.get("content"));
                    outcomes.push((id.clone(), is_error));
                    facts.results.insert(id, (is_error, text));
                }
            }
            Some("result") => {
                facts.saw_result = true;
                for denial in event["permission_denials"].as_array().into_iter().flatten() {
                    if let Some(id) = denial["tool_use_id"].as_str() {
                        facts.not_executed.insert(id.to_string());
                    }
                }
                if event["is_error"].as_bool().unwrap_or(false) {
                    let text = event["error"]["message"].as_str().or(event["result"].as_str()).unwrap_or("error");
                    if text.starts_with("[API Error") {
                        facts.api_error.get_or_insert_with(|| text.to_string());
                    }
                    facts.result_error = Some(text.to_string());
                }
            }
            _ => {}
        }
    }
    facts.hook_outcomes = outcomes
        .iter()
        .map(|(id, is_error)| match (facts.not_executed.contains(id), is_error) {
            (true, _) => "denied",
            (false, false) => "ran",
            (false, true) => "error",
        })
        .map(String::from)
        .collect();
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_denied_call_is_not_executed_and_others_are_outcomes() {
        let stream = r#"{"type":"system","subtype":"init","qwen_code_version":"0.24.4"}
{"type":"assistant","message":{"content":[{"type":"tool_use","id":"call_fo1","name":"run_shell_command","input":{}}]}}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_fo1","is_error":true,"content":"no (deny)"}]}}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_fo2","is_error":true,"content":"File path must be absolute: ./notes.txt"}]}}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_fo3","is_error":false,"content":"ok"}]}}
{"type":"result","subtype":"success","is_error":false,"permission_denials":[{"tool_name":"run_shell_command","tool_use_id":"call_fo1","tool_input":{}}]}"#;
        let f = parse(stream);
        assert!(f.saw_result && f.api_error.is_none() && f.result_error.is_none());
        assert!(f.not_executed.contains("call_fo1") && !f.not_executed.contains("call_fo2"));
        assert_eq!(f.hook_outcomes, ["denied", "error", "ran"]);
        assert_eq!(f.results["call_fo1"], (true, "no (deny)".to_string()));
    }

    #[test]
    fn an_api_error_is_read_from_the_result() {
        let failed = r#"{"type":"result","subtype":"error_during_execution","is_error":true,"permission_denials":[],"error":{"message":"[API Error: Streaming request received a non-SSE response]"}}"#;
        let f = parse(failed);
        assert_eq!(f.api_error.as_deref(), Some("[API Error: Streaming request received a non-SSE response]"));
        assert!(f.not_executed.is_empty());
    }
}
