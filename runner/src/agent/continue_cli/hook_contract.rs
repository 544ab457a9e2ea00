//! Continue CLI's PreToolUse stdin contract ([`HookContract`]), as
//! `hookRunner.ts` of 1.5.45 and 1.5.47 would read a command hook if the
//! event were ever fired (docs/continue.md): Claude Code's payload and tool
//! names; exit 2 refuses (stderr the reason, `Blocked by hook` when there is
//! none); on any other exit, stdout that parses as a JSON object refuses
//! when its `decision` is `block`, or its `hookSpecificOutput` names
//! `PreToolUse` with `permissionDecision: "deny"`. Everything else (exit 1,
//! 127, a signal, a timeout, whose null exit code it reads as 0) runs the
//! call. A screen reads the guard by this rule; the sessions show that
//! Continue never runs it.

use std::path::Path;

use serde_json::Value;

use crate::agent::claude_code::hook_contract::ClaudeCodeContract;
use crate::agent::hook_contract::{first_line, HookContract};

/// Continue CLI's contract.
#[derive(Debug)]
pub struct ContinueContract;

/// Its reason for a refusal that gives none.
const NO_REASON: &str = "Blocked by hook";

impl HookContract for ContinueContract {
    /// Its hooks get these set to the session's directory (measured for
    /// Gemini CLI by `audit_hook_start`; the others by their docs).
    fn project_vars(&self) -> &'static [&'static str] {
        &super::hook_config::PROJECT_VARS
    }

    /// Its shell is Claude Code's `Bash`, `{command}`; its `Write` takes
    /// `filepath`, not Claude Code's `file_path`, so no Write probe is made.
    fn probe_tool(&self, tool: &str) -> Option<&'static str> {
        (tool == super::config::WRITE_TOOLS[0]).then_some(super::config::WRITE_TOOLS[0])
    }

    /// Claude Code's payload (`fireHook.ts` builds the same keys).
    fn payload(&self, tool: &str, input: &Value, cwd: &Path, transcript: &Path) -> Value {
        ClaudeCodeContract.payload(tool, input, cwd, transcript)
    }

    fn read(&self, code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> (bool, String) {
        let ending = match code {
            None => "killed by a signal".to_string(),
            Some(n) => format!("exit {n}"),
        };
        if code == Some(2) {
            let reason = first_line(stderr);
            return (true, format!("exit 2: {}", if reason.is_empty() { NO_REASON } else { &reason }));
        }
        let text = String::from_utf8_lossy(stdout);
        let parsed =
            Some(text.trim()).filter(|t| t.starts_with('{')).and_then(|t| serde_json::from_str::<Value>(t).ok());
        if let Some(v) = parsed {
            let reason = |key: &str| {
                v.pointer(key).and_then(Value::as_str).unwrap_or(NO_REASON).chars().take(120).collect::<String>()
            };
            if v.get("decision").and_then(Value::as_str) == Some("block") {
                return (true, format!("{ending}, decision block: {}", reason("/reason")));
            }
            let specific = v.get("hookSpecificOutput");
            let event = specific.and_then(|s| s.get("hookEventName")).and_then(Value::as_str);
            let decision = specific.and_then(|s| s.get("permissionDecision")).and_then(Value::as_str);
            if event == Some(super::config::EVENT) && decision == Some("deny") {
                return (true, format!("{ending}, deny: {}", reason("/hookSpecificOutput/permissionDecisionReason")));
            }
        }
        (false, format!("{ending}: {} (allowed)", first_line(stderr)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn continue_would_refuse_on_exit_2_a_block_or_a_pretooluse_deny_on_any_exit() {
        let c = ContinueContract;
        assert_eq!(c.read(Some(2), b"", b"no reset\n"), (true, "exit 2: no reset".into()));
        assert_eq!(c.read(Some(2), b"", b""), (true, "exit 2: Blocked by hook".into()));
        assert!(!c.read(Some(1), b"", b"boom").0, "a crash runs the call");
        assert!(!c.read(Some(127), b"", b"sh: 1: /g.sh: not found").0);
        assert!(!c.read(None, b"", b"").0, "a signal runs the call");
        let deny = br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no"}}"#;
        assert_eq!(c.read(Some(0), deny, b""), (true, "exit 0, deny: json says no".into()));
        assert!(c.read(Some(1), deny, b"").0, "stdout is read whatever the exit code");
        let no_event = br#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#;
        assert!(!c.read(Some(0), no_event, b"").0, "a deny under no event name is no decision");
        assert!(c.read(Some(0), br#"{"decision":"block","reason":"x"}"#, b"").0);
        assert!(!c.read(Some(0), br#"{"decision":"deny"}"#, b"").0, "only block is a top-level refusal");
        assert!(!c.read(Some(0), b"garbage", b"").0);
        assert_eq!((c.probe_tool("Bash"), c.probe_tool("Write")), (Some("Bash"), None));
    }
}
