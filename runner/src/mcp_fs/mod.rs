//! `failopen mcp-fs`: a filesystem-like MCP server (stdio) with one tool,
//! `write_file {path, content}`, that writes inside its working directory
//! only. The `mcp` route's way to the file: Claude Code names the tool
//! `mcp__failopen-fs__write_file` ([`crate::task::MCP_WRITE_TOOL`]), and a
//! PreToolUse hook sees it only when its matcher covers that name.
//!
//! - [`write`]: where a path may go, and the write (pure but for the file);
//! - [`server`]: the rmcp server handler.
//!
//! It reuses [`crate::mcp_guard::serve`]'s end-of-input handling.

pub mod server;
pub mod write;

use crate::task::MCP_FS_SERVER;

pub use server::{FsServer, TOOL_NAME};

/// The `--mcp-config` JSON that starts `failopen_exe mcp-fs` as [`MCP_FS_SERVER`]
/// in the session's working directory.
pub fn mcp_config(failopen_exe: &std::path::Path) -> serde_json::Value {
    serde_json::json!({"mcpServers": {MCP_FS_SERVER: {
        "type": "stdio",
        "command": failopen_exe.to_string_lossy(),
        "args": ["mcp-fs"],
        "env": {}
    }}})
}

#[cfg(test)]
mod tests;
