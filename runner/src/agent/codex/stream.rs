//! Facts from `codex exec --json` (one JSON event a line). Codex reports no
//! hook events there (a hook that ran, failed or was skipped leaves no
//! line), so the stand-in's transcript and the guard's trace carry the
//! attempts; the stream says whether the turn failed, and what ran.

use std::path::PathBuf;

use serde_json::Value;

use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;

/// How Codex tells, as an error item on its `--json` stream, that it
/// skipped a whole hooks file it could not read (`load_hooks_json` in
/// codex-rs/hooks/src/engine/discovery.rs: a file that does not
/// deserialize as a whole loads none of its hooks). Measured on 0.171.0:
/// `failed to parse hooks config <path>: invalid type: integer `42`, ...`.
const HOOKS_FILE_SKIPPED: &str = "failed to parse hooks config ";

/// Read Codex's `--json` lines: a failed turn (`turn.failed`, or a
/// top-level `error` event, e.g. the stand-in's key missing) is an API
/// error; the tool items that completed are counted as outcomes
/// (`ran:command` for a shell command, `ran:patch` for a file change), in order.
/// A hooks file Codex said it skipped whole ([`HOOKS_FILE_SKIPPED`]) is
/// read once the stream is: one holding `hook` means it never ran
/// ([`StreamFacts::ignored_hook_file`]).
pub fn parse(stdout: &str, hook: &HookIdentity) -> StreamFacts {
    let mut facts = StreamFacts::default();
    let mut skipped = Vec::new();
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
                Some("error") => skipped.extend(skipped_hook_file(&event["item"]["message"])),
                _ => {}
            },
            _ => {}
        }
    }
    for path in skipped {
        facts.ignored_hook_file(&path, hook);
    }
    facts
}

/// The hooks file an error item's `message` says Codex skipped whole ([`HOOKS_FILE_SKIPPED`]).
fn skipped_hook_file(message: &Value) -> Option<PathBuf> {
    let message = message.as_str()?.strip_prefix(HOOKS_FILE_SKIPPED)?;
    Some(PathBuf::from(message.split_once(": ").map_or(message, |(path, _)| path)))
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
        let f = parse(ok, &HookIdentity::default());
        assert_eq!((f.api_error, f.saw_result, f.hook_outcomes), (None, true, vec!["ran:command".to_string()]));
        let failed = r#"{"type":"error","message":"Missing environment variable: `FAILOPEN_STANDIN_KEY`."}
{"type":"turn.failed","error":{"message":"stream disconnected"}}"#;
        assert_eq!(
            parse(failed, &HookIdentity::default()).api_error.as_deref(),
            Some("Missing environment variable: `FAILOPEN_STANDIN_KEY`.")
        );
    }

    #[test]
    fn a_skipped_hooks_file_is_read_off_its_error_item() {
        // Codex 0.171.0's own line for a hooks.json whose sibling matcher is the number 42.
        let message = "failed to parse hooks config /s/home/.codex/hooks.json: invalid type: integer `42`, expected a string at line 15 column 21";
        assert_eq!(skipped_hook_file(&Value::from(message)), Some(PathBuf::from("/s/home/.codex/hooks.json")));
        assert_eq!(skipped_hook_file(&Value::from("`--dangerously-bypass-hook-trust` is enabled.")), None);
        // Read off the stream: an error item counts, the model's words do not.
        let dir = tempfile::tempdir().unwrap();
        let hooks = dir.path().join("hooks.json");
        let guard = "/s/guards/cell-0/deny.sh";
        std::fs::write(
            &hooks,
            serde_json::json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": guard}]}]}})
                .to_string(),
        )
        .unwrap();
        let item = |kind: &str, key: &str| {
            serde_json::json!({"type": "item.completed", "item": {"type": kind, key: format!("{HOOKS_FILE_SKIPPED}{}: x", hooks.display())}}).to_string()
        };
        let ran = r#"{"type":"item.completed","item":{"type":"command_execution","exit_code":0}}"#;
        let hook = HookIdentity::new(guard, vec![]);
        let said = parse(&format!("{}\n{ran}", item("agent_message", "text")), &hook);
        assert_eq!(said.hook_outcomes, ["ran:command"], "the model saying it is no skip");
        let skipped = parse(&format!("{}\n{ran}", item("error", "message")), &hook);
        assert!(skipped.hook_outcomes.is_empty(), "a run after the skip is no run of the guard");
        assert_eq!(skipped.notices, [crate::evidence::HOOK_FILE_IGNORED]);
    }
}
