//! Claude Code's compaction requests, answered as a model would: with a summary.
//!
//! When a conversation outgrows the context window (a guard that answers
//! with 5 MB does that in one refusal), Claude Code asks the model to
//! summarise it: a request whose last user turn says "Your task is to create
//! a detailed summary of ...". It then goes on from the summary alone. A
//! model that answered with a tool call instead would make the compaction
//! fail ("summarization produced empty response") and Claude Code would end
//! the session, so the stand-in must answer these as text.
//!
//! The script is a function of the message history, and compaction replaces
//! that history with the summary. So the summary carries a ledger, one line
//! per tool call so far ([`ledger_line`]), which [`History`] reads back
//! after compaction ([`super::history::read_ledger`]): the script goes on
//! from where it was instead of starting over.

use serde_json::Value;

use super::history::{ledger_line, text_blocks, History};

/// What Claude Code's compaction prompts say (both wordings seen in 2.1.328).
const SUMMARY_ASK: &str = "create a detailed summary of";

/// Whether a Messages API request asks for a summary of the conversation:
/// its last user turn says so, and no assistant turn came after it.
/// (Claude Code may append `system` entries after the ask.)
pub fn is_summary_request(body: &Value) -> bool {
    let messages = body.get("messages").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    let Some(last) = messages.iter().rev().find(|m| m.get("role").and_then(Value::as_str) != Some("system")) else {
        return false;
    };
    last.get("role").and_then(Value::as_str) == Some("user")
        && text_blocks(last.get("content")).any(|t| t.contains(SUMMARY_ASK))
}

/// The summary the stand-in answers a compaction request with.
pub fn summary(history: &History) -> String {
    let mut out = String::from(
        "<summary>\n1. Primary Request and Intent:\n   The user asked for a file named notes.txt in the current \
         directory containing the single word ready, and to confirm whether it exists.\n\n2. Tool calls so far \
         (failopen stand-in ledger, one line each):\n",
    );
    for call in &history.tool_uses {
        out.push_str(&ledger_line(call, history.result_for(&call.id)));
        out.push('\n');
    }
    out.push_str("</summary>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::standin::history::{read_ledger, SeenToolUse};
    use crate::standin::script::{scripted_step, Step};
    use serde_json::json;

    const TOOLS: [&str; 2] = ["Bash", "Write"];

    fn tools() -> Value {
        Value::Array(TOOLS.iter().map(|n| json!({"name": n})).collect())
    }

    /// A conversation where Bash was refused, then the compaction ask
    /// (its wording copied from Claude Code 2.1.328).
    fn compaction_request() -> Value {
        json!({"tools": tools(), "messages": [
            {"role": "user", "content": "Create a file named notes.txt"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "printf"}}]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "t1", "is_error": true, "content": "PreToolUse:Bash hook error: xxxx"},
                {"type": "text", "text": "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.\n\nYour task is to create a detailed summary of the conversation so far, paying close attention to the user's explicit requests and your previous actions."}
            ]}
        ]})
    }

    #[test]
    fn recognises_the_compaction_ask_only_in_the_last_user_turn() {
        assert!(is_summary_request(&compaction_request()));
        // 2.1.328 appends a system entry after the ask.
        let mut trailing_system = compaction_request();
        let system = json!({"role": "system", "content": "While bypass permissions mode is active"});
        trailing_system["messages"].as_array_mut().unwrap().push(system);
        assert!(is_summary_request(&trailing_system));
        let mut earlier = compaction_request();
        earlier["messages"].as_array_mut().unwrap().push(json!({"role": "assistant", "content": "ok"}));
        assert!(!is_summary_request(&earlier));
        assert!(!is_summary_request(&json!({"messages": [{"role": "user", "content": "go"}]})));
        assert!(!is_summary_request(&json!({})));
        // A tool result that quotes the words is not the ask.
        let quoted = json!({"messages": [{"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t", "content": "create a detailed summary of"}]}]});
        assert!(!is_summary_request(&quoted));
    }

    #[test]
    fn after_compaction_the_script_goes_on_from_the_ledger() {
        let before = History::from_request(&compaction_request());
        let text = summary(&before);
        assert!(text.starts_with("<summary>") && text.ends_with("</summary>"), "{text}");
        // Claude Code continues with the summary as the first user turn.
        let after = json!({"tools": tools(), "messages": [
            {"role": "user", "content": [{"type": "text", "text": format!("This session is being continued from a previous conversation.\n\n{text}")}]}
        ]});
        let h = History::from_request(&after);
        assert_eq!(h.tool_uses.len(), 1);
        assert_eq!(h.tool_results.len(), 1);
        assert!(h.tool_results[0].is_error);
        // Bash was refused before the summary: the script goes on to Write, not back to Bash.
        let Step::Tool { name, .. } = scripted_step(&h, "/w") else { panic!("{h:?}") };
        assert_eq!(name, "Write");
    }

    #[test]
    fn a_call_without_result_stays_without_one() {
        let mut h = History::default();
        h.tool_uses.push(SeenToolUse { id: "t9".into(), name: "Write".into(), input: json!({}) });
        let ledger = read_ledger(&summary(&h));
        assert_eq!(ledger.len(), 1);
        assert_eq!(ledger[0].0.name, "Write");
        assert_eq!(ledger[0].1, None);
    }
}
