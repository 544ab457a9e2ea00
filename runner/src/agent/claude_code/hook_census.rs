//! Which PreToolUse hooks Claude Code ran, read from a session's
//! `--include-hook-events` stream: per tool, how many calls the model made
//! and how many `hook_started` events of `PreToolUse:<tool>` there were.
//! The events do not name the hook (only `PreToolUse:Bash` and a random
//! `hook_id`), so a census counts: with `n` calls of a tool and `k` hooks
//! matching it, Claude Code starts `n * k` hooks.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

/// One tool's calls and the PreToolUse hooks Claude Code started for them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct ToolHookRuns {
    /// Calls of the tool the model made (`tool_use` blocks).
    pub calls: u32,
    /// `hook_started` events named `PreToolUse:<tool>`.
    pub hooks_started: u32,
}

/// Per tool name (as Claude Code spells it), its calls and hook starts.
pub fn pretooluse_runs(stdout: &str) -> BTreeMap<String, ToolHookRuns> {
    let mut out: BTreeMap<String, ToolHookRuns> = BTreeMap::new();
    for line in stdout.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else { continue };
        match (v["type"].as_str(), v["subtype"].as_str()) {
            (Some("system"), Some("hook_started")) => {
                let tool = v["hook_name"].as_str().and_then(|n| n.strip_prefix("PreToolUse:"));
                if let (Some(tool), false) = (tool, v["hook_event"].as_str().is_some_and(|e| e != "PreToolUse")) {
                    out.entry(tool.to_string()).or_default().hooks_started += 1;
                }
            }
            (Some("assistant"), _) => {
                for block in v["message"]["content"].as_array().into_iter().flatten() {
                    if let (Some("tool_use"), Some(name)) = (block["type"].as_str(), block["name"].as_str()) {
                        out.entry(name.to_string()).or_default().calls += 1;
                    }
                }
            }
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stream of a real session (Claude Code 2.1.328, stand-in, one
    /// plugin hook on Bash that allowed): one Bash call, one hook started.
    const ONE_PLUGIN_HOOK: &str = r#"{"type":"system","subtype":"init","session_id":"s"}
{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"printf 'ready\\n' > notes.txt"}}]}}
{"type":"system","subtype":"hook_started","hook_id":"b1","hook_name":"PreToolUse:Bash","hook_event":"PreToolUse","session_id":"s"}
{"type":"system","subtype":"hook_response","hook_id":"b1","hook_name":"PreToolUse:Bash","hook_event":"PreToolUse","exit_code":0,"outcome":"success"}
{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"(Bash completed with no output)"}]}}
{"type":"system","subtype":"hook_started","hook_id":"b2","hook_name":"PostToolUse:Bash","hook_event":"PostToolUse","session_id":"s"}
{"type":"result","subtype":"success","result":"done"}"#;

    #[test]
    fn counts_calls_and_pretooluse_starts_per_tool_and_nothing_else() {
        let runs = pretooluse_runs(ONE_PLUGIN_HOOK);
        assert_eq!(runs.len(), 1, "{runs:?}");
        assert_eq!(runs["Bash"], ToolHookRuns { calls: 1, hooks_started: 1 });
    }

    #[test]
    fn a_refused_call_and_the_next_tool_are_counted_apart() {
        let two = ONE_PLUGIN_HOOK.replace(
            r#"{"type":"result""#,
            "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"id\":\"t2\",\"name\":\"Write\",\"input\":{}}]}}\n\
             {\"type\":\"system\",\"subtype\":\"hook_started\",\"hook_name\":\"PreToolUse:Write\",\"hook_event\":\"PreToolUse\"}\n\
             {\"type\":\"system\",\"subtype\":\"hook_started\",\"hook_name\":\"PreToolUse:Write\",\"hook_event\":\"PreToolUse\"}\n\
             {\"type\":\"result\"",
        );
        let runs = pretooluse_runs(&two);
        assert_eq!(runs["Write"], ToolHookRuns { calls: 1, hooks_started: 2 });
        assert_eq!(runs["Bash"].hooks_started, 1);
    }
}
