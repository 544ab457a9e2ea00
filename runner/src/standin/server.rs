//! The HTTP routes of the stand-in (axum).

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use serde_json::{json, Value};

use super::script::{scripted_step, History, Reply, Step};
use super::sse::Message;
use super::{Policy, Shared};

/// The session key used when a request carries no `/s/<session>` prefix.
pub const DEFAULT_SESSION: &str = "default";

pub(crate) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/s/{session}/v1/messages", post(messages_in_session))
        .route("/s/{session}/v1/messages/count_tokens", post(count_tokens))
        .route("/v1/messages", post(messages_default))
        .route("/v1/messages/count_tokens", post(count_tokens_default))
        // HEAD /api/hello and any other probe: a harmless 200.
        .fallback(|| async { (StatusCode::OK, axum::Json(json!({}))) })
        .with_state(shared)
}

async fn messages_in_session(State(shared): State<Arc<Shared>>, Path(session): Path<String>, body: Bytes) -> Response {
    answer(&shared, &session, &body)
}

async fn messages_default(State(shared): State<Arc<Shared>>, body: Bytes) -> Response {
    answer(&shared, DEFAULT_SESSION, &body)
}

async fn count_tokens(Path(_session): Path<String>, body: Bytes) -> Response {
    count(&body)
}

async fn count_tokens_default(body: Bytes) -> Response {
    count(&body)
}

fn count(body: &Bytes) -> Response {
    axum::Json(json!({"input_tokens": (body.len() / 4).max(1)})).into_response()
}

fn bad_request(message: &str) -> Response {
    let body = json!({"type": "error", "error": {"type": "invalid_request_error", "message": message}});
    (StatusCode::BAD_REQUEST, axum::Json(body)).into_response()
}

/// Answer one Messages API request for `session`.
fn answer(shared: &Shared, session: &str, body: &[u8]) -> Response {
    let request: Value = match serde_json::from_slice(body) {
        Ok(v @ Value::Object(_)) => v,
        Ok(_) => return bad_request("request body must be a JSON object"),
        Err(e) => return bad_request(&format!("request body is not JSON: {e}")),
    };
    let history = History::from_request(&request);
    let model = request.get("model").and_then(Value::as_str).unwrap_or("failopen-standin").to_string();
    let stream = request.get("stream").and_then(Value::as_bool).unwrap_or(false);
    let n = shared.counter.fetch_add(1, Ordering::Relaxed);

    let reply = {
        let mut sessions = shared.sessions.lock().unwrap_or_else(|p| p.into_inner());
        let state = sessions.entry(session.to_string()).or_default();
        if session == DEFAULT_SESSION {
            // Many `claude -p` processes share the plain base URL (live mode
            // against `standin serve`): each request states its own directory,
            // and nothing is kept between requests.
            *state = super::SessionState { cwd: primary_working_directory(&request), ..Default::default() };
        } else if state.cwd.is_none() {
            state.cwd = primary_working_directory(&request);
        }
        state.transcript.observe(&history);
        if shared.policy == Policy::Flaky && state.first_tool.is_none() {
            state.transcript.errors_sent += 1;
            drop(sessions);
            return super::policy::flaky_response(stream, &format!("msg_fo{n:08}"), &model);
        }
        let step = match (state.first_tool, shared.policy) {
            (Some(tool), _) => super::first_tool::tool_step(&history, state.cwd.as_deref().unwrap_or("."), tool),
            (None, policy) => match policy {
            Policy::Scripted => scripted_step(&history, state.cwd.as_deref().unwrap_or(".")),
            Policy::Refuse => super::policy::refuse_step(),
            Policy::Wayward => super::policy::wayward_step(&history, state.cwd.as_deref().unwrap_or(".")),
            // Answered with an error above; a text if that ever changes.
            Policy::Flaky => super::policy::refuse_step(),
            },
        };
        match step {
            Step::Text(text) => Reply::Text(text),
            Step::Tool { name, input } => {
                let id = format!("toolu_fo{n:08}");
                state.transcript.sent(&id, name, &input);
                Reply::ToolUse { id, name: name.to_string(), input }
            }
        }
    };
    let message = Message { id: format!("msg_fo{n:08}"), model, reply };
    if stream {
        ([(header::CONTENT_TYPE, "text/event-stream"), (header::CACHE_CONTROL, "no-cache")], message.to_sse())
            .into_response()
    } else {
        axum::Json(message.to_json()).into_response()
    }
}

/// The working directory Claude Code states in its system prompt, if any.
fn primary_working_directory(request: &Value) -> Option<String> {
    let text = request.get("system").map(Value::to_string).unwrap_or_default();
    let start = text.find("Primary working directory: ")? + "Primary working directory: ".len();
    let rest = &text[start..];
    let end = rest.find(['\\', '"', '\n']).unwrap_or(rest.len());
    Some(rest[..end].trim().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_working_directory_in_the_system_prompt() {
        let req = json!({"system": [{"type": "text", "text": "x\nPrimary working directory: /tmp/a b/work\nIs git: no"}]});
        assert_eq!(primary_working_directory(&req).as_deref(), Some("/tmp/a b/work"));
        assert_eq!(primary_working_directory(&json!({})), None);
    }
}
