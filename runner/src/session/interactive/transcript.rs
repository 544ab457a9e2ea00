//! The session's own transcript file, which an interactive session writes
//! under the isolated HOME (`~/.claude/projects/<dir>/<session id>.jsonl`),
//! read as evidence in place of print mode's stream: the tool results
//! Claude Code recorded (a stand-in that never received a result, because
//! the turn ended right after it, still sees it here), its compactions, the
//! hook outcomes it records, the calls it says it rejected before they ran,
//! and its report of a blocked prompt.

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
/// is_error and its text), the compact boundaries, and the outcomes of the
/// PreToolUse hooks it records (`hook_*` attachments: a hook that failed
/// without deciding, `error:<exit code>`, or was cancelled at its timeout;
/// 2.1.240 and 2.1.328 record no attachment for a hook that succeeded or
/// refused). As print mode's stream hook events, these are recorded and
/// show that a hook ran; they are never a refusal.
pub fn facts(jsonl: &str) -> StreamFacts {
    let mut facts = StreamFacts::default();
    for v in jsonl.lines().filter_map(|l| serde_json::from_str::<Value>(l).ok()) {
        if v["type"] == "system" && v["subtype"] == "compact_boundary" {
            facts.compactions += 1;
        }
        // The report of a prompt a UserPromptSubmit hook blocked, as the stream's.
        if v["type"] == "system" && v["subtype"] == "informational" {
            if let Some(t) = v["content"].as_str().and_then(crate::evidence::prompt_block_text) {
                facts.prompt_blocked.get_or_insert_with(|| t.to_string());
            }
        }
        if let Some(outcome) = hook_outcome(&v["attachment"]) {
            facts.hook_outcomes.push(outcome);
        }
        if v["type"] != "user" {
            continue;
        }
        let Some(blocks) = v["message"]["content"].as_array() else { continue };
        // Claude Code's word that the call was rejected before it ran (as the
        // stream's non_execution_kind): whose refusal it is stays attribution's.
        let rejected = v["permissionDecision"]["decision"] == "reject";
        for b in blocks.iter().filter(|b| b["type"] == "tool_result") {
            let Some(id) = b["tool_use_id"].as_str() else { continue };
            if rejected {
                facts.not_executed.insert(id.to_string());
            }
            let is_error = b["is_error"].as_bool().unwrap_or(false);
            facts.results.entry(id.to_string()).or_insert((is_error, content_text(&b["content"])));
        }
    }
    facts
}

/// `outcome[:exit code]` of a `hook_*` attachment of a refusing event.
fn hook_outcome(a: &Value) -> Option<String> {
    let kind = a["type"].as_str()?.strip_prefix("hook_")?;
    if !a["hookName"].as_str().is_some_and(crate::agent::claude_code::stream::is_refusing_event) {
        return None;
    }
    let outcome = match kind {
        "non_blocking_error" | "blocking_error" => "error",
        other => other,
    };
    Some(match a["exitCode"].as_i64() {
        Some(code) => format!("{outcome}:{code}"),
        None => outcome.to_string(),
    })
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
        r#"{"type":"user","message":{"content":[{"type":"tool_result","content":"[/r/crash.sh]: failed; blocking because onFailure is \"block\"","is_error":true,"tool_use_id":"toolu_fo00000002"}]},"toolDenialKind":"permission-rule","permissionDecision":{"decision":"reject","source":"hook","reasonCode":"hook:PermissionRequest"}}"#,
        "\n",
        r#"{"type":"system","subtype":"compact_boundary"}"#,
        "\n",
        r#"{"type":"attachment","attachment":{"type":"hook_non_blocking_error","hookName":"PreToolUse:Bash","hookEvent":"PreToolUse","exitCode":127,"command":"/r/missing.sh"}}"#,
        "\n",
        r#"{"type":"attachment","attachment":{"type":"hook_cancelled","hookName":"PreToolUse:Write","timedOut":true}}"#,
        "\n",
        r#"{"type":"attachment","attachment":{"type":"hook_non_blocking_error","hookName":"PostToolUse:Bash","exitCode":1}}"#,
        "\n",
        r#"{"type":"attachment","attachment":{"type":"skill_listing","content":"hook"}}"#,
        "\n",
        r#"{"type":"system","subtype":"informational","content":"UserPromptSubmit operation blocked by hook:\n[/r/deny.sh]: no\n\n\nOriginal prompt: Create"}"#,
        "\nnot json\n"
    );

    #[test]
    fn tool_results_and_compactions_are_read() {
        let f = facts(LINES);
        assert_eq!(f.results["toolu_fo00000000"], (true, "PreToolUse:Bash hook error: [/r/deny.sh]: no\n".to_string()));
        assert!(!f.results["toolu_fo00000001"].0);
        assert!(f.results["toolu_fo00000001"].1.starts_with("The file"));
        assert_eq!(f.compactions, 1);
        assert_eq!(f.hook_outcomes, ["error:127", "cancelled"], "PreToolUse hooks only");
        assert_eq!(f.prompt_blocked.as_deref(), Some("[/r/deny.sh]: no"));
        assert_eq!(f.results.len(), 3, "the prompt's plain text is no tool result");
        let rejected: Vec<&String> = f.not_executed.iter().collect();
        assert_eq!(rejected, ["toolu_fo00000002"], "only the call Claude Code says it rejected");
    }

    #[test]
    fn nothing_is_read_from_nothing() {
        assert_eq!(facts(""), StreamFacts::default());
        assert!(files(Path::new("/nonexistent-failopen")).is_empty());
    }
}
