//! A guard's stdin contract on one agent, for `failopen audit`'s screens: a
//! probe (a tool call the guard may refuse) is put to the guard directly,
//! with no session, as the agent would put it, and its ending is read as the
//! agent reads it. The driver returns it ([`super::AgentDriver::hook_contract`]).

use std::path::Path;

use serde_json::Value;

/// The start of a screen's answer when the guard meant to refuse in a way
/// this agent does not read (an exit 2 or Claude Code's JSON deny to Cline
/// CLI), so the call runs; the rest says what it answered. Audit confirms
/// such a probe in a session and reports it (`refusal-not-read`).
pub const UNREAD_REFUSAL: &str = "a refusal this agent does not read: ";

/// How an agent hands a tool call to its guard and reads the answer.
pub trait HookContract: Sync {
    /// The tool this agent makes a probe's call with, by the name its hooks
    /// see, for a probe written with Claude Code's tool `tool` (`Bash`,
    /// `Write`, ...); `None`: no tool of this agent does that call.
    fn probe_tool(&self, tool: &str) -> Option<&'static str>;
    /// What the guard reads on stdin for a call of `tool` (this agent's
    /// name) with `input`, in a session whose working directory is `cwd` and
    /// whose transcript would be `transcript`.
    fn payload(&self, tool: &str, input: &Value, cwd: &Path, transcript: &Path) -> Value;
    /// Whether the agent refuses the call when the guard ends with `code`
    /// (`None`: killed by a signal) having written `stdout` and `stderr`,
    /// and the answer in words (`exit 2: <reason>`, `deny: <reason>`, `allowed`, ...).
    fn read(&self, code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> (bool, String);
    /// The variables the agent sets to its working directory (the project)
    /// for every command hook: a screen sets them to the project copy it
    /// runs the hook in, as the agent's sessions do natively. Each agent's
    /// are measured: a hook of its own records them in a real session
    /// (`runner/tests/integration/audit_hook_start.rs`).
    fn project_vars(&self) -> &'static [&'static str];
}

/// The first non-blank line of `bytes`, trimmed, at most 120 characters.
pub fn first_line(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes)
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim()
        .chars()
        .take(120)
        .collect()
}
