//! Facts from `codex exec --json` (one JSON event a line). Codex reports no
//! hook events there (a hook that ran, failed or was skipped leaves no
//! line), so the stand-in's transcript and the guard's trace carry the
//! attempts; the stream says whether the turn failed, and what ran.

use serde_json::Value;

use crate::evidence::StreamFacts;

/// Read Codex's `--json` lines: a failed turn (`turn.failed`, or a
/// top-level `error` event, e.g. the stand-in's key missing) is an API
/// error; the tool items that completed are counted as outcomes
/// (`ran:command` for a shell command, `ran:patch` for a file change), in order.
pub fn parse(stdout: &str) -> StreamFacts {
    let mut facts = StreamFacts::default();
    for event in stdout.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()) {
        match event["type"].as_str() {
            Some("error") => {
                facts.api_error.get_or_insert_with(|| event["message"].as_str().unwrap_or("error").to_string());
            }
            Some("turn.failed") => {
                let message = event["error"]["message"].as_str().unwrap_or("turn failed").to_string();
                facts.api_error.get_or_insert(message);
            }
            Some("turn.completed") => facts.saw_result = true,
            Some("item.completed") => match event["item"]["type"].as_str() {
                Some("command_execution") => facts.hook_outcomes.push("ran:command".into()),
                Some("file_change") => facts.hook_outcomes.push("ran:patch".into()),
                _ => {}
            },
            _ => {}
        }
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_what_ran_and_a_failed_turn() {
        let ok = r#"{"type":"thread.started","thread_id":"t"}
{"type":"item.completed","item":{"id":"item_0","type":"error","message":"`--dangerously-bypass-hook-trust` is enabled."}}
{"type":"turn.started"}
{"type":"item.started","item":{"id":"item_2","type":"command_execution","status":"in_progress"}}
{"type":"item.completed","item":{"id":"item_2","type":"command_execution","exit_code":0,"status":"completed"}}
{"type":"item.completed","item":{"id":"item_3","type":"agent_message","text":"done"}}
{"type":"turn.completed","usage":{}}"#;
        let f = parse(ok);
        assert_eq!((f.api_error, f.saw_result, f.hook_outcomes), (None, true, vec!["ran:command".to_string()]));
        let failed = r#"{"type":"error","message":"Missing environment variable: `FAILOPEN_STANDIN_KEY`."}
{"type":"turn.failed","error":{"message":"stream disconnected"}}"#;
        assert_eq!(parse(failed).api_error.as_deref(), Some("Missing environment variable: `FAILOPEN_STANDIN_KEY`."));
    }
}
