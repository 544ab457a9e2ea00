//! Copilot CLI's preToolUse stdin contract ([`HookContract`]), measured on
//! 1.0.73 and 1.0.102 (docs/copilot.md): the guard reads `{sessionId,
//! timestamp, cwd, toolName, toolArgs}` (camelCase, no event name), where
//! `toolArgs` is the call's arguments as an object on 1.0.102 and as a JSON
//! *string* of them on 1.0.73 (both recorded by the battery's guard). The
//! screen sends 1.0.102's object: a guard that reads only the other shape
//! is told apart by the sessions, which run the real binary.
//!
//! Its reading of the hook's ending, from 1.0.70 on: exit 0 refuses only
//! with a top-level `permissionDecision: "deny"` on stdout (read as seal
//! reads it, [`crate::seal::answer::copilot`]; Claude Code's
//! `hookSpecificOutput` is no decision to it); every other exit refuses
//! (exit 2 as a denial, any other code or a signal as "hook errored", which
//! Copilot fails closed on). A hang past `timeoutSec` lets the call run,
//! but a screen never waits that long for an answer it then reads.
//! Releases before 1.0.70 ran the call after an exit 2: the sessions, not
//! the screen, judge a release.

use std::path::Path;

use serde_json::{json, Value};

use crate::agent::hook_contract::{first_line, HookContract};
use crate::seal::answer::{self, copilot, Reading};
use crate::standin::script::COPILOT_SHELL;

/// Copilot CLI's contract.
#[derive(Debug)]
pub struct CopilotContract;

/// The `timestamp` a screen's payload carries (milliseconds, as Copilot's).
const SCREEN_TIMESTAMP_MS: u64 = 1_796_221_148_177;

impl HookContract for CopilotContract {
    /// Measured on 1.0.102: `COPILOT_PROJECT_DIR` and `CLAUDE_PROJECT_DIR`.
    fn project_vars(&self) -> &'static [&'static str] {
        &["COPILOT_PROJECT_DIR", "CLAUDE_PROJECT_DIR"]
    }

    /// Its shell, `bash`, takes a probe's `command` (and `description`) as
    /// Claude Code's `Bash` does; its `create` takes `path` and `file_text`,
    /// not a Write's `file_path` and `content`, so Write probes are left out.
    fn probe_tool(&self, tool: &str) -> Option<&'static str> {
        (tool == "Bash").then_some(COPILOT_SHELL)
    }

    fn payload(&self, tool: &str, input: &Value, cwd: &Path, _transcript: &Path) -> Value {
        json!({
            "sessionId": "failopen-screen",
            "timestamp": SCREEN_TIMESTAMP_MS,
            "cwd": cwd,
            "toolName": tool,
            "toolArgs": input,
        })
    }

    fn read(&self, code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> (bool, String) {
        match code {
            None => (true, "killed by a signal: hook errored (Copilot fails closed)".into()),
            Some(0) => exit0(stdout),
            Some(2) => (true, format!("exit 2: {}", first_line(stderr))),
            Some(n) => (true, format!("exit {n}: hook errored (Copilot fails closed): {}", first_line(stderr))),
        }
    }
}

/// An exit 0's answer, as Copilot reads it: a top-level deny refuses,
/// anything else (plain text, Claude Code's or Gemini's JSON shape) allows.
fn exit0(stdout: &[u8]) -> (bool, String) {
    let Ok(v) = answer::parse(stdout) else { return (false, "allowed".into()) };
    match copilot::read(&v) {
        Reading::Deny => {
            let reason = v.get("permissionDecisionReason").and_then(Value::as_str).unwrap_or("");
            (true, format!("deny: {}", reason.chars().take(120).collect::<String>()))
        }
        Reading::Rejected(why) if answer::means_refusal(&v) => {
            (false, format!("a deny Copilot CLI does not read: {why}"))
        }
        _ => (false, "allowed".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each answer as Copilot 1.0.102 read it in the battery (docs/copilot.md).
    #[test]
    fn copilot_refuses_on_any_failing_exit_and_its_own_json_deny() {
        let c = CopilotContract;
        assert_eq!(c.read(Some(2), b"", b"no reset\n"), (true, "exit 2: no reset".into()));
        assert!(c.read(Some(2), b"", b"").0, "a silent exit 2 refuses (deny-blank-reason)");
        assert!(c.read(Some(1), b"", b"boom").0, "a crash is 'hook errored': fails closed");
        assert!(c.read(Some(127), b"", b"sh: 1: /g.sh: not found").0, "a missing script fails closed");
        assert!(c.read(None, b"", b"").0, "a signal fails closed");
        let own = br#"{"permissionDecision":"deny","permissionDecisionReason":"no reset"}"#;
        assert_eq!(c.read(Some(0), own, b""), (true, "deny: no reset".into()));
        let claude = br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#;
        let (refused, said) = c.read(Some(0), claude, b"");
        assert!(!refused && said.contains("hookSpecificOutput"), "Claude Code's shape runs the call: {said}");
        assert!(!c.read(Some(0), br#"{"decision":"deny","reason":"x"}"#, b"").0, "Gemini's shape too");
        assert_eq!(c.read(Some(0), b"not json\n", b""), (false, "allowed".into()));
        assert_eq!(c.read(Some(0), b"", b""), (false, "allowed".into()));
    }

    #[test]
    fn a_probe_goes_through_bash_with_copilots_payload() {
        let c = CopilotContract;
        assert_eq!(c.probe_tool("Bash"), Some("bash"));
        assert_eq!(c.probe_tool("Write"), None, "create takes other keys than a Write probe");
        let p = c.payload("bash", &json!({"command": "git reset --hard"}), Path::new("/w"), Path::new("/t"));
        assert_eq!(p["toolName"], "bash");
        assert_eq!(p["toolArgs"]["command"], "git reset --hard");
        assert_eq!(p["cwd"], "/w");
        assert!(p.get("hook_event_name").is_none() && p["timestamp"].is_u64());
        assert!(copilot::is_its_payload(&p), "seal tells it for Copilot's");
    }
}
