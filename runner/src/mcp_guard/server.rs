//! The MCP server: one tool, `guard`, answering as its [`Policy`] says.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, JsonObject, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};
use serde_json::json;

use super::policy::{Answer, Policy};
use super::trace::Trace;

/// The name of the server's one tool.
pub const TOOL_NAME: &str = "guard";

/// The name the server gives itself in the handshake.
pub const SERVER_NAME: &str = "failopen-mcp-guard";

/// The `guard` tool's server.
#[derive(Debug, Clone)]
pub struct GuardServer {
    policy: Policy,
    trace: Option<Trace>,
}

impl GuardServer {
    /// A server answering by `policy`, recording calls in `trace` if given.
    pub fn new(policy: Policy, trace: Option<Trace>) -> GuardServer {
        GuardServer { policy, trace }
    }

    /// The `guard` tool as `tools/list` shows it: any object is accepted.
    pub fn tool() -> Tool {
        let schema: JsonObject = match json!({"type": "object", "additionalProperties": true}) {
            serde_json::Value::Object(o) => o,
            _ => unreachable!("a JSON object literal"),
        };
        Tool::new(
            TOOL_NAME,
            "A PreToolUse guard for Claude Code's mcp_tool hooks (failopen). Takes any object \
             (the hook's input) and answers with a hook output.",
            Arc::new(schema),
        )
    }
}

impl ServerHandler for GuardServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION")))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(vec![GuardServer::tool()]))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        (name == TOOL_NAME).then(GuardServer::tool)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if request.name != TOOL_NAME {
            return Err(McpError::invalid_params(
                format!("no tool named {:?}; the only tool is {TOOL_NAME:?}", request.name),
                None,
            ));
        }
        if let Some(trace) = &self.trace {
            if let Err(e) = trace.record(request.arguments.as_ref()) {
                // Like a command guard whose `>> "$FAILOPEN_TRACE"` fails: say so, and still decide.
                eprintln!("failopen mcp-guard: cannot append to the trace {}: {e}", trace.path().display());
            }
        }
        match self.policy.answer() {
            Answer::Result(result) => Ok(result.into()),
            Answer::Never => {
                // rmcp drops the answer to a cancelled call, so this is never sent.
                context.ct.cancelled().await;
                Err(McpError::internal_error("cancelled before answering", None))
            }
        }
    }
}
