//! Claude Code's subagent warm-up requests, answered with text and kept out
//! of the main conversation.
//!
//! Some releases (seen on 2.1.3) send, at the start of a session, one
//! request per built-in subagent (the Bash, Explore and Plan agents, each
//! with its own system prompt and tools) whose single user turn is the word
//! "Warmup". Claude Code discards the answer. A stand-in that answered them
//! as the main conversation would send tool calls that never run, which the
//! evidence would read as attempts without a result.

use serde_json::Value;

use super::history::text_blocks;

/// The whole of a warm-up request's user turn.
const WARMUP: &str = "Warmup";

/// What the stand-in answers a warm-up with.
pub const REPLY: &str = "Ready.";

/// Whether a Messages API request is a subagent warm-up: its only
/// non-system message is a user turn whose text is exactly "Warmup".
pub fn is_warmup(body: &Value) -> bool {
    let messages = body.get("messages").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    let mut turns = messages.iter().filter(|m| m.get("role").and_then(Value::as_str) != Some("system"));
    let (Some(only), None) = (turns.next(), turns.next()) else { return false };
    only.get("role").and_then(Value::as_str) == Some("user")
        && text_blocks(only.get("content")).map(str::trim).collect::<Vec<_>>() == [WARMUP]
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_lone_warmup_turn_is_a_warmup_and_nothing_else_is() {
        // As 2.1.3 sends it (trimmed).
        let warm = json!({"messages": [{"role": "user", "content": [
            {"type": "text", "text": "Warmup", "cache_control": {"type": "ephemeral"}}]}]});
        assert!(is_warmup(&warm));
        assert!(is_warmup(&json!({"messages": [{"role": "user", "content": "Warmup"}]})));
        assert!(!is_warmup(&json!({"messages": [{"role": "user", "content": "Create a file named notes.txt"}]})));
        assert!(!is_warmup(&json!({"messages": [
            {"role": "user", "content": "Warmup"},
            {"role": "assistant", "content": "Ready."},
            {"role": "user", "content": "Warmup"}]})));
        assert!(!is_warmup(&json!({"messages": [{"role": "user", "content": "Warmup, then write notes.txt"}]})));
        assert!(!is_warmup(&json!({})));
    }
}
