//! The conversation as the stand-in sees it: the facts of one Messages API
//! request that every script reads ([`History`]).
//!
//! Claude Code sends the whole conversation with every request, so the
//! history is all the memory a script needs: a retried or duplicated
//! request gets the same answer. After Claude Code compacts the
//! conversation, the calls before the compaction are gone from it; they
//! come back from the ledger that the stand-in's summary carries, one line
//! per tool call ([`LEDGER_PREFIX`] and a JSON object). The ledger's format
//! lives here, read by [`read_ledger`] and written by [`ledger_line`] for
//! the summary (`compaction.rs`), so the script and the compaction both
//! build on this module and neither needs the other.
//!
//! [`result_text`] is here too: the text of a tool_result is the Messages
//! API's shape, read the same way whether it comes in a request to the
//! stand-in or in Claude Code's stream-json. The evidence reads it as
//! `standin::result_text`, beside [`super::Transcript`]: from the
//! stand-in's public face, not from its script.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A tool_use block seen in the request's history.
#[derive(Debug, Clone, PartialEq)]
pub struct SeenToolUse {
    /// Its id.
    pub id: String,
    /// The tool name.
    pub name: String,
    /// The tool input.
    pub input: Value,
}

/// A tool_result block seen in the request's history.
#[derive(Debug, Clone, PartialEq)]
pub struct SeenToolResult {
    /// The tool_use it answers.
    pub tool_use_id: String,
    /// Whether the harness marked it as an error (a refusal or a failure).
    pub is_error: bool,
    /// Its text.
    pub text: String,
    /// Read back from the stand-in's own compaction summary, not sent by
    /// Claude Code as a tool_result: it steers the script, never the evidence.
    pub from_summary: bool,
}

/// The facts of a request the script needs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    /// The request offers tools (a main-conversation request).
    pub has_tools: bool,
    /// The request offers a tool with this name.
    pub tool_names: Vec<String>,
    /// Every tool_use in the history, in order.
    pub tool_uses: Vec<SeenToolUse>,
    /// Every tool_result in the history, in order.
    pub tool_results: Vec<SeenToolResult>,
    /// The text blocks of the first user message, joined: a subagent's
    /// conversation starts with the prompt its caller gave it.
    pub first_user_text: String,
}

impl History {
    /// An empty history with the tools a request body offers: the `name`
    /// of each entry of its top-level `tools` (the Messages API's shape and
    /// the Responses API's alike).
    pub fn offered_tools(body: &Value) -> History {
        let tool_names: Vec<String> = body
            .get("tools")
            .and_then(Value::as_array)
            .map(|tools| tools.iter().filter_map(|t| t.get("name")?.as_str().map(String::from)).collect())
            .unwrap_or_default();
        History { has_tools: !tool_names.is_empty(), tool_names, ..History::default() }
    }

    /// Read the facts out of a Messages API request body.
    ///
    /// Roles are not assumed to alternate: Claude Code can send `system`
    /// entries between turns.
    pub fn from_request(body: &Value) -> History {
        let mut h = History::offered_tools(body);
        let messages = body.get("messages").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
        if let Some(first) = messages.iter().find(|m| m.get("role").and_then(Value::as_str) == Some("user")) {
            h.first_user_text = text_blocks(first.get("content")).collect::<Vec<_>>().join("\n");
        }
        for message in messages {
            // After a compaction, the calls before it are in the summary's ledger.
            for text in text_blocks(message.get("content")) {
                for (call, result) in read_ledger(text) {
                    if h.tool_uses.iter().any(|u| u.id == call.id) {
                        continue;
                    }
                    h.tool_results.extend(result);
                    h.tool_uses.push(call);
                }
            }
            let Some(blocks) = message.get("content").and_then(Value::as_array) else { continue };
            for block in blocks {
                match block.get("type").and_then(Value::as_str) {
                    Some("tool_use") => h.tool_uses.push(SeenToolUse {
                        id: str_field(block, "id"),
                        name: str_field(block, "name"),
                        input: block.get("input").cloned().unwrap_or(Value::Null),
                    }),
                    Some("tool_result") => h.tool_results.push(SeenToolResult {
                        tool_use_id: str_field(block, "tool_use_id"),
                        is_error: block.get("is_error").and_then(Value::as_bool).unwrap_or(false),
                        text: result_text(block.get("content")),
                        from_summary: false,
                    }),
                    _ => {}
                }
            }
        }
        h
    }

    /// The last result that came back for the tool call `tool_use_id`, if any.
    pub fn result_for(&self, tool_use_id: &str) -> Option<&SeenToolResult> {
        self.tool_results.iter().rev().find(|r| r.tool_use_id == tool_use_id)
    }
}

fn str_field(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or_default().to_string()
}

/// The text of a tool_result's content: a string, or text blocks joined.
pub fn result_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(blocks)) => {
            blocks.iter().filter_map(|b| b.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join("\n")
        }
        _ => String::new(),
    }
}

/// The text of a message's content: the string, or each text block.
pub(crate) fn text_blocks(content: Option<&Value>) -> Box<dyn Iterator<Item = &str> + '_> {
    match content {
        Some(Value::String(s)) => Box::new(std::iter::once(s.as_str())),
        Some(Value::Array(blocks)) => Box::new(
            blocks
                .iter()
                .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
                .filter_map(|b| b.get("text").and_then(Value::as_str)),
        ),
        _ => Box::new(std::iter::empty()),
    }
}

/// Marks one ledger line in a summary.
pub const LEDGER_PREFIX: &str = "failopen-ledger: ";

/// How much of a tool result's text a ledger line keeps.
const LEDGER_TEXT_CHARS: usize = 300;

/// One tool call as the ledger records it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct LedgerEntry {
    id: String,
    tool: String,
    input: Value,
    /// `None`: no result came back before the summary.
    is_error: Option<bool>,
    #[serde(default)]
    text: String,
}

/// The ledger line (without its newline) that records `call` and the
/// `result` that came back for it, if one did.
pub fn ledger_line(call: &SeenToolUse, result: Option<&SeenToolResult>) -> String {
    let entry = LedgerEntry {
        id: call.id.clone(),
        tool: call.name.clone(),
        input: call.input.clone(),
        is_error: result.map(|r| r.is_error),
        text: result.map(|r| r.text.chars().take(LEDGER_TEXT_CHARS).collect()).unwrap_or_default(),
    };
    format!("{LEDGER_PREFIX}{}", serde_json::to_string(&entry).unwrap_or_default())
}

/// The tool calls (and their results) recorded by ledger lines in `text`.
pub fn read_ledger(text: &str) -> Vec<(SeenToolUse, Option<SeenToolResult>)> {
    text.lines()
        .filter_map(|line| line.trim_start().strip_prefix(LEDGER_PREFIX))
        .filter_map(|json| serde_json::from_str::<LedgerEntry>(json).ok())
        .map(|e| {
            let result = e.is_error.map(|is_error| SeenToolResult {
                tool_use_id: e.id.clone(),
                is_error,
                text: e.text,
                from_summary: true,
            });
            (SeenToolUse { id: e.id, name: e.tool, input: e.input }, result)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ledger_lines_that_are_not_json_are_skipped() {
        assert!(read_ledger("failopen-ledger: {not json\nfailopen-ledger: 3\nplain text").is_empty());
    }

    #[test]
    fn a_ledger_line_reads_back_as_the_call_and_its_result() {
        let call = SeenToolUse { id: "t1".into(), name: "Bash".into(), input: json!({"command": "x"}) };
        let result =
            SeenToolResult { tool_use_id: "t1".into(), is_error: true, text: "no".into(), from_summary: false };
        let read = read_ledger(&format!("  {}\n", ledger_line(&call, Some(&result))));
        let expected = SeenToolResult { from_summary: true, ..result };
        assert_eq!(read, [(call, Some(expected))]);
    }

    #[test]
    fn result_text_joins_text_blocks() {
        assert_eq!(result_text(Some(&json!("plain"))), "plain");
        assert_eq!(
            result_text(Some(&json!([{"type": "text", "text": "a"}, {"type": "image"}, {"text": "b"}]))),
            "a\nb"
        );
        assert_eq!(result_text(None), "");
        assert_eq!(result_text(Some(&json!(3))), "");
    }
}
