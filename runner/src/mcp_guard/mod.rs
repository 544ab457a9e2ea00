//! `failopen mcp-guard`: an MCP server to put behind Claude Code's
//! `"type": "mcp_tool"` hooks, with a policy saying how it answers (or fails).
//!
//! - [`policy`]: the policies and the answer each gives (pure).
//! - [`server`]: the server's one tool, `guard`.
//! - [`one_tool`]: the rmcp handler every one-tool server of failopen's shares.
//! - [`trace`]: `--trace FILE`, one JSON line per call.
//! - [`eof`]: notice the end of stdin (so a hanging call does not hold the exit).
//!
//! How Claude Code drives it, per version: `docs/mcp-tool-hooks.md`.

pub mod eof;
pub mod one_tool;
pub mod policy;
pub mod server;
pub mod trace;

use std::time::Duration;

use rmcp::service::QuitReason;
use rmcp::ServiceExt;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio_util::sync::CancellationToken;

pub use policy::{Answer, Policy, DENY_REASON};
pub use server::{GuardServer, TOOL_NAME};
pub use trace::Trace;

/// The server's name in the MCP config failopen writes for a session (the
/// hook names it as `server`, and 2.1.328's refusals as `failopen-guard/guard`).
pub const MCP_SERVER_KEY: &str = "failopen-guard";

/// The command of the `missing` case: a server whose command does not exist.
pub const MISSING_COMMAND: &str = "/nonexistent/failopen-mcp-guard";

/// The `--mcp-config` JSON that starts `failopen_exe mcp-guard --policy
/// POLICY`, tracing each call to the session's `$FAILOPEN_TRACE` (Claude Code
/// expands `${VAR}` in an MCP server's args). `policy` `missing` names a
/// command that does not exist.
pub fn mcp_config(failopen_exe: &std::path::Path, policy: &str) -> serde_json::Value {
    let command =
        if policy == "missing" { MISSING_COMMAND.to_string() } else { failopen_exe.to_string_lossy().into_owned() };
    let policy = if policy == "missing" { "deny" } else { policy };
    serde_json::json!({"mcpServers": {MCP_SERVER_KEY: {
        "type": "stdio",
        "command": command,
        "args": ["mcp-guard", "--policy", policy, "--trace", "${FAILOPEN_TRACE}"],
        "env": {}
    }}})
}

/// After stdin closes, how long answers already being made may still be written.
pub const EOF_GRACE: Duration = Duration::from_millis(200);

/// Why [`serve`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// The client closed our input (the normal end).
    InputClosed,
    /// `stop` was triggered (a signal).
    Stopped,
}

/// Serve `server` over `input`/`output` until the input closes or `stop` is
/// cancelled. A call still pending then (the `hang` policy's) is abandoned:
/// dropping the returned future's runtime drops it.
///
/// Errors: the MCP handshake failed (e.g. the input closed first).
pub async fn serve<R, W>(server: GuardServer, input: R, output: W, stop: CancellationToken) -> anyhow::Result<Stopped>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    serve_handler(server, input, output, stop).await
}

/// As [`serve`], for any of failopen's one-tool servers (`mcp-fs` too).
pub async fn serve_handler<H, R, W>(server: H, input: R, output: W, stop: CancellationToken) -> anyhow::Result<Stopped>
where
    H: one_tool::OneTool,
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let closed = CancellationToken::new();
    let input = eof::EofWatch::new(input, closed.clone());
    let running = tokio::select! {
        r = one_tool::OneToolServer(server).serve((input, output)) => r.map_err(|e| anyhow::anyhow!("MCP handshake failed: {e}"))?,
        _ = stop.cancelled() => return Ok(Stopped::Stopped),
    };
    let waiting = running.waiting();
    tokio::pin!(waiting);
    tokio::select! {
        r = &mut waiting => match r {
            Ok(QuitReason::JoinError(e)) | Err(e) => Err(anyhow::anyhow!("the MCP service failed: {e}")),
            Ok(_) => Ok(Stopped::InputClosed),
        },
        _ = async { closed.cancelled().await; tokio::time::sleep(EOF_GRACE).await } => Ok(Stopped::InputClosed),
        _ = stop.cancelled() => Ok(Stopped::Stopped),
    }
}

#[cfg(test)]
mod tests;
