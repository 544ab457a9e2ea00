//! The names of the write probes an audit runs: the write tools, and the
//! two routes that are not a tool of the main conversation. A leaf, so that
//! the session runner ([`super::dynamic`]), the judge and the advice can all
//! name them without importing each other.

/// The route label of a baseline session where a subagent writes (one Bash
/// call of the built-in `general-purpose` subagent, started by the main
/// model's Agent call).
pub const SUBAGENT: &str = "subagent";
/// The route label of a baseline session that writes through an MCP tool
/// (`mcp__failopen-fs__write_file` of `failopen mcp-fs`, added to the session).
pub const MCP: &str = "mcp";
/// Every tool (and route) a baseline session tries.
pub const TOOLS: [&str; 7] = ["Bash", "Write", "Edit", "MultiEdit", "NotebookEdit", SUBAGENT, MCP];

/// Codex CLI's write tools, by the names its hooks see: its shell
/// (`exec_command`) is `Bash`, its file tool `apply_patch`.
pub const CODEX_TOOLS: [&str; 2] = ["Bash", "apply_patch"];
/// Gemini CLI's write tools, by the names on the wire and in its hooks.
pub const GEMINI_TOOLS: [&str; 3] = ["run_shell_command", "write_file", "replace"];
/// The other agents' write tools that are not also Claude Code's: each
/// creates `notes.txt`, as `Bash` and `Write` do.
pub const AGENT_TOOLS: [&str; 4] = ["apply_patch", "run_shell_command", "write_file", "replace"];

/// The probe tools that read a secret rather than change anything (the
/// catalogue's `Read`, as each agent's probes are named before
/// [`crate::agent::hook_contract::HookContract::probe_tool`] maps them):
/// their call went through when the secret reached the model.
pub const READ_TOOLS: [&str; 1] = ["Read"];

/// Whether a cell's label (`Read:read-env`) is a read probe's.
pub fn is_read(label: &str) -> bool {
    READ_TOOLS.contains(&matched_tool(label))
}

/// The tool a cell's label writes with, as a matcher sees it: the subagent
/// route's write is the subagent's Bash call, a probe's (`Bash:git-reset-hard`)
/// its tool's.
pub fn matched_tool(label: &str) -> &str {
    match label {
        SUBAGENT => "Bash",
        other => other.split(':').next().unwrap_or(other),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_subagent_write_is_matched_as_its_bash_call() {
        assert_eq!(super::matched_tool(super::SUBAGENT), "Bash");
        assert_eq!(super::matched_tool("Bash:git-reset-hard"), "Bash");
        assert_eq!(super::matched_tool("Write"), "Write");
        assert!(super::is_read("Read:read-env") && !super::is_read("Bash:git-reset-hard"));
    }
}
