//! Claude Code's `--output-format stream-json` output read into
//! [`StreamFacts`]: the PreToolUse (and other refusing events') hook
//! responses, the write attempts and how they came back, attributed with
//! Claude Code's wording, API errors, compactions and the prompt-blocked
//! report. The Agent SDK's bundled CLI prints the same stream.

use serde_json::Value;

use super::wording::ClaudeCodeWording;
use crate::attribution::{self, HookIdentity};
use crate::evidence::{
    classify, is_write_capable, prompt_block_text, Attempt, AttemptResult, Attribution, StreamFacts,
};

/// Read the stream-json lines Claude Code printed; attempts are attributed
/// to `hook` or not (see [`classify`]).
pub fn parse_stream(stdout: &str, hook: &HookIdentity) -> StreamFacts {
    let mut facts = StreamFacts::default();
    let mut uses: Vec<(String, String)> = Vec::new();
    let mut results: Vec<(String, bool, String)> = Vec::new();
    for line in stdout.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else { continue };
        match (v["type"].as_str(), v["subtype"].as_str()) {
            (Some("system"), Some("hook_response")) if v["hook_name"].as_str().is_some_and(is_refusing_event) => {
                let outcome = v["outcome"].as_str().unwrap_or("?");
                let code = match &v["exit_code"] {
                    Value::String(s) => s.clone(),
                    Value::Number(n) => n.to_string(),
                    _ => String::new(),
                };
                facts.hook_outcomes.push(if code.is_empty() {
                    outcome.to_string()
                } else {
                    format!("{outcome}:{code}")
                });
                if let Some(reason) = v["stdout"].as_str().and_then(attribution::decision_reason) {
                    facts.decided_reasons.push(reason);
                }
            }
            (Some("system"), Some("compact_boundary")) => facts.compactions += 1,
            (Some("system"), Some("informational")) => {
                if let Some(t) = v["content"].as_str().and_then(prompt_block_text) {
                    facts.prompt_blocked.get_or_insert_with(|| t.to_string());
                }
            }
            (Some("assistant"), _) => {
                for block in v["message"]["content"].as_array().into_iter().flatten() {
                    if block["type"] == "tool_use" {
                        uses.push((
                            block["id"].as_str().unwrap_or("").into(),
                            block["name"].as_str().unwrap_or("").into(),
                        ));
                    }
                }
                if let Some(err) = v["error"].as_str() {
                    facts.api_error.get_or_insert_with(|| err.to_string());
                }
            }
            (Some("user"), _) => {
                for meta in v["tool_result_meta"].as_array().into_iter().flatten() {
                    if meta.get("non_execution_kind").is_some_and(|k| !k.is_null()) {
                        if let Some(id) = meta["id"].as_str() {
                            facts.not_executed.insert(id.to_string());
                        }
                    }
                }
                for block in v["message"]["content"].as_array().into_iter().flatten() {
                    if block["type"] == "tool_result" {
                        let text = crate::standin::result_text(block.get("content"));
                        results.push((
                            block["tool_use_id"].as_str().unwrap_or("").into(),
                            block["is_error"].as_bool().unwrap_or(false),
                            text,
                        ));
                    }
                }
            }
            (Some("result"), _) => {
                facts.saw_result = true;
                if let Some(t) = v["result"].as_str().and_then(prompt_block_text) {
                    facts.prompt_blocked.get_or_insert_with(|| t.to_string());
                }
                if v["is_error"].as_bool().unwrap_or(false) {
                    let text = v["result"].as_str().or(v["subtype"].as_str()).unwrap_or("error").to_string();
                    let structured = !v["api_error_status"].is_null()
                        || v["api_error"].is_string()
                        || v["terminal_reason"].as_str() == Some("api_error");
                    if structured || is_api_error_text(&text) {
                        facts.api_error.get_or_insert_with(|| text.clone());
                    }
                    facts.result_error = Some(text);
                }
            }
            _ => {}
        }
    }
    facts.results = results.iter().map(|(id, e, t)| (id.clone(), (*e, t.clone()))).collect();
    let who = Attribution { hook, decided_reasons: &facts.decided_reasons, wording: &ClaudeCodeWording };
    let attempts = uses
        .into_iter()
        .filter(|(_, name)| is_write_capable(name))
        .map(|(id, name)| Attempt {
            matched: hook.covers(&name),
            result: results
                .iter()
                .find(|(rid, _, _)| *rid == id)
                .map(|(rid, e, t)| classify(*e, t, facts.not_executed.contains(rid), who))
                .unwrap_or(AttemptResult::NoResult),
            tool: name,
        })
        .collect();
    facts.attempts = attempts;
    facts
}

/// The hook events whose hooks can refuse (`PreToolUse:Bash`,
/// `PermissionRequest:Write`, `UserPromptSubmit`): their runs are the hook
/// outcomes a row records.
pub fn is_refusing_event(hook_name: &str) -> bool {
    ["PreToolUse", "PermissionRequest", "UserPromptSubmit"].iter().any(|e| hook_name.starts_with(e))
}

fn is_api_error_text(text: &str) -> bool {
    let t = text.to_ascii_lowercase();
    t.contains("api error") || t.contains("overloaded") || t.contains("api_error") || t.contains("invalid api key")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attribution::Refuser;
    use crate::evidence::prompt_block;

    fn hook() -> HookIdentity {
        HookIdentity::new("x", vec!["this session may not write files".into()])
    }

    #[test]
    fn a_blocked_prompt_and_the_other_events_hooks_are_read_from_the_stream() {
        let h = HookIdentity::new("/g/deny.sh", vec![]);
        let report =
            "UserPromptSubmit operation blocked by hook:\n[/g/deny.sh]: no\n\nOriginal prompt: Create notes.txt";
        let stream = [
            serde_json::json!({"type": "system", "subtype": "hook_response", "hook_name": "UserPromptSubmit", "outcome": "error", "exit_code": "2"}),
            serde_json::json!({"type": "system", "subtype": "hook_response", "hook_name": "PermissionRequest:Bash", "outcome": "success", "exit_code": "0"}),
            serde_json::json!({"type": "system", "subtype": "hook_response", "hook_name": "SessionStart", "outcome": "success", "exit_code": "0"}),
            serde_json::json!({"type": "system", "subtype": "informational", "content": report}),
            serde_json::json!({"type": "result", "subtype": "success", "is_error": false, "result": report}),
        ]
        .iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join("\n");
        let f = parse_stream(&stream, &h);
        assert_eq!(f.hook_outcomes, ["error:2", "success:0"], "SessionStart is not a refusing event");
        assert_eq!(f.prompt_blocked.as_deref(), Some("[/g/deny.sh]: no"));
        assert_eq!(prompt_block("[/g/deny.sh]: no", &h).by, Refuser::HookUnderTest);
        assert_eq!(prompt_block("[/etc/x.sh]: no", &h).by, Refuser::OtherHook("/etc/x.sh".into()));
        assert_eq!(prompt_block("someone's reason", &h).by, Refuser::Unattributed);
        assert_eq!(prompt_block_text("Done."), None);
    }

    #[test]
    fn stream_hook_events_and_attempts() {
        let out = [
            r#"{"type":"system","subtype":"init"}"#,
            r#"{"type":"system","subtype":"hook_response","hook_name":"PreToolUse:Bash","exit_code":"2","outcome":"error"}"#,
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Bash","input":{}}]}}"#,
            r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"PreToolUse:Bash hook error: [x]: no"}]}}"#,
            r#"{"type":"system","subtype":"hook_response","hook_name":"PreToolUse:Write","exit_code":"0","outcome":"success"}"#,
            r#"{"type":"system","subtype":"hook_response","hook_name":"SessionStart","outcome":"success"}"#,
            r#"{"type":"system","subtype":"compact_boundary","compact_metadata":{"trigger":"auto","pre_tokens":1310789}}"#,
            "not json",
            r#"{"type":"result","subtype":"success","is_error":false,"result":"done"}"#,
        ]
        .join("\n");
        let f = parse_stream(&out, &hook());
        assert_eq!(f.hook_outcomes, ["error:2", "success:0"]);
        assert_eq!(f.attempts.len(), 1);
        assert!(matches!(f.attempts[0].result, AttemptResult::Refused(_)));
        assert!(f.saw_result);
        assert_eq!(f.result_error, None);
        assert_eq!(f.api_error, None);
        assert_eq!(f.compactions, 1);
    }

    #[test]
    fn non_execution_meta_marks_a_bare_reason_as_refused() {
        let out = [
            r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"t1","name":"Write","input":{}}]}}"#,
            r#"{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","is_error":true,"content":"this session may not write files"}]},"tool_result_meta":[{"id":"t1","non_execution_kind":"permission-rule"}]}"#,
        ]
        .join("\n");
        let f = parse_stream(&out, &hook());
        assert!(f.not_executed.contains("t1"));
        assert_eq!(f.attempts[0].result, AttemptResult::Refused("this session may not write files".into()));
        // The same meta on a reason the hook under test never gives: someone else refused.
        let f = parse_stream(&out.replace("this session may not write files", "no writes here"), &hook());
        assert!(matches!(&f.attempts[0].result, AttemptResult::ForeignRefused { by: Refuser::Unattributed, .. }));
    }

    #[test]
    fn api_error_result_is_detected() {
        let f = parse_stream(
            r#"{"type":"result","subtype":"success","is_error":true,"result":"API Error: 529 overloaded"}"#,
            &hook(),
        );
        assert!(f.api_error.is_some());
        // 2.1.328's structured fields, whatever the text says.
        let f = parse_stream(
            r#"{"type":"result","subtype":"success","is_error":true,"api_error_status":529,"result":"Server busy"}"#,
            &hook(),
        );
        assert_eq!(f.api_error.as_deref(), Some("Server busy"));
        let f = parse_stream(
            r#"{"type":"result","is_error":true,"terminal_reason":"api_error","api_error_status":null,"result":"x"}"#,
            &hook(),
        );
        assert!(f.api_error.is_some());
        let f = parse_stream(r#"{"type":"result","is_error":false,"api_error_status":null,"result":"done"}"#, &hook());
        assert_eq!(f.api_error, None);
    }
}
