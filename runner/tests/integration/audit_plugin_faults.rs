//! `failopen audit` of an OpenCode plugin guard in real sessions (issue 47):
//! the real binary, a throwaway project with a guard plugin in
//! `.opencode/plugins/`, and the pinned OpenCode from failopen's cache, driven
//! by the stand-in. Each fault is applied to a copy of the plugin in the
//! audit's temp root; the user's file is only read.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::audit_agents::{cell, holes_and_recheck, json};
use crate::support::failopen;

/// `failopen audit ARGS --format json -j 2`, as `audit_agents::audit` runs it
/// but without the exclusive sessions lock: most of this audit is its `hang`
/// session waiting out the 300 s session timeout with the CPU idle, and
/// holding every other session test off for it would add those minutes to a
/// one-process `cargo test` run (CI's).
fn audit(cwd: &Path, home: &Path, args: &[&str]) -> Output {
    let cache = std::env::var_os("FAILOPEN_CACHE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cache/failopen"));
    let mut cmd = failopen();
    cmd.current_dir(cwd).arg("audit").args(args).args(["--format", "json", "-j", "2"]);
    cmd.env("HOME", home).env("FAILOPEN_CACHE", cache);
    cmd.timeout(std::time::Duration::from_secs(900)).output().unwrap()
}

/// A guard plugin that refuses every write: its `tool.execute.before`
/// throws with its own message for `bash`, `write` and `edit`.
const WRITE_GUARD: &str = "// refuses every write\n\
export const WriteGuard = async () => ({\n  \
  \"tool.execute.before\": async (input) => {\n    \
    if ([\"bash\", \"write\", \"edit\"].includes(input.tool)) throw new Error(\"write-guard: refusing \" + input.tool);\n  \
  },\n\
});\n";

/// Expected on real OpenCode 1.18.33, with the reasoning (docs/opencode.md,
/// docs/audit.md):
/// - as written, it refuses both write calls (`bash`, then `write`) with its
///   own message, the first observer seeing each call and the second not:
///   `blocked`;
/// - `throw`: OpenCode fails a call whose hook throws, whatever it throws:
///   `blocked` (it fails closed);
/// - `hang`: OpenCode awaits the hook with no timeout; the session is ended
///   at audit's session timeout with nothing written and nothing refused:
///   `invalid` (`hang: ...`), never `blocked`;
/// - `syntax-error`, `no-export`, `no-deps`: OpenCode drops a plugin that
///   fails to load, silently, and runs both calls: `wrote`, three
///   `fails-open` holes;
/// - so the guard is `open`, and the audit exits 3;
/// - the user's plugin file is untouched, and nothing of the faults lands in
///   the project.
#[test]
fn an_opencode_plugin_guard_runs_under_each_plugin_fault_on_real_opencode() {
    let t = tempfile::tempdir().unwrap();
    let (root, home) = (t.path().join("project"), t.path().join("home"));
    std::fs::create_dir_all(root.join(".opencode/plugins")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let plugin = root.join(".opencode/plugins/guard.js");
    std::fs::write(&plugin, WRITE_GUARD).unwrap();

    let out = audit(&root, &home, &["--opencode", "1.18.33"]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(3), "holes: exit 3; {v:#}");
    let a = &v["agents"][0];
    assert_eq!((a["agent"].as_str(), a["version"].as_str()), (Some("opencode"), Some("1.18.33")), "{a}");
    let writes = "bash+write";
    assert_eq!(cell(a, "O1", writes, "none"), "blocked", "as written it refuses: {a:#}");
    assert_eq!(cell(a, "O1", writes, "throw"), "blocked", "any throw refuses: {a:#}");
    assert_eq!(cell(a, "O1", writes, "hang"), "invalid", "a hang is never blocked: {a:#}");
    let hang = a["cells"].as_array().unwrap().iter().find(|c| c["fault"] == "hang").unwrap();
    assert!(hang["detail"].as_str().unwrap().starts_with("hang:"), "{hang}");
    let (holes, _) = holes_and_recheck(a);
    for fault in ["syntax-error", "no-export", "no-deps"] {
        assert_eq!(cell(a, "O1", writes, fault), "wrote", "{fault}: dropped at load: {a:#}");
        assert!(holes.contains(&("fails-open".into(), writes.into(), fault.into())), "{fault}: {holes:?}");
    }
    assert_eq!(holes.len(), 3, "{holes:?}");
    let g = &a["guards"][0];
    assert_eq!((g["hook"].as_str(), g["status"].as_str()), (Some("O1"), Some("open")), "{g}");
    assert_eq!(std::fs::read_to_string(&plugin).unwrap(), WRITE_GUARD, "the user's plugin is only read");
    let entries: Vec<String> = std::fs::read_dir(root.join(".opencode"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(entries, ["plugins"], "no copy, observer or seed lands in the project");
    assert!(!root.join("notes.txt").exists());
}
