//! Codex CLI's PreToolUse stdin contract ([`HookContract`]), measured on
//! 0.149.0 and 0.171.0 (docs/codex.md): the guard reads Claude Code's
//! payload with Codex's own keys, `{session_id, turn_id, transcript_path:
//! null, cwd, hook_event_name: "PreToolUse", model, permission_mode,
//! tool_name, tool_input, tool_use_id}` (as the battery's guard recorded
//! it), where a shell call is `tool_name` `Bash` with the command in
//! `tool_input.command`. Three answers refuse: exit 2 with a reason on
//! stderr that is not blank once trimmed; exit 0 with a JSON deny Codex
//! reads (Claude Code's `hookSpecificOutput` deny with a reason, or a
//! top-level `decision: block` with one, read as seal reads it,
//! [`crate::seal::answer::codex`]). Everything else runs the call: a silent
//! exit 2, exit 1 (JSON included), 126, 127, a signal, garbage.

use std::path::Path;

use serde_json::{json, Value};

use super::config::MODEL;
use crate::agent::hook_contract::{first_line, HookContract};
use crate::seal::answer::{self, codex, Reading};

/// Codex CLI's contract.
#[derive(Debug)]
pub struct CodexContract;

/// Codex's hook event.
const EVENT: &str = "PreToolUse";

impl HookContract for CodexContract {
    /// None: measured on 0.171.0 (`audit_hook_start`), its hooks get no
    /// `*PROJECT_DIR` variable, only the session's directory as their
    /// working directory and payload `cwd`.
    fn project_vars(&self) -> &'static [&'static str] {
        &[]
    }

    /// Its shell (`exec_command`) reaches hooks as `Bash` with the command
    /// in `tool_input.command`, as a probe's; `apply_patch` takes a patch, so
    /// Write probes are left out.
    fn probe_tool(&self, tool: &str) -> Option<&'static str> {
        (tool == "Bash").then_some("Bash")
    }

    fn payload(&self, tool: &str, input: &Value, cwd: &Path, _transcript: &Path) -> Value {
        let command = input.get("command").cloned().unwrap_or(Value::Null);
        json!({
            "session_id": "failopen-screen",
            "turn_id": "failopen-screen-turn",
            "transcript_path": null,
            "cwd": cwd,
            "hook_event_name": EVENT,
            "model": MODEL,
            "permission_mode": "bypassPermissions",
            "tool_name": tool,
            "tool_input": {"command": command},
            "tool_use_id": "call_failopen_screen",
        })
    }

    fn read(&self, code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> (bool, String) {
        match code {
            None => (false, "killed by a signal (allowed)".into()),
            Some(0) => exit0(stdout),
            Some(2) if String::from_utf8_lossy(stderr).trim().is_empty() => {
                (false, "exit 2 with no reason on stderr: allowed".into())
            }
            Some(2) => (true, format!("exit 2: {}", first_line(stderr))),
            Some(n) => (false, format!("exit {n}: {} (allowed)", first_line(stderr))),
        }
    }
}

/// An exit 0's answer, as Codex reads it.
fn exit0(stdout: &[u8]) -> (bool, String) {
    let Ok(v) = answer::parse(stdout) else { return (false, "allowed".into()) };
    match codex::read(Some(EVENT), &v) {
        Reading::Deny => {
            let reason = v
                .pointer("/hookSpecificOutput/permissionDecisionReason")
                .or_else(|| v.get("reason"))
                .and_then(Value::as_str)
                .unwrap_or("");
            (true, format!("deny: {}", reason.chars().take(120).collect::<String>()))
        }
        Reading::Rejected(why) if answer::means_refusal(&v) => (false, format!("a deny Codex drops: {why}")),
        _ => (false, "allowed".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each answer as Codex 0.149.0 and 0.171.0 read it in the battery and
    /// arms/shapes.json (docs/codex.md).
    #[test]
    fn codex_refuses_on_exit_2_with_a_reason_or_a_json_deny_it_reads() {
        let c = CodexContract;
        assert_eq!(c.read(Some(2), b"", b"no reset\n"), (true, "exit 2: no reset".into()));
        assert!(!c.read(Some(2), b"BLOCKED\n", b"").0, "stdout-deny: a silent exit 2 runs the call");
        assert!(!c.read(Some(2), b"", "\u{0b}\u{a0}\n".as_bytes()).0, "a blank reason is none");
        assert!(!c.read(Some(1), b"", b"boom").0, "a crash fails open");
        assert!(!c.read(Some(127), b"", b"sh: 1: /g.sh: not found").0, "a missing script fails open");
        assert!(!c.read(None, b"", b"").0, "a signal fails open");
        let claude = br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}"#;
        assert_eq!(c.read(Some(0), claude, b""), (true, "deny: x".into()));
        assert!(!c.read(Some(1), claude, b"").0, "json-deny-exit1: JSON is read on exit 0 only");
        assert!(c.read(Some(0), br#"{"decision":"block","reason":"x"}"#, b"").0);
        let no_reason = br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}"#;
        let (refused, said) = c.read(Some(0), no_reason, b"");
        assert!(!refused && said.starts_with("a deny Codex drops"), "{said}");
        assert!(!c.read(Some(0), br#"{"decision":"deny","reason":"x"}"#, b"").0, "Gemini's shape runs the call");
        assert!(!c.read(Some(0), br#"{"permissionDecision":"deny"}"#, b"").0, "Copilot's shape too");
        assert_eq!(c.read(Some(0), b"garbage", b""), (false, "allowed".into()));
    }

    #[test]
    fn a_probe_goes_through_bash_with_codexs_payload() {
        let c = CodexContract;
        assert_eq!(c.probe_tool("Bash"), Some("Bash"));
        assert_eq!(c.probe_tool("Write"), None);
        let p = c.payload(
            "Bash",
            &json!({"command": "git reset --hard", "description": "d"}),
            Path::new("/w"),
            Path::new("/t"),
        );
        assert_eq!(
            (p["tool_name"].as_str(), p["tool_input"]["command"].as_str()),
            (Some("Bash"), Some("git reset --hard"))
        );
        assert_eq!(p["tool_input"].as_object().map(|o| o.len()), Some(1), "only the command, as Codex sends it");
        assert!(p["transcript_path"].is_null() && p["turn_id"].is_string());
        assert_eq!(
            crate::seal::answer::host::hosts(&p),
            [crate::seal::answer::host::Host::Codex],
            "seal tells it for Codex's"
        );
    }
}
