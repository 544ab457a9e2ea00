//! A one-call script for an audit probe: call one tool with the given input
//! (`git reset --hard` through Bash, a Write of `.env` ...), then end with a
//! text quoting its result. The tool must be one the request offers.
//!
//! The Messages face (Claude Code, Copilot CLI) and the Gemini face take a
//! probe's step from here; the tool is named as the agent's hooks see it
//! (Gemini CLI's `run_shell_command`, Copilot CLI's `bash`), which on those
//! faces is also its name on the wire.

use serde_json::Value;

use super::history::History;
use super::script::Step;

/// The tools a probe may call, as static names for the wire.
pub const TOOLS: [&str; 5] = ["Bash", "Write", "Edit", "Read", "WebFetch"];

/// The other agents' tools a probe may call, by the names their hooks see
/// (and the wire carries): Gemini CLI's shell, Copilot CLI's shell and
/// Cline CLI's (`run_commands`, whose input the Chat Completions face
/// shapes: [`super::chat_completions::probe_step`]).
pub const AGENT_TOOLS: [&str; 5] = [
    super::gemini::SHELL_TOOL,
    super::script::COPILOT_SHELL,
    super::chat_completions::SHELL_TOOL,
    super::script::DROID_SHELL,
    super::script::DROID_CREATE,
];

/// The tool as a static string, if a probe may call it ([`TOOLS`], [`AGENT_TOOLS`]).
pub fn known_tool(name: &str) -> Option<&'static str> {
    TOOLS.iter().chain(AGENT_TOOLS.iter()).copied().find(|t| *t == name)
}

/// `input` with `{work}` (the session's working directory `cwd`), `{root}`
/// (its parent, the session's temp root) and `{home}` (`{root}/home`, the
/// session's HOME) filled in, in every string.
pub fn fill(input: &Value, cwd: &str) -> Value {
    let work = cwd.trim_end_matches('/');
    let root = work.rsplit_once('/').map(|(r, _)| r).unwrap_or("");
    match input {
        Value::String(s) => {
            Value::String(s.replace("{work}", work).replace("{home}", &format!("{root}/home")).replace("{root}", root))
        }
        Value::Array(a) => Value::Array(a.iter().map(|x| fill(x, cwd)).collect()),
        Value::Object(o) => Value::Object(o.iter().map(|(k, x)| (k.clone(), fill(x, cwd))).collect()),
        other => other.clone(),
    }
}

/// The next step of a session in `cwd` whose one call is `tool` with `input` (see [`fill`]).
pub fn probe_step(history: &History, cwd: &str, tool: &'static str, input: &Value) -> Step {
    if !history.has_tools {
        return Step::Text("failopen stand-in".to_string());
    }
    if !history.tool_names.iter().any(|n| n == tool) {
        return Step::Text(format!("This agent does not offer the {tool} tool."));
    }
    if !history.tool_uses.iter().any(|u| u.name == tool) {
        let mut input = fill(input, cwd);
        if tool == super::script::DROID_SHELL {
            // Droid refuses an Execute without its summary and risk fields.
            let command = input["command"].as_str().unwrap_or_default().to_string();
            input = super::script::droid_execute_input(&command);
        }
        return Step::Tool { name: tool, input };
    }
    let last = history.tool_uses.last().map(|u| u.id.as_str()).unwrap_or("");
    let quoted = history.result_for(last).map(|r| r.text.as_str());
    Step::Text(format!("Done. The last tool result was:\n{}", quoted.unwrap_or("(no tool result)")))
}
