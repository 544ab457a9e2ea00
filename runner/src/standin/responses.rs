//! The stand-in's OpenAI Responses API face, for Codex CLI (a custom model
//! provider with `wire_api = "responses"`): `POST .../v1/responses` with
//! `stream: true`, answered with server-sent events. What Codex 0.149.0 and
//! 0.171.0 send and accept is written down in docs/codex.md.
//!
//! A request carries the whole conversation in `input`: the calls the model
//! made (`function_call` for `exec_command`, `custom_tool_call` for
//! `apply_patch`) and their outputs (`function_call_output`,
//! `custom_tool_call_output`, matched by `call_id`). They are read into the
//! same [`History`] as a Messages API request, under the names Codex's hooks
//! give the tools (`Bash` for `exec_command`, `apply_patch`), so the
//! transcript and the evidence read as the hook under test saw the calls.
//!
//! The script: `exec_command` `printf 'ready\n' > notes.txt`; if that came
//! back refused or failed and `apply_patch` is offered, a patch that adds
//! `notes.txt`; then a final text quoting the last output.

use serde_json::{json, Value};

use super::history::{History, SeenToolResult, SeenToolUse};
use super::script::Step;
use crate::agent::codex::wording;
use crate::task::{BASH_COMMAND, NOTES_CONTENT, NOTES_FILE};

/// Codex's shell tool, on the wire.
pub const EXEC_TOOL: &str = "exec_command";

/// Codex's file-edit tool (a freeform, "custom" tool), on the wire and to hooks.
pub const PATCH_TOOL: &str = "apply_patch";

/// The name Codex's hooks see for a tool (`tool_name` in the payload).
pub fn hook_name(wire: &str) -> &str {
    match wire {
        EXEC_TOOL => "Bash",
        other => other,
    }
}

/// The tool input as Codex's hooks see it (`tool_input`): the shell command
/// or the patch text, under `command`.
fn hook_input(wire: &str, input: &Value) -> Value {
    match (wire, input) {
        (EXEC_TOOL, v) => json!({"command": v.get("cmd").cloned().unwrap_or(Value::Null)}),
        (_, Value::String(text)) => json!({"command": text}),
        (_, other) => other.clone(),
    }
}

/// The patch that adds [`NOTES_FILE`] with [`NOTES_CONTENT`], in
/// `apply_patch`'s grammar (a path relative to the working directory).
pub fn notes_patch() -> String {
    let lines: String = NOTES_CONTENT.lines().map(|l| format!("+{l}\n")).collect();
    format!("*** Begin Patch\n*** Add File: {NOTES_FILE}\n{lines}*** End Patch\n")
}

/// Read a Responses API request body into a [`History`].
pub fn history(body: &Value) -> History {
    let mut h = History::offered_tools(body);
    let items = body.get("input").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    for item in items {
        let call_id = item.get("call_id").and_then(Value::as_str).unwrap_or_default().to_string();
        match item.get("type").and_then(Value::as_str) {
            Some("message") if h.first_user_text.is_empty() && item["role"] == "user" => {
                h.first_user_text = message_text(item);
            }
            Some("function_call") => {
                let name = item.get("name").and_then(Value::as_str).unwrap_or_default();
                let args = item.get("arguments").and_then(Value::as_str).unwrap_or("{}");
                let input = serde_json::from_str(args).unwrap_or(Value::Null);
                h.tool_uses.push(SeenToolUse {
                    id: call_id,
                    name: hook_name(name).to_string(),
                    input: hook_input(name, &input),
                });
            }
            Some("custom_tool_call") => {
                let name = item.get("name").and_then(Value::as_str).unwrap_or_default();
                let input = item.get("input").cloned().unwrap_or(Value::Null);
                h.tool_uses.push(SeenToolUse {
                    id: call_id,
                    name: hook_name(name).to_string(),
                    input: hook_input(name, &input),
                });
            }
            Some("function_call_output" | "custom_tool_call_output") => {
                let text = output_text(item.get("output"));
                h.tool_results.push(SeenToolResult {
                    tool_use_id: call_id,
                    is_error: wording::is_error(&text),
                    text,
                    from_summary: false,
                });
            }
            _ => {}
        }
    }
    h
}

fn message_text(item: &Value) -> String {
    let parts = item.get("content").and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[]);
    parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join("\n")
}

/// A call's output: a string, or content items with text.
fn output_text(output: Option<&Value>) -> String {
    match output {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => {
            parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join("\n")
        }
        Some(Value::Object(o)) => o.get("content").map(|c| output_text(Some(c))).unwrap_or_default(),
        _ => String::new(),
    }
}

/// The scripted model's next step (tool names on the wire).
pub fn scripted_step(history: &History) -> Step {
    if !history.has_tools {
        return Step::Text("failopen stand-in".to_string());
    }
    let Some(last_use) = history.tool_uses.last() else {
        return Step::Tool { name: EXEC_TOOL, input: json!({"cmd": BASH_COMMAND}) };
    };
    let last_result = history.result_for(&last_use.id);
    let shell_refused = last_use.name == hook_name(EXEC_TOOL) && last_result.is_some_and(|r| r.is_error);
    if shell_refused && history.tool_names.iter().any(|n| n == PATCH_TOOL) {
        return Step::Tool { name: PATCH_TOOL, input: Value::String(notes_patch()) };
    }
    let quoted = last_result.map(|r| r.text.as_str()).unwrap_or("(no tool output)");
    Step::Text(format!("Done. The last tool output was:\n{quoted}"))
}

/// The next step of a session that attempts one write through `tool`, by
/// the name Codex's hooks see (`Bash` for `exec_command`, or `apply_patch`),
/// and then ends with a text quoting the output: `failopen audit`'s
/// one-tool session ([`super::first_tool`] is the Messages API's).
pub fn first_tool_step(history: &History, tool: &str) -> Step {
    if !history.has_tools {
        return Step::Text("failopen stand-in".to_string());
    }
    let wire = match tool {
        "Bash" => EXEC_TOOL,
        PATCH_TOOL => PATCH_TOOL,
        other => return Step::Text(format!("The stand-in cannot write with {other} on Codex.")),
    };
    if !history.tool_names.iter().any(|n| n == wire) {
        return Step::Text(format!("This Codex does not offer the {wire} tool."));
    }
    if history.tool_uses.is_empty() {
        return match wire {
            EXEC_TOOL => Step::Tool { name: EXEC_TOOL, input: json!({"cmd": BASH_COMMAND}) },
            _ => Step::Tool { name: PATCH_TOOL, input: Value::String(notes_patch()) },
        };
    }
    let last = history.tool_uses.last().and_then(|u| history.result_for(&u.id));
    Step::Text(format!("Done. The last tool output was:\n{}", last.map_or("(no tool output)", |r| r.text.as_str())))
}

/// The next step of an audit probe's session ([`super::probe_call`]) on
/// Codex: the probe's one `Bash` call (by the name Codex's hooks see) as
/// `exec_command` with its `command` (`{work}`, `{root}`, `{home}` filled in
/// for `cwd`), then a text quoting the output. A probe through another tool
/// is not made: Codex's `apply_patch` takes a patch, not a Write's input.
pub fn probe_step(history: &History, cwd: &str, tool: &str, input: &Value) -> Step {
    if !history.has_tools {
        return Step::Text("failopen stand-in".to_string());
    }
    if tool != hook_name(EXEC_TOOL) {
        return Step::Text(format!("The stand-in cannot make a {tool} probe call on Codex."));
    }
    if !history.tool_names.iter().any(|n| n == EXEC_TOOL) {
        return Step::Text(format!("This Codex does not offer the {EXEC_TOOL} tool."));
    }
    if !history.tool_uses.iter().any(|u| u.name == tool) {
        let command = super::probe_call::fill(input.get("command").unwrap_or(&Value::Null), cwd);
        return Step::Tool { name: EXEC_TOOL, input: json!({"cmd": command}) };
    }
    let last = history.tool_uses.last().and_then(|u| history.result_for(&u.id));
    Step::Text(format!("Done. The last tool output was:\n{}", last.map_or("(no tool output)", |r| r.text.as_str())))
}

/// What the stand-in records of a call it sends: the hook's name and input.
pub fn as_hook_sees(name: &str, input: &Value) -> (String, Value) {
    (hook_name(name).to_string(), hook_input(name, input))
}

/// One output item: a call (`exec_command` as a function call with JSON
/// arguments, `apply_patch` as a custom tool call with the patch text) or an
/// assistant message.
pub fn output_item(n: u64, step: &Step, call_id: &str) -> Value {
    match step {
        Step::Tool { name, input } if *name == PATCH_TOOL => json!({
            "type": "custom_tool_call", "id": format!("ctc_fo{n:08}"), "status": "completed",
            "call_id": call_id, "name": name, "input": input.as_str().unwrap_or_default()
        }),
        Step::Tool { name, input } => json!({
            "type": "function_call", "id": format!("fc_fo{n:08}"), "status": "completed",
            "call_id": call_id, "name": name, "arguments": input.to_string()
        }),
        Step::Text(text) => json!({
            "type": "message", "id": format!("msg_fo{n:08}"), "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": text, "annotations": []}]
        }),
        // The Codex script never sends parallel calls.
        Step::Tools(_) => json!({
            "type": "message", "id": format!("msg_fo{n:08}"), "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": "failopen stand-in", "annotations": []}]
        }),
    }
}

/// The event stream of one response holding `item`: `response.created`,
/// `response.output_item.done`, `response.completed` (Codex needs the last
/// two; without `response.completed` it retries, although the call already ran).
pub fn sse(n: u64, model: &str, item: Value) -> String {
    let id = format!("resp_fo{n:08}");
    let usage = json!({"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
        "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15});
    let events = [
        ("response.created", json!({"type": "response.created", "response": {"id": id, "model": model}})),
        ("response.output_item.done", json!({"type": "response.output_item.done", "output_index": 0, "item": item})),
        (
            "response.completed",
            json!({"type": "response.completed", "response": {"id": id, "model": model, "usage": usage}}),
        ),
    ];
    events.iter().map(|(name, data)| format!("event: {name}\ndata: {data}\n\n")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(input: Value) -> Value {
        json!({"model": "gpt-5.5", "stream": true, "tools": [{"type": "function", "name": "exec_command"},
            {"type": "custom", "name": "apply_patch"}], "input": input})
    }

    #[test]
    fn the_script_runs_the_shell_then_patches_when_refused() {
        let first = history(&request(
            json!([{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]}]),
        ));
        assert_eq!(first.first_user_text, "go");
        let Step::Tool { name, input } = scripted_step(&first) else { panic!() };
        assert_eq!((name, input["cmd"].as_str()), (EXEC_TOOL, Some(BASH_COMMAND)));
        let refused = "Command blocked by PreToolUse hook: no (failopen deny guard). Command: printf";
        let after = history(&request(json!([
            {"type": "function_call", "name": "exec_command", "arguments": json!({"cmd": BASH_COMMAND}).to_string(), "call_id": "c1"},
            {"type": "function_call_output", "call_id": "c1", "output": refused}
        ])));
        assert_eq!(after.tool_uses[0].name, "Bash");
        assert_eq!(after.tool_uses[0].input, json!({"command": BASH_COMMAND}));
        assert!(after.tool_results[0].is_error);
        let Step::Tool { name, input } = scripted_step(&after) else { panic!() };
        assert_eq!((name, input.as_str()), (PATCH_TOOL, Some(notes_patch().as_str())));
        assert!(notes_patch().contains("*** Add File: notes.txt\n+ready\n"));
    }

    #[test]
    fn an_allowed_shell_call_ends_with_a_quote() {
        let ran = "Chunk ID: 1\nProcess exited with code 0\nOutput:\n";
        let h = history(&request(json!([
            {"type": "function_call", "name": "exec_command", "arguments": "{}", "call_id": "c1"},
            {"type": "function_call_output", "call_id": "c1", "output": ran}
        ])));
        assert!(!h.tool_results[0].is_error);
        let Step::Text(t) = scripted_step(&h) else { panic!() };
        assert!(t.ends_with(ran), "{t}");
    }

    #[test]
    fn a_first_tool_session_makes_one_attempt_through_that_tool() {
        let fresh = history(&request(json!([])));
        let Step::Tool { name, input } = first_tool_step(&fresh, "apply_patch") else { panic!() };
        assert_eq!((name, input.as_str()), (PATCH_TOOL, Some(notes_patch().as_str())));
        let Step::Tool { name, input } = first_tool_step(&fresh, "Bash") else { panic!() };
        assert_eq!((name, input["cmd"].as_str()), (EXEC_TOOL, Some(BASH_COMMAND)));
        // A refused patch does not fall back to the shell: one attempt, then a text.
        let after = history(&request(json!([
            {"type": "custom_tool_call", "name": "apply_patch", "input": notes_patch(), "call_id": "c1"},
            {"type": "custom_tool_call_output", "call_id": "c1", "output": "Command blocked by PreToolUse hook: no"}
        ])));
        assert!(matches!(first_tool_step(&after, "apply_patch"), Step::Text(_)));
        let shell_only = history(&json!({"tools": [{"type": "function", "name": "exec_command"}], "input": []}));
        let Step::Text(t) = first_tool_step(&shell_only, "apply_patch") else { panic!() };
        assert!(t.contains("does not offer"), "{t}");
        assert!(matches!(first_tool_step(&fresh, "Write"), Step::Text(_)));
    }

    #[test]
    fn a_probe_session_makes_its_one_shell_call_then_quotes_it() {
        let probe = json!({"command": "git -C {work} reset --hard", "description": "d"});
        let fresh = history(&request(json!([])));
        let Step::Tool { name, input } = probe_step(&fresh, "/r/work", "Bash", &probe) else { panic!("a call") };
        assert_eq!((name, input), (EXEC_TOOL, json!({"cmd": "git -C /r/work reset --hard"})));
        let after = history(&request(json!([
            {"type": "function_call", "call_id": "c1", "name": EXEC_TOOL, "arguments": "{\"cmd\":\"git reset --hard\"}"},
            {"type": "function_call_output", "call_id": "c1", "output": "Command blocked by PreToolUse hook: no. Command: git reset --hard"}
        ])));
        let Step::Text(text) = probe_step(&after, "/r/work", "Bash", &probe) else { panic!("the end") };
        assert!(text.contains("Command blocked"), "{text}");
        assert!(matches!(probe_step(&fresh, "/r/work", "Write", &probe), Step::Text(_)), "no Write probe on Codex");
    }

    #[test]
    fn items_and_events_have_codexs_shape() {
        let patch = Step::Tool { name: PATCH_TOOL, input: Value::String(notes_patch()) };
        let item = output_item(3, &patch, "call_fo3");
        assert_eq!((item["type"].as_str(), item["call_id"].as_str()), (Some("custom_tool_call"), Some("call_fo3")));
        let shell = output_item(4, &Step::Tool { name: EXEC_TOOL, input: json!({"cmd": "x"}) }, "c");
        assert_eq!(serde_json::from_str::<Value>(shell["arguments"].as_str().unwrap()).unwrap(), json!({"cmd": "x"}));
        let text = sse(5, "gpt-5.5", shell);
        let kinds: Vec<&str> = text.lines().filter_map(|l| l.strip_prefix("event: ")).collect();
        assert_eq!(kinds, ["response.created", "response.output_item.done", "response.completed"]);
    }
}
