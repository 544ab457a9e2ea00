//! The faults real guards have (issue 28 §3), on real Claude Code 2.1.328:
//! the guard's launcher missing from the hook's PATH (`no-launcher`) and its
//! dependencies missing (`no-deps`), each injected without touching the
//! user's files, each judged by the world on disk under a refused probe.
//!
//! Expected, with the reasoning (measured first with `failopen audit -j 2`
//! on the same project):
//! - `node .../guard.js` and `python3 .../guard.py`, both refusing
//!   `git reset --hard` with exit 2: with `node` (or `python3`) gone from the
//!   PATH the hook gets, `/bin/sh` cannot find it and exits 127, which
//!   Claude Code reads as a non-blocking error: the reset runs, the
//!   uncommitted change is lost: `no-launcher` **wrote** for both;
//! - neither script has a `node_modules` or virtualenv beside it, so
//!   `no-deps` does not apply: skipped with the reason, and no column;
//! - a node guard that `require`s a package from the `node_modules` beside it:
//!   run from a copy of its folder without `node_modules`, `require` throws,
//!   node exits 1, the reset runs: `no-deps` **wrote**; and the user's
//!   `node_modules` is still there after the audit.

use std::path::Path;

use serde_json::{json, Value};

use crate::audit_probes::{audit, result};

const NODE_GUARD: &str = r#"let s = ''; process.stdin.on('data', d => s += d).on('end', () => {
  const c = (JSON.parse(s).tool_input || {}).command || '';
  if (/git\s+reset\s+--hard/.test(c)) { console.error('blocked: git reset --hard'); process.exit(2); }
  process.exit(0);
});
"#;

const PYTHON_GUARD: &str = r#"import json, re, sys
c = (json.load(sys.stdin).get("tool_input") or {}).get("command", "")
if re.search(r"git\s+reset\s+--hard", c):
    print("blocked: git reset --hard", file=sys.stderr)
    sys.exit(2)
sys.exit(0)
"#;

/// A node guard whose rule comes from a package in the `node_modules` beside it.
const NODE_GUARD_WITH_DEP: &str = r#"const rule = require('reset-rule');
let s = ''; process.stdin.on('data', d => s += d).on('end', () => {
  const c = (JSON.parse(s).tool_input || {}).command || '';
  if (rule.test(c)) { console.error('blocked: git reset --hard'); process.exit(2); }
  process.exit(0);
});
"#;

fn write(p: &Path, text: &str) {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

fn cells_for(v: &Value, hook: &str, fault: &str) -> Vec<(String, String)> {
    v["agents"][0]["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["hook"] == hook && c["fault"] == fault)
        .map(|c| (c["tool"].as_str().unwrap().to_string(), c["result"].as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn a_node_and_a_python3_guard_fail_open_without_their_interpreter_and_a_guard_without_its_node_modules() {
    let d = tempfile::tempdir().unwrap();
    let (project, home) = (d.path().join("project"), d.path().join("home"));
    std::fs::create_dir_all(&home).unwrap();
    let hooks = project.join(".claude/hooks");
    write(&hooks.join("guard.js"), NODE_GUARD);
    write(&hooks.join("guard.py"), PYTHON_GUARD);
    let dep = project.join("tools/dep-guard");
    write(&dep.join("guard.js"), NODE_GUARD_WITH_DEP);
    write(&dep.join("node_modules/reset-rule/index.js"), "module.exports = /git\\s+reset\\s+--hard/;\n");
    let hook =
        |command: &str| json!({"matcher": "Bash", "hooks": [{"type": "command", "command": command, "timeout": 10}]});
    let settings = json!({"hooks": {"PreToolUse": [
        hook("node \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.js"),
        hook("python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.py"),
        hook("node \"$CLAUDE_PROJECT_DIR\"/tools/dep-guard/guard.js"),
    ]}});
    write(&project.join(".claude/settings.json"), &settings.to_string());
    let (out, v) = audit(&project, &home, &[]);
    assert_eq!(out.status.code(), Some(3), "{v:#}");
    let probe = "Bash:git-reset-hard";
    for h in ["H1", "H2", "H3"] {
        assert_eq!(result(&v, h, probe, "none"), "blocked", "{h} refuses the reset as configured: {v:#}");
        assert_eq!(result(&v, h, probe, "no-launcher"), "wrote", "{h} without its interpreter on PATH: {v:#}");
    }
    for h in ["H1", "H2"] {
        let skipped = cells_for(&v, h, "no-deps");
        assert!(!skipped.is_empty() && skipped.iter().all(|(_, r)| r == "skipped"), "{h}: {skipped:?}");
    }
    assert_eq!(result(&v, "H3", probe, "no-deps"), "wrote", "required package gone: {v:#}");
    let holes: Vec<(String, String)> = v["agents"][0]["holes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["hook"].as_str().unwrap().to_string(), h["fault"].as_str().unwrap().to_string()))
        .collect();
    for h in ["H1", "H2", "H3"] {
        assert!(holes.contains(&(h.to_string(), "no-launcher".to_string())), "{h}: {holes:?}");
    }
    assert!(holes.contains(&("H3".to_string(), "no-deps".to_string())), "{holes:?}");
    assert!(dep.join("node_modules/reset-rule/index.js").is_file(), "the user's node_modules is untouched");
}
