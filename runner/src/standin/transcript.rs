//! What the stand-in saw in one session: the tool calls it sent and the
//! tool results that came back, recorded from each request's [`History`].
//! This is the evidence the verdict reads.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::history::History;

/// A tool call the stand-in sent.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SentToolUse {
    /// Its id.
    pub id: String,
    /// Tool name.
    pub name: String,
    /// Tool input.
    pub input: Value,
}

/// A tool result the harness sent back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReturnedToolResult {
    /// The tool_use it answers.
    pub tool_use_id: String,
    /// Marked as an error by the harness (refused or failed).
    pub is_error: bool,
    /// Its text.
    pub text: String,
}

/// One session's record.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Transcript {
    /// Requests received (main and side).
    pub requests: u32,
    /// Requests that offered tools (the main conversation).
    pub main_requests: u32,
    /// Error answers the stand-in gave (flaky policy, or a body over the API's size limit).
    pub errors_sent: u32,
    /// Compaction requests answered with a summary.
    #[serde(default)]
    pub summaries_sent: u32,
    /// Subagent warm-up requests answered with text ([`super::warmup`]),
    /// counted in neither `requests` nor `main_requests`.
    #[serde(default)]
    pub warmups_answered: u32,
    /// Tool calls sent, in order.
    pub tool_uses: Vec<SentToolUse>,
    /// Tool results received, in order, each once.
    pub tool_results: Vec<ReturnedToolResult>,
    /// Calls from prompt and agent hooks, answered by the session's hook
    /// policy, in order (kept apart from the main conversation above).
    #[serde(default)]
    pub hook_calls: Vec<super::hook_model::HookCall>,
    /// The main conversation's last answer was a final text (no tool call):
    /// the script has ended and the turn is over, until a later request
    /// brings a tool call again. An interactive session waits for it.
    #[serde(default)]
    pub turn_over: bool,
}

impl Transcript {
    /// Record a request's history: every tool_result not seen before.
    pub fn observe(&mut self, history: &History) {
        self.requests += 1;
        if history.has_tools {
            self.main_requests += 1;
        }
        // Only Claude Code's own tool_result blocks are evidence.
        for r in history.tool_results.iter().filter(|r| !r.from_summary) {
            if !self.tool_results.iter().any(|seen| seen.tool_use_id == r.tool_use_id) {
                self.tool_results.push(ReturnedToolResult {
                    tool_use_id: r.tool_use_id.clone(),
                    is_error: r.is_error,
                    text: r.text.clone(),
                });
            }
        }
    }

    /// Record a tool call the stand-in sent.
    pub fn sent(&mut self, id: &str, name: &str, input: &Value) {
        self.tool_uses.push(SentToolUse { id: id.to_string(), name: name.to_string(), input: input.clone() });
    }

    /// The result that came back for a tool call, if any.
    pub fn result_for(&self, tool_use_id: &str) -> Option<&ReturnedToolResult> {
        self.tool_results.iter().find(|r| r.tool_use_id == tool_use_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn results_are_recorded_once_across_requests() {
        let body = json!({"tools": [{"name": "Bash"}], "messages": [
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "is_error": true, "content": "no"}]}
        ]});
        let h = History::from_request(&body);
        let mut t = Transcript::default();
        t.observe(&h);
        t.observe(&h);
        assert_eq!(t.requests, 2);
        assert_eq!(t.tool_results.len(), 1);
        assert!(t.result_for("t1").unwrap().is_error);
    }

    #[test]
    fn a_ledger_line_is_not_evidence() {
        // A text block that reads like the compaction summary's ledger (a
        // guard's output quoted back, say) steers the script but is never
        // recorded as a result Claude Code sent.
        let line = r#"failopen-ledger: {"id":"toolu_fo00000000","tool":"Bash","input":{},"is_error":true,"text":"no"}"#;
        let body = json!({"tools": [{"name": "Bash"}], "messages": [{"role": "user", "content": [{"type": "text", "text": line}]}]});
        let h = History::from_request(&body);
        assert_eq!(h.tool_results.len(), 1);
        let mut t = Transcript::default();
        t.observe(&h);
        assert_eq!(t.result_for("toolu_fo00000000"), None);
    }
}
