//! `failopen mcp-fs` as Claude Code starts it: a child speaking MCP
//! (newline-delimited JSON-RPC) over its stdio, writing inside its root only.
//! How Claude Code uses it (the `mcp` route): `docs/routes.md`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{json, Value};

use crate::support;

#[test]
fn write_file_writes_inside_the_root_and_the_server_exits_0_at_eof() {
    let root = tempfile::tempdir().unwrap();
    let mut child = Command::new(support::bin())
        .args(["mcp-fs", "--root"])
        .arg(root.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn mcp-fs");
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = mpsc::channel::<Value>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(serde_json::from_str(&line).unwrap_or(Value::Null)).is_err() {
                break;
            }
        }
    });
    let mut send = |v: Value| {
        writeln!(stdin, "{v}").unwrap();
        stdin.flush().unwrap();
    };
    let response = |id: u64| loop {
        let v = lines.recv_timeout(Duration::from_secs(10)).expect("a response");
        if v["id"] == id {
            return v;
        }
    };
    send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
        "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}}));
    assert_eq!(response(1)["result"]["serverInfo"]["name"], "failopen-mcp-fs");
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    assert_eq!(response(2)["result"]["tools"][0]["name"], "write_file");
    let call = |id: u64, path: &str| {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "write_file", "arguments": {"path": path, "content": "ready\n"}}})
    };
    send(call(3, "notes.txt"));
    assert_ne!(response(3)["result"]["isError"], true);
    assert_eq!(std::fs::read_to_string(root.path().join("notes.txt")).unwrap(), "ready\n");
    send(call(4, "../outside.txt"));
    assert_eq!(response(4)["result"]["isError"], true, "a path outside the root is refused");
    assert!(!root.path().parent().unwrap().join("outside.txt").exists());
    drop(stdin);
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
}
