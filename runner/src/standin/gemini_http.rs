//! The stand-in's HTTP handler for Gemini CLI:
//! `POST /s/<session>/v1beta/models/<model>:<method>` (the SDK appends
//! `/v1beta/models/...` to the base URL `http://127.0.0.1:PORT/s/<session>`).
//! `streamGenerateContent` and `generateContent` are answered by
//! [`super::gemini`]'s script, `countTokens` with a rough count, anything
//! else with the API's 404 (never a 5xx: the CLI retries those for a minute).

use std::sync::atomic::Ordering;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};

use super::gemini;
use super::script::Step;
use super::{Policy, Shared};

/// Answer one Gemini API request for `session`: the session's transcript
/// records the calls and responses as for a Messages API session, under the
/// names and inputs Gemini's hooks see.
pub(crate) async fn gemini_in_session(
    State(shared): State<Arc<Shared>>,
    Path((session, segment)): Path<(String, String)>,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let (model, method) = gemini::model_and_method(&segment);
    let body = match body {
        Ok(body) => body,
        Err(rejection) => return super::body_limit::unreadable_body(&shared, &session, rejection),
    };
    let stream = match method {
        "streamGenerateContent" => true,
        "generateContent" => false,
        "countTokens" => return axum::Json(json!({"totalTokens": (body.len() / 4).max(1)})).into_response(),
        _ => return error(StatusCode::NOT_FOUND, "NOT_FOUND", &format!("failopen stand-in: no method {segment:?}")),
    };
    let request: Value = match serde_json::from_slice(&body) {
        Ok(v @ Value::Object(_)) => v,
        Ok(_) => return error(StatusCode::BAD_REQUEST, "INVALID_ARGUMENT", "request body must be a JSON object"),
        Err(e) => return error(StatusCode::BAD_REQUEST, "INVALID_ARGUMENT", &format!("request body is not JSON: {e}")),
    };
    let history = gemini::history(&request);
    let n = shared.counter.fetch_add(1, Ordering::Relaxed);
    let call_id = format!("call_fo{n:08}");
    let parts = {
        let mut sessions = shared.sessions.lock().unwrap_or_else(|p| p.into_inner());
        let state = sessions.entry(session.to_string()).or_default();
        if state.cwd.is_none() {
            state.cwd = gemini::working_directory(&request);
        }
        state.transcript.observe(&history);
        let step = match shared.policy {
            // A side call (the router's classifier) is answered in kind, whatever the policy.
            _ if !history.has_tools => Step::Text(gemini::side_answer(&request)),
            Policy::Refuse => super::policy::refuse_step(),
            _ if state.probe_call.is_some() => {
                let (tool, input) = state.probe_call.as_ref().expect("just checked");
                super::probe_call::probe_step(&history, state.cwd.as_deref().unwrap_or("."), tool, input)
            }
            _ => match state.first_tool {
                Some(tool) => gemini::first_tool_step(&history, state.cwd.as_deref().unwrap_or("."), tool),
                None => gemini::scripted_step(&history, state.cwd.as_deref().unwrap_or(".")),
            },
        };
        if history.has_tools {
            state.transcript.turn_over = matches!(step, Step::Text(_));
        }
        if let Step::Tool { name, input } = &step {
            let (name, input) = gemini::as_hook_sees(name, input);
            state.transcript.sent(&call_id, &name, &input);
        }
        gemini::reply_parts(&step, &call_id)
    };
    if stream {
        let events = gemini::sse(model, parts);
        ([(header::CONTENT_TYPE, "text/event-stream"), (header::CACHE_CONTROL, "no-cache")], events).into_response()
    } else {
        axum::Json(gemini::response(model, parts)).into_response()
    }
}

/// An error in the Gemini API's shape.
fn error(status: StatusCode, kind: &str, message: &str) -> Response {
    let body = json!({"error": {"code": status.as_u16(), "message": message, "status": kind}});
    (status, axum::Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::super::{Policy, StandIn};
    use serde_json::{json, Value};
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// POST `body` to `path`; the status and the body of the answer.
    async fn post(addr: std::net::SocketAddr, path: &str, body: &Value) -> (u16, String) {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        let body = body.to_string();
        let head = format!("POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
        s.write_all(format!("{head}{body}").as_bytes()).await.unwrap();
        let mut answer = String::new();
        s.read_to_string(&mut answer).await.unwrap();
        let status = answer.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
        (status, answer.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default())
    }

    /// The first `functionCall` in an SSE or JSON answer.
    fn function_call(answer: &str) -> Value {
        let start = answer.find('{').unwrap();
        let end = answer.rfind('}').unwrap();
        let chunk: Value = serde_json::from_str(&answer[start..=end]).unwrap();
        chunk["candidates"][0]["content"]["parts"][0]["functionCall"].clone()
    }

    #[tokio::test]
    async fn a_refused_shell_call_is_recorded_and_followed_by_a_write() {
        let standin = StandIn::start(Policy::Scripted, None).await.unwrap();
        let base = standin.session_url("g1", "/tmp/g1/work");
        let path = format!(
            "{}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
            &base[base.find("/s/").unwrap()..]
        );
        let tools = json!([{"functionDeclarations": [{"name": "run_shell_command"}, {"name": "write_file"}]}]);
        let prompt = json!({"role": "user", "parts": [{"text": "make notes"}]});
        let (status, answer) = post(standin.addr(), &path, &json!({"contents": [prompt], "tools": tools})).await;
        assert_eq!(status, 200, "{answer}");
        let call = function_call(&answer);
        assert_eq!(call["name"], "run_shell_command");
        let refused = json!({"functionResponse": {"id": call["id"], "name": "run_shell_command",
            "response": {"error": "Tool execution blocked: no"}}});
        let contents =
            json!([prompt, {"role": "model", "parts": [{"functionCall": call}]}, {"role": "user", "parts": [refused]}]);
        let (_, answer) = post(standin.addr(), &path, &json!({"contents": contents, "tools": tools})).await;
        let write = function_call(&answer);
        assert_eq!(write["args"]["file_path"], "/tmp/g1/work/notes.txt");
        let t = standin.take_transcript("g1");
        assert_eq!((t.requests, t.main_requests), (2, 2));
        let names: Vec<&str> = t.tool_uses.iter().map(|u| u.name.as_str()).collect();
        assert_eq!(names, ["run_shell_command", "write_file"]);
        let result = t.result_for(&t.tool_uses[0].id).expect("the refusal answers the first call");
        assert!(result.is_error && result.text == "Tool execution blocked: no");
        assert!(!t.turn_over);
    }

    /// An audit probe's session calls the probe's tool once, with its input
    /// filled in for the session's directory, then ends with a text.
    #[tokio::test]
    async fn a_probe_session_makes_the_probes_call_through_geminis_shell() {
        let standin = StandIn::start(Policy::Scripted, None).await.unwrap();
        let base = standin.session_url("g3", "/tmp/g3/work");
        assert!(standin.set_probe_call("g3", "run_shell_command", json!({"command": "git -C {work} reset --hard"})));
        assert!(!standin.set_probe_call("g3", "rm", json!({})), "a tool no probe may call");
        let path = format!("{}/v1beta/models/gemini-2.5-flash:generateContent", &base[base.find("/s/").unwrap()..]);
        let tools = json!([{"functionDeclarations": [{"name": "run_shell_command"}, {"name": "write_file"}]}]);
        let prompt = json!({"role": "user", "parts": [{"text": "make notes"}]});
        let (_, answer) = post(standin.addr(), &path, &json!({"contents": [prompt], "tools": tools})).await;
        let call = function_call(&answer);
        assert_eq!(
            (call["name"].as_str(), call["args"]["command"].as_str()),
            (Some("run_shell_command"), Some("git -C /tmp/g3/work reset --hard")),
            "{answer}"
        );
        let ran =
            json!({"functionResponse": {"id": call["id"], "name": "run_shell_command", "response": {"output": "ok"}}});
        let contents =
            json!([prompt, {"role": "model", "parts": [{"functionCall": call}]}, {"role": "user", "parts": [ran]}]);
        let (_, answer) = post(standin.addr(), &path, &json!({"contents": contents, "tools": tools})).await;
        assert!(function_call(&answer).is_null() && answer.contains("Done."), "one call only: {answer}");
        let t = standin.take_transcript("g3");
        assert_eq!(t.tool_uses.iter().map(|u| u.name.as_str()).collect::<Vec<_>>(), ["run_shell_command"]);
    }

    #[tokio::test]
    async fn side_calls_and_other_methods_are_answered_in_kind() {
        let standin = StandIn::start(Policy::Refuse, None).await.unwrap();
        let classifier = json!({"contents": [{"role": "user", "parts": [{"text": "route"}]}], "generationConfig": {
            "responseMimeType": "application/json", "responseJsonSchema": {"properties": {"complexity_score": {"type": "INTEGER"}}}}});
        let (status, answer) =
            post(standin.addr(), "/s/g2/v1beta/models/gemini-3.5-flash-lite:generateContent", &classifier).await;
        assert_eq!(status, 200);
        let reply: Value = serde_json::from_str(&answer).unwrap();
        let text = reply["candidates"][0]["content"]["parts"][0]["text"].as_str().unwrap();
        assert_eq!(serde_json::from_str::<Value>(text).unwrap()["complexity_score"], 10);
        let (status, _) = post(standin.addr(), "/s/g2/v1beta/models/m:embedContent", &json!({})).await;
        assert_eq!(status, 404);
        let (status, answer) = post(standin.addr(), "/s/g2/v1beta/models/m:countTokens", &json!({})).await;
        assert!(status == 200 && answer.contains("totalTokens"), "{answer}");
        let t = standin.take_transcript("g2");
        assert_eq!((t.requests, t.main_requests), (1, 0));
    }
}
