//! Which agent sent a hook payload, as far as seal can tell from it.
//!
//! Claude Code and Codex both send `PreToolUse`, Gemini CLI `BeforeTool`.
//! Measured payloads (docs/seal.md): Codex's carry `turn_id` and `model`
//! and a `null` `transcript_path`; Claude Code's a `transcript_path` string
//! and no `turn_id`; Copilot CLI's are camelCase (`toolName`) with no event; Cline CLI's name a `hookName` and carry `preToolUse`. When seal cannot tell, an answer must hold for every
//! agent that sends the event.

use std::fmt;

use serde_json::Value;

use super::{claude_code, cline, codex, copilot, gemini, Reading};

/// An agent whose reading of an answer seal knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Host {
    /// Claude Code (and the Claude Agent SDK's CLI).
    ClaudeCode,
    /// OpenAI's Codex CLI.
    Codex,
    /// Google's Gemini CLI.
    Gemini,
    /// GitHub Copilot CLI.
    Copilot,
    /// Cline CLI.
    Cline,
}

impl Host {
    /// How this agent reads `answer` (a JSON object) for `event`.
    pub fn read(self, event: Option<&str>, answer: &Value) -> Reading {
        match self {
            Host::ClaudeCode => claude_code::read(event, answer),
            Host::Codex => codex::read(event, answer),
            Host::Gemini => gemini::read(answer),
            Host::Copilot => copilot::read(answer),
            Host::Cline => cline::read(answer),
        }
    }

    /// The stdout a refusal (exit 2) must carry for this agent, worded with
    /// `reason`, when it reads a refusal on stdout rather than (or besides)
    /// the exit code: Cline's cancel, Copilot's top-level deny. `None`: the
    /// exit code is enough, or `answer` (the guard's own stdout) already is
    /// such a refusal with its own words.
    pub fn refusal_on_stdout(self, answer: Option<&Value>, reason: &str) -> Option<Vec<u8>> {
        match self {
            Host::Cline if !answer.is_some_and(cline::is_worded_cancel) => Some(cline::cancel(reason)),
            Host::Copilot if !answer.is_some_and(copilot::is_worded_deny) => Some(copilot::deny(reason)),
            _ => None,
        }
    }

    /// Whether the agent has an `ask` decision (Codex runs the call on one).
    pub fn has_ask(self) -> bool {
        self == Host::ClaudeCode
    }
}

impl fmt::Display for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Host::ClaudeCode => "Claude Code",
            Host::Codex => "Codex",
            Host::Gemini => "Gemini CLI",
            Host::Copilot => "Copilot CLI",
            Host::Cline => "Cline CLI",
        })
    }
}

/// The agents that may have sent `payload` (never empty).
pub fn hosts(payload: &Value) -> Vec<Host> {
    if payload.get("hook_event_name").and_then(Value::as_str) == Some(gemini::BEFORE_TOOL) {
        return vec![Host::Gemini];
    }
    if copilot::is_its_payload(payload) {
        return vec![Host::Copilot];
    }
    if cline::is_its_payload(payload) {
        return vec![Host::Cline];
    }
    let codex_like = payload.get("turn_id").is_some()
        || (payload.get("model").is_some() && payload.get("transcript_path").is_some_and(Value::is_null));
    let claude_like = payload.get("transcript_path").is_some_and(Value::is_string) && payload.get("turn_id").is_none();
    match (claude_like, codex_like) {
        (true, false) => vec![Host::ClaudeCode],
        (false, true) => vec![Host::Codex],
        // Gemini CLI always names its event, so it is not one of these.
        _ => vec![Host::ClaudeCode, Host::Codex],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn payloads_name_their_agent() {
        // As recorded by the battery's guards (docs/seal.md).
        let claude = json!({"session_id":"s","transcript_path":"/h/.claude/projects/p/s.jsonl","cwd":"/w","prompt_id":"p",
            "permission_mode":"bypassPermissions","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{},"tool_use_id":"t"});
        let codex = json!({"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/w","hook_event_name":"PreToolUse",
            "model":"gpt-5.5","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{},"tool_use_id":"c"});
        let gemini = json!({"session_id":"s","transcript_path":"/h/.gemini/tmp/w/chats/s.jsonl","cwd":"/w",
            "hook_event_name":"BeforeTool","timestamp":"2026-12-01T20:23:34.795Z","tool_name":"run_shell_command"});
        assert_eq!(hosts(&claude), [Host::ClaudeCode]);
        assert_eq!(hosts(&codex), [Host::Codex]);
        assert_eq!(hosts(&gemini), [Host::Gemini]);
        let copilot = json!({"sessionId":"s","timestamp":1,"cwd":"/w","toolName":"bash","toolArgs":{"command":"ls"}});
        assert_eq!(hosts(&copilot), [Host::Copilot]);
        assert_eq!(hosts(&json!({"hook_event_name":"PreToolUse"})), [Host::ClaudeCode, Host::Codex]);
        assert_eq!(hosts(&Value::Null), [Host::ClaudeCode, Host::Codex]);
    }
}
