//! The MCP server: one tool, `guard`, answering as its [`Policy`] says.

use std::sync::Arc;

use rmcp::model::{CallToolResponse, JsonObject, Tool};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer};
use serde_json::json;

use super::one_tool::OneTool;
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
}

impl OneTool for GuardServer {
    const SERVER_NAME: &'static str = SERVER_NAME;
    const TOOL_NAME: &'static str = TOOL_NAME;

    /// The `guard` tool as `tools/list` shows it: any object is accepted.
    fn tool() -> Tool {
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

    async fn call(
        &self,
        arguments: Option<JsonObject>,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if let Some(trace) = &self.trace {
            if let Err(e) = trace.record(arguments.as_ref()) {
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
