//! The MCP server: one tool, `write_file`.

use std::path::PathBuf;
use std::sync::Arc;

use rmcp::model::{CallToolResponse, CallToolResult, ContentBlock, JsonObject, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde_json::{json, Value};

use crate::mcp_guard::one_tool::OneTool;

/// The name of the server's one tool.
pub const TOOL_NAME: &str = "write_file";

/// The name the server gives itself in the handshake.
pub const SERVER_NAME: &str = "failopen-mcp-fs";

/// The `write_file` tool's server, writing under `root`.
#[derive(Debug, Clone)]
pub struct FsServer {
    root: PathBuf,
}

impl FsServer {
    /// A server whose writes stay inside `root`.
    pub fn new(root: PathBuf) -> FsServer {
        FsServer { root }
    }
}

impl OneTool for FsServer {
    const SERVER_NAME: &'static str = SERVER_NAME;
    const TOOL_NAME: &'static str = TOOL_NAME;

    /// The `write_file` tool as `tools/list` shows it.
    fn tool() -> Tool {
        let schema: JsonObject = match json!({
            "type": "object",
            "properties": {
                "path": {"type": "string", "description": "File path, relative to the working directory"},
                "content": {"type": "string", "description": "The text to write"}
            },
            "required": ["path", "content"]
        }) {
            Value::Object(o) => o,
            _ => unreachable!("a JSON object literal"),
        };
        Tool::new(TOOL_NAME, "Write a text file inside the working directory (failopen mcp-fs).", Arc::new(schema))
    }

    async fn call(
        &self,
        arguments: Option<JsonObject>,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let args = arguments.unwrap_or_default();
        let field = |k: &str| args.get(k).and_then(Value::as_str);
        let (Some(path), Some(content)) = (field("path"), field("content")) else {
            return Err(McpError::invalid_params("write_file needs string fields `path` and `content`", None));
        };
        let result = match super::write::write_file(&self.root, path, content) {
            Ok(n) => CallToolResult::success(vec![ContentBlock::text(format!("wrote {n} bytes to {path}"))]),
            Err(e) => CallToolResult::error(vec![ContentBlock::text(e)]),
        };
        Ok(result.into())
    }
}
