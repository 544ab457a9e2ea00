//! Facts from `cline ... --json` (one JSON object a line): `hook_event`s
//! (`tool_call` when the PreToolUse hook runs), `agent_event`s
//! (`content_start`/`content_end` of a tool that ran, `error`), the
//! `run_result`, and `run_aborted` when a hook's `cancel` ended the run.

use serde_json::Value;

use super::wording;
use crate::evidence::StreamFacts;

/// Read Cline's JSON lines. A run that ended `run_aborted` right after a
/// `tool_call` hook event, before any tool started, ended at the hook: its
/// refusal text goes to [`StreamFacts::run_aborted_at_hook`]. Each tool that
/// ran is an outcome (`ran:<tool>`), with its output under its call id. An
/// `error` event, or a `run_result` that finished in error, is an API error.
pub fn parse(stdout: &str) -> StreamFacts {
    let mut facts = StreamFacts::default();
    let mut hook_pending = false;
    for event in stdout.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()) {
        match event["type"].as_str() {
            Some("hook_event") if event["hookEventName"] == "tool_call" => hook_pending = true,
            Some("agent_event") => match event["event"]["type"].as_str() {
                Some("content_start") if event["event"]["contentType"] == "tool" => hook_pending = false,
                Some("content_end") if event["event"]["contentType"] == "tool" => {
                    let e = &event["event"];
                    facts.hook_outcomes.push(format!("ran:{}", e["toolName"].as_str().unwrap_or("?")));
                    if let Some(id) = e["toolCallId"].as_str() {
                        let output = e["output"].to_string();
                        let failed = crate::standin::chat_completions::reads_as_failure(&output);
                        facts.results.insert(id.to_string(), (failed, output));
                    }
                }
                Some("error") => {
                    let message = event["event"]["error"]["message"].as_str().unwrap_or("error");
                    facts.api_error.get_or_insert_with(|| message.to_string());
                }
                _ => {}
            },
            Some("run_result") => {
                facts.saw_result = true;
                if event["finishReason"] == "error" {
                    let text = event["text"].as_str().unwrap_or("run failed").to_string();
                    facts.api_error.get_or_insert(text);
                }
            }
            Some("run_aborted") if hook_pending => {
                let message = event["message"].as_str().unwrap_or("aborted");
                facts.hook_outcomes.push("cancel".to_string());
                facts.run_aborted_at_hook = Some(wording::aborted(message));
            }
            _ => {}
        }
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOOK: &str = r#"{"type":"hook_event","hookEventName":"tool_call"}"#;

    #[test]
    fn an_abort_right_after_the_hook_is_the_hooks() {
        let cancelled = format!(
            "{HOOK}\n{}\n{}\n{}",
            r#"{"type":"hook_event","hookEventName":"agent_error"}"#,
            r#"{"type":"run_result","finishReason":"aborted","text":""}"#,
            r#"{"type":"run_aborted","reason":"external_abort","message":"aborted by another client"}"#
        );
        let f = parse(&cancelled);
        assert_eq!(f.run_aborted_at_hook.as_deref(), Some(wording::aborted("aborted by another client").as_str()));
        assert_eq!(f.hook_outcomes, ["cancel"]);
        assert!(f.saw_result && f.api_error.is_none());
    }

    #[test]
    fn a_tool_that_ran_is_an_outcome_and_a_later_abort_is_not_the_hooks() {
        let ran = format!(
            "{HOOK}\n{}\n{}\n{}",
            r#"{"type":"agent_event","event":{"type":"content_start","contentType":"tool","toolName":"run_commands","toolCallId":"call_fo1"}}"#,
            r#"{"type":"agent_event","event":{"type":"content_end","contentType":"tool","toolName":"run_commands","toolCallId":"call_fo1","output":[{"query":"x","result":"","success":true}]}}"#,
            r#"{"type":"run_aborted","reason":"external_abort","message":"aborted by another client"}"#
        );
        let f = parse(&ran);
        assert_eq!(f.run_aborted_at_hook, None);
        assert_eq!(f.hook_outcomes, ["ran:run_commands"]);
        assert!(!f.results["call_fo1"].0);
        let failed = r#"{"type":"run_result","finishReason":"error","text":"Cannot connect to API"}"#;
        assert_eq!(parse(failed).api_error.as_deref(), Some("Cannot connect to API"));
    }
}
