//! What failopen's MCP servers share: a server name, exactly one tool, and
//! the rmcp handler around them ([`OneToolServer`]). `mcp-guard`'s `guard`
//! and `mcp-fs`'s `write_file` each say only what their tool is and does.

use std::future::Future;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, Implementation, JsonObject, ListToolsResult, PaginatedRequestParams,
    ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

/// An MCP server with one tool.
pub trait OneTool: Clone + Send + Sync + 'static {
    /// The name the server gives itself in the handshake (and in its error messages).
    const SERVER_NAME: &'static str;
    /// The tool's name.
    const TOOL_NAME: &'static str;

    /// The tool as `tools/list` shows it.
    fn tool() -> Tool;

    /// Answer a call of the tool (its name already checked) with these arguments.
    fn call(
        &self,
        arguments: Option<JsonObject>,
        context: RequestContext<RoleServer>,
    ) -> impl Future<Output = Result<CallToolResponse, McpError>> + Send + '_;
}

/// The rmcp handler of a [`OneTool`]: lists the tool, and refuses calls of any other name.
#[derive(Debug, Clone)]
pub struct OneToolServer<T>(pub T);

impl<T: OneTool> ServerHandler for OneToolServer<T> {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(T::SERVER_NAME, env!("CARGO_PKG_VERSION")))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(vec![T::tool()]))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        (name == T::TOOL_NAME).then(T::tool)
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        if request.name != T::TOOL_NAME {
            return Err(McpError::invalid_params(
                format!("no tool named {:?}; the only tool is {:?}", request.name, T::TOOL_NAME),
                None,
            ));
        }
        self.0.call(request.arguments, context).await
    }
}
