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

/// How long each plugin session may run: a healthy one takes about 10 s
/// here, so the `hang` fault, which waits it out, costs this much, not the
/// default 300 s.
const PLUGIN_TIMEOUT: &str = "150";

/// Expected on real OpenCode 1.18.33 and Kilo CLI 7.7.7 (OpenCode's session
/// code, Kilo's names), with the reasoning (docs/opencode.md, docs/kilo.md,
/// docs/audit.md):
/// - as written, it refuses both write calls (`bash`, then `write`) with its
///   own message, the first observer seeing each call and the second not:
///   `blocked`;
/// - `throw`: the agent fails a call whose hook throws, whatever it throws:
///   `blocked` (it fails closed);
/// - `hang`: the agent awaits the hook with no timeout; the session is ended
///   at `--plugin-timeout` with nothing written and nothing refused:
///   `invalid` (`hang: ...`), never `blocked`;
/// - `syntax-error`, `no-export`, `no-deps`: the agent drops a plugin that
///   fails to load, silently, and runs both calls: `wrote`, three
///   `fails-open` holes;
/// - so the guard is `open`, and the audit exits 3;
/// - the user's plugin file is untouched, and nothing of the faults lands in
///   the project.
fn a_plugin_guard_runs_under_each_plugin_fault(config_dir: &str, version_flag: &str, version: &str, agent: &str) {
    let t = tempfile::tempdir().unwrap();
    let (root, home) = (t.path().join("project"), t.path().join("home"));
    std::fs::create_dir_all(root.join(config_dir).join("plugins")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    let plugin = root.join(config_dir).join("plugins/guard.js");
    std::fs::write(&plugin, WRITE_GUARD).unwrap();

    let out = audit(&root, &home, &[version_flag, version, "--plugin-timeout", PLUGIN_TIMEOUT]);
    let v = json(&out);
    assert_eq!(out.status.code(), Some(3), "holes: exit 3; {v:#}");
    let a = &v["agents"][0];
    assert_eq!((a["agent"].as_str(), a["version"].as_str()), (Some(agent), Some(version)), "{a}");
    let id = a["cells"][0]["hook"].as_str().unwrap().to_string();
    let writes = "bash+write";
    assert_eq!(cell(a, &id, writes, "none"), "blocked", "as written it refuses: {a:#}");
    assert_eq!(cell(a, &id, writes, "throw"), "blocked", "any throw refuses: {a:#}");
    assert_eq!(cell(a, &id, writes, "hang"), "invalid", "a hang is never blocked: {a:#}");
    let hang = a["cells"].as_array().unwrap().iter().find(|c| c["fault"] == "hang").unwrap();
    let detail = hang["detail"].as_str().unwrap();
    assert!(detail.starts_with(&format!("hang: the session did not end within {PLUGIN_TIMEOUT} s")), "{hang}");
    let (holes, _) = holes_and_recheck(a);
    for fault in ["syntax-error", "no-export", "no-deps"] {
        assert_eq!(cell(a, &id, writes, fault), "wrote", "{fault}: dropped at load: {a:#}");
        assert!(holes.contains(&("fails-open".into(), writes.into(), fault.into())), "{fault}: {holes:?}");
    }
    assert_eq!(holes.len(), 3, "{holes:?}");
    let g = &a["guards"][0];
    assert_eq!((g["hook"].as_str(), g["status"].as_str()), (Some(id.as_str()), Some("open")), "{g}");
    assert_eq!(std::fs::read_to_string(&plugin).unwrap(), WRITE_GUARD, "the user's plugin is only read");
    let entries: Vec<String> = std::fs::read_dir(root.join(config_dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(entries, ["plugins"], "no copy, observer or seed lands in the project");
    assert!(!root.join("notes.txt").exists());
}

#[test]
fn an_opencode_plugin_guard_runs_under_each_plugin_fault_on_real_opencode() {
    a_plugin_guard_runs_under_each_plugin_fault(".opencode", "--opencode", "1.18.33", "opencode");
}

#[test]
fn a_kilo_plugin_guard_runs_under_each_plugin_fault_on_real_kilo() {
    a_plugin_guard_runs_under_each_plugin_fault(".kilo", "--kilo", "7.7.7", "kilo");
}

#[test]
fn a_plugin_timeout_out_of_range_is_refused_naming_the_range() {
    for bad in ["5", "abc", "4000"] {
        let out = failopen().args(["audit", "--plugin-timeout", bad]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("--plugin-timeout") && stderr.contains("from 10 to 3600"), "{stderr}");
    }
}
