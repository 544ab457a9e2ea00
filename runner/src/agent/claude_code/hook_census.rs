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

/// The most characters of a guard's stderr shown.
const MAX_SAID: usize = 240;

/// The PreToolUse hooks of a session that ended in error (an exit code
/// other than 0 and 2, a signal, a timeout), each as `exit N: <the start of
/// its stderr>`, read from the `hook_response` events (measured on 2.1.328:
/// `exit_code`, `outcome` `error`, and the hook's `stderr`; node rejecting
/// an option shows as `exit 9: node: bad option: ...`).
pub fn pretooluse_errors(stdout: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in stdout.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else { continue };
        if v["subtype"].as_str() != Some("hook_response") || v["hook_event"].as_str() != Some("PreToolUse") {
            continue;
        }
        let outcome = v["outcome"].as_str().unwrap_or_default();
        let code = v["exit_code"].as_i64();
        if outcome == "success" || code == Some(2) {
            continue;
        }
        let stderr = v["stderr"].as_str().or(v["output"].as_str()).unwrap_or_default();
        out.push(said(code.map_or_else(|| outcome.to_string(), |c| format!("exit {c}")), stderr));
    }
    out
}

/// `head: <the start of stderr>`, on one line, at most [`MAX_SAID`] characters of it.
pub fn said(head: String, stderr: &str) -> String {
    let lines: Vec<&str> = stderr.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
    // A Python traceback says what went wrong on its last line.
    let mut text = match lines.first() {
        Some(first) if first.starts_with("Traceback") => lines.last().copied().unwrap_or_default().to_string(),
        _ => lines.join(" / "),
    };
    if text.chars().count() > MAX_SAID {
        text = text.chars().take(MAX_SAID).collect::<String>() + "...";
    }
    if text.is_empty() {
        format!("{head} (nothing on stderr)")
    } else {
        format!("{head}: {text}")
    }
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
    fn a_guard_that_errored_says_its_exit_code_and_stderr() {
        // From a real session of 2.1.328: `node --experimental-bogus-flag /tmp/x.js` as the hook.
        let real = r#"{"type":"system","subtype":"hook_response","hook_id":"7b","hook_name":"PreToolUse:Bash","hook_event":"PreToolUse","output":"node: bad option: --experimental-bogus-flag\n","stdout":"","stderr":"node: bad option: --experimental-bogus-flag\n","exit_code":9,"outcome":"error"}"#;
        assert_eq!(pretooluse_errors(real), ["exit 9: node: bad option: --experimental-bogus-flag"]);
        // A refusal (exit 2) and a success are no error; neither is another event's hook.
        assert!(pretooluse_errors(ONE_PLUGIN_HOOK).is_empty());
        let refused = real.replace("\"exit_code\":9", "\"exit_code\":2");
        assert!(pretooluse_errors(&refused).is_empty());
        let post = real.replace("\"hook_event\":\"PreToolUse\"", "\"hook_event\":\"PostToolUse\"");
        assert!(pretooluse_errors(&post).is_empty());
        let long = "x".repeat(1000);
        assert!(said("exit 1".into(), &long).len() < 260);
        assert_eq!(
            said(
                "exit 1".into(),
                "Traceback (most recent call last):\n  File x\nModuleNotFoundError: No module named 'yaml'\n"
            ),
            "exit 1: ModuleNotFoundError: No module named 'yaml'"
        );
        assert_eq!(said("exit 1".into(), "a\nb\n"), "exit 1: a / b");
        assert_eq!(said("exit 1".into(), ""), "exit 1 (nothing on stderr)");
    }

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
