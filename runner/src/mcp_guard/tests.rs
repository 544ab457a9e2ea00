//! The server end to end in process: rmcp's client on one end of a duplex
//! pipe, [`serve`] on the other.

use std::time::{Duration, Instant};

use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService};
use rmcp::ServiceExt;
use serde_json::json;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::*;

struct Harness {
    client: RunningService<RoleClient, ()>,
    server: JoinHandle<anyhow::Result<Stopped>>,
    stop: CancellationToken,
}

async fn start(policy: Policy, trace: Option<Trace>) -> Harness {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (input, output) = tokio::io::split(server_end);
    let stop = CancellationToken::new();
    let server = tokio::spawn(serve(GuardServer::new(policy, trace), input, output, stop.clone()));
    let client = ().serve(client_end).await.expect("handshake");
    Harness { client, server, stop }
}

fn hook_input() -> rmcp::model::JsonObject {
    let v = json!({"tool_name": "Bash", "tool_input": {"command": "printf 'ready\\n' > notes.txt"}});
    v.as_object().cloned().unwrap()
}

async fn call(h: &Harness) -> CallToolResult {
    h.client.call_tool(CallToolRequestParams::new(TOOL_NAME).with_arguments(hook_input())).await.expect("an answer")
}

#[tokio::test]
async fn lists_one_tool_named_guard_taking_any_object() {
    let h = start(Policy::Allow, None).await;
    let tools = h.client.list_all_tools().await.unwrap();
    assert_eq!(tools.len(), 1);
    assert_eq!(tools[0].name, "guard");
    assert_eq!(tools[0].input_schema.get("type"), Some(&json!("object")));
    assert_eq!(h.client.peer_info().unwrap().server_info.as_ref().unwrap().name, server::SERVER_NAME);
}

#[tokio::test]
async fn each_answering_policy_answers_as_its_policy_says_and_traces_the_call() {
    for policy in [Policy::Allow, Policy::Deny, Policy::Error, Policy::Garbage] {
        let dir = tempfile::tempdir().unwrap();
        let trace = Trace::new(dir.path().join("trace.jsonl"));
        let h = start(policy, Some(trace.clone())).await;
        let got = call(&h).await;
        let Answer::Result(want) = policy.answer() else { panic!("{policy:?} answers") };
        assert_eq!(got.content, want.content, "{policy:?}");
        assert_eq!(got.is_error.unwrap_or(false), want.is_error.unwrap_or(false), "{policy:?}");
        let text = std::fs::read_to_string(trace.path()).unwrap();
        let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines, vec![serde_json::Value::Object(hook_input())], "{policy:?}");
    }
}

#[tokio::test]
async fn deny_answers_the_json_deny_as_text() {
    let h = start(Policy::Deny, None).await;
    let got = call(&h).await;
    let text = &got.content[0].as_text().unwrap().text;
    let v: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(v, policy::deny_json());
    assert_eq!(v["hookSpecificOutput"]["permissionDecisionReason"], DENY_REASON);
    assert_ne!(got.is_error, Some(true));
}

#[tokio::test]
async fn another_tool_name_is_an_error() {
    let h = start(Policy::Allow, None).await;
    let r = h.client.call_tool(CallToolRequestParams::new("other")).await;
    assert!(r.is_err(), "{r:?}");
}

#[tokio::test]
async fn hang_never_answers_and_the_server_still_ends_when_its_input_closes() {
    let dir = tempfile::tempdir().unwrap();
    let trace = Trace::new(dir.path().join("trace.jsonl"));
    let h = start(Policy::Hang, Some(trace.clone())).await;
    let pending = tokio::time::timeout(Duration::from_millis(500), call(&h)).await;
    assert!(pending.is_err(), "hang answered: {pending:?}");
    assert_eq!(std::fs::read_to_string(trace.path()).unwrap().lines().count(), 1, "the call is traced before hanging");
    let Harness { client, server, .. } = h;
    let t0 = Instant::now();
    drop(client);
    let stopped = tokio::time::timeout(Duration::from_secs(3), server).await.expect("ends").unwrap().unwrap();
    assert_eq!(stopped, Stopped::InputClosed);
    assert!(t0.elapsed() < Duration::from_secs(4), "took {:?} (rmcp alone waits 5 s)", t0.elapsed());
}

#[tokio::test]
async fn stop_ends_a_hanging_server() {
    let h = start(Policy::Hang, None).await;
    let _ = tokio::time::timeout(Duration::from_millis(200), call(&h)).await;
    h.stop.cancel();
    let stopped = tokio::time::timeout(Duration::from_secs(2), h.server).await.expect("ends").unwrap().unwrap();
    assert_eq!(stopped, Stopped::Stopped);
}

#[tokio::test]
async fn input_closed_before_the_handshake_is_an_error() {
    let (client_end, server_end) = tokio::io::duplex(1024);
    drop(client_end);
    let (input, output) = tokio::io::split(server_end);
    let r = serve(GuardServer::new(Policy::Deny, None), input, output, CancellationToken::new()).await;
    assert!(r.is_err(), "{r:?}");
}
