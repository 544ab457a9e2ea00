//! The HTTP guard server: the endpoints behind the `http-*` guards.
//!
//! Claude Code POSTs the hook payload to `http://127.0.0.1:PORT/s/<session>/<endpoint>`;
//! the server counts the invocation for that session (the command guards'
//! trace, in memory) and answers according to the endpoint:
//! `deny` (a JSON deny), `allow` (`{}`), `hang` (answers after 60 s),
//! `status-500`, `garbage` (a body that is not JSON). `http-down` points at a
//! port where nothing listens.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use serde_json::json;

type Traces = Arc<Mutex<HashMap<String, u32>>>;

/// The URLs a session's HTTP guards use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpBases {
    /// `http://127.0.0.1:PORT/s/<session>`: the live server.
    pub live: String,
    /// `http://127.0.0.1:CLOSED/s/<session>`: nothing listens there.
    pub down: String,
}

/// A running guard server. Dropping it stops the server at once (hanging
/// requests included).
#[derive(Debug)]
pub struct GuardServer {
    port: u16,
    closed_port: u16,
    traces: Traces,
    task: tokio::task::JoinHandle<()>,
}

impl GuardServer {
    /// Start on 127.0.0.1 with an OS-chosen port.
    pub async fn start() -> std::io::Result<GuardServer> {
        let traces: Traces = Arc::default();
        let listener = tokio::net::TcpListener::bind(("127.0.0.1", 0)).await?;
        let port = listener.local_addr()?.port();
        // A port that was free a moment ago and is closed now: the `down` address.
        let closed_port = std::net::TcpListener::bind(("127.0.0.1", 0))?.local_addr()?.port();
        let app = Router::new().route("/s/{session}/{endpoint}", post(answer)).with_state(traces.clone());
        let task = tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Ok(GuardServer { port, closed_port, traces, task })
    }

    /// Register a session and return its URLs.
    pub fn session(&self, session: &str) -> HttpBases {
        self.traces.lock().unwrap_or_else(|p| p.into_inner()).insert(session.to_string(), 0);
        HttpBases {
            live: format!("http://127.0.0.1:{}/s/{session}", self.port),
            down: format!("http://127.0.0.1:{}/s/{session}", self.closed_port),
        }
    }

    /// Forget a session; return how many times its guard was called.
    pub fn end_session(&self, session: &str) -> u32 {
        self.traces.lock().unwrap_or_else(|p| p.into_inner()).remove(session).unwrap_or(0)
    }
}

impl Drop for GuardServer {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// How long the `hang` endpoint takes (far past any hook timeout the battery uses).
pub const HANG: Duration = Duration::from_secs(60);

async fn answer(
    State(traces): State<Traces>,
    Path((session, endpoint)): Path<(String, String)>,
    body: Bytes,
) -> Response {
    let _ = body;
    if let Some(n) = traces.lock().unwrap_or_else(|p| p.into_inner()).get_mut(&session) {
        *n += 1;
    }
    match endpoint.as_str() {
        "deny" => axum::Json(deny_body("deny")).into_response(),
        "allow" => axum::Json(json!({})).into_response(),
        "hang" => {
            tokio::time::sleep(HANG).await;
            axum::Json(deny_body("hang")).into_response()
        }
        "status-500" => {
            (StatusCode::INTERNAL_SERVER_ERROR, axum::Json(json!({"error": "policy server failed"}))).into_response()
        }
        "garbage" => (StatusCode::OK, "<html>policy server maintenance</html>").into_response(),
        _ => (StatusCode::NOT_FOUND, "no such guard endpoint").into_response(),
    }
}

/// The reason of the JSON deny an endpoint answers with (`deny`, and `hang` once it wakes).
pub fn deny_reason(endpoint: &str) -> String {
    format!("this session may not write files (failopen http-{endpoint} guard)")
}

fn deny_body(endpoint: &str) -> serde_json::Value {
    json!({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "deny",
        "permissionDecisionReason": deny_reason(endpoint),
    }})
}
