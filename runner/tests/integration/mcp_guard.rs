//! `failopen mcp-guard` as Claude Code starts it: a child speaking MCP
//! (newline-delimited JSON-RPC) over its stdio. No Claude Code here; how
//! Claude Code drives it is in `docs/mcp-tool-hooks.md`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support;

const REASON: &str = "this session may not write files (failopen mcp-deny guard)";
const WAIT: Duration = Duration::from_secs(10);

/// A running `failopen mcp-guard` and the JSON lines it writes.
struct Guard {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Value>,
}

impl Guard {
    fn start(policy: &str, trace: Option<&std::path::Path>) -> Guard {
        let mut cmd = Command::new(support::bin());
        cmd.args(["mcp-guard", "--policy", policy]);
        if let Some(t) = trace {
            cmd.arg("--trace").arg(t);
        }
        let mut child =
            cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("spawn mcp-guard");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
                if tx.send(v).is_err() {
                    break;
                }
            }
        });
        Guard { child, stdin, lines }
    }

    fn send(&mut self, v: Value) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{v}").unwrap();
        stdin.flush().unwrap();
    }

    /// The response to request `id` (other lines are skipped).
    fn response(&self, id: Value) -> Value {
        let deadline = Instant::now() + WAIT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let v = self.lines.recv_timeout(left).unwrap_or_else(|e| panic!("no response to {id}: {e}"));
            if v["id"] == id {
                return v;
            }
        }
    }

    fn request(&mut self, id: Value, method: &str, params: Value) -> Value {
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.response(id)
    }

    /// Close stdin and wait for the exit code (at most `within`).
    fn close_and_wait(&mut self, within: Duration) -> (Option<i32>, Duration) {
        let t0 = Instant::now();
        self.stdin = None;
        self.wait(t0, within)
    }

    fn wait(&mut self, t0: Instant, within: Duration) -> (Option<i32>, Duration) {
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return (status.code(), t0.elapsed());
            }
            assert!(t0.elapsed() < within, "mcp-guard still running after {within:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The handshake Claude Code 2.1.240 makes (protocol 2025-11-25).
fn initialize(g: &mut Guard) -> Value {
    let r = g.request(
        json!(1),
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {},
               "clientInfo": {"name": "failopen-test", "version": "0"}}),
    );
    g.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    r
}

fn hook_input() -> Value {
    json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "command": "printf 'ready\\n' > notes.txt"})
}

/// The one text block of a tools/call result, parsed as JSON.
fn text_json(result: &Value) -> Value {
    let content = result["content"].as_array().expect("content");
    assert_eq!(content.len(), 1, "{result}");
    assert_eq!(content[0]["type"], "text");
    serde_json::from_str(content[0]["text"].as_str().unwrap()).expect("the text is JSON")
}

fn assert_deny(result: &Value) {
    assert_ne!(result["isError"], json!(true), "{result}");
    let decision = text_json(result);
    let out = &decision["hookSpecificOutput"];
    assert_eq!(out["hookEventName"], "PreToolUse");
    assert_eq!(out["permissionDecision"], "deny");
    assert_eq!(out["permissionDecisionReason"], REASON);
}

#[test]
fn deny_answers_a_json_deny_over_stdio_and_traces_the_call() {
    let dir = tempfile::tempdir().unwrap();
    let trace = dir.path().join("trace.jsonl");
    let mut g = Guard::start("deny", Some(&trace));
    let init = initialize(&mut g);
    assert_eq!(init["result"]["serverInfo"]["name"], "failopen-mcp-guard", "{init}");
    assert!(init["result"]["capabilities"]["tools"].is_object(), "{init}");

    let list = g.request(json!(2), "tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 1, "{list}");
    assert_eq!(tools[0]["name"], "guard");
    assert_eq!(tools[0]["inputSchema"]["type"], "object");

    let call = g.request(json!(3), "tools/call", json!({"name": "guard", "arguments": hook_input()}));
    assert_deny(&call["result"]);

    let (code, took) = g.close_and_wait(Duration::from_secs(5));
    assert_eq!(code, Some(0), "exit when stdin closes");
    assert!(took < Duration::from_secs(2), "took {took:?}");
    let lines: Vec<Value> =
        std::fs::read_to_string(&trace).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines, vec![hook_input()]);
}

#[test]
fn deny_answers_claude_code_2_1_328s_stateless_discovery_too() {
    // 2.1.328 sends no `initialize`: `server/discover`, then requests carrying
    // the protocol version in `_meta` (seen on the wire; docs/mcp-tool-hooks.md).
    let meta = json!({"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                      "io.modelcontextprotocol/clientInfo": {"name": "failopen-test", "version": "0"},
                      "io.modelcontextprotocol/clientCapabilities": {}});
    let mut g = Guard::start("deny", None);
    let disc = g.request(json!("probe-1"), "server/discover", json!({"_meta": meta}));
    assert!(disc["result"]["capabilities"]["tools"].is_object(), "{disc}");
    let call = g.request(json!(1), "tools/call", json!({"_meta": meta, "name": "guard", "arguments": hook_input()}));
    assert_deny(&call["result"]);
    assert_eq!(g.close_and_wait(Duration::from_secs(5)).0, Some(0));
}

#[test]
fn crash_at_start_exits_1_at_once_without_a_handshake() {
    let t0 = Instant::now();
    let out = support::failopen()
        .args(["mcp-guard", "--policy", "crash-at-start"])
        .write_stdin(format!("{}\n", json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}})))
        .timeout(WAIT)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stdout.is_empty(), "answered: {}", String::from_utf8_lossy(&out.stdout));
    assert!(String::from_utf8_lossy(&out.stderr).contains("crash-at-start"));
    assert!(t0.elapsed() < WAIT - Duration::from_secs(2), "waited for input: {:?}", t0.elapsed());
}

#[test]
fn hang_never_answers_yet_exits_when_stdin_closes_or_on_sigterm() {
    for ending in ["eof", "sigterm"] {
        let mut g = Guard::start("hang", None);
        initialize(&mut g);
        g.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "guard", "arguments": hook_input()}}));
        let early = g.lines.recv_timeout(Duration::from_millis(700));
        assert!(early.is_err(), "{ending}: hang answered: {early:?}");
        let (code, took) = match ending {
            "eof" => g.close_and_wait(Duration::from_secs(5)),
            _ => {
                let t0 = Instant::now();
                let pid = nix::unistd::Pid::from_raw(g.child.id() as i32);
                nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
                g.wait(t0, Duration::from_secs(5))
            }
        };
        let want = if ending == "eof" { 0 } else { 130 };
        assert_eq!(code, Some(want), "{ending}");
        assert!(took < Duration::from_secs(2), "{ending}: took {took:?}");
        assert!(g.lines.try_recv().is_err(), "{ending}: answered on the way out");
    }
}
