//! The stand-in's OpenAI Chat Completions face, for agents that take an
//! OpenAI-compatible base URL (Cline CLI's `openai-compatible` provider,
//! OpenCode's `@ai-sdk/openai-compatible` one):
//! `POST .../v1/chat/completions`, streaming (`stream: true`, server-sent
//! `chat.completion.chunk`s ended by `data: [DONE]`) or not (one
//! `chat.completion`). What Cline 3.0.57 and 3.0.65 send is in docs/cline.md;
//! what OpenCode 1.17.18 and 1.18.33 send, in docs/opencode.md.
//!
//! A request carries the whole conversation in `messages`: the assistant's
//! `tool_calls` (`function.name`, `function.arguments` as a JSON string) and
//! each `tool` message answering one by `tool_call_id`. They are read into
//! the same [`History`] as the other protocols, under the names the agent's
//! hooks see (the wire names: Cline's `PreToolUse` payload names
//! `run_commands` and `editor` as they are offered), so the transcript and
//! the evidence read the calls as the hook under test saw them.
//!
//! The script, through the tools the request offers (Cline's or OpenCode's,
//! a [`Kit`]): the shell, `run_commands` `{"commands": ["printf 'ready\n' >
//! notes.txt"]}` or `bash` `{"command": ...}`; if that came back failed and
//! the file tool is offered, `editor` `{"path": "<cwd>/notes.txt",
//! "new_text": "ready\n"}` or `write` `{"filePath": ..., "content": ...}`;
//! then a final text quoting the last output. A request that offers neither
//! agent's tools (OpenCode's title request has none) gets a text.

use serde_json::{json, Value};

use super::history::{History, SeenToolResult, SeenToolUse};
use super::script::Step;
use crate::task::{BASH_COMMAND, NOTES_CONTENT, NOTES_FILE};

/// Cline's shell tool (`commands`: a list of command lines).
pub const SHELL_TOOL: &str = "run_commands";

/// Cline's file tool (`path`, `new_text`; with `old_text` it edits).
pub const EDIT_TOOL: &str = "editor";

/// OpenCode's shell tool (`command`).
pub const OPENCODE_SHELL_TOOL: &str = "bash";

/// OpenCode's file tool (`filePath`, `content`).
pub const OPENCODE_WRITE_TOOL: &str = "write";

/// Continue CLI's shell tool (`command`): Claude Code's name.
pub const CONTINUE_SHELL_TOOL: &str = "Bash";

/// Continue CLI's file tool (`filepath`, `content`): Claude Code's name,
/// another argument name.
pub const CONTINUE_WRITE_TOOL: &str = "Write";

/// How Continue's `Write` begins its answer when it wrote (`Successfully
/// created file: <path>`, or `Successfully wrote to file: ...` over an old one).
const CONTINUE_WROTE: &str = "Successfully ";

/// What OpenCode's `bash` answers for a command that printed nothing, as
/// the stand-in's does when it runs: any other answer is a failure (a
/// plugin's refusal comes back as its bare message, with no error flag).
const OPENCODE_NO_OUTPUT: &str = "(no output)";

/// What OpenCode's `write` answers when it wrote.
const OPENCODE_WROTE: &str = "Wrote file successfully.";

/// Where Cline and OpenCode state the working directory in their system
/// prompts, matched without case (`4. Working Directory: /tmp/.../work`,
/// `  Working directory: /tmp/.../work`).
const WORKING_DIRECTORY_MARK: &str = "working directory: ";

/// The two tools an agent writes with over this face, and their inputs.
pub struct Kit {
    pub shell: &'static str,
    pub file: &'static str,
    shell_input: fn() -> Value,
    file_input: fn(path: &str) -> Value,
}

/// Cline's tools.
pub const CLINE: Kit = Kit {
    shell: SHELL_TOOL,
    file: EDIT_TOOL,
    shell_input: || json!({"commands": [BASH_COMMAND]}),
    file_input: |path| json!({"path": path, "new_text": NOTES_CONTENT}),
};

/// What the shell call says it does: OpenCode's `bash` takes an optional
/// `description`, which Kilo CLI 7.0.33 requires (without it the call fails
/// as "called with invalid arguments" before it runs; docs/kilo.md).
const OPENCODE_SHELL_DESCRIPTION: &str = "Create notes.txt containing ready";

/// OpenCode's tools (and its forks': Kilo CLI's).
pub const OPENCODE: Kit = Kit {
    shell: OPENCODE_SHELL_TOOL,
    file: OPENCODE_WRITE_TOOL,
    shell_input: || json!({"command": BASH_COMMAND, "description": OPENCODE_SHELL_DESCRIPTION}),
    file_input: |path| json!({"filePath": path, "content": NOTES_CONTENT}),
};

/// Continue CLI's tools (docs/continue.md).
pub const CONTINUE: Kit = Kit {
    shell: CONTINUE_SHELL_TOOL,
    file: CONTINUE_WRITE_TOOL,
    shell_input: || json!({"command": BASH_COMMAND}),
    file_input: |path| json!({"filepath": path, "content": NOTES_CONTENT}),
};

/// The kit whose shell or file tool the request offers, if any.
pub fn kit(history: &History) -> Option<&'static Kit> {
    let offers = |name: &str| history.tool_names.iter().any(|n| n == name);
    [&CLINE, &OPENCODE, &CONTINUE].into_iter().find(|k| offers(k.shell) || offers(k.file))
}

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
                let tool_use_id = str_at(message, "/tool_call_id");
                let tool = h.tool_uses.iter().find(|u| u.id == tool_use_id).map(|u| u.name.as_str());
                h.tool_results.push(SeenToolResult {
                    is_error: result_failed(tool, &text),
                    tool_use_id,
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

/// Whether the result of a call to `tool` tells of a failure: OpenCode's
/// and Continue's shell and file tools by their words (their results are
/// plain text: Continue's `Bash` answers nothing at all for the battery's
/// silent command), any other by Cline's result objects.
pub fn result_failed(tool: Option<&str>, text: &str) -> bool {
    match tool {
        Some(OPENCODE_SHELL_TOOL) => text.trim() != OPENCODE_NO_OUTPUT,
        Some(OPENCODE_WRITE_TOOL) => !text.trim_start().starts_with(OPENCODE_WROTE),
        Some(CONTINUE_SHELL_TOOL) => !text.trim().is_empty(),
        Some(CONTINUE_WRITE_TOOL) => !text.trim_start().starts_with(CONTINUE_WROTE),
        _ => reads_as_failure(text),
    }
}

/// The working directory the agent states in its system prompt, else in a
/// user message (Kilo CLI 7.7.7 states it only in the `<environment_details>`
/// it appends to the user's message), if any.
pub fn working_directory(body: &Value) -> Option<String> {
    let messages = body.get("messages").and_then(Value::as_array)?;
    let stated_by = |role: &str| {
        messages.iter().filter(|m| m.get("role").and_then(Value::as_str) == Some(role)).find_map(|m| {
            let text = content_text(m.get("content"));
            let start = text.to_ascii_lowercase().find(WORKING_DIRECTORY_MARK)? + WORKING_DIRECTORY_MARK.len();
            let line = text[start..].lines().next()?.trim();
            (!line.is_empty()).then(|| line.to_string())
        })
    };
    stated_by("system").or_else(|| stated_by("user"))
}

/// The shell call that writes the file.
fn shell_step(kit: &Kit) -> Step {
    Step::Tool { name: kit.shell, input: (kit.shell_input)() }
}

/// The file tool's call that creates the file at its absolute path.
fn file_step(kit: &Kit, cwd: &str) -> Step {
    let path = format!("{}/{}", cwd.trim_end_matches('/'), NOTES_FILE);
    Step::Tool { name: kit.file, input: (kit.file_input)(&path) }
}

fn quote(history: &History) -> Step {
    let last = history.tool_uses.last().and_then(|u| history.result_for(&u.id));
    Step::Text(format!("Done. The last tool output was:\n{}", last.map_or("(no tool output)", |r| r.text.as_str())))
}

/// The scripted model's next step in a session whose working directory is `cwd`.
pub fn scripted_step(history: &History, cwd: &str) -> Step {
    let offers = |name: &str| history.tool_names.iter().any(|n| n == name);
    let Some(kit) = kit(history) else {
        return Step::Text("failopen stand-in".to_string());
    };
    let Some(last_use) = history.tool_uses.last() else {
        return if offers(kit.shell) { shell_step(kit) } else { file_step(kit, cwd) };
    };
    let failed = history.result_for(&last_use.id).is_some_and(|r| r.is_error);
    if last_use.name == kit.shell && failed && offers(kit.file) {
        return file_step(kit, cwd);
    }
    quote(history)
}

/// The next step of a session that attempts one write through `tool` (its
/// hook name: `run_commands` or `editor`, `bash` or `write`), then ends
/// with a text: `failopen audit`'s one-tool session.
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
    match kit(history) {
        Some(kit) if tool == kit.shell => shell_step(kit),
        Some(kit) if tool == kit.file => file_step(kit, cwd),
        _ => Step::Text(format!("The stand-in cannot write with {tool} over Chat Completions.")),
    }
}

/// The next step of an audit probe's session ([`super::probe_call`]) on
/// Cline or Continue: the probe's one shell call, its `command` as the
/// agent's shell takes it (Cline's `run_commands`: `{"commands":
/// [command]}`; Continue's `Bash`: `{"command": command}`), with `{work}`,
/// `{root}` and `{home}` filled in for `cwd`, then a text quoting the
/// output. A probe through another tool is not made on this face.
pub fn probe_step(history: &History, cwd: &str, tool: &str, input: &Value) -> Step {
    let command = input.get("command").unwrap_or(&Value::Null);
    let (tool, input) = match tool {
        SHELL_TOOL => (SHELL_TOOL, json!({"commands": [command]})),
        CONTINUE_SHELL_TOOL => (CONTINUE_SHELL_TOOL, json!({"command": command})),
        _ => return Step::Text(format!("The stand-in cannot make a {tool} probe call over Chat Completions.")),
    };
    super::probe_call::probe_step(history, cwd, tool, &input)
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
    fn a_probe_session_makes_its_one_call_through_clines_shell_then_quotes_it() {
        let probe = json!({"command": "git -C {work} reset --hard", "description": "d"});
        let fresh = history(&json!({"tools": [{"type": "function", "function": {"name": SHELL_TOOL}}],
            "messages": [{"role": "user", "content": "go"}]}));
        let Step::Tool { name, input } = probe_step(&fresh, "/r/work", SHELL_TOOL, &probe) else { panic!("a call") };
        assert_eq!((name, input), (SHELL_TOOL, json!({"commands": ["git -C /r/work reset --hard"]})));
        assert!(matches!(probe_step(&fresh, "/r/work", EDIT_TOOL, &probe), Step::Text(_)), "only the shell");
    }

    #[test]
    fn a_probe_session_on_continue_calls_its_bash_with_the_command_as_it_is() {
        let probe = json!({"command": "git -C {work} reset --hard"});
        let fresh = history(&json!({"tools": [{"type": "function", "function": {"name": CONTINUE_SHELL_TOOL}}],
            "messages": [{"role": "user", "content": "go"}]}));
        let Step::Tool { name, input } = probe_step(&fresh, "/r/work", CONTINUE_SHELL_TOOL, &probe) else {
            panic!("a call")
        };
        assert_eq!((name, input), (CONTINUE_SHELL_TOOL, json!({"command": "git -C /r/work reset --hard"})));
        assert!(matches!(probe_step(&fresh, "/r/work", CONTINUE_WRITE_TOOL, &probe), Step::Text(_)));
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
    fn continues_bash_comes_first_and_a_refused_one_leads_to_write_with_its_filepath() {
        let tools = json!([{"type": "function", "function": {"name": "Read", "parameters": {}}},
            {"type": "function", "function": {"name": "Bash", "parameters": {}}},
            {"type": "function", "function": {"name": "Write", "parameters": {}}}]);
        let first = history(&json!({"tools": tools, "messages": [{"role": "user", "content": "go"}]}));
        let Step::Tool { name, input } = scripted_step(&first, "/w") else { panic!() };
        assert_eq!((name, &input), (CONTINUE_SHELL_TOOL, &json!({"command": BASH_COMMAND})));
        let after = |result: &str| {
            history(&json!({"tools": tools, "messages": [{"role": "user", "content": "go"},
                {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function",
                    "function": {"name": "Bash", "arguments": json!({"command": BASH_COMMAND}).to_string()}}]},
                {"role": "tool", "tool_call_id": "c1", "content": result}]}))
        };
        // Continue's Bash answers the battery's silent command with nothing at all.
        let Step::Text(_) = scripted_step(&after(""), "/w") else { panic!("a run Bash ends the script") };
        let refused = after("this session may not write files (failopen deny guard)");
        assert!(refused.tool_results[0].is_error);
        let Step::Tool { name, input } = scripted_step(&refused, "/w") else { panic!() };
        assert_eq!(
            (name, &input),
            (CONTINUE_WRITE_TOOL, &json!({"filepath": "/w/notes.txt", "content": NOTES_CONTENT}))
        );
        assert!(!result_failed(Some(CONTINUE_WRITE_TOOL), "Successfully created file: /w/notes.txt"));
        assert!(result_failed(Some(CONTINUE_WRITE_TOOL), "Permission denied by user"));
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

    /// A request as OpenCode 1.18.33 sends it: its tools, and its system
    /// prompt's `Working directory:`.
    fn opencode_request(messages: Vec<Value>) -> Value {
        let tools: Vec<Value> = ["bash", "edit", "glob", "read", "task", "write"]
            .iter()
            .map(|n| json!({"type": "function", "function": {"name": n, "parameters": {}}}))
            .collect();
        let system = json!({"role": "system", "content": "You are opencode.\n<env>\n  Working directory: /tmp/o/work\n  Platform: linux\n</env>"});
        let mut all = vec![system, json!({"role": "user", "content": "Create notes.txt"})];
        all.extend(messages);
        json!({"model": "m", "stream": true, "tools": tools, "messages": all})
    }

    fn opencode_call(id: &str, name: &str, input: Value, result: &str) -> Vec<Value> {
        vec![
            json!({"role": "assistant", "content": "", "tool_calls": [{"id": id, "type": "function",
                "function": {"name": name, "arguments": input.to_string()}}]}),
            json!({"role": "tool", "tool_call_id": id, "content": result}),
        ]
    }

    #[test]
    fn opencode_gets_bash_then_write_when_bash_was_refused() {
        let fresh = opencode_request(vec![]);
        assert_eq!(working_directory(&fresh).as_deref(), Some("/tmp/o/work"));
        let h = history(&fresh);
        let Step::Tool { name, input } = scripted_step(&h, "/tmp/o/work") else { panic!() };
        let described = json!({"command": BASH_COMMAND, "description": OPENCODE_SHELL_DESCRIPTION});
        assert_eq!((name, &input), (OPENCODE_SHELL_TOOL, &described));
        // A plugin's refusal reaches the model as its bare message: no flag.
        let refused =
            history(&opencode_request(opencode_call("call_0", "bash", input.clone(), "failopen guard: refused bash")));
        assert!(refused.tool_results[0].is_error);
        let Step::Tool { name, input: write } = scripted_step(&refused, "/tmp/o/work") else { panic!() };
        assert_eq!(
            (name, &write),
            (OPENCODE_WRITE_TOOL, &json!({"filePath": "/tmp/o/work/notes.txt", "content": "ready\n"}))
        );
        let ran = history(&opencode_request(opencode_call("call_0", "bash", input, "(no output)")));
        assert!(!ran.tool_results[0].is_error);
        let Step::Text(t) = scripted_step(&ran, "/tmp/o/work") else { panic!() };
        assert!(t.ends_with("(no output)"), "{t}");
    }

    #[test]
    fn kilo_states_its_working_directory_in_the_users_message() {
        // Kilo CLI 7.7.7: no working directory in the system prompt, an
        // `<environment_details>` part after the user's text.
        let details = "\n\n<environment_details>\nMessage time: 2026-12-02T14:01:39Z\nWorking directory: /tmp/k/work\nWorkspace root folder: /\n</environment_details>";
        let body = json!({"messages": [{"role": "system", "content": "You are Kilo.\n<env>\n  Platform: linux\n</env>"},
            {"role": "user", "content": [{"type": "text", "text": "Create notes.txt"}, {"type": "text", "text": details}]}]});
        assert_eq!(working_directory(&body).as_deref(), Some("/tmp/k/work"));
        // The system prompt's statement comes first where both have one.
        let both = json!({"messages": [{"role": "system", "content": "Working directory: /s"},
            {"role": "user", "content": "Working directory: /u"}]});
        assert_eq!(working_directory(&both).as_deref(), Some("/s"));
    }

    #[test]
    fn opencode_results_are_read_by_their_words() {
        assert!(!result_failed(Some("bash"), "(no output)\n"));
        assert!(result_failed(Some("bash"), "undefined is not an object (evaluating '(void 0).denies')"));
        assert!(!result_failed(Some("write"), "Wrote file successfully."));
        assert!(result_failed(Some("write"), "failopen guard: refused write"));
        // Cline's tools, and a result whose call is unknown, still read as JSON.
        assert!(result_failed(Some("run_commands"), r#"{"success":false}"#));
        assert!(!result_failed(None, "failopen guard: refused"));
    }

    #[test]
    fn opencodes_title_request_gets_text_and_first_tool_sessions_use_its_tools() {
        let title = history(&json!({"messages": [{"role": "system", "content": "You are a title generator."},
            {"role": "user", "content": "Generate a title"}], "stream": true}));
        assert!(matches!(scripted_step(&title, "/w"), Step::Text(_)));
        let fresh = history(&opencode_request(vec![]));
        let Step::Tool { name, input } = first_tool_step(&fresh, "/w", OPENCODE_WRITE_TOOL) else { panic!() };
        assert_eq!((name, input["filePath"].as_str()), (OPENCODE_WRITE_TOOL, Some("/w/notes.txt")));
        assert!(matches!(first_tool_step(&fresh, "/w", SHELL_TOOL), Step::Text(_)));
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
