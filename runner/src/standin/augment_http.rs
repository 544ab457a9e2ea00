//! The stand-in's HTTP handler for Auggie CLI: `POST
//! /s/<session>/<tenant>/<endpoint>`, the client resolving each endpoint
//! against the tenant URL it was given (`http://127.0.0.1:PORT/s/<session>/<tenant>/`).
//! The tenant segment says whether `get-models` turns hooks on
//! ([`super::augment::Tenant`]); `chat-stream` is answered by
//! [`super::augment`]'s script as NDJSON, every other call with an empty
//! reply of the shape its converter reads.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

use super::augment::{self, Tenant};
use super::script::Step;
use super::Shared;

/// Answer one call of Augment's API for `session` under `tenant`.
pub(crate) async fn augment_in_session(
    State(shared): State<Arc<Shared>>,
    Path((session, tenant, endpoint)): Path<(String, String, String)>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let Some(tenant) = Tenant::of_segment(&tenant) else {
        return (StatusCode::NOT_FOUND, format!("failopen stand-in: no tenant {tenant:?}")).into_response();
    };
    match endpoint.as_str() {
        "get-models" => return axum::Json(augment::get_models(tenant)).into_response(),
        "chat-stream" => {}
        other => return axum::Json(augment::other_reply(other)).into_response(),
    }
    let body = match body {
        Ok(body) => body,
        Err(rejection) => return super::body_limit::unreadable_body(&shared, &session, rejection),
    };
    let request: Value = match serde_json::from_slice(&body) {
        Ok(v @ Value::Object(_)) => v,
        _ => return (StatusCode::BAD_REQUEST, "failopen stand-in: chat-stream wants a JSON object").into_response(),
    };
    let history = augment::history(&request);
    let n = shared.counter.fetch_add(1, Ordering::Relaxed);
    let call_id = format!("call_fo{n:08}");
    let step = super::server::scripted_turn(
        &shared,
        &session,
        &history,
        |state| {
            if state.cwd.is_none() {
                state.cwd = augment::working_directory(&request);
            }
        },
        |state| augment::scripted_step(&history, state.cwd.as_deref().unwrap_or(".")),
        |step| match step {
            Step::Tool { name, input } => vec![(call_id.clone(), name.to_string(), input.clone())],
            _ => Vec::new(),
        },
    );
    (
        [(header::CONTENT_TYPE, "application/x-ndjson"), (header::CACHE_CONTROL, "no-cache")],
        augment::ndjson(&step, &call_id),
    )
        .into_response()
}
