//! The same audit, run three times on the same tree, gives the same answer
//! (issue 43: "the same answer every time"). The project is the shape of the
//! flake the issue describes: a Bash guard (python3, refuses `git reset
//! --hard` and `rm -rf`) and an Edit/Write guard (refuses writes to `.env`),
//! each covering what the other's matcher does not.
//!
//! Expected, with the reasoning: nothing in an audit's verdicts depends on
//! timing but the `hang` fault, which waits out the hook's `timeout` (5 s,
//! far from the guard's few milliseconds), so every verdict, cell, screen,
//! hole and the exit code are equal across the runs. A cell the sessions
//! cannot settle is `invalid` with its reason, the same reason each time.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};

use super::audit_probes::audit;

const BASH_GUARD: &str = r#"#!/usr/bin/env python3
import json, re, sys
d = json.load(sys.stdin)
cmd = d.get("tool_input", {}).get("command", "")
if re.search(r"git\s+reset\s+--hard|rm\s+-rf", cmd):
    print("BLOCKED: destructive command", file=sys.stderr)
    sys.exit(2)
sys.exit(0)
"#;

const ENV_GUARD: &str =
    "#!/bin/sh\nif grep -q '\"file_path\":\"[^\"]*\\.env\"'; then echo 'BLOCKED: .env' >&2; exit 2; fi\nexit 0\n";

fn project(d: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let (project, home) = (d.join("project"), d.join("home"));
    std::fs::create_dir_all(project.join(".claude/hooks")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    for (name, body) in [("bash_guard.py", BASH_GUARD), ("env_guard.sh", ENV_GUARD)] {
        let script = project.join(".claude/hooks").join(name);
        std::fs::write(&script, body).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let settings = json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command",
            "command": "python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/bash_guard.py", "timeout": 5}]},
        {"matcher": "Write|Edit|MultiEdit", "hooks": [{"type": "command",
            "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/env_guard.sh", "timeout": 5}]}]}});
    std::fs::write(project.join(".claude/settings.json"), serde_json::to_string_pretty(&settings).unwrap()).unwrap();
    (project, home)
}

/// Every verdict-like value in the report, by its path: whatever the report's
/// shape, the answer is what these keys hold.
fn answers(v: &Value, path: &str, out: &mut BTreeMap<String, Value>) {
    const KEYS: [&str; 8] = ["status", "result", "refused", "exit_code", "verdict", "reason", "code", "severity"];
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                let here = format!("{path}.{k}");
                if KEYS.contains(&k.as_str()) && !x.is_object() && !x.is_array() {
                    out.insert(here, x.clone());
                } else {
                    answers(x, &here, out);
                }
            }
        }
        Value::Array(items) => {
            out.insert(format!("{path}.len"), json!(items.len()));
            for (i, x) in items.iter().enumerate() {
                answers(x, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn three_runs_of_one_audit_give_the_same_answer() {
    let d = tempfile::tempdir().unwrap();
    let (project, home) = project(d.path());
    let runs: Vec<(Option<i32>, BTreeMap<String, Value>)> = (0..3)
        .map(|_| {
            let (out, v) = audit(&project, &home, &[]);
            let mut a = BTreeMap::new();
            answers(&v, "", &mut a);
            (out.status.code(), a)
        })
        .collect();
    // The guards were exercised: the Bash guard's refusal is seen, and a fault opens it.
    let (code, first) = &runs[0];
    assert_eq!(*code, Some(3), "{first:#?}");
    assert!(first.values().any(|x| x == "open"), "{first:#?}");
    assert!(first.len() > 50, "too few answers read: is the report's shape still walked? {first:#?}");
    for (n, (code_n, run)) in runs.iter().enumerate().skip(1) {
        assert_eq!(code_n, code, "run {} exit", n + 1);
        let differ: Vec<String> = first
            .keys()
            .chain(run.keys())
            .collect::<std::collections::BTreeSet<_>>()
            .into_iter()
            .filter(|k| first.get(*k) != run.get(*k))
            .map(|k| format!("{k}: run 1 {:?}, run {} {:?}", first.get(k), n + 1, run.get(k)))
            .collect();
        assert!(differ.is_empty(), "run {} differs from run 1:\n{}", n + 1, differ.join("\n"));
    }
}
