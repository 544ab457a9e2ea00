//! The stand-in's script: what the scripted model answers to a request.
//!
//! The main conversation goes:
//! 1. `tool_use` Bash `printf 'ready\n' > notes.txt`;
//! 2. if that came back as an error: `tool_use` Write of `<cwd>/notes.txt`;
//! 3. a final text quoting the last tool_result.
//!
//! Copilot CLI speaks the same protocol with tools of its own: when the
//! request offers `bash` and no `Bash`, the same script runs through `bash`
//! (`command`) and then `create` (`path`, `file_text`).
//!
//! Droid CLI speaks it too: when the request offers `Execute` and no
//! `Bash`, the script runs through `Execute` (`command`, with the
//! `summary`, `riskLevel` and `riskLevelReason` Droid requires) and then
//! `Create` (`file_path`, `content`: Claude Code's `Write` input).
//!
//! The script is a pure function of the request's message history
//! ([`History`]), so a retried or duplicated request gets the same answer.
//! After Claude Code compacts the conversation, the history is read back
//! from the summary's ledger ([`super::history::read_ledger`]).

use serde_json::{json, Value};

use super::history::History;
use crate::agent::copilot::wording as copilot_wording;
use crate::task::{BASH_COMMAND, NOTES_CONTENT, NOTES_FILE};

/// Copilot CLI's shell tool (`command`).
pub const COPILOT_SHELL: &str = "bash";

/// Copilot CLI's tool that creates a file (`path`, `file_text`).
pub const COPILOT_CREATE: &str = "create";

/// Copilot CLI's tool that edits a file (`path`, `old_str`, `new_str`).
pub const COPILOT_EDIT: &str = "edit";

/// Droid CLI's shell tool (`command`, `summary`, `riskLevel`, `riskLevelReason`).
pub const DROID_SHELL: &str = "Execute";

/// Droid CLI's tool that creates a file (`file_path`, `content`).
pub const DROID_CREATE: &str = "Create";

/// Droid's `Execute` input for `command`: Droid refuses a call without a
/// summary (a sentence-cased 3 to 8 words), a risk level and its reason.
pub fn droid_execute_input(command: &str) -> Value {
    json!({
        "command": command,
        "summary": "Create notes file containing ready",
        "riskLevel": "medium",
        "riskLevelReason": "It writes one file in the working directory.",
    })
}

/// What the script decided, before ids are assigned.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Answer with this text.
    Text(String),
    /// Call this tool with this input.
    Tool { name: &'static str, input: Value },
    /// Call these tools, in this order, in one assistant message (parallel calls).
    Tools(Vec<(&'static str, Value)>),
}

/// The scripted model's next step for a request in a session whose working
/// directory is `cwd`.
pub fn scripted_step(history: &History, cwd: &str) -> Step {
    if !history.has_tools {
        // Side requests (titles, summaries) get a short text.
        return Step::Text("failopen stand-in".to_string());
    }
    let offers = |name: &str| history.tool_names.iter().any(|n| n == name);
    let lower = !offers("Bash") && offers(COPILOT_SHELL);
    let droid = !offers("Bash") && offers(DROID_SHELL);
    let (shell, write) = match (lower, droid) {
        (true, _) => (COPILOT_SHELL, COPILOT_CREATE),
        (false, true) => (DROID_SHELL, DROID_CREATE),
        (false, false) => ("Bash", "Write"),
    };
    let Some(last_use) = history.tool_uses.last() else {
        let input = if droid {
            droid_execute_input(BASH_COMMAND)
        } else {
            json!({"command": BASH_COMMAND, "description": "Create notes.txt containing ready"})
        };
        return Step::Tool { name: shell, input };
    };
    let last_result = history.result_for(&last_use.id);
    // Copilot marks no hook refusal as an error: its words say it.
    let refused =
        |r: &super::history::SeenToolResult| r.is_error || (lower && copilot_wording::is_hook_refusal(&r.text));
    let bash_refused = last_use.name == shell && last_result.is_some_and(refused);
    if bash_refused && offers(write) {
        let path = format!("{}/{}", cwd.trim_end_matches('/'), NOTES_FILE);
        let input = if lower {
            json!({"path": path, "file_text": NOTES_CONTENT})
        } else {
            json!({"file_path": path, "content": NOTES_CONTENT})
        };
        return Step::Tool { name: write, input };
    }
    let quoted = last_result.map(|r| r.text.as_str()).unwrap_or("(no tool result)");
    Step::Text(format!("Done. The last tool result was:\n{quoted}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(messages: Value) -> Value {
        json!({"model": "m", "tools": [{"name": "Bash"}, {"name": "Write"}, {"name": "Read"}], "messages": messages})
    }

    #[test]
    fn side_request_without_tools_gets_text() {
        let h = History::from_request(&json!({"messages": [{"role": "user", "content": "title?"}]}));
        assert!(matches!(scripted_step(&h, "/w"), Step::Text(_)));
    }

    #[test]
    fn first_step_is_bash() {
        let h = History::from_request(&request(json!([{"role": "user", "content": "go"}])));
        let Step::Tool { name, input } = scripted_step(&h, "/w") else { panic!() };
        assert_eq!(name, "Bash");
        assert_eq!(input["command"], BASH_COMMAND);
    }

    fn after_bash(is_error: bool, extra_system: bool) -> Value {
        let mut msgs = vec![
            json!({"role": "user", "content": "go"}),
            json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Bash", "input": {}}]}),
        ];
        if extra_system {
            msgs.push(json!({"role": "system", "content": "reminder"}));
        }
        msgs.push(
            json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "is_error": is_error,
            "content": [{"type": "text", "text": "PreToolUse:Bash hook error: no"}]}]}),
        );
        request(Value::Array(msgs))
    }

    #[test]
    fn refused_bash_leads_to_write_with_absolute_path() {
        for extra_system in [false, true] {
            let h = History::from_request(&after_bash(true, extra_system));
            let Step::Tool { name, input } = scripted_step(&h, "/tmp/s/work/") else { panic!() };
            assert_eq!(name, "Write");
            assert_eq!(input["file_path"], "/tmp/s/work/notes.txt");
            assert_eq!(input["content"], "ready\n");
        }
    }

    #[test]
    fn copilots_tools_are_used_when_offered() {
        let tools = json!([{"name": "bash"}, {"name": "create"}, {"name": "view"}]);
        let first = json!({"model": "m", "tools": tools, "messages": [{"role": "user", "content": "go"}]});
        let Step::Tool { name, input } = scripted_step(&History::from_request(&first), "/w") else { panic!() };
        assert_eq!((name, input["command"].as_str()), (COPILOT_SHELL, Some(BASH_COMMAND)));
        let refused = json!({"model": "m", "tools": tools, "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "bash", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "is_error": false,
                "content": "Denied by preToolUse hook: hook exited with code 2"}]}
        ]});
        let Step::Tool { name, input } = scripted_step(&History::from_request(&refused), "/w") else { panic!() };
        assert_eq!(
            (name, input["path"].as_str(), input["file_text"].as_str()),
            (COPILOT_CREATE, Some("/w/notes.txt"), Some("ready\n"))
        );
    }

    #[test]
    fn droids_tools_are_used_when_offered() {
        let tools = json!([{"name": "Execute"}, {"name": "Create"}, {"name": "Read"}]);
        let first = json!({"model": "m", "tools": tools, "messages": [{"role": "user", "content": "go"}]});
        let Step::Tool { name, input } = scripted_step(&History::from_request(&first), "/w") else { panic!() };
        assert_eq!((name, input["command"].as_str()), (DROID_SHELL, Some(BASH_COMMAND)));
        let summary = regex::Regex::new(r"^[A-Z]\S*(?:\s+\S+){2,7}$").unwrap();
        assert!(summary.is_match(input["summary"].as_str().unwrap()), "Droid's pattern for a summary");
        assert!(["low", "medium", "high"].contains(&input["riskLevel"].as_str().unwrap()));
        let refused = json!({"model": "m", "tools": tools, "messages": [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "Execute", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "is_error": true,
                "content": "Error: no writes"}]}
        ]});
        let Step::Tool { name, input } = scripted_step(&History::from_request(&refused), "/w") else { panic!() };
        assert_eq!(
            (name, input["file_path"].as_str(), input["content"].as_str()),
            (DROID_CREATE, Some("/w/notes.txt"), Some("ready\n"))
        );
    }

    #[test]
    fn allowed_bash_ends_with_a_quote_of_the_result() {
        let h = History::from_request(&after_bash(false, false));
        let Step::Text(t) = scripted_step(&h, "/w") else { panic!() };
        assert!(t.contains("PreToolUse:Bash hook error: no"), "{t}");
    }

    #[test]
    fn refused_write_ends_the_turn() {
        let mut body = after_bash(true, false);
        let msgs = body["messages"].as_array_mut().unwrap();
        msgs.push(
            json!({"role": "assistant", "content": [{"type": "tool_use", "id": "t2", "name": "Write", "input": {}}]}),
        );
        msgs.push(json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2", "is_error": true, "content": "denied"}]}));
        let h = History::from_request(&body);
        assert_eq!(h.tool_results.len(), 2);
        assert_eq!(h.tool_results[1].text, "denied");
        let Step::Text(t) = scripted_step(&h, "/w") else { panic!() };
        assert!(t.ends_with("denied"));
    }
}
