//! The SDK's words for a refused call: the bundled Claude Code's
//! ([`ClaudeCodeWording`]: a callback's deny is `PreToolUse:<Tool> hook
//! error: <reason>`, or the bare reason on 0.3.258; `onFailure` gives
//! `[callback]: failed; blocking because onFailure is "block"`), plus the
//! refusal of a callback that did not answer before its matcher's timeout,
//! which names no hook. And the callback's own lines on stdout.

use std::collections::HashSet;

use serde_json::Value;

use crate::agent::claude_code::wording::ClaudeCodeWording;
use crate::agent::wording::RefusalWording;

/// The SDK's wording.
#[derive(Debug)]
pub struct AgentSdkWording;

/// The SDK's refusal of a callback that did not answer in time (0.3.258 and
/// 0.3.333): `PreToolUse hook did not respond before its timeout ...`.
const TIMED_OUT: &str = "hook did not respond before its timeout";

/// The SDK's refusal of a call whose `canUseTool` callback threw, rejected
/// or answered garbage (0.3.333): `Tool permission request failed: Error: ...`.
const PERMISSION_FAILED: &str = "Tool permission request failed: ";

/// The SDK's refusal of a call whose `canUseTool` answered something that
/// is no permission result (0.3.333).
const PERMISSION_INVALID: &str = "The canUseTool callback returned an invalid permission result.";

impl RefusalWording for AgentSdkWording {
    /// A timeout's refusal, and a failed `canUseTool`'s, name no hook: they
    /// are the callback's when it is the session's only hook
    /// (`settingSources: []`, no managed settings).
    fn uniform_refusal<'a>(&self, text: &'a str) -> Option<Option<&'a str>> {
        is_callback_failure(text).then_some(Some(text))
    }

    fn names_hook_refusal(&self, text: &str) -> bool {
        is_callback_failure(text) || ClaudeCodeWording.names_hook_refusal(text)
    }

    fn names_refusing_hook(&self) -> bool {
        true
    }

    fn is_own_refusal(&self, text: &str) -> bool {
        ClaudeCodeWording.is_own_refusal(text)
    }
}

/// Whether `text` is the SDK's refusal of a call whose callback did not
/// answer in time, or whose `canUseTool` failed.
fn is_callback_failure(text: &str) -> bool {
    let t = text.trim_start();
    is_timeout(text) || t.starts_with(PERMISSION_FAILED) || t.starts_with(PERMISSION_INVALID)
}

/// Whether `text` is the SDK's refusal of a callback that did not answer
/// before its matcher's timeout.
pub fn is_timeout(text: &str) -> bool {
    text.contains(TIMED_OUT)
}

/// The tool_use ids the session's result lists as refused
/// (`permission_denials`, on the `result` message).
pub fn permission_denials(stdout: &str) -> HashSet<String> {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "result")
        .flat_map(|v| {
            let denials = v["permission_denials"].as_array().cloned().unwrap_or_default();
            denials.into_iter().filter_map(|d| d["tool_use_id"].as_str().map(String::from))
        })
        .collect()
}

/// What the callback did each time it answered, from failopen's
/// `failopen_callback` lines: `callback:returned:{...}`,
/// `can-use-tool:threw:...`, for the row's hook outcomes.
pub fn callback_answers(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|v| v["type"] == "failopen_callback")
        .map(|v| {
            let s = |k: &str| v[k].as_str().unwrap_or("?").to_string();
            format!("{}:{}:{}", s("kind"), s("outcome"), s("value"))
        })
        .collect()
}

/// The row flag of a session whose stream carried the SDK's warning that a
/// hook callback failed (a `system`/`informational` message tagged
/// `hook_callback_failed`, newer SDKs only): the one sign a caller gets of a
/// callback that failed open.
pub const CALLBACK_FAILED_NOTICE: &str = "sdk-notice:hook_callback_failed";

/// The stream's notices, as row flags: [`CALLBACK_FAILED_NOTICE`] once when
/// any `system` message is tagged `hook_callback_failed`.
pub fn notices(stdout: &str) -> Vec<String> {
    let warned = stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .any(|v| v["type"] == "system" && v["tag"] == "hook_callback_failed");
    warned.then(|| CALLBACK_FAILED_NOTICE.to_string()).into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timeout_is_a_uniform_refusal_and_the_rest_is_claude_codes() {
        let t = "PreToolUse hook did not respond before its timeout (3s). The tool call was not executed.";
        assert_eq!(AgentSdkWording.uniform_refusal(t), Some(Some(t)));
        assert_eq!(AgentSdkWording.uniform_refusal("PreToolUse:Bash hook error: x"), None);
        let failed = "Tool permission request failed: Error: failopen: canUseTool threw";
        assert!(AgentSdkWording.names_hook_refusal(failed) && AgentSdkWording.uniform_refusal(failed).is_some());
        assert!(AgentSdkWording.names_hook_refusal("PreToolUse:Bash hook error: [callback]: failed"));
        let out = "{\"type\":\"failopen_callback\",\"kind\":\"callback\",\"outcome\":\"threw\",\"value\":\"boom\"}\n{}";
        assert_eq!(callback_answers(out), ["callback:threw:boom"]);
        let result = "{\"type\":\"result\",\"permission_denials\":[{\"tool_name\":\"Bash\",\"tool_use_id\":\"t1\"}]}";
        assert_eq!(permission_denials(&format!("{out}\n{result}")), HashSet::from(["t1".to_string()]));
        assert!(permission_denials(out).is_empty() && is_timeout(t) && !is_timeout(failed));
    }

    #[test]
    fn the_callback_failed_warning_is_a_notice_once() {
        let warned = "{\"type\":\"system\",\"subtype\":\"informational\",\"content\":\"PreToolUse: Hook callback hook_0 failed\",\"level\":\"warning\",\"tag\":\"hook_callback_failed\"}";
        assert_eq!(notices(&format!("{warned}\n{warned}\n{{}}")), [CALLBACK_FAILED_NOTICE]);
        let other = "{\"type\":\"system\",\"subtype\":\"informational\",\"tag\":\"other\"}";
        assert!(notices(other).is_empty() && notices("not json").is_empty());
    }
}
