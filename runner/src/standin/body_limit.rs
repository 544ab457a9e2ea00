//! How big a request the stand-in reads, and its answer to one it cannot
//! read: shared by every protocol's route (Messages, Responses, Gemini).

use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use super::Shared;

/// The largest request body the stand-in reads: the Messages API's own limit
/// (Claude Code words a 413 as "Request too large (max 32MB)"). axum's default
/// of 2 MB would turn a large but legal request (a guard's 5 MB refusal sent
/// back to the model) into an error the real API never gives.
pub const MAX_REQUEST_BYTES: usize = 32 * 1024 * 1024;

/// A body over [`MAX_REQUEST_BYTES`] (or one that could not be read): the
/// API's answer, counted in the session's transcript as an error sent, so
/// the evidence shows the model was never asked.
pub(crate) fn unreadable_body(shared: &Shared, session: &str, rejection: BytesRejection) -> Response {
    {
        let mut sessions = shared.sessions.lock().unwrap_or_else(|p| p.into_inner());
        sessions.entry(session.to_string()).or_default().transcript.errors_sent += 1;
    }
    let status = rejection.status();
    let (kind, message) = if status == StatusCode::PAYLOAD_TOO_LARGE {
        ("request_too_large", format!("Request exceeds the maximum allowed number of bytes ({MAX_REQUEST_BYTES})"))
    } else {
        ("invalid_request_error", rejection.body_text())
    };
    let body = json!({"type": "error", "error": {"type": kind, "message": message}});
    (status, axum::Json(body)).into_response()
}
