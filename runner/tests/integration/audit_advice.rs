//! `failopen audit` measures its advice before printing it: each hook's one
//! recipe is applied to a copy and re-run in real sessions (real Claude Code
//! 2.1.328, the stand-in), and printed as a fix only when every hole closed
//! and every call the guard refused as-is is still refused.
//!
//! Expected, with the reasoning:
//! - a guard that refuses only Bash commands touching `notes` (python, reads
//!   `tool_name`), under the matcher of a secrets guard,
//!   `Read|NotebookRead|Bash|Grep|mcp__.*`: a plain Bash write is refused
//!   (so the guard guards writes), Write and NotebookEdit run no hook (the
//!   matcher leaves them out, no other hook covers them: uncovered-tool
//!   holes), and the faults let the Bash write through (fails-open holes).
//!   The recipe is seal with `"onFailure": "block"` (2.1.328 honours it) and
//!   the matcher widened by the write tools that landed: the old matcher is
//!   kept whole (matcher advice only adds tools; it is never the bare list of
//!   write tools). On the copy the guard now runs for Write and allows it
//!   (it only reads Bash commands): the hole stays open, so the recipe
//!   FAILED its re-check, says which call went through, and is not a fix.
//!   Exit 3.

use serde_json::{json, Value};

use crate::audit_probes::audit;

const BASH_ONLY_GUARD: &str = r#"#!/usr/bin/env python3
import json, sys
d = json.load(sys.stdin)
if d.get("tool_name") == "Bash" and "notes" in d.get("tool_input", {}).get("command", ""):
    print("BLOCKED: notes are read-only", file=sys.stderr)
    sys.exit(2)
sys.exit(0)
"#;

const SECRETS_MATCHER: &str = "Read|NotebookRead|Bash|Grep|mcp__.*";

#[test]
fn a_recipe_that_fails_its_recheck_is_reported_as_failed_and_matcher_advice_only_adds() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    let (project, home) = (d.path().join("project"), d.path().join("home"));
    std::fs::create_dir_all(project.join(".claude/hooks")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let script = project.join(".claude/hooks/guard");
    std::fs::write(&script, BASH_ONLY_GUARD).unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let settings = json!({"hooks": {"PreToolUse": [{"matcher": SECRETS_MATCHER, "hooks": [
        {"type": "command", "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard", "timeout": 5}]}]}});
    std::fs::write(project.join(".claude/settings.json"), settings.to_string()).unwrap();
    let (out, v) = audit(&project, &home, &[]);
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    let kinds: Vec<(&str, &str)> = v["agents"][0]["holes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["kind"].as_str().unwrap(), h["tool"].as_str().unwrap()))
        .collect();
    assert!(kinds.contains(&("uncovered-tool", "Write")), "{kinds:?}");
    assert!(kinds.contains(&("fails-open", "Bash")), "{kinds:?}");
    let re = &v["agents"][0]["rechecks"][0];
    let matcher = re["matcher"].as_str().unwrap();
    assert!(matcher.starts_with(&format!("{SECRETS_MATCHER}|")), "the old matcher is kept whole: {matcher}");
    assert!(matcher.contains("Write"), "{matcher}");
    assert_eq!(re["hook_json"]["onFailure"], "block", "{re:#}");
    assert!(re["hook_json"]["command"].as_str().unwrap().contains(" seal "), "{re:#}");
    assert_eq!(re["outcome"], "failed", "the guard allows Write once it runs: {re:#}");
    let went_wrong = re["went_wrong"].to_string();
    assert!(went_wrong.contains("Write") && went_wrong.contains("the guard allowed it"), "{went_wrong}");
    // Every call it refused as-is was re-run on the copy, and the faults' holes through Bash were.
    let roles: Vec<(&str, &str, &str)> = re["cells"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["role"].as_str().unwrap(), c["tool"].as_str().unwrap(), c["result"].as_str().unwrap()))
        .collect();
    assert!(roles.contains(&("refusal", "Bash", "blocked")), "{roles:?}");
    assert!(roles.contains(&("hole", "Write", "wrote")), "{roles:?}");
    assert!(roles.iter().any(|r| r.0 == "hole" && r.1 == "Bash" && r.2 == "blocked"), "{roles:?}");
    let advice: Vec<&Value> = v["agents"][0]["advice"].as_array().unwrap().iter().collect();
    assert!(
        advice.iter().all(|a| a["recheck"]["status"] != "proved"),
        "nothing proved is printed as a fix: {advice:#?}"
    );
    let failed = advice.iter().find(|a| a["recheck"]["status"] == "failed").unwrap_or_else(|| panic!("{advice:#?}"));
    assert!(failed["recheck"]["what"].as_str().unwrap().contains("Write"), "{failed:#}");
    for a in &advice {
        let snippet = a["snippet"].as_str().unwrap_or_default();
        assert!(!snippet.contains("\"Bash|Write|Edit|MultiEdit|NotebookEdit\""), "a matcher that drops Read: {a:#}");
    }
}
