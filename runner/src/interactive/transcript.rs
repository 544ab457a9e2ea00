//! The session's own transcript file, which an interactive session writes
//! under the isolated HOME (`~/.claude/projects/<dir>/<session id>.jsonl`),
//! read as evidence in place of print mode's stream: the tool results
//! Claude Code recorded (a stand-in that never received a result, because
//! the turn ended right after it, still sees it here) and its compactions.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::evidence::StreamFacts;

/// The transcript files under `home`, oldest name first (one per session;
/// more if Claude Code started a new one).
pub fn files(home: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let Ok(dirs) = std::fs::read_dir(home.join(".claude").join("projects")) else { return found };
    for dir in dirs.flatten() {
        let Ok(entries) = std::fs::read_dir(dir.path()) else { continue };
        found.extend(entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "jsonl")));
    }
    found.sort();
    found
}

/// Facts from the transcript's lines: every tool_result (by tool_use id:
/// is_error and its text) and the compact boundaries.
pub fn facts(jsonl: &str) -> StreamFacts {
    let mut facts = StreamFacts::default();
    for v in jsonl.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()) {
        if v["type"] == "system" && v["subtype"] == "compact_boundary" {
            facts.compactions += 1;
        }
        if v["type"] != "user" {
            continue;
        }
        let Some(blocks) = v["message"]["content"].as_array() else { continue };
        for b in blocks.iter().filter(|b| b["type"] == "tool_result") {
            let Some(id) = b["tool_use_id"].as_str() else { continue };
            let is_error = b["is_error"].as_bool().unwrap_or(false);
            facts.results.entry(id.to_string()).or_insert((is_error, content_text(&b["content"])));
        }
    }
    facts
}

/// A tool_result's content as text: a string, or the text blocks joined.
fn content_text(content: &Value) -> String {
    match content {
        Value::String(s) => s.clone(),
        Value::Array(blocks) => blocks.iter().filter_map(|b| b["text"].as_str()).collect::<Vec<_>>().join("\n"),
        _ => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines as 2.1.328 wrote them in a session whose deny guard refused Bash and Write.
    const LINES: &str = concat!(
        r#"{"type":"user","message":{"role":"user","content":"Create notes.txt containing ready"}}"#,
        "\n",
        r#"{"type":"assistant","message":{"content":[{"type":"tool_use","id":"toolu_fo00000000","name":"Bash","input":{}}]}}"#,
        "\n",
        r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":"PreToolUse:Bash hook error: [/r/deny.sh]: no\n","is_error":true,"tool_use_id":"toolu_fo00000000"}]},"toolUseResult":"Error: PreToolUse:Bash hook error: [/r/deny.sh]: no\n"}"#,
        "\n",
        r#"{"type":"user","message":{"role":"user","content":[{"type":"tool_result","content":[{"type":"text","text":"The file /r/work/notes.txt has been updated successfully."}],"tool_use_id":"toolu_fo00000001"}]}}"#,
        "\n",
        r#"{"type":"system","subtype":"compact_boundary"}"#,
        "\nnot json\n"
    );

    #[test]
    fn tool_results_and_compactions_are_read() {
        let f = facts(LINES);
        assert_eq!(f.results["toolu_fo00000000"], (true, "PreToolUse:Bash hook error: [/r/deny.sh]: no\n".to_string()));
        assert!(!f.results["toolu_fo00000001"].0);
        assert!(f.results["toolu_fo00000001"].1.starts_with("The file"));
        assert_eq!(f.compactions, 1);
        assert_eq!(f.results.len(), 2, "the prompt's plain text is no tool result");
    }

    #[test]
    fn nothing_is_read_from_nothing() {
        assert_eq!(facts(""), StreamFacts::default());
        assert!(files(Path::new("/nonexistent-failopen")).is_empty());
    }
}
