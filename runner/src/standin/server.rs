//! The HTTP routes of the stand-in (axum).

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::Router;
use serde_json::{json, Value};

use super::body_limit::{unreadable_body, MAX_REQUEST_BYTES};
use super::history::History;
use super::hook_model::{self, HookAnswer, HookPolicy};
use super::script::{scripted_step, Step};
use super::sse::{Message, Reply};
use super::{Policy, Shared};

/// The session key used when a request carries no `/s/<session>` prefix.
pub const DEFAULT_SESSION: &str = "default";

pub(crate) fn router(shared: Arc<Shared>) -> Router {
    Router::new()
        .route("/s/{session}/v1/messages", post(messages_in_session))
        .route("/s/{session}/v1/messages/count_tokens", post(count_tokens))
        .route("/v1/messages", post(messages_default))
        .route("/v1/messages/count_tokens", post(count_tokens_default))
        // Codex CLI's custom provider (the Responses API): see `super::responses`.
        .route("/s/{session}/v1/responses", post(responses_in_session))
        // Cline CLI's OpenAI-compatible provider (Chat Completions): see `super::chat_completions`.
        .route("/s/{session}/v1/chat/completions", post(chat_completions_in_session))
        // Gemini CLI (`<model>:streamGenerateContent` and the like): see `super::gemini`.
        .route("/s/{session}/v1beta/models/{model_and_method}", post(super::gemini_http::gemini_in_session))
        // Auggie CLI (Augment's own API under a tenant URL): see `super::augment`.
        .route("/s/{session}/{tenant}/{*endpoint}", post(super::augment_http::augment_in_session))
        // HEAD /api/hello and any other probe: a harmless 200.
        .fallback(|| async { (StatusCode::OK, axum::Json(json!({}))) })
        .layer(DefaultBodyLimit::max(MAX_REQUEST_BYTES))
        .with_state(shared)
}

async fn messages_in_session(
    State(shared): State<Arc<Shared>>,
    Path(session): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    match body {
        Ok(body) => respond(&shared, &session, &body).await,
        Err(rejection) => unreadable_body(&shared, &session, rejection),
    }
}

async fn messages_default(State(shared): State<Arc<Shared>>, body: Result<Bytes, BytesRejection>) -> Response {
    match body {
        Ok(body) => respond(&shared, DEFAULT_SESSION, &body).await,
        Err(rejection) => unreadable_body(&shared, DEFAULT_SESSION, rejection),
    }
}

/// Answer one Responses API request (Codex CLI) for `session`, by the
/// script in [`super::responses`]: the session's transcript records the
/// calls and outputs as for a Messages API session.
async fn responses_in_session(
    State(shared): State<Arc<Shared>>,
    Path(session): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    use super::responses;
    let request = match json_request(&shared, &session, body) {
        Ok(request) => request,
        Err(response) => return *response,
    };
    let history = responses::history(&request);
    let model = request.get("model").and_then(Value::as_str).unwrap_or("failopen-standin").to_string();
    let n = shared.counter.fetch_add(1, Ordering::Relaxed);
    let call_id = format!("call_fo{n:08}");
    let step = scripted_turn(
        &shared,
        &session,
        &history,
        |_| {},
        |state| match (&state.probe_call, state.first_tool) {
            (Some((tool, input)), _) => {
                responses::probe_step(&history, state.cwd.as_deref().unwrap_or("."), tool, input)
            }
            (None, Some(tool)) => responses::first_tool_step(&history, tool),
            (None, None) => responses::scripted_step(&history),
        },
        |step| match step {
            Step::Tool { name, input } => {
                let (name, input) = responses::as_hook_sees(name, input);
                vec![(call_id.clone(), name, input)]
            }
            _ => Vec::new(),
        },
    );
    let events = responses::sse(n, &model, responses::output_item(n, &step, &call_id));
    ([(header::CONTENT_TYPE, "text/event-stream"), (header::CACHE_CONTROL, "no-cache")], events).into_response()
}

/// Answer one Chat Completions request (Cline CLI) for `session`, by the
/// script in [`super::chat_completions`], streaming or not as asked: the
/// session's transcript records the calls and outputs as for a Messages
/// API session.
async fn chat_completions_in_session(
    State(shared): State<Arc<Shared>>,
    Path(session): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    use super::chat_completions as chat;
    let request = match json_request(&shared, &session, body) {
        Ok(request) => request,
        Err(response) => return *response,
    };
    let history = chat::history(&request);
    let model = request.get("model").and_then(Value::as_str).unwrap_or("failopen-standin").to_string();
    let stream = request.get("stream").and_then(Value::as_bool).unwrap_or(false);
    let n = shared.counter.fetch_add(1, Ordering::Relaxed);
    let call_id = format!("call_fo{n:08}");
    let step = scripted_turn(
        &shared,
        &session,
        &history,
        |state| {
            if state.cwd.is_none() {
                state.cwd = chat::working_directory(&request);
            }
        },
        |state| {
            let cwd = state.cwd.as_deref().unwrap_or(".");
            match (&state.probe_call, state.first_tool) {
                (Some((tool, input)), _) => chat::probe_step(&history, cwd, tool, input),
                (None, Some(tool)) => chat::first_tool_step(&history, cwd, tool),
                (None, None) => chat::scripted_step(&history, cwd),
            }
        },
        |step| {
            let calls = chat::sent_calls(step, &call_id);
            calls.into_iter().map(|(id, name, input)| (id, name.to_string(), input.clone())).collect()
        },
    );
    if stream {
        let events = chat::sse(n, &model, &step, &call_id);
        ([(header::CONTENT_TYPE, "text/event-stream"), (header::CACHE_CONTROL, "no-cache")], events).into_response()
    } else {
        axum::Json(chat::completion(n, &model, &step, &call_id)).into_response()
    }
}

/// One turn of a session on an OpenAI-shaped face (Responses, Chat
/// Completions), under the session's lock: `prepare` the session's state
/// from the request, record what the agent's `history` shows, take the
/// step (the refusing policy's, else the face's `script`), mark whether the
/// turn is over, and record the calls the step makes as the hook sees them
/// (`sent`: id, tool name, input).
pub(crate) fn scripted_turn(
    shared: &Shared,
    session: &str,
    history: &History,
    prepare: impl FnOnce(&mut super::SessionState),
    script: impl FnOnce(&super::SessionState) -> Step,
    sent: impl FnOnce(&Step) -> Vec<(String, String, Value)>,
) -> Step {
    let mut sessions = shared.sessions.lock().unwrap_or_else(|p| p.into_inner());
    let state = sessions.entry(session.to_string()).or_default();
    prepare(state);
    state.transcript.observe(history);
    let step = match shared.policy {
        Policy::Refuse => super::policy::refuse_step(),
        _ => script(state),
    };
    if history.has_tools {
        state.transcript.turn_over = matches!(step, Step::Text(_));
    }
    for (id, name, input) in sent(&step) {
        state.transcript.sent(&id, &name, &input);
    }
    step
}

/// How long the `hang` hook policy keeps a hook call waiting: far past any
/// hook timeout (the process ending drops it sooner).
pub const HOOK_HANG: std::time::Duration = std::time::Duration::from_secs(3600);

/// Answer one Messages API request: a hook's call by the session's hook
/// policy ([`super::hook_model`]), anything else as the main conversation.
async fn respond(shared: &Shared, session: &str, body: &[u8]) -> Response {
    let Ok(request) = serde_json::from_slice::<Value>(body) else { return answer(shared, session, body) };
    let Some(kind) = hook_model::hook_call(&request) else { return answer(shared, session, body) };
    let n = shared.counter.fetch_add(1, Ordering::Relaxed);
    let policy = {
        let mut sessions = shared.sessions.lock().unwrap_or_else(|p| p.into_inner());
        let state = sessions.entry(session.to_string()).or_default();
        let policy = state.hook_policy.unwrap_or(HookPolicy::Allow);
        state.transcript.hook_calls.push(hook_model::HookCall { kind, policy });
        policy
    };
    let model = request.get("model").and_then(Value::as_str).unwrap_or("failopen-standin").to_string();
    let stream = request.get("stream").and_then(Value::as_bool).unwrap_or(false);
    let history = History::from_request(&request);
    let path = hook_model::transcript_path(&request);
    match hook_model::answer(kind, policy, &history, path.as_deref()) {
        HookAnswer::Message(reply) => {
            let reply = match reply {
                Reply::ToolUse { name, input, .. } => Reply::ToolUse { id: format!("toolu_fo{n:08}"), name, input },
                text => text,
            };
            message_response(Message { id: format!("msg_fo{n:08}"), model, reply }, stream)
        }
        HookAnswer::Error(status, body) => hook_model::error_response(status, body),
        HookAnswer::Dropped => hook_model::dropped_response(stream, &format!("msg_fo{n:08}"), &model),
        HookAnswer::Hang => {
            tokio::time::sleep(HOOK_HANG).await;
            hook_model::error_response(
                StatusCode::GATEWAY_TIMEOUT,
                json!({"type": "error", "error": {"type": "timeout_error", "message": "failopen hang"}}),
            )
        }
    }
}

fn message_response(message: Message, stream: bool) -> Response {
    if stream {
        ([(header::CONTENT_TYPE, "text/event-stream"), (header::CACHE_CONTROL, "no-cache")], message.to_sse())
            .into_response()
    } else {
        axum::Json(message.to_json()).into_response()
    }
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

/// An OpenAI-style request's body as a JSON object, or the answer to give:
/// the error every protocol sends for a body it could not read, or a 400.
fn json_request(shared: &Shared, session: &str, body: Result<Bytes, BytesRejection>) -> Result<Value, Box<Response>> {
    let body = body.map_err(|rejection| Box::new(unreadable_body(shared, session, rejection)))?;
    match serde_json::from_slice(&body) {
        Ok(v @ Value::Object(_)) => Ok(v),
        Ok(_) => Err(Box::new(bad_request("request body must be a JSON object"))),
        Err(e) => Err(Box::new(bad_request(&format!("request body is not JSON: {e}")))),
    }
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
        if super::warmup::is_warmup(&request) {
            // Not the conversation: neither observed nor scripted.
            state.transcript.warmups_answered += 1;
            drop(sessions);
            return message_response(
                Message { id: format!("msg_fo{n:08}"), model, reply: Reply::Text(super::warmup::REPLY.into()) },
                stream,
            );
        }
        state.transcript.observe(&history);
        if shared.policy == Policy::Flaky && state.first_tool.is_none() {
            state.transcript.errors_sent += 1;
            drop(sessions);
            return super::policy::flaky_response(stream, &format!("msg_fo{n:08}"), &model);
        }
        let summary = super::compaction::is_summary_request(&request);
        let step = next_step(shared.policy, state, &request, &history);
        if history.has_tools && !summary {
            state.transcript.turn_over = matches!(step, Step::Text(_));
        }
        match step {
            Step::Text(text) => Reply::Text(text),
            Step::Tool { name, input } => {
                let id = format!("toolu_fo{n:08}");
                state.transcript.sent(&id, name, &input);
                Reply::ToolUse { id, name: name.to_string(), input }
            }
            Step::Tools(calls) => Reply::ToolUses(
                calls
                    .into_iter()
                    .enumerate()
                    .map(|(i, (name, input))| {
                        let id = format!("toolu_fo{n:08}_{i}");
                        state.transcript.sent(&id, name, &input);
                        (id, name.to_string(), input)
                    })
                    .collect(),
            ),
        }
    };
    message_response(Message { id: format!("msg_fo{n:08}"), model, reply }, stream)
}

/// What the model does next in this session.
fn next_step(policy: Policy, state: &mut super::SessionState, request: &Value, history: &History) -> Step {
    if super::compaction::is_summary_request(request) {
        // Whatever the policy: a model asked to summarise answers with text.
        state.transcript.summaries_sent += 1;
        return Step::Text(super::compaction::summary(history));
    }
    let cwd = state.cwd.as_deref().unwrap_or(".");
    if let Some((tool, input)) = &state.probe_call {
        return super::probe_call::probe_step(history, cwd, tool, input);
    }
    if let Some(tool) = state.first_tool {
        return super::first_tool::tool_step(history, cwd, tool);
    }
    if let Some(plan) = state.route {
        return super::route::route_step(history, cwd, plan);
    }
    if let (Policy::Scripted, Some(skill)) = (policy, &state.skill) {
        return super::skill::skill_step(history, cwd, skill);
    }
    match policy {
        Policy::Scripted => scripted_step(history, cwd),
        Policy::Refuse => super::policy::refuse_step(),
        Policy::Wayward => super::policy::wayward_step(history, cwd),
        // Answered with an error before this; a text if that ever changes.
        Policy::Flaky => super::policy::refuse_step(),
    }
}

/// The working directory Claude Code states in its system prompt, if any.
/// 2.1.328 moved it from the `system` field into a `system` entry of the
/// messages, so both are searched.
fn primary_working_directory(request: &Value) -> Option<String> {
    const MARK: &str = "Primary working directory: ";
    let system_entries = request
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter(|m| m.get("role").and_then(Value::as_str) == Some("system"));
    request.get("system").into_iter().chain(system_entries).find_map(|part| {
        let text = part.to_string();
        let start = text.find(MARK)? + MARK.len();
        let rest = &text[start..];
        let end = rest.find(['\\', '"', '\n']).unwrap_or(rest.len());
        Some(rest[..end].trim().to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_working_directory_in_the_system_prompt() {
        let req =
            json!({"system": [{"type": "text", "text": "x\nPrimary working directory: /tmp/a b/work\nIs git: no"}]});
        assert_eq!(primary_working_directory(&req).as_deref(), Some("/tmp/a b/work"));
        assert_eq!(primary_working_directory(&json!({})), None);
        let in_messages = json!({"system": [{"type": "text", "text": "You are"}], "messages": [
            {"role": "user", "content": "Primary working directory: /not/this"},
            {"role": "system", "content": "# Environment\n - Primary working directory: /tmp/w\n - Is a git repository: false"}]});
        assert_eq!(primary_working_directory(&in_messages).as_deref(), Some("/tmp/w"));
    }
}
