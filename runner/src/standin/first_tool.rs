//! A one-tool script for a session: attempt one write through a chosen
//! tool (reading the file first where Claude Code requires it), then end
//! with a text. Used by `failopen audit` to try each write-capable tool.
//!
//! - `Bash`: `printf 'ready\n' > notes.txt`;
//! - `Write`: `<cwd>/notes.txt` with `ready\n`;
//! - `Edit` / `MultiEdit`: Read `<cwd>/notes.txt`, then replace `draft` with `ready`;
//! - `NotebookEdit`: Read `<cwd>/notes.ipynb`, then set cell `c1`'s source to `ready`;
//! - `mcp__failopen-fs__write_file`: `notes.txt` with `ready\n`, through failopen's MCP server;
//! - Copilot CLI's `bash` (as `Bash`), `create` (`path`, `file_text`) and `edit` (`path`,
//!   `old_str` empty, `new_str`: a write of a file that is not there yet).
//! - Droid CLI's `Execute` (as `Bash`, with the fields Droid requires) and `Create` (as `Write`).
//!
//! The file an edit needs must already be in the working directory (the
//! caller seeds it: [`crate::task::SEED_TEXT`], [`crate::task::seed_notebook`]).

use serde_json::json;

use super::history::History;
use super::script::{
    droid_execute_input, Step, COPILOT_CREATE, COPILOT_EDIT, COPILOT_SHELL, DROID_CREATE, DROID_SHELL,
};
use crate::task::{BASH_COMMAND, MCP_WRITE_TOOL, NOTEBOOK_CELL, NOTEBOOK_FILE, NOTES_CONTENT, NOTES_FILE};

/// Claude Code's tool that waits for MCP servers still connecting, whose
/// tools are not yet offered ("Omit `servers` to wait for all pending
/// servers", 2.1.240's description of it).
pub const WAIT_FOR_MCP_SERVERS: &str = "WaitForMcpServers";

/// The tools this script can attempt a write with.
pub const TOOLS: [&str; 6] = ["Bash", "Write", "Edit", "MultiEdit", "NotebookEdit", MCP_WRITE_TOOL];

/// The other agents' write tools, by the names their hooks see, that the
/// stand-in's other faces can attempt one write with: Codex's `apply_patch`
/// (its shell is `Bash`, as above) in [`super::responses::first_tool_step`],
/// Gemini CLI's (and Qwen Code's `edit`) in [`super::gemini::first_tool_step`],
/// and Cline CLI's in [`super::chat_completions::first_tool_step`].
pub const AGENT_TOOLS: [&str; 11] = [
    super::responses::PATCH_TOOL,
    super::gemini::SHELL_TOOL,
    super::gemini::WRITE_TOOL,
    super::gemini::REPLACE_TOOL,
    super::script::COPILOT_SHELL,
    super::script::COPILOT_CREATE,
    super::script::COPILOT_EDIT,
    super::chat_completions::SHELL_TOOL,
    super::chat_completions::EDIT_TOOL,
    DROID_SHELL,
    DROID_CREATE,
];

/// The tool name as a static string, if it is one this script (or the
/// Responses or Gemini face, [`AGENT_TOOLS`]) knows.
pub fn known_tool(name: &str) -> Option<&'static str> {
    TOOLS.iter().chain(AGENT_TOOLS.iter()).copied().find(|t| *t == name)
}

/// The next step of a session that attempts a write through `tool` only.
pub fn tool_step(history: &History, cwd: &str, tool: &'static str) -> Step {
    if !history.has_tools {
        return Step::Text("failopen stand-in".to_string());
    }
    if !history.tool_names.iter().any(|n| n == tool) {
        // Newer Claude Code defers some tools (NotebookEdit, MCP tools): load it by name first.
        let searched = history.tool_uses.iter().any(|u| u.name == "ToolSearch");
        if !searched && history.tool_names.iter().any(|n| n == "ToolSearch") {
            return Step::Tool {
                name: "ToolSearch",
                input: json!({"query": format!("select:{tool}"), "max_results": 1}),
            };
        }
        // An interactive session may send its first request before an MCP server's tools are in the
        // list, offering WaitForMcpServers instead (2.1.240): a model that needs the tool waits once.
        let waited = history.tool_uses.iter().any(|u| u.name == WAIT_FOR_MCP_SERVERS);
        if tool.starts_with("mcp__") && !waited && history.tool_names.iter().any(|n| n == WAIT_FOR_MCP_SERVERS) {
            return Step::Tool { name: WAIT_FOR_MCP_SERVERS, input: json!({}) };
        }
        return Step::Text(format!("This Claude Code does not offer the {tool} tool."));
    }
    let dir = cwd.trim_end_matches('/');
    let notes = format!("{dir}/{NOTES_FILE}");
    let notebook = format!("{dir}/{NOTEBOOK_FILE}");
    let needs_read = matches!(tool, "Edit" | "MultiEdit" | "NotebookEdit");
    if needs_read && !history.tool_uses.iter().any(|u| u.name == "Read") {
        let path = if tool == "NotebookEdit" { &notebook } else { &notes };
        return Step::Tool { name: "Read", input: json!({"file_path": path}) };
    }
    if !history.tool_uses.iter().any(|u| u.name == tool) {
        let input = match tool {
            "Bash" | COPILOT_SHELL => {
                json!({"command": BASH_COMMAND, "description": "Create notes.txt containing ready"})
            }
            DROID_SHELL => droid_execute_input(BASH_COMMAND),
            COPILOT_CREATE => json!({"path": notes, "file_text": NOTES_CONTENT}),
            COPILOT_EDIT => json!({"path": notes, "old_str": "", "new_str": NOTES_CONTENT}),
            "Write" | DROID_CREATE => json!({"file_path": notes, "content": NOTES_CONTENT}),
            "Edit" => json!({"file_path": notes, "old_string": "draft", "new_string": "ready"}),
            "MultiEdit" => json!({"file_path": notes, "edits": [{"old_string": "draft", "new_string": "ready"}]}),
            MCP_WRITE_TOOL => json!({"path": NOTES_FILE, "content": NOTES_CONTENT}),
            _ => {
                json!({"notebook_path": notebook, "cell_id": NOTEBOOK_CELL, "new_source": "ready", "edit_mode": "replace"})
            }
        };
        return Step::Tool { name: tool, input };
    }
    let last = history.tool_uses.last().map(|u| u.id.as_str()).unwrap_or("");
    let quoted = history.result_for(last).map(|r| r.text.as_str());
    Step::Text(format!("Done. The last tool result was:\n{}", quoted.unwrap_or("(no tool result)")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn history(tools: &[&str], uses: &[&str]) -> History {
        let mut messages = vec![json!({"role": "user", "content": "go"})];
        for (i, u) in uses.iter().enumerate() {
            let id = format!("t{i}");
            messages.push(
                json!({"role": "assistant", "content": [{"type": "tool_use", "id": id, "name": u, "input": {}}]}),
            );
            messages.push(
                json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": "ok"}]}),
            );
        }
        let tools: Vec<Value> = tools.iter().map(|t| json!({"name": t})).collect();
        History::from_request(&json!({"tools": tools, "messages": messages}))
    }

    #[test]
    fn edit_reads_first_then_edits_then_ends() {
        let all = ["Bash", "Write", "Read", "Edit", "MultiEdit", "NotebookEdit"];
        let Step::Tool { name, input } = tool_step(&history(&all, &[]), "/w/", "Edit") else { panic!() };
        assert_eq!((name, input["file_path"].as_str()), ("Read", Some("/w/notes.txt")));
        let Step::Tool { name, input } = tool_step(&history(&all, &["Read"]), "/w", "Edit") else { panic!() };
        assert_eq!((name, input["old_string"].as_str()), ("Edit", Some("draft")));
        assert!(matches!(tool_step(&history(&all, &["Read", "Edit"]), "/w", "Edit"), Step::Text(_)));
    }

    #[test]
    fn bash_and_write_go_straight_to_the_attempt() {
        let all = ["Bash", "Write", "Read"];
        let Step::Tool { name, .. } = tool_step(&history(&all, &[]), "/w", "Bash") else { panic!() };
        assert_eq!(name, "Bash");
        let Step::Tool { name, input } = tool_step(&history(&all, &[]), "/w", "Write") else { panic!() };
        assert_eq!((name, input["content"].as_str()), ("Write", Some("ready\n")));
        // One attempt only: a refused Bash does not fall back to Write.
        assert!(matches!(tool_step(&history(&all, &["Bash"]), "/w", "Bash"), Step::Text(_)));
    }

    #[test]
    fn droids_execute_and_create_carry_the_fields_droid_requires() {
        let droid = [DROID_SHELL, DROID_CREATE, "Read"];
        let Step::Tool { name, input } = tool_step(&history(&droid, &[]), "/w", DROID_SHELL) else { panic!() };
        assert_eq!((name, input["command"].as_str()), (DROID_SHELL, Some(BASH_COMMAND)));
        assert!(input["summary"].is_string() && input["riskLevel"].is_string() && input["riskLevelReason"].is_string());
        let Step::Tool { name, input } = tool_step(&history(&droid, &[]), "/w", DROID_CREATE) else { panic!() };
        assert_eq!((name, input["file_path"].as_str()), (DROID_CREATE, Some("/w/notes.txt")));
    }

    #[test]
    fn a_deferred_tool_is_loaded_with_tool_search_first() {
        let Step::Tool { name, input } = tool_step(&history(&["Read", "ToolSearch"], &[]), "/w", "NotebookEdit") else {
            panic!()
        };
        assert_eq!((name, input["query"].as_str()), ("ToolSearch", Some("select:NotebookEdit")));
        let h = history(&["Read", "ToolSearch", "NotebookEdit"], &["ToolSearch"]);
        let Step::Tool { name, .. } = tool_step(&h, "/w", "NotebookEdit") else { panic!() };
        assert_eq!(name, "Read");
        assert!(matches!(
            tool_step(&history(&["Read", "ToolSearch"], &["ToolSearch"]), "/w", "MultiEdit"),
            Step::Text(_)
        ));
    }

    /// 2.1.240's interactive first request: no MCP tool yet, no ToolSearch, but WaitForMcpServers.
    #[test]
    fn an_mcp_tool_not_yet_listed_is_waited_for_once() {
        let pending = ["Bash", "Write", WAIT_FOR_MCP_SERVERS];
        let Step::Tool { name, input } = tool_step(&history(&pending, &[]), "/w", MCP_WRITE_TOOL) else { panic!() };
        assert_eq!((name, input), (WAIT_FOR_MCP_SERVERS, json!({})));
        let connected = ["Bash", WAIT_FOR_MCP_SERVERS, MCP_WRITE_TOOL];
        let Step::Tool { name, .. } = tool_step(&history(&connected, &[WAIT_FOR_MCP_SERVERS]), "/w", MCP_WRITE_TOOL)
        else {
            panic!()
        };
        assert_eq!(name, MCP_WRITE_TOOL);
        // Still not there after the wait: the turn ends; a built-in tool is never waited for.
        let waited = history(&pending, &[WAIT_FOR_MCP_SERVERS]);
        assert!(matches!(tool_step(&waited, "/w", MCP_WRITE_TOOL), Step::Text(_)));
        assert!(matches!(tool_step(&history(&pending, &[]), "/w", "NotebookEdit"), Step::Text(_)));
    }

    #[test]
    fn a_tool_the_harness_does_not_offer_ends_the_turn() {
        let Step::Text(t) = tool_step(&history(&["Bash"], &[]), "/w", "MultiEdit") else { panic!() };
        assert!(t.contains("MultiEdit"), "{t}");
    }
}
