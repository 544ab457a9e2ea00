//! Facts from `gemini -p ... --output-format stream-json` (one JSON event a
//! line). Gemini CLI reports no hook events there, and exits 0 after a
//! refusal as after a write; the stand-in's transcript and the guard's trace
//! carry the attempts, and the stream says whether the run ended in error
//! and which tools ran.

use serde_json::Value;

use crate::evidence::StreamFacts;

/// Read Gemini CLI's stream-json lines: a `result` whose status is not
/// `success`, or an `error` event, is an API error; each `tool_result` is
/// counted as an outcome (`ran:<tool id's tool>` on success, `error:<type>`
/// otherwise, e.g. `error:policy_violation` for a hook's refusal).
pub fn parse(stdout: &str) -> StreamFacts {
    let mut facts = StreamFacts::default();
    for event in stdout.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()) {
        match event["type"].as_str() {
            Some("error") => {
                let message = event["message"].as_str().or(event["error"]["message"].as_str()).unwrap_or("error");
                facts.api_error.get_or_insert_with(|| message.to_string());
            }
            Some("result") => {
                facts.saw_result = true;
                if event["status"].as_str().is_some_and(|s| s != "success") {
                    let message = event["error"]["message"].as_str().unwrap_or("run failed").to_string();
                    facts.api_error.get_or_insert(message);
                }
            }
            Some("tool_result") => {
                let ok = event["status"].as_str() == Some("success");
                let outcome = match ok {
                    true => "ran".to_string(),
                    false => format!("error:{}", event["error"]["type"].as_str().unwrap_or("unknown")),
                };
                facts.hook_outcomes.push(outcome);
                // The result as the CLI reports it, for a call whose result
                // never reached the stand-in (after a 5 MB refusal the CLI
                // ends the turn without asking the model again).
                if let Some(id) = event["tool_id"].as_str().map(call_id) {
                    let text = event["output"].as_str().or(event["error"]["message"].as_str()).unwrap_or_default();
                    facts.results.insert(id.to_string(), (!ok, text.to_string()));
                }
            }
            _ => {}
        }
    }
    facts
}

/// The stand-in's call id in a stream-json `tool_id` (`<tool>__<call id>`).
fn call_id(tool_id: &str) -> &str {
    tool_id.split_once("__").map_or(tool_id, |(_, id)| id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_refusals_runs_and_a_failed_result() {
        let blocked = r#"{"type":"init","session_id":"s"}
{"type":"tool_use","tool_name":"run_shell_command","tool_id":"run_shell_command__call_fo1"}
{"type":"tool_result","tool_id":"run_shell_command__call_fo1","status":"error","output":"Tool execution blocked: no","error":{"type":"policy_violation","message":"Tool execution blocked: no"}}
{"type":"tool_result","tool_id":"write_file__call_fo2","status":"success"}
{"type":"result","status":"success"}"#;
        let f = parse(blocked);
        assert_eq!(f.hook_outcomes, ["error:policy_violation", "ran"]);
        assert!(f.saw_result && f.api_error.is_none());
        assert_eq!(f.results["call_fo1"], (true, "Tool execution blocked: no".to_string()));
        let failed = r#"{"type":"result","status":"error","error":{"type":"api","message":"quota"}}"#;
        assert_eq!(parse(failed).api_error.as_deref(), Some("quota"));
    }
}
