//! The stand-in's OpenAI Chat Completions face, for agents that take an
//! OpenAI-compatible base URL (Cline CLI's `openai-compatible` provider):
//! `POST .../v1/chat/completions`, streaming (`stream: true`, server-sent
//! `chat.completion.chunk`s ended by `data: [DONE]`) or not (one
//! `chat.completion`). What Cline 3.0.57 and 3.0.65 send is in docs/cline.md.
//!
//! A request carries the whole conversation in `messages`: the assistant's
//! `tool_calls` (`function.name`, `function.arguments` as a JSON string) and
//! each `tool` message answering one by `tool_call_id`. They are read into
//! the same [`History`] as the other protocols, under the names the agent's
//! hooks see (the wire names: Cline's `PreToolUse` payload names
//! `run_commands` and `editor` as they are offered), so the transcript and
//! the evidence read the calls as the hook under test saw them.
//!
//! The script, through the tools the request offers:
//! `run_commands` `{"commands": ["printf 'ready\n' > notes.txt"]}`; if that
//! came back failed and `editor` is offered, `editor` `{"path":
//! "<cwd>/notes.txt", "new_text": "ready\n"}`; then a final text quoting
//! the last output. A request that offers neither gets a text.

use serde_json::{json, Value};

use super::history::{History, SeenToolResult, SeenToolUse};
use super::script::Step;
use crate::task::{BASH_COMMAND, NOTES_CONTENT, NOTES_FILE};

/// Cline's shell tool (`commands`: a list of command lines).
pub const SHELL_TOOL: &str = "run_commands";

/// Cline's file tool (`path`, `new_text`; with `old_text` it edits).
pub const EDIT_TOOL: &str = "editor";

/// Where Cline states the working directory in its system prompt
/// (`4. Working Directory: /tmp/.../work`).
const WORKING_DIRECTORY_MARK: &str = "Working Directory: ";

/// The names of the functions a request offers (`tools[].function.name`).
fn offered(body: &Value) -> Vec<String> {
    let tools = body.get("tools").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    tools.iter().filter_map(|t| t.pointer("/function/name")?.as_str().map(String::from)).collect()
}

/// Read a Chat Completions request body into a [`History`].
pub fn history(body: &Value) -> History {
    let tool_names = offered(body);
    let mut h = History { has_tools: !tool_names.is_empty(), tool_names, ..History::default() };
    let messages = body.get("messages").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    for message in messages {
        match message.get("role").and_then(Value::as_str) {
            Some("user") if h.first_user_text.is_empty() => h.first_user_text = content_text(message.get("content")),
            Some("assistant") => {
                for call in message.get("tool_calls").and_then(Value::as_array).into_iter().flatten() {
                    let args = call.pointer("/function/arguments").and_then(Value::as_str).unwrap_or("{}");
                    h.tool_uses.push(SeenToolUse {
                        id: str_at(call, "/id"),
                        name: str_at(call, "/function/name"),
                        input: serde_json::from_str(args).unwrap_or(Value::Null),
                    });
                }
            }
            Some("tool") => {
                let text = content_text(message.get("content"));
                h.tool_results.push(SeenToolResult {
                    tool_use_id: str_at(message, "/tool_call_id"),
                    is_error: reads_as_failure(&text),
                    text,
                    from_summary: false,
                });
            }
            _ => {}
        }
    }
    h
}

fn str_at(v: &Value, pointer: &str) -> String {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or_default().to_string()
}

/// A message's content: a string, or its text parts joined.
fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => {
            parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join("\n")
        }
        _ => String::new(),
    }
}

/// Whether a tool message tells of a failed call. The protocol has no error
/// flag: Cline's results are JSON, one object per command or edit, with
/// `success` (false on a failure) or an `error`.
pub fn reads_as_failure(text: &str) -> bool {
    let Ok(value) = serde_json::from_str::<Value>(text) else { return false };
    let items = match &value {
        Value::Array(items) => items.as_slice(),
        other => std::slice::from_ref(other),
    };
    items.iter().any(|i| i.get("success") == Some(&Value::Bool(false)) || i.get("error").is_some_and(|e| !e.is_null()))
}

/// The working directory the agent states in its system prompt, if any.
pub fn working_directory(body: &Value) -> Option<String> {
    let messages = body.get("messages").and_then(Value::as_array)?;
    messages.iter().filter(|m| m.get("role").and_then(Value::as_str) == Some("system")).find_map(|m| {
        let text = content_text(m.get("content"));
        let start = text.find(WORKING_DIRECTORY_MARK)? + WORKING_DIRECTORY_MARK.len();
        let line = text[start..].lines().next()?.trim();
        (!line.is_empty()).then(|| line.to_string())
    })
}

/// The shell call that writes the file.
fn shell_step() -> Step {
    Step::Tool { name: SHELL_TOOL, input: json!({"commands": [BASH_COMMAND]}) }
}

/// The editor call that creates the file at its absolute path.
fn edit_step(cwd: &str) -> Step {
    let path = format!("{}/{}", cwd.trim_end_matches('/'), NOTES_FILE);
    Step::Tool { name: EDIT_TOOL, input: json!({"path": path, "new_text": NOTES_CONTENT}) }
}

fn quote(history: &History) -> Step {
    let last = history.tool_uses.last().and_then(|u| history.result_for(&u.id));
    Step::Text(format!("Done. The last tool output was:\n{}", last.map_or("(no tool output)", |r| r.text.as_str())))
}

/// The scripted model's next step in a session whose working directory is `cwd`.
pub fn scripted_step(history: &History, cwd: &str) -> Step {
    let offers = |name: &str| history.tool_names.iter().any(|n| n == name);
    if !offers(SHELL_TOOL) && !offers(EDIT_TOOL) {
        return Step::Text("failopen stand-in".to_string());
    }
    let Some(last_use) = history.tool_uses.last() else {
        return if offers(SHELL_TOOL) { shell_step() } else { edit_step(cwd) };
    };
    let failed = history.result_for(&last_use.id).is_some_and(|r| r.is_error);
    if last_use.name == SHELL_TOOL && failed && offers(EDIT_TOOL) {
        return edit_step(cwd);
    }
    quote(history)
}

/// The next step of a session that attempts one write through `tool` (its
/// hook name: `run_commands` or `editor`), then ends with a text: `failopen
/// audit`'s one-tool session.
pub fn first_tool_step(history: &History, cwd: &str, tool: &str) -> Step {
    if !history.has_tools {
        return Step::Text("failopen stand-in".to_string());
    }
    if !history.tool_names.iter().any(|n| n == tool) {
        return Step::Text(format!("This agent does not offer the {tool} tool."));
    }
    if !history.tool_uses.is_empty() {
        return quote(history);
    }
    match tool {
        SHELL_TOOL => shell_step(),
        EDIT_TOOL => edit_step(cwd),
        other => Step::Text(format!("The stand-in cannot write with {other} over Chat Completions.")),
    }
}

/// The assistant message of a step: a text, or `tool_calls` whose
/// `arguments` are JSON strings, with ids `<call_id>` (`<call_id>_<i>` for
/// several).
fn assistant_message(step: &Step, call_id: &str) -> (Value, &'static str) {
    let call = |id: String, name: &str, input: &Value| json!({"id": id, "type": "function", "function": {"name": name, "arguments": input.to_string()}});
    match step {
        Step::Text(text) => (json!({"role": "assistant", "content": text}), "stop"),
        Step::Tool { name, input } => (
            json!({"role": "assistant", "content": null, "tool_calls": [call(call_id.to_string(), name, input)]}),
            "tool_calls",
        ),
        Step::Tools(calls) => {
            let calls: Vec<Value> = calls
                .iter()
                .enumerate()
                .map(|(i, (name, input))| call(format!("{call_id}_{i}"), name, input))
                .collect();
            (json!({"role": "assistant", "content": null, "tool_calls": calls}), "tool_calls")
        }
    }
}

/// The calls a step sends, with the ids [`assistant_message`] gives them.
pub fn sent_calls<'a>(step: &'a Step, call_id: &str) -> Vec<(String, &'a str, &'a Value)> {
    match step {
        Step::Text(_) => Vec::new(),
        Step::Tool { name, input } => vec![(call_id.to_string(), *name, input)],
        Step::Tools(calls) => calls.iter().enumerate().map(|(i, (n, v))| (format!("{call_id}_{i}"), *n, v)).collect(),
    }
}

const USAGE: fn() -> Value = || json!({"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15});

/// The whole answer as one `chat.completion` (a request without `stream`).
pub fn completion(n: u64, model: &str, step: &Step, call_id: &str) -> Value {
    let (message, finish) = assistant_message(step, call_id);
    json!({"id": format!("chatcmpl-fo{n:08}"), "object": "chat.completion", "created": 0, "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish}], "usage": USAGE()})
}

/// The answer as server-sent chunks: the message in one delta (each tool
/// call with its `index`), then the finish reason with the usage, then
/// `data: [DONE]`.
pub fn sse(n: u64, model: &str, step: &Step, call_id: &str) -> String {
    let (mut delta, finish) = assistant_message(step, call_id);
    if let Some(calls) = delta.get_mut("tool_calls").and_then(Value::as_array_mut) {
        for (i, call) in calls.iter_mut().enumerate() {
            call["index"] = json!(i);
        }
    }
    let id = format!("chatcmpl-fo{n:08}");
    let chunk = |choice: Value, usage: Value| json!({"id": id, "object": "chat.completion.chunk", "created": 0, "model": model, "choices": [choice], "usage": usage});
    let chunks = [
        chunk(json!({"index": 0, "delta": delta, "finish_reason": null}), Value::Null),
        chunk(json!({"index": 0, "delta": {}, "finish_reason": finish}), USAGE()),
    ];
    let mut out: String = chunks.iter().map(|c| format!("data: {c}\n\n")).collect();
    out.push_str("data: [DONE]\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tools() -> Value {
        json!([{"type": "function", "function": {"name": "read_files", "parameters": {}}},
            {"type": "function", "function": {"name": "run_commands", "parameters": {}}},
            {"type": "function", "function": {"name": "editor", "parameters": {}}}])
    }

    fn request(messages: Value) -> Value {
        json!({"model": "m", "stream": true, "tools": tools(), "messages": messages})
    }

    fn system() -> Value {
        json!({"role": "system", "content": "You are Cline.\n4. Working Directory: /tmp/s/work\n5. Other"})
    }

    #[test]
    fn the_script_runs_the_shell_first_and_reads_the_working_directory() {
        let body = request(json!([system(), {"role": "user", "content": "Create notes.txt"}]));
        assert_eq!(working_directory(&body).as_deref(), Some("/tmp/s/work"));
        let h = history(&body);
        assert_eq!(h.first_user_text, "Create notes.txt");
        assert!(h.has_tools);
        let Step::Tool { name, input } = scripted_step(&h, "/tmp/s/work") else { panic!() };
        assert_eq!((name, &input), (SHELL_TOOL, &json!({"commands": [BASH_COMMAND]})));
        assert_eq!(working_directory(&json!({"messages": [{"role": "user", "content": "x"}]})), None);
    }

    fn after_shell(result: &str) -> History {
        history(&request(json!([system(), {"role": "user", "content": "go"},
            {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
                "function": {"name": "run_commands", "arguments": json!({"commands": [BASH_COMMAND]}).to_string()}}]},
            {"role": "tool", "tool_call_id": "c1", "content": result}])))
    }

    #[test]
    fn a_failed_shell_call_leads_to_the_editor_and_a_run_one_to_a_quote() {
        let failed = after_shell(r#"[{"query":"printf","result":"","success":false,"error":"exit 1"}]"#);
        assert_eq!(failed.tool_uses[0].name, SHELL_TOOL);
        assert_eq!(failed.tool_uses[0].input, json!({"commands": [BASH_COMMAND]}));
        assert!(failed.tool_results[0].is_error);
        let Step::Tool { name, input } = scripted_step(&failed, "/tmp/s/work/") else { panic!() };
        assert_eq!((name, &input), (EDIT_TOOL, &json!({"path": "/tmp/s/work/notes.txt", "new_text": "ready\n"})));
        let ran = r#"[{"query":"printf 'ready\\n' > notes.txt","result":"","success":true}]"#;
        let ok = after_shell(ran);
        assert!(!ok.tool_results[0].is_error);
        let Step::Text(t) = scripted_step(&ok, "/w") else { panic!() };
        assert!(t.ends_with(ran), "{t}");
    }

    #[test]
    fn failures_are_read_from_clines_result_objects() {
        assert!(reads_as_failure(r#"{"success":false}"#));
        assert!(reads_as_failure(r#"[{"success":true},{"error":"no such file"}]"#));
        assert!(!reads_as_failure(r#"[{"success":true,"error":null}]"#));
        assert!(!reads_as_failure("plain words, not JSON"));
    }

    #[test]
    fn requests_without_clines_tools_get_text_and_first_tool_sessions_try_once() {
        let side = history(&json!({"messages": [{"role": "user", "content": "title?"}]}));
        assert!(matches!(scripted_step(&side, "/w"), Step::Text(_)));
        let fresh = history(&request(json!([{"role": "user", "content": "go"}])));
        let Step::Tool { name, .. } = first_tool_step(&fresh, "/w", EDIT_TOOL) else { panic!() };
        assert_eq!(name, EDIT_TOOL);
        assert!(matches!(first_tool_step(&fresh, "/w", "Bash"), Step::Text(_)));
        assert!(matches!(first_tool_step(&after_shell("[]"), "/w", SHELL_TOOL), Step::Text(_)));
    }

    #[test]
    fn answers_have_the_chat_completions_shape() {
        let step = Step::Tool { name: SHELL_TOOL, input: json!({"commands": ["x"]}) };
        let whole = completion(7, "m", &step, "call_fo7");
        assert_eq!(whole["choices"][0]["finish_reason"], "tool_calls");
        let call = &whole["choices"][0]["message"]["tool_calls"][0];
        assert_eq!((call["id"].as_str(), call["function"]["name"].as_str()), (Some("call_fo7"), Some(SHELL_TOOL)));
        let args: Value = serde_json::from_str(call["function"]["arguments"].as_str().unwrap()).unwrap();
        assert_eq!(args, json!({"commands": ["x"]}));
        let text = sse(7, "m", &step, "call_fo7");
        let data: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("data: ")).collect();
        assert_eq!(data.last(), Some(&"[DONE]"));
        let first: Value = serde_json::from_str(data[0]).unwrap();
        assert_eq!(first["choices"][0]["delta"]["tool_calls"][0]["index"], 0);
        let last: Value = serde_json::from_str(data[1]).unwrap();
        assert_eq!(last["choices"][0]["finish_reason"], "tool_calls");
        let done = completion(8, "m", &Step::Text("bye".into()), "c");
        assert_eq!(
            (done["choices"][0]["message"]["content"].as_str(), done["choices"][0]["finish_reason"].as_str()),
            (Some("bye"), Some("stop"))
        );
        let two = Step::Tools(vec![(SHELL_TOOL, json!({})), (EDIT_TOOL, json!({}))]);
        let ids: Vec<String> = sent_calls(&two, "c").into_iter().map(|(id, _, _)| id).collect();
        assert_eq!(ids, ["c_0", "c_1"]);
    }
}
