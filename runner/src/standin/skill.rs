//! A session whose guard lives in a skill's frontmatter (`source: skill`):
//! the model first invokes the skill through the `Skill` tool, so that its
//! hooks become active, then follows the main script ([`super::script`]) as
//! if the skill call had not been there.
//!
//! When the request offers no `Skill` tool (skills disabled, or a version
//! without it), the script goes on without it, and the hook never runs:
//! the row says `hook-not-run`.

use serde_json::json;

use super::history::History;
use super::script::{scripted_step, Step};

/// The tool Claude Code offers for invoking a skill.
pub const SKILL_TOOL: &str = "Skill";

/// The next step of a session that invokes the skill `name` first.
pub fn skill_step(history: &History, cwd: &str, name: &str) -> Step {
    let offered = history.tool_names.iter().any(|n| n == SKILL_TOOL);
    let invoked = history.tool_uses.iter().any(|u| u.name == SKILL_TOOL);
    if history.has_tools && offered && !invoked {
        return Step::Tool { name: SKILL_TOOL, input: json!({"skill": name}) };
    }
    let mut rest = history.clone();
    let skill_ids: Vec<String> = rest.tool_uses.iter().filter(|u| u.name == SKILL_TOOL).map(|u| u.id.clone()).collect();
    rest.tool_uses.retain(|u| u.name != SKILL_TOOL);
    rest.tool_results.retain(|r| !skill_ids.contains(&r.tool_use_id));
    scripted_step(&rest, cwd)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn request(tools: &[&str], messages: Value) -> History {
        let tools: Vec<Value> = tools.iter().map(|t| json!({"name": t})).collect();
        History::from_request(&json!({"model": "m", "tools": tools, "messages": messages}))
    }

    #[test]
    fn the_skill_comes_first_then_the_main_script() {
        let h = request(&["Bash", "Write", "Skill"], json!([{"role": "user", "content": "go"}]));
        let Step::Tool { name, input } = skill_step(&h, "/w", "guarded-notes") else { panic!() };
        assert_eq!((name, input["skill"].as_str()), ("Skill", Some("guarded-notes")));
        let h = request(
            &["Bash", "Write", "Skill"],
            json!([{"role": "user", "content": "go"},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "s1", "name": "Skill", "input": {}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "s1", "content": "Launching skill"}]}]),
        );
        let Step::Tool { name, .. } = skill_step(&h, "/w", "guarded-notes") else { panic!() };
        assert_eq!(name, "Bash");
    }

    #[test]
    fn without_a_skill_tool_the_main_script_runs_alone() {
        let h = request(&["Bash", "Write"], json!([{"role": "user", "content": "go"}]));
        let Step::Tool { name, .. } = skill_step(&h, "/w", "guarded-notes") else { panic!() };
        assert_eq!(name, "Bash");
    }
}
