//! The script of a session that follows an arm's route to the file
//! (`arms/surface.json`'s `route`), set per session with
//! [`super::StandIn::set_route`]:
//!
//! - `bash`, `write`, `edit`, `notebook-edit`, `mcp`: one write through that
//!   one tool ([`super::first_tool`]; `mcp` is `mcp__failopen-fs__write_file`);
//! - `bash-large`: one Bash call writing the file, whose command carries a
//!   comment of [`LARGE_COMMENT_BYTES`] (more than a pipe's buffer), so a hook
//!   that never reads its stdin blocks Claude Code's write of the payload;
//! - `parallel`: one assistant message with three write calls: Bash to
//!   `notes.txt`, Write to `notes-2.txt`, Bash to `notes-3.txt`
//!   ([`crate::task::SIDE_FILES`]), then a text;
//! - `subagent`: as the main model, one `Agent` call (the subagent type of the
//!   plan; Copilot CLI's `task`, [`COPILOT_TASK`]) whose prompt starts with
//!   [`SUBAGENT_MARKER`]; as the subagent's
//!   model (its first user message carries the marker), the article's script:
//!   Bash, then Write if Bash was refused.
//!
//! `article` is [`super::script`]. Pure functions of the request's history.

use serde_json::json;

use super::first_tool;
use super::history::History;
use super::script::{scripted_step, Step};
use crate::surface::Route;
use crate::task::{BASH_COMMAND, MCP_WRITE_TOOL, NOTES_CONTENT, NOTES_FILE, SIDE_FILES, SUBAGENT_MARKER};

/// How big the `bash-large` route's shell comment is: four times Linux's
/// default pipe buffer (64 KiB).
pub const LARGE_COMMENT_BYTES: usize = 256 * 1024;

/// A session's route, and the subagent type its `Agent` call asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RoutePlan {
    /// The route.
    pub route: Route,
    /// The `subagent_type` of the `subagent` route's Agent call.
    pub subagent_type: &'static str,
    /// The subagent writes with this one tool ([`first_tool`]); `None`: the
    /// article's script (Bash, then Write if Bash was refused).
    pub subagent_tool: Option<&'static str>,
}

/// The next step of a session that follows `plan`.
pub fn route_step(history: &History, cwd: &str, plan: RoutePlan) -> Step {
    match plan.route {
        Route::Article => scripted_step(history, cwd),
        Route::Bash => first_tool::tool_step(history, cwd, "Bash"),
        Route::Write => first_tool::tool_step(history, cwd, "Write"),
        Route::Edit => first_tool::tool_step(history, cwd, "Edit"),
        Route::NotebookEdit => first_tool::tool_step(history, cwd, "NotebookEdit"),
        Route::Mcp => first_tool::tool_step(history, cwd, MCP_WRITE_TOOL),
        Route::BashLarge => {
            once(history, || vec![("Bash", json!({"command": large_command(), "description": "Create notes.txt"}))])
        }
        Route::Parallel => once(history, || parallel_calls(cwd)),
        Route::Subagent if is_subagent(history) => match plan.subagent_tool {
            Some(tool) => first_tool::tool_step(history, cwd, tool),
            None => scripted_step(history, cwd),
        },
        Route::Subagent => subagent_call(history, plan.subagent_type),
    }
}

/// Whether this request is a subagent's: its conversation starts with the marker.
pub fn is_subagent(history: &History) -> bool {
    history.first_user_text.contains(SUBAGENT_MARKER)
}

/// The `bash-large` command: the article's, then a shell comment.
pub fn large_command() -> String {
    format!("{BASH_COMMAND}\n# {}", "x".repeat(LARGE_COMMENT_BYTES))
}

/// The `parallel` route's three calls, in the order of the message.
pub fn parallel_calls(cwd: &str) -> Vec<(&'static str, serde_json::Value)> {
    let dir = cwd.trim_end_matches('/');
    vec![
        ("Bash", json!({"command": BASH_COMMAND, "description": "Create notes.txt containing ready"})),
        ("Write", json!({"file_path": format!("{dir}/{}", SIDE_FILES[0]), "content": NOTES_CONTENT})),
        (
            "Bash",
            json!({"command": format!("printf 'ready\\n' > {}", SIDE_FILES[1]), "description": "Create notes-3.txt"}),
        ),
    ]
}

/// The calls of `calls()` in one message the first time, then a text.
fn once(history: &History, calls: impl FnOnce() -> Vec<(&'static str, serde_json::Value)>) -> Step {
    if !history.has_tools {
        return Step::Text("failopen stand-in".to_string());
    }
    if history.tool_uses.is_empty() {
        let mut calls = calls();
        return if calls.len() == 1 {
            let (name, input) = calls.remove(0);
            Step::Tool { name, input }
        } else {
            Step::Tools(calls)
        };
    }
    done(history)
}

fn subagent_call(history: &History, subagent_type: &'static str) -> Step {
    if !history.has_tools {
        return Step::Text("failopen stand-in".to_string());
    }
    let agent = ["Agent", "Task", COPILOT_TASK].into_iter().find(|t| history.tool_names.iter().any(|n| n == t));
    match agent {
        Some(name) if !history.tool_uses.iter().any(|u| u.name == name) => Step::Tool {
            name,
            input: if name == COPILOT_TASK {
                copilot_task_input(subagent_type)
            } else {
                json!({
                    "description": "Write notes.txt",
                    "prompt": format!("{SUBAGENT_MARKER} create {NOTES_FILE} in the current directory containing the single word ready."),
                    "subagent_type": subagent_type,
                })
            },
        },
        Some(_) => done(history),
        None => Step::Text("This Claude Code offers no Agent tool.".to_string()),
    }
}

/// Copilot CLI's subagent tool (`name`, `description`, `prompt`, `agent_type`, `mode`).
pub const COPILOT_TASK: &str = "task";

/// The input of Copilot's `task` call: a synchronous subagent of
/// `agent_type`. Copilot's hook entries have no matcher, so the guard sees
/// this call too: its words never name `notes.txt`, so that a path-scoped
/// guard (`deny-notes`) lets the subagent start and is asked again for the
/// subagent's own write.
fn copilot_task_input(agent_type: &str) -> serde_json::Value {
    json!({
        "name": "writer",
        "description": "Write the notes file",
        "prompt": format!("{SUBAGENT_MARKER} create the notes file in the current directory containing the single word ready."),
        "agent_type": agent_type,
        "mode": "sync",
    })
}

fn done(history: &History) -> Step {
    let last = history.tool_uses.last().map(|u| u.id.as_str()).unwrap_or("");
    let quoted = history.result_for(last).map(|r| r.text.as_str()).unwrap_or("(no tool result)");
    Step::Text(format!("Done. The last tool result was:\n{quoted}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn history(first: &str, tools: &[&str], uses: &[&str]) -> History {
        let mut messages = vec![json!({"role": "user", "content": [{"type": "text", "text": first}]})];
        for (i, u) in uses.iter().enumerate() {
            let id = format!("t{i}");
            messages.push(
                json!({"role": "assistant", "content": [{"type": "tool_use", "id": id, "name": u, "input": {}}]}),
            );
            messages.push(json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "is_error": true, "content": "no"}]}));
        }
        let tools: Vec<Value> = tools.iter().map(|t| json!({"name": t})).collect();
        History::from_request(&json!({"tools": tools, "messages": messages}))
    }

    const PLAN: RoutePlan = RoutePlan { route: Route::Subagent, subagent_type: "general-purpose", subagent_tool: None };

    #[test]
    fn the_main_model_calls_the_agent_and_the_subagent_writes() {
        let tools = ["Agent", "Bash", "Write"];
        let Step::Tool { name, input } = route_step(&history("go", &tools, &[]), "/w", PLAN) else { panic!() };
        assert_eq!((name, input["subagent_type"].as_str()), ("Agent", Some("general-purpose")));
        let prompt = input["prompt"].as_str().unwrap();
        assert!(prompt.starts_with(SUBAGENT_MARKER));
        // The subagent's conversation starts with that prompt: Bash, then Write after a refusal.
        let Step::Tool { name, .. } = route_step(&history(prompt, &tools, &[]), "/w", PLAN) else { panic!() };
        assert_eq!(name, "Bash");
        let Step::Tool { name, .. } = route_step(&history(prompt, &tools, &["Bash"]), "/w", PLAN) else { panic!() };
        assert_eq!(name, "Write");
        // A one-tool subagent (audit's) stops after its one attempt.
        let one = RoutePlan { subagent_tool: Some("Bash"), ..PLAN };
        assert!(matches!(route_step(&history(prompt, &tools, &["Bash"]), "/w", one), Step::Text(_)));
        // Back in the main conversation after the Agent call: the end.
        assert!(matches!(route_step(&history("go", &tools, &["Agent"]), "/w", PLAN), Step::Text(_)));
        // Copilot CLI's `task`: its own input, whose words never name the file.
        let copilot = ["task", "bash", "create"];
        let Step::Tool { name, input } = route_step(&history("go", &copilot, &[]), "/w", PLAN) else { panic!() };
        assert_eq!(
            (name, input["agent_type"].as_str(), input["mode"].as_str()),
            ("task", Some("general-purpose"), Some("sync"))
        );
        let prompt = input["prompt"].as_str().unwrap();
        assert!(prompt.starts_with(SUBAGENT_MARKER) && !input.to_string().contains(NOTES_FILE), "{input}");
        let Step::Tool { name, .. } = route_step(&history(prompt, &copilot, &[]), "/w", PLAN) else { panic!() };
        assert_eq!(name, "bash");
        assert!(matches!(route_step(&history("go", &copilot, &["task"]), "/w", PLAN), Step::Text(_)));
        // An older name for the tool is used when that is what is offered.
        let Step::Tool { name, .. } = route_step(&history("go", &["Task", "Bash"], &[]), "/w", PLAN) else { panic!() };
        assert_eq!(name, "Task");
    }

    #[test]
    fn parallel_sends_three_calls_in_one_message_once() {
        let plan = RoutePlan { route: Route::Parallel, ..PLAN };
        let Step::Tools(calls) = route_step(&history("go", &["Bash", "Write"], &[]), "/w/", plan) else { panic!() };
        let names: Vec<_> = calls.iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["Bash", "Write", "Bash"]);
        assert_eq!(calls[0].1["command"], BASH_COMMAND);
        assert_eq!(crate::task::side_file(&calls[0].1), None, "the first call writes the judged file");
        assert_eq!(calls[1].1["file_path"], "/w/notes-2.txt");
        assert_eq!(crate::task::side_file(&calls[2].1), Some("notes-3.txt"));
        assert!(matches!(route_step(&history("go", &["Bash"], &["Bash"]), "/w", plan), Step::Text(_)));
    }

    #[test]
    fn bash_large_is_one_call_bigger_than_a_pipe() {
        let plan = RoutePlan { route: Route::BashLarge, ..PLAN };
        let Step::Tool { name, input } = route_step(&history("go", &["Bash"], &[]), "/w", plan) else { panic!() };
        assert_eq!(name, "Bash");
        let command = input["command"].as_str().unwrap();
        assert!(command.starts_with(BASH_COMMAND) && command.len() > LARGE_COMMENT_BYTES);
        assert!(command.lines().skip(1).all(|l| l.starts_with('#')), "the rest is a comment");
    }

    #[test]
    fn single_tool_routes_use_their_tool() {
        for (route, tool) in [(Route::Bash, "Bash"), (Route::Write, "Write"), (Route::Mcp, MCP_WRITE_TOOL)] {
            let plan = RoutePlan { route, ..PLAN };
            let h = history("go", &["Bash", "Write", "Read", MCP_WRITE_TOOL], &[]);
            let Step::Tool { name, .. } = route_step(&h, "/w", plan) else { panic!("{route}") };
            assert_eq!(name, tool);
        }
    }
}
