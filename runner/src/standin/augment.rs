//! The stand-in's face for Augment's own API, the only model API Auggie CLI
//! (`@augmentcode/auggie`) speaks: it takes no model base URL, only a
//! tenant URL (`AUGMENT_SESSION_AUTH`'s `tenantURL`) under which it POSTs
//! `get-models`, `chat-stream` and a handful of settings calls. This is a
//! simulation of a private protocol, read off the client's own code in
//! 0.36.0's bundle (`augment.mjs`; docs/auggie.md names each function), not
//! a documented API: `toGetModelsResult`, `toModel`, the chat result
//! converter and `callApiStream`'s line reader say what a reply must hold.
//!
//! - `get-models` answers `{default_model, models: [{name,
//!   suggested_prefix_char_count, suggested_suffix_char_count}], languages,
//!   feature_flags}`. The client turns `feature_flags` (snake case) into
//!   `featureFlagsV2`, and starts its hook runner only when
//!   `featureFlagsV2.enableHooks === true`: the tenant decides whether a
//!   user's hooks run at all. [`get_models`] sets `enable_hooks` or leaves
//!   it out, as the session's tenant path says ([`Tenant`]).
//! - `chat-stream` is one JSON object per line (NDJSON): `{text, nodes,
//!   stop_reason?}`, a tool call being a node of type 5 with `tool_use:
//!   {tool_use_id, tool_name, input_json}` (the input as a JSON string).
//!   The request carries the conversation in `chat_history` (each turn's
//!   `response_nodes` with the calls) and this turn's `nodes`, where each
//!   call's answer is a `tool_result_node: {tool_use_id, content,
//!   is_error}`; the tools offered are `tool_definitions[].name`, and the
//!   working directory is an `ide_state_node`'s `workspace_folders`.
//!
//! The script, through Auggie's tools: `launch-process` with the battery's
//! command (`wait: true`); if that came back an error and `save-file` is
//! offered, `save-file` of `notes.txt`; then a text quoting the last result.

use serde_json::{json, Value};

use super::history::{History, SeenToolResult, SeenToolUse};
use super::script::Step;
use crate::task::{BASH_COMMAND, NOTES_CONTENT, NOTES_FILE};

/// Auggie's shell tool (`command`, `wait`, `max_wait_seconds`).
pub const SHELL_TOOL: &str = "launch-process";

/// Auggie's file tool (`path`, `file_content`).
pub const FILE_TOOL: &str = "save-file";

/// The model the stand-in's tenant offers (any name: the client sends it back).
pub const MODEL: &str = "failopen-standin";

/// The response node type of a tool call in `chat-stream`.
const TOOL_USE_NODE: u64 = 5;

/// The response node type of plain text.
const RAW_RESPONSE_NODE: u64 = 0;

/// How long the script lets `launch-process` wait for the battery's command.
const SHELL_WAIT_SECS: u64 = 30;

/// Which tenant a session's `tenantURL` names: the path segment after the
/// session's base URL tells whether its `get-models` turns hooks on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tenant {
    /// `feature_flags.enable_hooks: true`: hooks in `~/.augment/settings.json` run.
    HooksEnabled,
    /// No `enable_hooks`: the client skips every hook, without a word.
    HooksFlagUnset,
}

impl Tenant {
    /// The tenant's path segment under a session's base URL.
    pub fn segment(self) -> &'static str {
        match self {
            Tenant::HooksEnabled => "augment",
            Tenant::HooksFlagUnset => "augment-without-hooks-flag",
        }
    }

    /// The tenant a path segment names, if any.
    pub fn of_segment(segment: &str) -> Option<Tenant> {
        [Tenant::HooksEnabled, Tenant::HooksFlagUnset].into_iter().find(|t| t.segment() == segment)
    }
}

/// The `get-models` reply of `tenant`: one model, no languages, and the
/// hooks flag as the tenant has it.
pub fn get_models(tenant: Tenant) -> Value {
    let flags = match tenant {
        Tenant::HooksEnabled => json!({"enable_hooks": true}),
        Tenant::HooksFlagUnset => json!({}),
    };
    json!({
        "default_model": MODEL,
        "models": [{"name": MODEL, "suggested_prefix_char_count": 0, "suggested_suffix_char_count": 0}],
        "languages": [],
        "feature_flags": flags,
    })
}

/// The reply to a call the stand-in has no script for: `list-remote-tools`
/// gets an empty list (its converter maps `tools`), the rest an empty object.
pub fn other_reply(endpoint: &str) -> Value {
    match endpoint {
        "agents/list-remote-tools" => json!({"tools": []}),
        _ => json!({}),
    }
}

/// Read a `chat-stream` request body into a [`History`].
pub fn history(body: &Value) -> History {
    let tool_names: Vec<String> =
        array(body, "/tool_definitions").iter().filter_map(|t| t.get("name")?.as_str().map(String::from)).collect();
    let mut h = History { has_tools: !tool_names.is_empty(), tool_names, ..History::default() };
    h.first_user_text = body.get("message").and_then(Value::as_str).unwrap_or_default().to_string();
    for turn in array(body, "/chat_history") {
        read_results(array(turn, "/request_nodes"), &mut h);
        if h.first_user_text.is_empty() {
            h.first_user_text = turn.get("request_message").and_then(Value::as_str).unwrap_or_default().to_string();
        }
        for node in array(turn, "/response_nodes").iter().filter_map(|n| n.get("tool_use")) {
            h.tool_uses.push(SeenToolUse {
                id: str_at(node, "/tool_use_id"),
                name: str_at(node, "/tool_name"),
                input: serde_json::from_str(&str_at(node, "/input_json")).unwrap_or(Value::Null),
            });
        }
    }
    read_results(array(body, "/nodes"), &mut h);
    h
}

fn read_results(nodes: &[Value], h: &mut History) {
    for result in nodes.iter().filter_map(|n| n.get("tool_result_node")) {
        h.tool_results.push(SeenToolResult {
            tool_use_id: str_at(result, "/tool_use_id"),
            is_error: result.get("is_error").and_then(Value::as_bool).unwrap_or(false),
            text: str_at(result, "/content"),
            from_summary: false,
        });
    }
}

fn array<'a>(v: &'a Value, pointer: &str) -> &'a [Value] {
    v.pointer(pointer).and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[])
}

fn str_at(v: &Value, pointer: &str) -> String {
    v.pointer(pointer).and_then(Value::as_str).unwrap_or_default().to_string()
}

/// The working directory the request's IDE state names: the first
/// workspace folder of an `ide_state_node`, this turn's or an earlier one's.
pub fn working_directory(body: &Value) -> Option<String> {
    let earlier = array(body, "/chat_history").iter().flat_map(|t| array(t, "/request_nodes"));
    array(body, "/nodes").iter().chain(earlier).find_map(|n| {
        let folder = n.pointer("/ide_state_node/workspace_folders/0/folder_root")?.as_str()?;
        (!folder.is_empty()).then(|| folder.to_string())
    })
}

/// The scripted model's next step in a session whose working directory is `cwd`.
pub fn scripted_step(history: &History, cwd: &str) -> Step {
    let offers = |name: &str| history.tool_names.iter().any(|n| n == name);
    if !history.has_tools {
        return Step::Text("failopen stand-in".to_string());
    }
    let Some(last) = history.tool_uses.last() else {
        return if offers(SHELL_TOOL) { shell_step() } else { file_step(cwd) };
    };
    let failed = history.result_for(&last.id).is_some_and(|r| r.is_error);
    if last.name == SHELL_TOOL && failed && offers(FILE_TOOL) {
        return file_step(cwd);
    }
    let quoted = history.result_for(&last.id).map_or("(no tool result)", |r| r.text.as_str());
    Step::Text(format!("Done. The last tool result was:\n{quoted}"))
}

fn shell_step() -> Step {
    Step::Tool {
        name: SHELL_TOOL,
        input: json!({"command": BASH_COMMAND, "wait": true, "max_wait_seconds": SHELL_WAIT_SECS}),
    }
}

fn file_step(cwd: &str) -> Step {
    let path = format!("{}/{}", cwd.trim_end_matches('/'), NOTES_FILE);
    Step::Tool { name: FILE_TOOL, input: json!({"path": path, "file_content": NOTES_CONTENT}) }
}

/// The `chat-stream` answer for `step` as NDJSON lines: the step's node (a
/// tool call with id `call_id`, or the text), then an empty line object
/// with the stop reason (1: the turn ended; 3: it waits for tool results).
pub fn ndjson(step: &Step, call_id: &str) -> String {
    let (first, stop) = match step {
        Step::Text(text) => {
            (json!({"text": text, "nodes": [{"id": 0, "type": RAW_RESPONSE_NODE, "content": text}]}), 1)
        }
        Step::Tool { name, input } => (json!({"text": "", "nodes": [tool_node(0, call_id, name, input)]}), 3),
        Step::Tools(calls) => {
            let nodes: Vec<Value> = calls
                .iter()
                .enumerate()
                .map(|(i, (name, input))| tool_node(i, &format!("{call_id}_{i}"), name, input))
                .collect();
            (json!({"text": "", "nodes": nodes}), 3)
        }
    };
    let last = json!({"text": "", "nodes": [], "stop_reason": stop});
    format!("{first}\n{last}\n")
}

fn tool_node(id: usize, call_id: &str, name: &str, input: &Value) -> Value {
    json!({"id": id, "type": TOOL_USE_NODE, "content": "",
        "tool_use": {"tool_use_id": call_id, "tool_name": name, "input_json": input.to_string()}})
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(nodes: Value, chat_history: Value) -> Value {
        json!({"message": "Create notes.txt", "tool_definitions": [{"name": SHELL_TOOL}, {"name": FILE_TOOL}, {"name": "view"}],
            "nodes": nodes, "chat_history": chat_history})
    }

    fn ide_state(folder: &str) -> Value {
        json!({"id": 1, "type": 4, "ide_state_node": {"workspace_folders": [{"repository_root": folder, "folder_root": folder}]}})
    }

    #[test]
    fn the_first_turn_runs_the_shell_in_the_stated_workspace() {
        let body = request(json!([ide_state("/tmp/a/work")]), json!([]));
        assert_eq!(working_directory(&body).as_deref(), Some("/tmp/a/work"));
        let h = history(&body);
        assert_eq!(h.first_user_text, "Create notes.txt");
        let Step::Tool { name, input } = scripted_step(&h, "/tmp/a/work") else { panic!("a call") };
        assert_eq!((name, input["command"].as_str()), (SHELL_TOOL, Some(BASH_COMMAND)));
        assert_eq!(input["wait"], true);
    }

    fn after_shell(is_error: bool, content: &str) -> History {
        let turn = json!({"request_message": "", "request_nodes": [ide_state("/w")], "response_nodes": [
            {"id": 0, "type": 5, "content": "", "tool_use": {"tool_use_id": "c1", "tool_name": SHELL_TOOL, "input_json": "{\"command\":\"x\"}"}}]});
        let result = json!({"id": 1, "type": 1, "tool_result_node": {"tool_use_id": "c1", "content": content, "is_error": is_error}});
        history(&request(json!([result]), json!([turn])))
    }

    #[test]
    fn a_refused_shell_leads_to_save_file_and_a_run_one_to_a_quote() {
        let refused =
            after_shell(true, "[hook:PreToolUse]: no\n\nPreToolUse:launch-process hook returned blocking error");
        assert_eq!(refused.tool_uses[0].input, json!({"command": "x"}));
        let Step::Tool { name, input } = scripted_step(&refused, "/w/") else { panic!("a call") };
        assert_eq!((name, input), (FILE_TOOL, json!({"path": "/w/notes.txt", "file_content": NOTES_CONTENT})));
        let Step::Text(t) = scripted_step(&after_shell(false, "ok"), "/w") else { panic!("a text") };
        assert!(t.ends_with("ok"), "{t}");
    }

    #[test]
    fn the_stream_is_one_json_object_a_line_with_the_call_as_a_tool_use_node() {
        let text = ndjson(&shell_step(), "call_fo1");
        let lines: Vec<Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!(lines.len(), 2);
        let node = &lines[0]["nodes"][0];
        assert_eq!(node["type"], TOOL_USE_NODE);
        assert_eq!(node["tool_use"]["tool_use_id"], "call_fo1");
        let input: Value = serde_json::from_str(node["tool_use"]["input_json"].as_str().unwrap()).unwrap();
        assert_eq!(input["command"], BASH_COMMAND);
        assert_eq!(lines[1]["stop_reason"], 3);
        let done: Vec<Value> =
            ndjson(&Step::Text("bye".into()), "c").lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        assert_eq!((done[0]["text"].as_str(), done[1]["stop_reason"].as_u64()), (Some("bye"), Some(1)));
    }

    #[test]
    fn the_tenant_path_decides_the_hooks_flag() {
        assert_eq!(get_models(Tenant::HooksEnabled)["feature_flags"]["enable_hooks"], true);
        assert!(get_models(Tenant::HooksFlagUnset)["feature_flags"].get("enable_hooks").is_none());
        for t in [Tenant::HooksEnabled, Tenant::HooksFlagUnset] {
            assert_eq!(Tenant::of_segment(t.segment()), Some(t));
        }
        assert_eq!(Tenant::of_segment("v1"), None);
        assert_eq!(other_reply("agents/list-remote-tools"), json!({"tools": []}));
    }
}
