//! A hook command as another agent runs it in an audit session, and what
//! its run tells.
//!
//! Codex CLI and Gemini CLI report no hook events (docs/codex.md,
//! docs/gemini.md), so a write that landed does not say whether the guard
//! ran, allowed it, or broke. In their sessions the command leaves a trace:
//! a `start` line when the shell starts it and `exit N` when the shell
//! exits, in `$FAILOPEN_TRACE.audit` (beside the session's evidence). The
//! guard runs as configured in between; only its shell gets the trap.
//!
//! Gemini CLI replaces `$GEMINI_PROJECT_DIR`, `$GEMINI_CWD` and
//! `$CLAUDE_PROJECT_DIR` in the command text with the session's directory
//! before running it; they are turned into `${...}` (which it leaves alone,
//! and which read the same directory from the variables it sets: the
//! session runs in the project's copy), so that seal's quoting survives.

use std::path::Path;

use serde_json::Value;

use super::faults::Fault;
use super::judge::WroteHow;
use crate::agent::Agent;

/// The file (in the session's evidence directory) the trace goes to.
pub const TRACE_FILE: &str = "trace.jsonl.audit";

/// `hook` as `agent` runs it in an audit session: unchanged for an agent
/// whose stream reports hook events (Claude Code), else with the trace and
/// the agent's project variables (Gemini CLI's) braced.
pub fn for_agent(agent: Agent, hook: &Value) -> Value {
    let driver = agent.driver();
    let Some(command) = hook.get("command").and_then(Value::as_str) else { return hook.clone() };
    if driver.reports_hook_events() {
        return hook.clone();
    }
    let vars = driver.hook_config().map_or(&[][..], |c| c.project_dir_vars());
    let command = brace_vars(command, vars);
    let mut out = hook.clone();
    out["command"] = Value::String(format!(
        "printf 'start\\n' >> \"$FAILOPEN_TRACE.audit\"; \
         trap 'printf \"exit %s\\n\" \"$?\" >> \"$FAILOPEN_TRACE.audit\"' EXIT; {command}"
    ));
    out
}

/// `command` with the project variables `vars` braced: Gemini CLI replaces
/// `$GEMINI_PROJECT_DIR` in the text (which would break seal's quoting),
/// and sets the variable too, which `${GEMINI_PROJECT_DIR}` reads.
pub fn brace_vars(command: &str, vars: &[&str]) -> String {
    vars.iter().fold(command.to_string(), |c, var| c.replace(&format!("${var}"), &format!("${{{var}}}")))
}

/// How a write under `fault` landed, by the trace in `evidence`: no run
/// (the matcher does not cover the tool), a run that ended 0 (allowed), or
/// a run that broke or was cut off (an injected fault, or exit 2 that the
/// agent did not take as a refusal: Codex wants a reason on stderr, Gemini
/// some output).
pub fn how_it_wrote(evidence: &Path, fault: Fault) -> WroteHow {
    let trace = std::fs::read_to_string(evidence.join(TRACE_FILE)).unwrap_or_default();
    how_from_trace(&trace, fault)
}

/// [`how_it_wrote`] from the trace's text.
pub fn how_from_trace(trace: &str, fault: Fault) -> WroteHow {
    let started = trace.lines().any(|l| l == "start");
    let exit = trace.lines().filter_map(|l| l.strip_prefix("exit ")).next_back();
    match (started, exit) {
        (false, _) => WroteHow::GuardNotRun,
        (true, Some("0")) if fault == Fault::None => WroteHow::GuardAllowed,
        _ => WroteHow::GuardFailed,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn claude_code_hooks_are_left_alone_and_others_leave_a_trace() {
        let hook = json!({"type": "command", "command": "/g/deny.sh", "timeout": 5});
        assert_eq!(for_agent(Agent::ClaudeCode, &hook), hook);
        let codex = for_agent(Agent::Codex, &hook);
        let cmd = codex["command"].as_str().unwrap();
        assert!(cmd.ends_with("EXIT; /g/deny.sh"), "{cmd}");
        assert_eq!(codex["timeout"], 5);
        let gemini = for_agent(Agent::Gemini, &json!({"type": "command", "command": "$GEMINI_PROJECT_DIR/g.sh"}));
        let cmd = gemini["command"].as_str().unwrap();
        assert!(cmd.ends_with("${GEMINI_PROJECT_DIR}/g.sh"), "{cmd}");
        assert!(!cmd.contains("$GEMINI_PROJECT_DIR/"), "Gemini would replace it with the session's directory");
        assert!(!cmd.contains("GEMINI_PROJECT_DIR="), "the agent sets it: the session runs in the project's copy");
    }

    #[test]
    fn the_trace_says_how_a_write_landed() {
        assert_eq!(how_from_trace("", Fault::None), WroteHow::GuardNotRun);
        assert_eq!(how_from_trace("start\nexit 0\n", Fault::None), WroteHow::GuardAllowed);
        assert_eq!(how_from_trace("start\nexit 1\n", Fault::None), WroteHow::GuardFailed);
        assert_eq!(how_from_trace("start\nexit 2\n", Fault::None), WroteHow::GuardFailed, "a silent exit 2");
        assert_eq!(how_from_trace("start\n", Fault::None), WroteHow::GuardFailed, "killed at its timeout");
        assert_eq!(how_from_trace("start\nexit 0\n", Fault::Crash), WroteHow::GuardFailed);
    }

    /// The traced command runs the guard with its own exit code, and traces it.
    #[test]
    fn the_traced_command_keeps_the_guards_exit_code() {
        let d = tempfile::tempdir().unwrap();
        let trace = d.path().join("trace.jsonl");
        let hook = for_agent(Agent::Codex, &json!({"command": "echo no >&2; exit 2"}));
        let out = std::process::Command::new("/bin/sh")
            .args(["-c", hook["command"].as_str().unwrap()])
            .env("FAILOPEN_TRACE", &trace)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(String::from_utf8_lossy(&out.stderr), "no\n");
        assert_eq!(std::fs::read_to_string(d.path().join(TRACE_FILE)).unwrap(), "start\nexit 2\n");
    }
}
