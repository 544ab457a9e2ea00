//! A guard that means to refuse, in a shape Claude Code rejects (issue 29
//! §2): the audit names the shape, and the advice is to fix the answer,
//! not the deadline. Real `claude -p` 2.1.328 sessions.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::audit::{audit_in, findings};
use crate::support;

/// A project whose only hook is `guard` (a script of guards/) with the full matcher.
fn project_with(guard: &str) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(d.path().join(".claude/hooks")).unwrap();
    std::fs::create_dir_all(d.path().join("home")).unwrap();
    let text = std::fs::read_to_string(support::repo().join("guards").join(guard)).unwrap();
    support::scripts::write(&d.path().join(".claude/hooks/guard.sh"), &text);
    let settings = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit",
        "hooks": [{"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh", "timeout": 5}]}]}});
    std::fs::write(d.path().join(".claude/settings.json"), settings.to_string()).unwrap();
    d
}

#[test]
fn a_deny_with_a_null_reason_is_named_as_the_answers_shape() {
    let d = project_with("json-deny-null-reason.sh");
    let (out, v) = audit_in(d.path(), Some(&d.path().join("home")), &[]);
    // The deny is no decision to Claude Code: every as-is write lands.
    assert_eq!(out.status.code(), Some(3), "{v}");
    let codes: BTreeSet<(String, String)> = findings(&v);
    assert!(codes.contains(&("H1".into(), "answer-rejected".into())), "{codes:?}");
    let message = v["agents"][0]["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["code"] == "answer-rejected")
        .and_then(|f| f["message"].as_str())
        .unwrap();
    assert!(message.contains("permissionDecisionReason"), "{message}");
    let advice: Vec<&str> =
        v["agents"][0]["advice"].as_array().unwrap().iter().filter_map(|a| a["change"].as_str()).collect();
    assert!(advice.iter().any(|a| a.contains("rejects as malformed")), "{advice:?}");
    assert!(!advice.iter().any(|a| a.contains("deadline")), "the deadline is not the problem: {advice:?}");
    // No probe was refused, so the guard is not held.
    let status: Vec<&Value> = v["agents"][0]["guards"].as_array().unwrap().iter().map(|g| &g["status"]).collect();
    assert!(status.iter().all(|s| *s != "held"), "{status:?}");
}
