//! The model behind `prompt` and `agent` hooks.
//!
//! Claude Code calls the model of a prompt or agent hook through the same
//! `ANTHROPIC_BASE_URL` as the main conversation, so the stand-in receives
//! those calls too. Observed (docs/model-hooks.md has the requests):
//!
//! - a **prompt** hook's call offers no tools and asks for JSON through
//!   `output_config.format` (a schema with `ok`, `reason`); its system prompt
//!   says "You are evaluating a hook in Claude Code" (2.1.328) or "You are
//!   evaluating a hook condition in Claude Code" (2.1.240). The answer is a
//!   text `{"ok": bool, "reason": "..."}`;
//! - an **agent** hook runs a small agent: its calls offer tools, among them
//!   `StructuredOutput`, and its system prompt says "You are evaluating a
//!   PreToolUse hook in Claude Code". The agent may call tools, and answers
//!   by calling `StructuredOutput` with `{"ok": bool, "reason": "..."}`.
//!
//! A hook call is answered by the session's [`HookPolicy`], never by the
//! main conversation's script, and is kept out of the main conversation's
//! transcript (it is counted apart, as evidence that the hook was consulted).

use std::fmt;
use std::str::FromStr;

use axum::http::{header, HeaderName, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::history::History;
use super::sse::{Message, Reply};
use crate::hook_type::HookType;

/// The tool an agent hook answers with.
pub const STRUCTURED_OUTPUT: &str = "StructuredOutput";

/// The reason the `deny` policy gives.
pub const DENY_REASON: &str = "this session may not write files (failopen hook model deny)";
/// The reason the `allow` policy gives.
pub const ALLOW_REASON: &str = "the action may go ahead (failopen hook model allow)";
/// What the `garbage` policy answers: not the JSON the hook asked for.
pub const GARBAGE_TEXT: &str = "<html>policy model maintenance</html>";

/// How the stand-in answers a hook's calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum HookPolicy {
    /// A well-formed "ok".
    Allow,
    /// A well-formed refusal, with [`DENY_REASON`].
    Deny,
    /// HTTP 500 `api_error`.
    Error500,
    /// HTTP 529 `overloaded_error`.
    Overloaded529,
    /// HTTP 401 `authentication_error`.
    Unauthorized401,
    /// No answer until far past any hook timeout.
    Hang,
    /// The stream is cut in the middle of the answer.
    Dropped,
    /// A text that is not the shape the hook asked for.
    Garbage,
    /// An empty answer.
    Empty,
}

impl HookPolicy {
    /// Every policy, in report order.
    pub const ALL: [HookPolicy; 9] = [
        HookPolicy::Allow,
        HookPolicy::Deny,
        HookPolicy::Error500,
        HookPolicy::Overloaded529,
        HookPolicy::Unauthorized401,
        HookPolicy::Hang,
        HookPolicy::Dropped,
        HookPolicy::Garbage,
        HookPolicy::Empty,
    ];

    /// Its name in arms and guards: `allow`, `deny`, `error-500`, ...
    pub fn name(self) -> &'static str {
        match self {
            HookPolicy::Allow => "allow",
            HookPolicy::Deny => "deny",
            HookPolicy::Error500 => "error-500",
            HookPolicy::Overloaded529 => "overloaded-529",
            HookPolicy::Unauthorized401 => "unauthorized-401",
            HookPolicy::Hang => "hang",
            HookPolicy::Dropped => "dropped",
            HookPolicy::Garbage => "garbage",
            HookPolicy::Empty => "empty",
        }
    }
}

impl fmt::Display for HookPolicy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HookPolicy {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        HookPolicy::ALL.into_iter().find(|p| p.name() == s).ok_or_else(|| {
            format!(
                "unknown hook model policy {s:?}; valid policies: {}",
                HookPolicy::ALL.map(HookPolicy::name).join(", ")
            )
        })
    }
}

/// One hook call the stand-in answered, as the transcript records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HookCall {
    /// Which kind of hook called: [`HookType::Prompt`] or [`HookType::Agent`].
    pub kind: HookType,
    /// The policy that answered.
    pub policy: HookPolicy,
}

/// Whether `request` is a hook's evaluation call, and of which kind
/// ([`HookType::Prompt`] or [`HookType::Agent`]).
pub fn hook_call(request: &Value) -> Option<HookType> {
    let offers_structured_output = request
        .get("tools")
        .and_then(Value::as_array)
        .is_some_and(|tools| tools.iter().any(|t| t.get("name").and_then(Value::as_str) == Some(STRUCTURED_OUTPUT)));
    if offers_structured_output {
        return Some(HookType::Agent);
    }
    let asks_for_ok = request.pointer("/output_config/format/schema/properties/ok").is_some();
    (asks_for_ok || says_evaluating_a_hook(request)).then_some(HookType::Prompt)
}

/// The system prompt says "You are evaluating a ... hook ..." (every wording seen).
fn says_evaluating_a_hook(request: &Value) -> bool {
    let system = request.get("system").map(Value::to_string).unwrap_or_default();
    system
        .find("You are evaluating a")
        .is_some_and(|i| system[i..].chars().take(60).collect::<String>().contains("hook"))
}

/// What the stand-in does with a hook call.
#[derive(Debug)]
pub enum HookAnswer {
    /// An ordinary message.
    Message(Reply),
    /// An API error: status and body.
    Error(StatusCode, Value),
    /// Wait far past any hook timeout before answering.
    Hang,
    /// A stream cut in the middle of the answer.
    Dropped,
}

/// The answer to a hook call of `kind` under `policy`, given the call's own
/// conversation (`history`: an agent's earlier turns) and the path of the
/// session transcript the agent is told it may read.
pub fn answer(kind: HookType, policy: HookPolicy, history: &History, transcript_path: Option<&str>) -> HookAnswer {
    let error = |status: u16, kind: &str, message: &str| {
        HookAnswer::Error(
            StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
            json!({"type": "error", "error": {"type": kind, "message": message}}),
        )
    };
    let verdict = |ok: bool| json!({"ok": ok, "reason": if ok { ALLOW_REASON } else { DENY_REASON }});
    match policy {
        HookPolicy::Error500 => return error(500, "api_error", "Internal server error"),
        HookPolicy::Overloaded529 => return error(529, "overloaded_error", "Overloaded"),
        HookPolicy::Unauthorized401 => return error(401, "authentication_error", "invalid x-api-key"),
        HookPolicy::Hang => return HookAnswer::Hang,
        HookPolicy::Dropped => return HookAnswer::Dropped,
        _ => {}
    }
    let text = |t: String| HookAnswer::Message(Reply::Text(t));
    if kind != HookType::Agent {
        // A prompt hook (the only other kind `hook_call` finds).
        return match policy {
            HookPolicy::Allow => text(verdict(true).to_string()),
            HookPolicy::Deny => text(verdict(false).to_string()),
            HookPolicy::Garbage => text(GARBAGE_TEXT.into()),
            _ => text(String::new()),
        };
    }
    if history.tool_uses.iter().any(|u| u.name == STRUCTURED_OUTPUT) {
        return text("Verification done.".into());
    }
    // The agent's own turn first: it reads the transcript it was pointed at.
    let read = history.tool_uses.iter().any(|u| u.name == "Read");
    if let (false, Some(path)) = (read, transcript_path) {
        return tool("Read", json!({"file_path": path}));
    }
    match policy {
        HookPolicy::Allow => tool(STRUCTURED_OUTPUT, verdict(true)),
        HookPolicy::Deny => tool(STRUCTURED_OUTPUT, verdict(false)),
        HookPolicy::Garbage => text(GARBAGE_TEXT.into()),
        _ => text(String::new()),
    }
}

fn tool(name: &str, input: Value) -> HookAnswer {
    HookAnswer::Message(Reply::ToolUse { id: String::new(), name: name.to_string(), input })
}

/// Where an agent hook's system prompt says the session transcript is.
pub fn transcript_path(request: &Value) -> Option<String> {
    const MARK: &str = "The conversation transcript is available at: ";
    let system = request.get("system")?.to_string();
    let start = system.find(MARK)? + MARK.len();
    let rest = &system[start..];
    let end = rest.find(['\\', '"', ' ']).unwrap_or(rest.len());
    Some(rest[..end].to_string()).filter(|p| !p.is_empty())
}

/// A message whose stream stops in the middle: `message_start`, the start
/// of a text block and half a delta, then nothing (no `message_stop`).
pub fn dropped_response(stream: bool, id: &str, model: &str) -> Response {
    let no_retry = (HeaderName::from_static("x-should-retry"), "false");
    let full = Message { id: id.to_string(), model: model.to_string(), reply: Reply::Text("{\"ok\": fal".into()) };
    if stream {
        let sse = full.to_sse();
        let cut: String = sse.split_inclusive("\n\n").take(3).collect();
        ([(header::CONTENT_TYPE, "text/event-stream"), (header::CACHE_CONTROL, "no-cache"), no_retry], cut)
            .into_response()
    } else {
        let body = full.to_json().to_string();
        let half = body[..body.len() / 2].to_string();
        ([(header::CONTENT_TYPE, "application/json"), no_retry], half).into_response()
    }
}

/// An API error response that tells Claude Code not to retry.
pub fn error_response(status: StatusCode, body: Value) -> Response {
    let no_retry = (HeaderName::from_static("x-should-retry"), "false");
    (status, [no_retry], axum::Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prompt_call() -> Value {
        json!({"system": [{"type": "text", "text": "You are evaluating a hook in Claude Code. ..."}], "tools": [],
            "output_config": {"format": {"type": "json_schema", "schema": {"properties": {"ok": {"type": "boolean"}}}}},
            "messages": [{"role": "user", "content": "Refuse writes. {\"tool_name\":\"Bash\"}"}]})
    }

    fn agent_call() -> Value {
        json!({"system": [{"type": "text", "text": "You are evaluating a PreToolUse hook in Claude Code. The conversation transcript is available at: /h/t.jsonl You can read"}],
            "tools": [{"name": "Read"}, {"name": "StructuredOutput"}],
            "messages": [{"role": "user", "content": "Refuse writes."}]})
    }

    #[test]
    fn hook_calls_are_told_from_the_main_conversation() {
        assert_eq!(hook_call(&prompt_call()), Some(HookType::Prompt));
        assert_eq!(hook_call(&agent_call()), Some(HookType::Agent));
        // 2.1.240's wording, without the schema.
        let old = json!({"system": "You are evaluating a hook condition in Claude Code. Judge", "messages": []});
        assert_eq!(hook_call(&old), Some(HookType::Prompt));
        let main =
            json!({"system": "You are Claude Code", "tools": [{"name": "Bash"}, {"name": "Write"}], "messages": []});
        assert_eq!(hook_call(&main), None);
        assert_eq!(transcript_path(&agent_call()).as_deref(), Some("/h/t.jsonl"));
    }

    #[test]
    fn prompt_policies_answer_as_named() {
        let h = History::default();
        let text = |p| match answer(HookType::Prompt, p, &h, None) {
            HookAnswer::Message(Reply::Text(t)) => t,
            other => panic!("{other:?}"),
        };
        let deny: Value = serde_json::from_str(&text(HookPolicy::Deny)).unwrap();
        assert_eq!(deny, json!({"ok": false, "reason": DENY_REASON}));
        let allow: Value = serde_json::from_str(&text(HookPolicy::Allow)).unwrap();
        assert_eq!(allow["ok"], true);
        assert!(serde_json::from_str::<Value>(&text(HookPolicy::Garbage)).is_err());
        assert_eq!(text(HookPolicy::Empty), "");
        assert!(
            matches!(answer(HookType::Prompt, HookPolicy::Overloaded529, &h, None), HookAnswer::Error(s, _) if s.as_u16() == 529)
        );
        assert!(
            matches!(answer(HookType::Prompt, HookPolicy::Unauthorized401, &h, None), HookAnswer::Error(s, _) if s.as_u16() == 401)
        );
        assert!(matches!(answer(HookType::Prompt, HookPolicy::Hang, &h, None), HookAnswer::Hang));
    }

    #[test]
    fn an_agent_reads_then_answers_through_structured_output() {
        let first = History::from_request(&agent_call());
        let HookAnswer::Message(Reply::ToolUse { name, input, .. }) =
            answer(HookType::Agent, HookPolicy::Deny, &first, Some("/h/t.jsonl"))
        else {
            panic!()
        };
        assert_eq!((name.as_str(), input["file_path"].as_str()), ("Read", Some("/h/t.jsonl")));
        let mut after_read = agent_call();
        after_read["messages"] = json!([
            {"role": "user", "content": "Refuse writes."},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "r1", "name": "Read", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "r1", "content": "..."}]}]);
        let h = History::from_request(&after_read);
        let HookAnswer::Message(Reply::ToolUse { name, input, .. }) =
            answer(HookType::Agent, HookPolicy::Deny, &h, None)
        else {
            panic!()
        };
        assert_eq!((name.as_str(), &input), (STRUCTURED_OUTPUT, &json!({"ok": false, "reason": DENY_REASON})));
        assert!(matches!(answer(HookType::Agent, HookPolicy::Garbage, &h, None), HookAnswer::Message(Reply::Text(_))));
    }

    #[test]
    fn policy_names_round_trip() {
        for p in HookPolicy::ALL {
            assert_eq!(p.name().parse::<HookPolicy>().unwrap(), p);
        }
        assert!("nope".parse::<HookPolicy>().unwrap_err().contains("error-500"));
    }
}
