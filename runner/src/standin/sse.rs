//! Server-Sent Events encoding of an Anthropic Messages API reply.
//!
//! A reply is one assistant message with one content block (text or
//! tool_use), streamed as the named events Claude Code expects:
//! `message_start`, `content_block_start`, `content_block_delta`,
//! `content_block_stop`, `message_delta`, `message_stop`.

use serde_json::{json, Value};

/// One assistant content block the stand-in sends.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    /// A text block (ends the turn).
    Text(String),
    /// A tool call.
    ToolUse {
        /// Unique tool_use id.
        id: String,
        /// Tool name, e.g. `Bash`.
        name: String,
        /// Tool input.
        input: Value,
    },
    /// Several tool calls in one message: (id, name, input) each.
    ToolUses(Vec<(String, String, Value)>),
}

/// One complete assistant message, ready to encode.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// Unique message id (Claude Code merges messages that share one).
    pub id: String,
    /// The model name echoed back.
    pub model: String,
    /// The single content block.
    pub reply: Reply,
}

impl Message {
    /// `end_turn` for text, `tool_use` for a tool call.
    pub fn stop_reason(&self) -> &'static str {
        match self.reply {
            Reply::Text(_) => "end_turn",
            Reply::ToolUse { .. } | Reply::ToolUses(_) => "tool_use",
        }
    }

    fn usage(&self) -> Value {
        json!({"input_tokens": 12, "output_tokens": 8, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0})
    }

    /// The content blocks: (the block, its delta for streaming).
    fn blocks(&self) -> Vec<(Value, Value, Value)> {
        let tool = |id: &str, name: &str, input: &Value| {
            (
                json!({"type": "tool_use", "id": id, "name": name, "input": input}),
                json!({"type": "tool_use", "id": id, "name": name, "input": {}}),
                json!({"type": "input_json_delta", "partial_json": input.to_string()}),
            )
        };
        match &self.reply {
            Reply::Text(text) => vec![(
                json!({"type": "text", "text": text}),
                json!({"type": "text", "text": ""}),
                json!({"type": "text_delta", "text": text}),
            )],
            Reply::ToolUse { id, name, input } => vec![tool(id, name, input)],
            Reply::ToolUses(calls) => calls.iter().map(|(id, name, input)| tool(id, name, input)).collect(),
        }
    }

    /// The message as a non-streamed JSON body.
    pub fn to_json(&self) -> Value {
        let content: Vec<Value> = self.blocks().into_iter().map(|(block, _, _)| block).collect();
        json!({
            "id": self.id, "type": "message", "role": "assistant", "model": self.model,
            "content": content, "stop_reason": self.stop_reason(), "stop_sequence": null,
            "usage": self.usage(),
        })
    }

    /// The message as a complete SSE stream body.
    pub fn to_sse(&self) -> String {
        let mut out = String::with_capacity(1024);
        let start = json!({
            "type": "message_start",
            "message": {
                "id": self.id, "type": "message", "role": "assistant", "model": self.model,
                "content": [], "stop_reason": null, "stop_sequence": null, "usage": self.usage(),
            }
        });
        event(&mut out, "message_start", &start);
        for (index, (_, block, delta)) in self.blocks().into_iter().enumerate() {
            event(
                &mut out,
                "content_block_start",
                &json!({"type": "content_block_start", "index": index, "content_block": block}),
            );
            event(
                &mut out,
                "content_block_delta",
                &json!({"type": "content_block_delta", "index": index, "delta": delta}),
            );
            event(&mut out, "content_block_stop", &json!({"type": "content_block_stop", "index": index}));
        }
        event(
            &mut out,
            "message_delta",
            &json!({"type": "message_delta", "delta": {"stop_reason": self.stop_reason(), "stop_sequence": null}, "usage": {"output_tokens": 8}}),
        );
        event(&mut out, "message_stop", &json!({"type": "message_stop"}));
        out
    }
}

/// An SSE error event, as the API sends for e.g. `overloaded_error`.
pub fn error_event(kind: &str, message: &str) -> String {
    let mut out = String::new();
    event(&mut out, "error", &json!({"type": "error", "error": {"type": kind, "message": message}}));
    out
}

fn event(out: &mut String, name: &str, data: &Value) {
    out.push_str("event: ");
    out.push_str(name);
    out.push_str("\ndata: ");
    out.push_str(&data.to_string());
    out.push_str("\n\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_events(body: &str) -> Vec<(String, Value)> {
        body.split("\n\n")
            .filter(|chunk| !chunk.is_empty())
            .map(|chunk| {
                let mut lines = chunk.lines();
                let name = lines.next().unwrap().strip_prefix("event: ").unwrap().to_string();
                let data = lines.next().unwrap().strip_prefix("data: ").unwrap();
                assert!(lines.next().is_none(), "one data line per event");
                (name, serde_json::from_str(data).unwrap())
            })
            .collect()
    }

    #[test]
    fn tool_use_stream_has_named_events_in_order_and_round_trips_input() {
        let input = json!({"command": "printf 'ready\\n' > notes.txt", "description": "x"});
        let msg = Message {
            id: "msg_1".into(),
            model: "m".into(),
            reply: Reply::ToolUse { id: "toolu_1".into(), name: "Bash".into(), input: input.clone() },
        };
        let events = parse_events(&msg.to_sse());
        let names: Vec<_> = events.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "message_start",
                "content_block_start",
                "content_block_delta",
                "content_block_stop",
                "message_delta",
                "message_stop"
            ]
        );
        for (name, data) in &events {
            assert_eq!(data["type"], name.as_str(), "event name matches data type");
        }
        assert_eq!(events[0].1["message"]["id"], "msg_1");
        assert_eq!(events[1].1["content_block"]["name"], "Bash");
        let partial = events[2].1["delta"]["partial_json"].as_str().unwrap();
        assert_eq!(serde_json::from_str::<Value>(partial).unwrap(), input);
        assert_eq!(events[4].1["delta"]["stop_reason"], "tool_use");
    }

    #[test]
    fn text_stream_ends_turn() {
        let msg = Message { id: "msg_2".into(), model: "m".into(), reply: Reply::Text("line1\nline2".into()) };
        let events = parse_events(&msg.to_sse());
        assert_eq!(events[2].1["delta"], json!({"type": "text_delta", "text": "line1\nline2"}));
        assert_eq!(events[4].1["delta"]["stop_reason"], "end_turn");
        assert_eq!(msg.to_json()["content"][0]["text"], "line1\nline2");
    }

    #[test]
    fn parallel_calls_are_blocks_of_one_message() {
        let calls = vec![
            ("t1".to_string(), "Bash".to_string(), json!({"command": "a"})),
            ("t2".to_string(), "Write".to_string(), json!({"file_path": "b"})),
        ];
        let msg = Message { id: "m".into(), model: "m".into(), reply: Reply::ToolUses(calls) };
        let events = parse_events(&msg.to_sse());
        let starts: Vec<_> = events.iter().filter(|(n, _)| n == "content_block_start").map(|(_, d)| d).collect();
        assert_eq!(starts.len(), 2);
        assert_eq!((starts[1]["index"].as_u64(), starts[1]["content_block"]["id"].as_str()), (Some(1), Some("t2")));
        assert_eq!(msg.to_json()["content"][1]["input"]["file_path"], "b");
        assert_eq!(msg.stop_reason(), "tool_use");
    }

    #[test]
    fn error_event_is_named() {
        let e = error_event("overloaded_error", "Overloaded");
        assert!(e.starts_with("event: error\ndata: {"));
        assert!(e.contains("\"overloaded_error\""));
    }
}
