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
