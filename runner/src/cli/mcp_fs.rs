//! `failopen mcp-fs [--root DIR]`: failopen's filesystem-like MCP server
//! over stdio (the `mcp` route's tool, `write_file`).
//!
//! Exit 0 when stdin closes, 130 on SIGTERM or SIGINT, 1 when the handshake
//! fails or the root cannot be found. Its own runtime, dropped without
//! waiting, as `mcp-guard`'s.

use failopen::mcp_fs::FsServer;

use super::args::McpFsArgs;
use super::ExitCode;

pub fn run(args: McpFsArgs) -> ExitCode {
    let root = match args.root.map(Ok).unwrap_or_else(std::env::current_dir).and_then(|r| r.canonicalize()) {
        Ok(root) => root,
        Err(e) => {
            eprintln!("failopen mcp-fs: --root: {e}");
            return ExitCode::Failure;
        }
    };
    super::mcp_guard::serve_on_own_runtime(FsServer::new(root))
}
