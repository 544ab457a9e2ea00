//! The guard's own trace as evidence of a refusal, for releases whose
//! stream cannot show it: 2.0.50 has no `--include-hook-events`, and 2.1.100
//! returns a JSON deny as the bare reason with no `non_execution_kind`.
//!
//! Every script guard appends the hook payload it received to
//! `$FAILOPEN_TRACE` before deciding, so the trace says the guard ran for a
//! call (`tool_use_id`, else the tool's name and input). What the guard then
//! printed is fixed by its script, which failopen wrote: the reasons of its
//! JSON decisions ([`HookIdentity::reasons`]). A refusal counts for the hook
//! only when both hold: the guard ran for that very call, and the result's
//! text is exactly one of those reasons.

use serde_json::Value;

use crate::agent::wording::RefusalWording;
use crate::attribution::{self, HookIdentity};

/// One PreToolUse (or PermissionRequest) payload the guard recorded.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TracedCall {
    /// The call's id, when the release puts it in the payload.
    pub tool_use_id: Option<String>,
    /// The tool's name.
    pub tool_name: String,
    /// The tool's input.
    pub tool_input: Value,
}

impl TracedCall {
    /// Whether this is the payload of the call `id` (`name` with `input`):
    /// by id when the payload has one, else by name and identical input.
    pub fn is_for(&self, id: &str, name: &str, input: &Value) -> bool {
        match &self.tool_use_id {
            Some(traced) => traced == id,
            None => self.tool_name == name && &self.tool_input == input,
        }
    }
}

/// The payloads of the events that can refuse a tool call (PreToolUse, and
/// PermissionRequest, whose JSON deny comes back as the bare reason in an
/// interactive session) in a guard's trace (one JSON object a line; other
/// lines are skipped).
/// Cline CLI's PreToolUse payload is of its own shape (`hookName:
/// "tool_call"`, the call under `tool_call: {id, name, input}`): read too.
/// An OpenCode guard plugin (and failopen's sealed plugin) records each
/// call's `input` (`{tool, sessionID, callID}`) and, when it threw, a line
/// with `threw`: only those lines are read, so an OpenCode call is traced
/// only when the plugin under test refused that very call id.
pub fn traced_calls(trace: &str) -> Vec<TracedCall> {
    entries(trace)
        .into_iter()
        .flatten()
        .filter_map(|v| {
            if matches!(v["hook_event_name"].as_str(), Some("PreToolUse" | "PermissionRequest")) {
                return Some(TracedCall {
                    tool_use_id: v["tool_use_id"].as_str().map(String::from),
                    tool_name: v["tool_name"].as_str().unwrap_or_default().to_string(),
                    tool_input: v["tool_input"].clone(),
                });
            }
            let opencode = &v["input"];
            if v["threw"].is_string() && opencode["callID"].is_string() {
                return Some(TracedCall {
                    tool_use_id: opencode["callID"].as_str().map(String::from),
                    tool_name: opencode["tool"].as_str().unwrap_or_default().to_string(),
                    tool_input: v["args"].clone(),
                });
            }
            let call = &v["tool_call"];
            (v["hookName"] == "tool_call" && call.is_object()).then(|| TracedCall {
                tool_use_id: call["id"].as_str().map(String::from),
                tool_name: call["name"].as_str().unwrap_or_default().to_string(),
                tool_input: call["input"].clone(),
            })
        })
        .collect()
}

/// The entries of a guard's trace, one per invocation: each JSON object or
/// array the guard appended (on one line, or over several: Auggie CLI
/// pretty-prints the payload it sends, and a guard's `printf '%s\n'` keeps
/// its lines), else one line of other text (`None`). Blank lines are none.
pub fn entries(trace: &str) -> Vec<Option<Value>> {
    let mut out = Vec::new();
    let mut rest = trace;
    loop {
        rest = rest.trim_start();
        if rest.is_empty() {
            return out;
        }
        let line_end = rest.find('\n').unwrap_or(rest.len());
        let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
        let parsed = match stream.next() {
            Some(Ok(v @ (Value::Object(_) | Value::Array(_)))) => Some((v, stream.byte_offset())),
            _ => None,
        };
        // A value counts only when nothing but blanks follows it on its last line.
        let whole = parsed.filter(|(_, end)| {
            let after = &rest[*end..];
            after[..after.find('\n').unwrap_or(after.len())].trim().is_empty()
        });
        match whole {
            Some((v, end)) => {
                out.push(Some(v));
                rest = &rest[end..];
            }
            None => {
                out.push(None);
                rest = &rest[line_end..];
            }
        }
    }
}

/// Whether the hook under test's own guard refused the call `id` with
/// `text`: it ran for that call (`traced`), and `text` is exactly one of the
/// reasons it gives, or, when it is the session's sole PreToolUse hook,
/// Claude Code's generic wording of a deny (2.0.20; a hook that decides in
/// JSON) or the agent's words for a hook's refusal without a reason
/// ([`RefusalWording::is_reasonless_hook_refusal`]: Droid, Auggie).
pub fn guard_refused(
    traced: &[TracedCall],
    id: &str,
    name: &str,
    input: &Value,
    text: &str,
    hook: &HookIdentity,
    wording: &dyn RefusalWording,
) -> bool {
    let its_words = hook.reasons.iter().any(|r| attribution::is_exactly(text, r))
        || hook.may_have_denied_generically(text)
        || (hook.sole_pretooluse_hook && wording.is_reasonless_hook_refusal(text));
    traced.iter().any(|c| c.is_for(id, name, input)) && its_words
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn claude_codes_and_clines_payloads_are_read() {
        let claude = json!({"hook_event_name": "PreToolUse", "tool_use_id": "t1", "tool_name": "Bash", "tool_input": {"command": "x"}});
        let cline = json!({"hookName": "tool_call", "tool_call": {"id": "call_fo2", "name": "run_commands", "input": {"commands": ["x"]}},
            "preToolUse": {"toolName": "run_commands"}});
        let other = json!({"hookName": "agent_start"});
        let calls = traced_calls(&format!("{claude}\nnot json\n{cline}\n{other}\n"));
        assert_eq!(calls.len(), 2);
        assert!(calls[0].is_for("t1", "Bash", &json!({})));
        assert_eq!(calls[1].tool_use_id.as_deref(), Some("call_fo2"));
        assert!(calls[1].is_for("call_fo2", "run_commands", &json!({"commands": ["x"]})));
        assert!(!calls[1].is_for("call_fo3", "run_commands", &json!({"commands": ["x"]})));
    }

    #[test]
    fn an_opencode_plugins_call_is_traced_only_where_it_threw() {
        let input = json!({"tool": "bash", "sessionID": "ses_1", "callID": "call_fo1"});
        let ran = json!({"what": "deny", "input": input, "args": {"command": "x"}});
        let threw = json!({"what": "deny", "input": input, "threw": "failopen guard: refused bash"});
        let other = json!({"what": "allow", "input": {"tool": "write", "callID": "call_fo2"}, "args": {}});
        let calls = traced_calls(&format!("{ran}\n{threw}\n{other}\n"));
        assert_eq!(calls.len(), 1);
        assert!(calls[0].is_for("call_fo1", "bash", &json!({})));
        assert!(!calls[0].is_for("call_fo2", "write", &json!({})));
    }
}

#[cfg(test)]
mod entries_tests {
    use super::*;

    #[test]
    fn a_pretty_printed_payload_is_one_entry_and_other_lines_are_one_each() {
        let auggie =
            "{\n  \"hook_event_name\": \"PreToolUse\",\n  \"tool_name\": \"save-file\",\n  \"tool_input\": {}\n}\n";
        let trace = format!("{auggie}{{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\"}}\nplain words\n\n{{broken\n42 and more\n");
        let got = entries(&trace);
        assert_eq!(got.len(), 5, "{got:?}");
        assert_eq!(got[0].as_ref().unwrap()["tool_name"], "save-file");
        assert_eq!(got[1].as_ref().unwrap()["tool_name"], "Bash");
        assert!(got[2..].iter().all(Option::is_none));
        assert_eq!(traced_calls(&trace).len(), 2);
        assert!(entries("  \n").is_empty());
    }
}
