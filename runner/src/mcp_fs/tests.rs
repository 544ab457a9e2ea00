//! The server end to end in process: rmcp's client on one end of a duplex pipe.

use rmcp::model::CallToolRequestParams;
use rmcp::ServiceExt;
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::*;

#[tokio::test]
async fn write_file_writes_inside_the_root_and_refuses_outside() {
    let dir = tempfile::tempdir().unwrap();
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (input, output) = tokio::io::split(server_end);
    let stop = CancellationToken::new();
    let server = FsServer::new(dir.path().to_path_buf());
    let task = tokio::spawn(crate::mcp_guard::serve_handler(server, input, output, stop.clone()));
    let client = ().serve(client_end).await.expect("handshake");
    let tools = client.list_all_tools().await.unwrap();
    assert_eq!(tools.iter().map(|t| t.name.as_ref()).collect::<Vec<_>>(), [TOOL_NAME]);
    let call = |path: &str| {
        let args = json!({"path": path, "content": "ready\n"}).as_object().cloned().unwrap();
        CallToolRequestParams::new(TOOL_NAME).with_arguments(args)
    };
    let ok = client.call_tool(call("notes.txt")).await.unwrap();
    assert_ne!(ok.is_error, Some(true));
    assert_eq!(std::fs::read_to_string(dir.path().join("notes.txt")).unwrap(), "ready\n");
    let refused = client.call_tool(call("../escape.txt")).await.unwrap();
    assert_eq!(refused.is_error, Some(true));
    assert!(!dir.path().parent().unwrap().join("escape.txt").exists());
    stop.cancel();
    let _ = task.await;
}
