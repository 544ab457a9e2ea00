//! The stand-in's Gemini API face, for Gemini CLI (`GOOGLE_GEMINI_BASE_URL`
//! pointed at the session's base URL): `POST
//! .../v1beta/models/<model>:streamGenerateContent?alt=sse`, answered with
//! server-sent events, and `:generateContent` answered with one JSON
//! object. What 0.45.2 and 0.61.0 send and accept is in docs/gemini.md.
//!
//! A request carries the whole conversation in `contents`: the model's
//! `functionCall` parts and the CLI's `functionResponse` parts, matched by
//! `id`. The stand-in gives every call it sends an id, and the CLI sends it
//! back verbatim in both parts (measured, both versions); a call without one
//! gets `gem_<n>` from its position, and an answer without one goes to the
//! earliest unanswered call of its tool. Gemini's hooks see a tool by its
//! own name and its `args` as they are, so the [`History`] keeps both.
//! The main conversation is the request that offers tools
//! (`tools[].functionDeclarations`); side calls (the router's classifier,
//! when no model is named) offer none and ask for JSON.
//!
//! The script: `run_shell_command` `printf 'ready\n' > notes.txt`; if that
//! came back refused or failed and `write_file` is offered, `write_file` of
//! `<cwd>/notes.txt`; then a final text quoting the last response.

use serde_json::{json, Map, Value};

use super::history::{History, SeenToolResult, SeenToolUse};
use super::script::Step;
use crate::agent::gemini::wording;
use crate::task::{BASH_COMMAND, NOTES_CONTENT, NOTES_FILE};

/// Gemini CLI's shell tool, on the wire and to hooks.
pub const SHELL_TOOL: &str = "run_shell_command";

/// Gemini CLI's file-writing tool, on the wire and to hooks.
pub const WRITE_TOOL: &str = "write_file";

/// Gemini CLI's edit tool, on the wire and to hooks. With an empty
/// `old_string` and no such file yet, it creates the file (0.61.0's
/// `edit.ts`: `isNewFile`), so a write through it needs no seeded file.
pub const REPLACE_TOOL: &str = "replace";

/// Qwen Code's edit tool (its name for Gemini CLI's `replace`), which also
/// creates a file from an empty `old_string` (0.24.4's `applyReplacement`,
/// `isNewFile`).
pub const QWEN_EDIT_TOOL: &str = "edit";

/// Read a Gemini API request body into a [`History`].
pub fn history(body: &Value) -> History {
    let tool_names: Vec<String> = body
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| t.get("functionDeclarations")?.as_array())
        .flatten()
        .filter_map(|d| d.get("name")?.as_str().map(String::from))
        .collect();
    let mut h = History { has_tools: !tool_names.is_empty(), tool_names, ..History::default() };
    for content in body.get("contents").and_then(Value::as_array).into_iter().flatten() {
        let parts = content.get("parts").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
        if h.first_user_text.is_empty() && content.get("role").and_then(Value::as_str) == Some("user") {
            h.first_user_text = user_text(parts);
        }
        for part in parts {
            if let Some(call) = part.get("functionCall") {
                let name = str_at(call, "name");
                let id = wire_id(call, &name).unwrap_or_else(|| format!("gem_{}", h.tool_uses.len()));
                h.tool_uses.push(SeenToolUse { id, name, input: call.get("args").cloned().unwrap_or(json!({})) });
            } else if let Some(answer) = part.get("functionResponse") {
                let name = str_at(answer, "name");
                let Some(tool_use_id) = wire_id(answer, &name).or_else(|| unanswered(&h, &name)) else { continue };
                let response = answer.get("response").cloned().unwrap_or(Value::Null);
                h.tool_results.push(SeenToolResult {
                    tool_use_id,
                    is_error: wording::is_error(&response),
                    text: wording::response_text(&response),
                    from_summary: false,
                });
            }
        }
    }
    h
}

fn str_at(v: &Value, key: &str) -> String {
    v.get(key).and_then(Value::as_str).unwrap_or_default().to_string()
}

/// A part's `id`, without the `<tool>__` prefix 0.61.0 puts on the ids it
/// reports (stream-json's `tool_id`), so that either spelling matches.
fn wire_id(part: &Value, name: &str) -> Option<String> {
    let id = part.get("id")?.as_str().filter(|id| !id.is_empty())?;
    Some(id.strip_prefix(&format!("{name}__")).unwrap_or(id).to_string())
}

/// The earliest call of `name` that no result answers yet.
fn unanswered(h: &History, name: &str) -> Option<String> {
    let answered = |id: &str| h.tool_results.iter().any(|r| r.tool_use_id == id);
    h.tool_uses.iter().find(|u| u.name == name && !answered(&u.id)).map(|u| u.id.clone())
}

/// The user's words in a user content: its text parts but the CLI's own
/// `<session_context>` (which 0.61.0 sends in the same content as the prompt).
fn user_text(parts: &[Value]) -> String {
    let texts = parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str));
    texts.filter(|t| !t.starts_with("<session_context>")).collect::<Vec<_>>().join("\n")
}

/// The working directory the CLI states in its `<session_context>` (the
/// first of its workspace directories), if any: for a session whose base
/// URL did not register one.
pub fn working_directory(body: &Value) -> Option<String> {
    const MARK: &str = "- **Workspace Directories:**\n";
    let texts = body.get("contents")?.as_array()?.iter().filter_map(|c| c.get("parts")?.as_array()).flatten();
    texts.filter_map(|p| p.get("text").and_then(Value::as_str)).find_map(|text| {
        let rest = &text[text.find(MARK)? + MARK.len()..];
        let line = rest.lines().next()?.trim();
        line.strip_prefix("- ").map(|dir| dir.trim().to_string()).filter(|d| !d.is_empty())
    })
}

/// The scripted model's next step, for a session whose working directory
/// is `cwd` (tool names on the wire, which are also the hooks' names).
pub fn scripted_step(history: &History, cwd: &str) -> Step {
    if !history.has_tools {
        return Step::Text("failopen stand-in".to_string());
    }
    let Some(last_use) = history.tool_uses.last() else {
        return Step::Tool {
            name: SHELL_TOOL,
            input: json!({"command": BASH_COMMAND, "description": "Create notes.txt containing ready"}),
        };
    };
    let last_result = history.result_for(&last_use.id);
    let shell_refused = last_use.name == SHELL_TOOL && last_result.is_some_and(|r| r.is_error);
    if shell_refused && history.tool_names.iter().any(|n| n == WRITE_TOOL) {
        let path = format!("{}/{}", cwd.trim_end_matches('/'), NOTES_FILE);
        return Step::Tool { name: WRITE_TOOL, input: json!({"file_path": path, "content": NOTES_CONTENT}) };
    }
    let quoted = last_result.map(|r| r.text.as_str()).unwrap_or("(no tool response)");
    Step::Text(format!("Done. The last tool response was:\n{quoted}"))
}

/// The next step of a session that attempts one write through `tool`
/// (`run_shell_command`, `write_file`, or `replace` or Qwen Code's `edit`,
/// which create `<cwd>/notes.txt` from an empty `old_string`), and then ends with a text
/// quoting the response: `failopen audit`'s one-tool session.
pub fn first_tool_step(history: &History, cwd: &str, tool: &str) -> Step {
    if !history.has_tools {
        return Step::Text("failopen stand-in".to_string());
    }
    let Some(name) = [SHELL_TOOL, WRITE_TOOL, REPLACE_TOOL, QWEN_EDIT_TOOL].into_iter().find(|t| *t == tool) else {
        return Step::Text(format!("The stand-in cannot write with {tool} on Gemini CLI."));
    };
    if !history.tool_names.iter().any(|n| n == name) {
        return Step::Text(format!("This Gemini CLI does not offer the {name} tool."));
    }
    if history.tool_uses.is_empty() {
        let path = format!("{}/{}", cwd.trim_end_matches('/'), NOTES_FILE);
        let input = match name {
            SHELL_TOOL => json!({"command": BASH_COMMAND, "description": "Create notes.txt containing ready"}),
            WRITE_TOOL => json!({"file_path": path, "content": NOTES_CONTENT}),
            QWEN_EDIT_TOOL => json!({"file_path": path, "old_string": "", "new_string": NOTES_CONTENT}),
            _ => json!({"file_path": path, "instruction": "Create notes.txt containing ready",
                "old_string": "", "new_string": NOTES_CONTENT}),
        };
        return Step::Tool { name, input };
    }
    let last = history.tool_uses.last().and_then(|u| history.result_for(&u.id));
    Step::Text(format!("Done. The last tool response was:\n{}", last.map_or("(no tool response)", |r| r.text.as_str())))
}

/// What the stand-in records of a call it sends: Gemini's hooks see the
/// tool's own name and its `args` unchanged (`tool_name`, `tool_input`).
pub fn as_hook_sees(name: &str, input: &Value) -> (String, Value) {
    (name.to_string(), input.clone())
}

/// The parts of the model's reply: a `functionCall` with the stand-in's
/// `call_id`, or a text.
pub fn reply_parts(step: &Step, call_id: &str) -> Vec<Value> {
    match step {
        Step::Tool { name, input } => vec![json!({"functionCall": {"id": call_id, "name": name, "args": input}})],
        Step::Text(text) => vec![json!({"text": text})],
        // The Gemini script never sends parallel calls.
        Step::Tools(_) => vec![json!({"text": "failopen stand-in"})],
    }
}

/// A side call's answer (no tools offered): when it asks for JSON by a
/// schema (the router's classifier, the next-speaker check), an object that
/// fits it; otherwise a short text.
pub fn side_answer(body: &Value) -> String {
    let config = body.get("generationConfig").unwrap_or(&Value::Null);
    let schema = config.get("responseJsonSchema").or_else(|| config.get("responseSchema"));
    let wants_json = config.get("responseMimeType").and_then(Value::as_str) == Some("application/json");
    let Some(props) = schema.and_then(|s| s.get("properties")).and_then(Value::as_object) else {
        return if wants_json { "{}".to_string() } else { "failopen stand-in".to_string() };
    };
    let mut answer = Map::new();
    for (key, prop) in props {
        let kind = prop.get("type").and_then(Value::as_str).unwrap_or("string").to_ascii_lowercase();
        let value = match (key.as_str(), kind.as_str()) {
            // A low score routes to the flash model; 0 fails the CLI's validation.
            ("complexity_score", _) => json!(10),
            ("next_speaker", _) => json!("user"),
            (_, "integer" | "number") => json!(1),
            (_, "boolean") => json!(false),
            (_, "array") => json!([]),
            (_, "object") => json!({}),
            _ => json!("failopen stand-in"),
        };
        answer.insert(key.clone(), value);
    }
    Value::Object(answer).to_string()
}

/// One `GenerateContentResponse` holding `parts`, finished (`STOP`).
pub fn response(model: &str, parts: Vec<Value>) -> Value {
    json!({
        "candidates": [{"content": {"role": "model", "parts": parts}, "index": 0, "finishReason": "STOP"}],
        "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
        "modelVersion": model,
    })
}

/// The event stream of `streamGenerateContent?alt=sse` for `parts`: one
/// `data:` event holding the whole, finished response (one is enough).
pub fn sse(model: &str, parts: Vec<Value>) -> String {
    format!("data: {}\r\n\r\n", response(model, parts))
}

/// The model and method of a `.../models/<model>:<method>` path segment.
pub fn model_and_method(segment: &str) -> (&str, &str) {
    segment.rsplit_once(':').unwrap_or((segment, ""))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(contents: Value) -> Value {
        let declarations = json!([{"name": "read_file"}, {"name": SHELL_TOOL}, {"name": WRITE_TOOL}]);
        json!({"contents": contents, "tools": [{"functionDeclarations": declarations}]})
    }

    fn prompt() -> Value {
        json!({"role": "user", "parts": [{"text": "<session_context>\nThis is the Gemini CLI.\n- **Workspace Directories:**\n  - /tmp/s/work\n- **Directory Structure:**\n</session_context>"}, {"text": "make notes"}]})
    }

    fn call(id: Option<&str>, name: &str, args: Value) -> Value {
        let mut call = json!({"name": name, "args": args});
        if let Some(id) = id {
            call["id"] = json!(id);
        }
        json!({"role": "model", "parts": [{"functionCall": call, "thoughtSignature": "skip_thought_signature_validator"}]})
    }

    fn answer(id: Option<&str>, name: &str, response: Value) -> Value {
        let mut answer = json!({"name": name, "response": response});
        if let Some(id) = id {
            answer["id"] = json!(id);
        }
        json!({"role": "user", "parts": [{"functionResponse": answer}]})
    }

    #[test]
    fn the_script_runs_the_shell_then_writes_when_refused() {
        let first = history(&request(json!([prompt()])));
        assert_eq!(first.first_user_text, "make notes");
        assert_eq!(working_directory(&request(json!([prompt()]))).as_deref(), Some("/tmp/s/work"));
        let Step::Tool { name, input } = scripted_step(&first, "/tmp/s/work") else { panic!() };
        assert_eq!((name, input["command"].as_str()), (SHELL_TOOL, Some(BASH_COMMAND)));
        let refused = json!({"error": "Tool execution blocked: no (failopen deny guard)"});
        let after = history(&request(json!([
            prompt(),
            call(Some("call_fo00000001"), SHELL_TOOL, input.clone()),
            answer(Some("call_fo00000001"), SHELL_TOOL, refused)
        ])));
        assert_eq!(after.tool_uses[0].name, SHELL_TOOL);
        assert_eq!(after.tool_uses[0].input, input);
        let result = after.result_for("call_fo00000001").unwrap();
        assert!(result.is_error && result.text == "Tool execution blocked: no (failopen deny guard)");
        let Step::Tool { name, input } = scripted_step(&after, "/tmp/s/work/") else { panic!() };
        assert_eq!(name, WRITE_TOOL);
        assert_eq!(input, json!({"file_path": "/tmp/s/work/notes.txt", "content": NOTES_CONTENT}));
    }

    #[test]
    fn an_allowed_shell_call_ends_with_a_quote() {
        let ran = "Output: (empty)\nProcess Group PGID: 20537";
        let h = history(&request(json!([
            prompt(),
            call(Some("c1"), SHELL_TOOL, json!({})),
            answer(Some("c1"), SHELL_TOOL, json!({"output": ran}))
        ])));
        assert!(!h.tool_results[0].is_error);
        let Step::Text(t) = scripted_step(&h, "/w") else { panic!() };
        assert!(t.ends_with(ran), "{t}");
    }

    #[test]
    fn calls_without_ids_are_matched_by_position_and_prefixed_ids_by_name() {
        let blocked = json!({"error": "Tool execution blocked: x"});
        let h = history(&request(json!([
            prompt(),
            call(None, SHELL_TOOL, json!({})),
            answer(None, SHELL_TOOL, blocked.clone()),
            call(None, WRITE_TOOL, json!({})),
            answer(None, WRITE_TOOL, json!({"output": "ok"}))
        ])));
        let ids: Vec<&str> = h.tool_uses.iter().map(|u| u.id.as_str()).collect();
        assert_eq!(ids, ["gem_0", "gem_1"]);
        assert!(h.result_for("gem_0").unwrap().is_error);
        assert!(!h.result_for("gem_1").unwrap().is_error);
        let prefixed = history(&request(json!([
            call(Some("run_shell_command__c9"), SHELL_TOOL, json!({})),
            answer(Some("c9"), SHELL_TOOL, blocked)
        ])));
        assert_eq!(prefixed.tool_uses[0].id, "c9");
        assert!(prefixed.result_for("c9").is_some());
    }

    #[test]
    fn side_calls_get_json_that_fits_their_schema() {
        let classifier = json!({"contents": [{"role": "user", "parts": [{"text": "route"}]}], "generationConfig": {
            "responseMimeType": "application/json", "responseJsonSchema": {"type": "object", "properties": {
                "complexity_reasoning": {"type": "string"}, "complexity_score": {"type": "integer"}}}}});
        let h = history(&classifier);
        assert!(!h.has_tools);
        assert!(matches!(scripted_step(&h, "/w"), Step::Text(_)));
        let answer: Value = serde_json::from_str(&side_answer(&classifier)).unwrap();
        assert_eq!(answer["complexity_score"], 10);
        assert!(answer["complexity_reasoning"].is_string());
        assert_eq!(side_answer(&json!({})), "failopen stand-in");
    }

    #[test]
    fn replies_have_geminis_shape() {
        let step = Step::Tool { name: SHELL_TOOL, input: json!({"command": "x"}) };
        let parts = reply_parts(&step, "call_fo7");
        assert_eq!(parts[0]["functionCall"], json!({"id": "call_fo7", "name": SHELL_TOOL, "args": {"command": "x"}}));
        let events = sse("gemini-2.5-flash", parts);
        let data = events.strip_prefix("data: ").and_then(|e| e.strip_suffix("\r\n\r\n")).unwrap();
        let chunk: Value = serde_json::from_str(data).unwrap();
        assert_eq!(chunk["candidates"][0]["finishReason"], "STOP");
        assert_eq!(chunk["candidates"][0]["content"]["role"], "model");
        assert_eq!(
            model_and_method("gemini-2.5-flash:streamGenerateContent"),
            ("gemini-2.5-flash", "streamGenerateContent")
        );
        assert_eq!(model_and_method("models"), ("models", ""));
    }

    #[test]
    fn a_first_tool_session_makes_one_attempt_through_that_tool() {
        let declarations = json!([{"name": SHELL_TOOL}, {"name": WRITE_TOOL}, {"name": REPLACE_TOOL}]);
        let fresh = history(&json!({"contents": [prompt()], "tools": [{"functionDeclarations": declarations}]}));
        let Step::Tool { name, input } = first_tool_step(&fresh, "/w/", REPLACE_TOOL) else { panic!() };
        assert_eq!(name, REPLACE_TOOL);
        assert_eq!((input["file_path"].as_str(), input["old_string"].as_str()), (Some("/w/notes.txt"), Some("")));
        assert_eq!(input["new_string"].as_str(), Some(NOTES_CONTENT));
        let Step::Tool { name, input } = first_tool_step(&fresh, "/w", WRITE_TOOL) else { panic!() };
        assert_eq!((name, input["content"].as_str()), (WRITE_TOOL, Some(NOTES_CONTENT)));
        let Step::Tool { name, .. } = first_tool_step(&fresh, "/w", SHELL_TOOL) else { panic!() };
        assert_eq!(name, SHELL_TOOL);
        // One attempt: a refused write_file does not fall back to another tool.
        let refused = history(&request(json!([
            prompt(),
            call(Some("c1"), WRITE_TOOL, json!({})),
            answer(Some("c1"), WRITE_TOOL, json!({"error": "Tool execution blocked: no"}))
        ])));
        assert!(matches!(first_tool_step(&refused, "/w", WRITE_TOOL), Step::Text(_)));
        // `request` offers no `replace`: the session ends without an attempt.
        let Step::Text(t) = first_tool_step(&history(&request(json!([prompt()]))), "/w", REPLACE_TOOL) else {
            panic!()
        };
        assert!(t.contains("does not offer"), "{t}");
        assert!(matches!(first_tool_step(&fresh, "/w", "Bash"), Step::Text(_)));
    }
}
