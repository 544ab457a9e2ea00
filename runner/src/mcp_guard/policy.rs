//! What the `guard` tool answers under each policy (pure: no I/O).
//!
//! Claude Code reads an `mcp_tool` hook's text output the way it reads a
//! command hook's stdout on exit 0 (measured: `docs/mcp-tool-hooks.md`), so
//! the `deny` policy answers with the JSON decision a command guard prints.

use rmcp::model::{CallToolResult, ContentBlock};
use serde_json::json;

/// How the guard server behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// No objection: the text `{}` (a hook output without a decision).
    Allow,
    /// A PreToolUse JSON deny with [`DENY_REASON`].
    Deny,
    /// A tool result with `isError: true`.
    Error,
    /// Never answers a call.
    Hang,
    /// Text that is not JSON.
    Garbage,
    /// Exits 1 before the MCP handshake.
    CrashAtStart,
}

/// The reason the `deny` policy gives.
pub const DENY_REASON: &str = "this session may not write files (failopen mcp-deny guard)";

/// The text of the `error` policy's result.
pub const ERROR_TEXT: &str = "policy check failed (failopen mcp-error guard)";

/// The text of the `garbage` policy's result (not JSON).
pub const GARBAGE_TEXT: &str = "<html>policy server maintenance</html>";

/// What the server does with one `guard` call.
#[derive(Debug, Clone, PartialEq)]
pub enum Answer {
    /// Answer with this result.
    Result(CallToolResult),
    /// Never answer (until the client cancels the call or goes away).
    Never,
}

impl Policy {
    /// Every policy with its command-line name.
    pub const ALL: [(&'static str, Policy); 6] = [
        ("allow", Policy::Allow),
        ("deny", Policy::Deny),
        ("error", Policy::Error),
        ("hang", Policy::Hang),
        ("garbage", Policy::Garbage),
        ("crash-at-start", Policy::CrashAtStart),
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        Policy::ALL.iter().find(|(_, p)| *p == self).map(|(n, _)| *n).unwrap_or("?")
    }

    /// The server must exit before the handshake.
    pub fn crashes_at_start(self) -> bool {
        self == Policy::CrashAtStart
    }

    /// The answer to a `guard` call (the arguments do not change it).
    pub fn answer(self) -> Answer {
        match self {
            Policy::Allow => Answer::Result(text(json!({}).to_string())),
            Policy::Deny => Answer::Result(text(deny_json().to_string())),
            Policy::Error => Answer::Result(CallToolResult::error(vec![ContentBlock::text(ERROR_TEXT)])),
            Policy::Garbage => Answer::Result(text(GARBAGE_TEXT.to_string())),
            // `CrashAtStart` never gets a call; if it did, it would not answer either.
            Policy::Hang | Policy::CrashAtStart => Answer::Never,
        }
    }
}

/// The PreToolUse hook output that refuses the call.
pub fn deny_json() -> serde_json::Value {
    json!({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": DENY_REASON,
    }})
}

fn text(s: String) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(s)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn only_text(answer: Answer) -> (String, Option<bool>) {
        let Answer::Result(r) = answer else { panic!("no answer") };
        assert_eq!(r.content.len(), 1);
        let t = r.content[0].as_text().expect("text content").text.clone();
        (t, r.is_error)
    }

    #[test]
    fn names_round_trip_and_are_distinct() {
        for (name, p) in Policy::ALL {
            assert_eq!(p.name(), name);
        }
        let mut names: Vec<_> = Policy::ALL.iter().map(|(n, _)| n).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), Policy::ALL.len());
    }

    #[test]
    fn allow_is_a_hook_output_without_a_decision() {
        let (t, err) = only_text(Policy::Allow.answer());
        assert_eq!(serde_json::from_str::<serde_json::Value>(&t).unwrap(), json!({}));
        assert_ne!(err, Some(true));
    }

    #[test]
    fn deny_is_a_pre_tool_use_json_deny_with_the_reason() {
        let (t, err) = only_text(Policy::Deny.answer());
        let v: serde_json::Value = serde_json::from_str(&t).unwrap();
        let out = &v["hookSpecificOutput"];
        assert_eq!(out["hookEventName"], "PreToolUse");
        assert_eq!(out["permissionDecision"], "deny");
        assert_eq!(out["permissionDecisionReason"], DENY_REASON);
        assert_ne!(err, Some(true));
    }

    #[test]
    fn error_is_an_error_result() {
        let (t, err) = only_text(Policy::Error.answer());
        assert_eq!(t, ERROR_TEXT);
        assert_eq!(err, Some(true));
    }

    #[test]
    fn garbage_is_not_json() {
        let (t, err) = only_text(Policy::Garbage.answer());
        assert!(serde_json::from_str::<serde_json::Value>(&t).is_err());
        assert_ne!(err, Some(true));
    }

    #[test]
    fn hang_never_answers_and_only_crash_at_start_crashes() {
        assert_eq!(Policy::Hang.answer(), Answer::Never);
        for (_, p) in Policy::ALL {
            assert_eq!(p.crashes_at_start(), p == Policy::CrashAtStart);
        }
    }
}
