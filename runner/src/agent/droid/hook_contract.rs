//! Droid's PreToolUse stdin contract ([`HookContract`]), as 0.215.0 and
//! 0.225.2 read a command hook (docs/droid.md): Claude Code's payload
//! (`session_id`, `transcript_path`, `cwd`, `permission_mode`,
//! `hook_event_name`, `tool_name`, `tool_input`) with Droid's tool names, a
//! shell call being `Execute` with the command in `tool_input.command`.
//! Exit 2 refuses (its stderr the reason, `Tool execution blocked by hook`
//! when there is none); exit 0 refuses with Claude Code's
//! `hookSpecificOutput.permissionDecision: "deny"`; every other ending
//! (exit 1, 127, a signal, a timeout) runs the call, exit 1's stderr put
//! before the tool's output.

use std::path::Path;

use serde_json::{json, Value};

use super::config::EVENT;
use crate::agent::hook_contract::{first_line, HookContract};
use crate::seal::answer;

/// Droid's contract.
#[derive(Debug)]
pub struct DroidContract;

impl HookContract for DroidContract {
    /// Measured on 0.225.2: `FACTORY_PROJECT_DIR`, `DROID_PROJECT_DIR`,
    /// `CLAUDE_PROJECT_DIR` and one named `cwd`, each its working directory.
    fn project_vars(&self) -> &'static [&'static str] {
        &["FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "cwd"]
    }

    /// Claude Code's `Bash` is Droid's `Execute`, its `Write` Droid's
    /// `Create` (`file_path`, `content`), its `Edit` Droid's `Edit`.
    fn probe_tool(&self, tool: &str) -> Option<&'static str> {
        match tool {
            "Bash" => Some("Execute"),
            "Write" => Some("Create"),
            "Edit" => Some("Edit"),
            _ => None,
        }
    }

    fn payload(&self, tool: &str, input: &Value, cwd: &Path, transcript: &Path) -> Value {
        json!({
            "session_id": "failopen-screen",
            "transcript_path": transcript.display().to_string(),
            "cwd": cwd.display().to_string(),
            "permission_mode": "auto-high",
            "hook_event_name": EVENT,
            "tool_name": tool,
            "tool_input": input,
        })
    }

    fn read(&self, code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> (bool, String) {
        match code {
            None => (false, "killed by a signal (allowed)".into()),
            Some(2) => {
                let reason = first_line(stderr);
                let reason = if reason.is_empty() { super::wording::NO_REASON.to_string() } else { reason };
                (true, format!("exit 2: {reason}"))
            }
            Some(0) => {
                let Ok(v) = answer::parse(stdout) else { return (false, "allowed".into()) };
                if v.pointer("/hookSpecificOutput/permissionDecision").and_then(Value::as_str) != Some("deny") {
                    return (false, "allowed".into());
                }
                let reason = v.pointer("/hookSpecificOutput/permissionDecisionReason").and_then(Value::as_str);
                (true, format!("deny: {}", reason.unwrap_or("").chars().take(120).collect::<String>()))
            }
            Some(n) => (false, format!("exit {n}: {} (allowed)", first_line(stderr))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn droid_refuses_on_exit_2_or_claude_codes_json_deny_only() {
        let c = DroidContract;
        assert_eq!(c.read(Some(2), b"", b"no reset\n"), (true, "exit 2: no reset".into()));
        assert_eq!(c.read(Some(2), b"", b""), (true, "exit 2: Tool execution blocked by hook".into()));
        assert!(!c.read(Some(1), b"", b"boom").0, "a crash runs the call");
        assert!(!c.read(Some(127), b"", b"sh: 1: /g.sh: not found").0, "a missing script runs the call");
        let deny = br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"json says no"}}"#;
        assert_eq!(c.read(Some(0), deny, b""), (true, "deny: json says no".into()));
        assert!(!c.read(Some(0), b"garbage", b"").0);
        assert!(!c.read(None, b"", b"").0);
        assert_eq!(
            (c.probe_tool("Bash"), c.probe_tool("Write"), c.probe_tool("Read")),
            (Some("Execute"), Some("Create"), None)
        );
        let p = c.payload("Execute", &json!({"command": "ls"}), Path::new("/w"), Path::new("/t"));
        assert_eq!((p["hook_event_name"].as_str(), p["tool_input"]["command"].as_str()), (Some(EVENT), Some("ls")));
    }
}
