//! What Gemini CLI says back to the model about a tool call, read off
//! 0.45.2 and 0.61.0 (docs/gemini.md): the `response` object of a
//! `functionResponse` part, `{"output": …}` when the tool ran and
//! `{"error": …}` when it did not. It is the only evidence of a hook's
//! refusal that reaches the model; `--output-format stream-json` has no hook
//! events either (only the tool_result's `status` and `error`).

use serde_json::Value;

/// How Gemini words a BeforeTool hook's refusal, in the response's `error`:
/// `Tool execution blocked: <reason>`, for an exit 2 (or higher) with a
/// reason and for a JSON `decision` of `deny` or `block` alike.
pub const BLOCKED_PREFIX: &str = "Tool execution blocked: ";

/// The text of a functionResponse's `response`: its `error` if it has one,
/// else its `output`, else the object as JSON.
pub fn response_text(response: &Value) -> String {
    ["error", "output"]
        .iter()
        .find_map(|key| response.get(*key))
        .map(|v| v.as_str().map(String::from).unwrap_or_else(|| v.to_string()))
        .unwrap_or_else(|| response.to_string())
}

/// Whether `text` (a [`response_text`]) is Gemini's wording of a hook's refusal.
pub fn is_hook_refusal(text: &str) -> bool {
    text.starts_with(BLOCKED_PREFIX)
}

/// The hook's reason in a refusal, if `text` is one and gives a reason.
pub fn refusal_reason(text: &str) -> Option<&str> {
    Some(text.strip_prefix(BLOCKED_PREFIX)?.trim()).filter(|r| !r.is_empty())
}

/// Whether a functionResponse's `response` tells of a call that did not
/// succeed: it carries an `error` (a hook's refusal, a tool that is not
/// registered, a file that could not be written), or it is a shell command's
/// output with a non-zero `Exit Code: N` or a `Signal:` line naming a signal
/// (0.61.0 wraps that output in `<untrusted_context>` lines, 0.45.2 does not;
/// Qwen Code, a fork, always prints the line: `Signal: (none)` on 0.24.4,
/// `Signal: 0` on 0.15.6, for a command no signal ended).
pub fn is_error(response: &Value) -> bool {
    if response.get("error").is_some_and(|e| !e.is_null()) {
        return true;
    }
    let output = response.get("output").and_then(Value::as_str).unwrap_or_default();
    output.lines().any(|line| {
        line.strip_prefix("Signal: ").is_some_and(|s| !matches!(s.trim(), "(none)" | "0"))
            || line.strip_prefix("Exit Code: ").is_some_and(|code| code.trim().parse::<i64>() != Ok(0))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_geminis_refusals() {
        let blocked = json!({"error": "Tool execution blocked: blocked-by-exit2: policy says no"});
        assert!(is_error(&blocked));
        let text = response_text(&blocked);
        assert!(is_hook_refusal(&text));
        assert_eq!(refusal_reason(&text), Some("blocked-by-exit2: policy says no"));
        assert_eq!(refusal_reason("Tool execution blocked:  "), None);
        let not_found = json!({"error": "Tool \"run_shell_command\" not found. Did you mean one of: …"});
        assert!(is_error(&not_found) && !is_hook_refusal(&response_text(&not_found)));
    }

    #[test]
    fn reads_geminis_tool_outputs() {
        let ran_61 =
            json!({"output": "<untrusted_context>\nOutput: (empty)\nProcess Group PGID: 10721\n</untrusted_context>"});
        let ran_45 = json!({"output": "Output: (empty)\nProcess Group PGID: 20537"});
        assert!(!is_error(&ran_61) && !is_error(&ran_45));
        assert_eq!(response_text(&ran_45), "Output: (empty)\nProcess Group PGID: 20537");
        let failed = json!({"output": "Output: sh: x: not found\nExit Code: 127\nProcess Group PGID: 7"});
        assert!(is_error(&failed));
        assert!(is_error(&json!({"output": "Output: (empty)\nSignal: 15\nProcess Group PGID: 7"})));
        let qwen = "Command: x\nDirectory: (root)\nOutput: (empty)\nError: (none)\nExit Code: 0\nSignal: (none)\n";
        assert!(!is_error(&json!({"output": qwen})));
        assert!(!is_error(&json!({"output": qwen.replace("Signal: (none)", "Signal: 0")})));
        let wrote = json!({"output": "Successfully created and wrote to new file: /w/notes.txt. Here is the updated code:\nready\n"});
        assert!(!is_error(&wrote) && !is_hook_refusal(&response_text(&wrote)));
        assert_eq!(response_text(&json!({"x": 1})), r#"{"x":1}"#);
    }
}
