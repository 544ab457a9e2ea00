//! Audit learns where a guard keeps state and runs it under the state
//! faults (issue 47, "Stateful guards"): its state read-only
//! (`state-unwritable`) and its state file corrupt (`state-corrupt`). Real
//! binary, real Claude Code (the pinned 2.1.328), in the sandbox.
//!
//! The project has three PreToolUse hooks, each the write budget of
//! `guards/budget.sh` adapted (python3, budget 0: every write refused until
//! a human grants more, so the audit has a refused write to fault under):
//! - H1 keeps its budget in `~/.write-budget/state.json` and trusts it, as
//!   `budget.sh` does: no `try`. Expected, with the reasoning:
//!   - its state is found at `~/.write-budget/state.json` (its screens, run
//!     with the user's HOME, write it there; the sandbox keeps that HOME a
//!     throwaway one, so the user's own is untouched);
//!   - `state-corrupt`: `json.load` of garbage raises (a UnicodeDecodeError on
//!     the bytes no UTF-8 reader accepts), Python exits 1, and Claude Code
//!     runs the call on a hook error: `wrote`, a hole, through Bash and Write;
//!   - `state-unwritable`: its directory is bound read-only, so writing the
//!     temporary file fails with EROFS ("Read-only file system", though the
//!     machine runs as root: a mode bit would not have stopped it), exit 1:
//!     `wrote`, a hole;
//!   - its sealed fix (`failopen seal`) turns each exit 1 into a refusal: the
//!     re-check runs the four state holes on the sealed copy and each is
//!     `blocked`.
//! - H2 keeps its budget in the project (`.claude/budget/state.json`) and
//!   treats a state it cannot read or write as "refuse" (every step inside a
//!   `try`, exit 2 with the reason). Expected: its state is found at
//!   `./.claude/budget/state.json`; under both state faults it refuses (exit
//!   2, the reason naming the state): `blocked`, no state hole.
//! - H3 refuses every Write and keeps no state: no state is listed for it,
//!   and it has no state cells (no state columns of its own).
//!
//! Nothing outside the sessions' temp roots changes: the user's HOME and
//! project get no state file.

use std::path::Path;

use serde_json::{json, Value};

use super::audit_probes::audit;

/// H1: trusts its state (no `try`): a state it cannot read or write is a traceback, exit 1.
const TRUSTING: &str = r#"#!/usr/bin/env python3
import json, os, sys
d = os.path.join(os.environ["HOME"], ".write-budget")
state = os.path.join(d, "state.json")
os.makedirs(d, exist_ok=True)
s = {"writes_left": 0, "calls": 0}
if os.path.exists(state):
    with open(state) as f:
        s = json.load(f)
left = s["writes_left"]
s["writes_left"] = max(left - 1, 0)
s["calls"] = s.get("calls", 0) + 1
with open(state + ".tmp", "w") as f:
    json.dump(s, f)
os.replace(state + ".tmp", state)
if left > 0:
    sys.exit(0)
print("BLOCKED: the write budget is spent", file=sys.stderr)
sys.exit(2)
"#;

/// H2: a state it cannot read or write is a refusal (exit 2).
const FAIL_CLOSED: &str = r#"#!/usr/bin/env python3
import json, os, sys
try:
    d = os.path.join(os.environ["CLAUDE_PROJECT_DIR"], ".claude", "budget")
    state = os.path.join(d, "state.json")
    os.makedirs(d, exist_ok=True)
    s = {"writes_left": 0, "calls": 0}
    if os.path.exists(state):
        with open(state) as f:
            s = json.load(f)
    left = s["writes_left"]
    s["writes_left"] = max(left - 1, 0)
    s["calls"] = s.get("calls", 0) + 1
    with open(state + ".tmp", "w") as f:
        json.dump(s, f)
    os.replace(state + ".tmp", state)
except Exception as e:
    print(f"BLOCKED: the budget's state is unusable ({type(e).__name__}: {e})", file=sys.stderr)
    sys.exit(2)
if left > 0:
    sys.exit(0)
print("BLOCKED: the write budget is spent", file=sys.stderr)
sys.exit(2)
"#;

/// H3: refuses every write, keeps nothing.
const STATELESS: &str = "#!/bin/sh\necho 'BLOCKED: no writes' >&2\nexit 2\n";

fn project(d: &Path) -> (std::path::PathBuf, std::path::PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    let (project, home) = (d.join("project"), d.join("home"));
    std::fs::create_dir_all(project.join(".claude/hooks")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    for (name, body) in [("trusting.py", TRUSTING), ("fail_closed.py", FAIL_CLOSED), ("stateless.sh", STATELESS)] {
        let script = project.join(".claude/hooks").join(name);
        std::fs::write(&script, body).unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let hook = |c: &str| json!({"type": "command", "command": c, "timeout": 5});
    let settings = json!({"hooks": {"PreToolUse": [
        {"matcher": "Bash|Write", "hooks": [hook("python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/trusting.py")]},
        {"matcher": "Bash|Write", "hooks": [hook("python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/fail_closed.py")]},
        {"matcher": "Write", "hooks": [hook("\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/stateless.sh")]}]}});
    std::fs::write(project.join(".claude/settings.json"), serde_json::to_string_pretty(&settings).unwrap()).unwrap();
    (project, home)
}

/// The cells of `hook` under `fault`: (tool, result, guard_error).
fn cells<'a>(a: &'a Value, hook: &str, fault: &str) -> Vec<(&'a str, &'a str, &'a str)> {
    a["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["hook"] == hook && c["fault"] == fault)
        .map(|c| {
            (
                c["tool"].as_str().unwrap_or_default(),
                c["result"].as_str().unwrap_or_default(),
                c["guard_error"].as_str().unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn a_stateful_guard_is_run_under_its_state_read_only_and_corrupt() {
    let d = tempfile::tempdir().unwrap();
    let (project, home) = project(d.path());
    let (out, v) = audit(&project, &home, &[]);
    let a = &v["agents"][0];
    let all = format!("{a:#}");
    assert_eq!(out.status.code(), Some(3), "holes: exit 3\n{}", String::from_utf8_lossy(&out.stderr));

    // Where each keeps state: found by its screens; none for the stateless guard.
    let state: Vec<(&str, &str, &str)> = a["state"]
        .as_array()
        .unwrap_or_else(|| panic!("no state listed: {all}"))
        .iter()
        .map(|s| (s["hook"].as_str().unwrap(), s["place"].as_str().unwrap(), s["path"].as_str().unwrap()))
        .collect();
    assert_eq!(
        state,
        [("H1", "home", ".write-budget/state.json"), ("H2", "project", ".claude/budget/state.json")],
        "{all}"
    );

    // H1 trusts its state: each state fault is a traceback (exit 1), and the write goes through.
    for fault in ["state-unwritable", "state-corrupt"] {
        let c = cells(a, "H1", fault);
        assert_eq!(c.iter().map(|c| (c.0, c.1)).collect::<Vec<_>>(), [("Bash", "wrote"), ("Write", "wrote")], "{all}");
        let why = if fault == "state-unwritable" { "Read-only file system" } else { "DecodeError" };
        assert!(c.iter().all(|c| c.2.starts_with("exit 1") && c.2.contains(why)), "{fault}: {c:?}");
        let holes = a["holes"].as_array().unwrap();
        assert_eq!(holes.iter().filter(|h| h["hook"] == "H1" && h["fault"] == fault).count(), 2, "{all}");
    }
    // H2 refuses a state it cannot use: held under both, with its reason on record (blocked needs the evidence).
    for fault in ["state-unwritable", "state-corrupt"] {
        let c = cells(a, "H2", fault);
        assert_eq!(
            c.iter().map(|c| (c.0, c.1)).collect::<Vec<_>>(),
            [("Bash", "blocked"), ("Write", "blocked")],
            "{fault}: {all}"
        );
    }
    assert!(!a["holes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|h| h["hook"] == "H2" && h["fault"].as_str().is_some_and(|f| f.starts_with("state-"))));
    // H3 keeps no state: no state cell at all.
    let h3: Vec<&Value> = a["cells"].as_array().unwrap().iter().filter(|c| c["hook"] == "H3").collect();
    assert!(!h3.is_empty(), "{all}");
    assert!(!h3.iter().any(|c| c["fault"].as_str().is_some_and(|f| f.starts_with("state-"))), "{all}");

    // The sealed fix's re-check re-runs H1's state holes, and seal refuses each.
    let recheck = a["rechecks"].as_array().unwrap().iter().find(|r| r["hook"] == "H1").expect("H1 re-checked");
    let state_cells: Vec<(&str, &str, &str)> = recheck["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["fault"].as_str().is_some_and(|f| f.starts_with("state-")))
        .map(|c| (c["tool"].as_str().unwrap(), c["fault"].as_str().unwrap(), c["result"].as_str().unwrap()))
        .collect();
    assert_eq!(
        state_cells,
        [
            ("Bash", "state-unwritable", "blocked"),
            ("Bash", "state-corrupt", "blocked"),
            ("Write", "state-unwritable", "blocked"),
            ("Write", "state-corrupt", "blocked"),
        ],
        "{recheck:#}"
    );
    assert!(recheck["changes"].as_array().unwrap().iter().any(|c| c["kind"] == "seal"), "{recheck:#}");

    // Nothing of the user's changed: no state in their HOME or project.
    assert_eq!(std::fs::read_dir(&home).unwrap().count(), 0, "the user's HOME is untouched");
    assert!(!project.join(".claude/budget").exists(), "the user's project is untouched");
}
