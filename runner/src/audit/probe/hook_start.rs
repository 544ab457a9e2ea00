//! How the agent starts a hook's command, so that audit's sessions and its
//! direct screens start it the same way: the variables it sets and the
//! directory it runs in.
//!
//! Measured on Claude Code 2.1.328 with a census hook (a command that
//! records its environment's names and its working directory) in a real
//! `claude -p` session: `runner/tests/fixtures/hook-start/claude-2.1.328.txt`,
//! checked by [`tests`] and the integration test `audit_hook_start`:
//!
//! - every hook runs in the project directory (the session's working
//!   directory), with `CLAUDE_PROJECT_DIR` set to it;
//! - a plugin's hook also gets `CLAUDE_PLUGIN_ROOT` (the directory the
//!   plugin is loaded from: for a `directory` marketplace its source
//!   directory, not the cache copy) and `CLAUDE_PLUGIN_DATA`
//!   (`~/.claude/plugins/data/<name>-<marketplace>`).
//!
//! Audit's sessions run in a throwaway directory, so the hook's command is
//! started from a **copy of the project** ([`project_copy`]: its own files,
//! rule files and configs beside the guard; dependency folders and big
//! files linked, `.git` left out), with `CLAUDE_PROJECT_DIR` set to that
//! copy and the plugin's variables set as Claude Code sets them. The values
//! travel in the session's environment ([`env`]) and are assigned in front
//! of the command ([`prefix`]): a path is never spliced into the command text.

use std::path::{Path, PathBuf};

use crate::audit::intake::config::PluginRun;

/// The variable holding the project directory (the copy) in an audit session.
pub const PROJECT_VAR: &str = "FAILOPEN_AUDIT_PROJECT_DIR";
/// The variable holding the user's real HOME in an audit session (the
/// session's own HOME is a throwaway one).
pub const HOME_VAR: &str = "FAILOPEN_AUDIT_HOME";
/// The variable holding a plugin hook's `CLAUDE_PLUGIN_ROOT`.
pub const PLUGIN_ROOT_VAR: &str = "FAILOPEN_AUDIT_PLUGIN_ROOT";
/// The variable holding a plugin hook's `CLAUDE_PLUGIN_DATA`.
pub const PLUGIN_DATA_VAR: &str = "FAILOPEN_AUDIT_PLUGIN_DATA";

/// The variables Claude Code 2.1.328 gives every hook, and a plugin's hook
/// besides, that depend on where the hook comes from (measured; the others,
/// such as `CLAUDECODE` and `CLAUDE_CODE_SESSION_ID`, the session sets for
/// every hook alike, audit's sessions included).
pub const EVERY_HOOK_VARS: &[&str] = &["CLAUDE_PROJECT_DIR"];
/// See [`EVERY_HOOK_VARS`].
pub const PLUGIN_HOOK_VARS: &[&str] = &["CLAUDE_PLUGIN_ROOT", "CLAUDE_PLUGIN_DATA"];

/// The most bytes of the project copied (beyond: linked).
const MAX_COPY_BYTES: u64 = 32 << 20;
/// A file bigger than this is linked, not copied.
const MAX_FILE_BYTES: u64 = 1 << 20;
/// The most entries copied (beyond: linked).
const MAX_ENTRIES: usize = 5_000;
/// Folders deeper than this are linked, not copied.
const MAX_DEPTH: usize = 8;
/// Folders linked, not copied: a guard's dependencies, as installed.
const LINKED_DIRS: &[&str] = &["node_modules", ".venv", "venv", "env", ".tox", "target", "dist", "build"];
/// Folders left out.
const LEFT_OUT: &[&str] = &[".git"];

/// The shell text put in front of a hook's command: `CLAUDE_PROJECT_DIR`
/// (and `HOME` with `user_home`, and the plugin's variables with `plugin`)
/// set from the session's environment, and the project (copy) as the
/// working directory. Plain assignments from variables: no word splitting,
/// no re-parsing of the values.
pub fn prefix(user_home: bool, plugin: Option<&PluginRun>) -> String {
    let mut out = format!(
        "CLAUDE_PROJECT_DIR=\"${PROJECT_VAR}\"; export CLAUDE_PROJECT_DIR; cd \"$CLAUDE_PROJECT_DIR\" || exit 1; "
    );
    if user_home {
        out.push_str(&format!("HOME=\"${HOME_VAR}\"; export HOME; "));
    }
    if let Some(p) = plugin {
        out.push_str(&format!("CLAUDE_PLUGIN_ROOT=\"${PLUGIN_ROOT_VAR}\"; export CLAUDE_PLUGIN_ROOT; "));
        if p.data.is_some() {
            out.push_str(&format!("CLAUDE_PLUGIN_DATA=\"${PLUGIN_DATA_VAR}\"; export CLAUDE_PLUGIN_DATA; "));
        }
    }
    out
}

/// The session environment [`prefix`] reads: the project (copy) `project`,
/// the user's `home`, and the plugin's directories.
pub fn env(project: &Path, home: Option<&Path>, plugin: Option<&PluginRun>) -> Vec<(String, String)> {
    let s = |p: &Path| p.to_string_lossy().into_owned();
    let mut env = vec![(PROJECT_VAR.to_string(), s(project))];
    if let Some(h) = home {
        env.push((HOME_VAR.to_string(), s(h)));
    }
    if let Some(p) = plugin {
        env.push((PLUGIN_ROOT_VAR.to_string(), s(&p.root)));
        if let Some(d) = &p.data {
            env.push((PLUGIN_DATA_VAR.to_string(), s(d)));
        }
    }
    env
}

/// A copy of `project` under `under`, made once per audit (built aside,
/// then renamed into place, so concurrent sessions share one whole copy):
/// its files, with `.git` left out, and dependency folders
/// ([`LINKED_DIRS`]), big files and whatever passes the size budget linked
/// to the original. A hook that reads its rules or config from the project
/// finds them; one that writes there writes into the copy.
pub fn project_copy(under: &Path, project: &Path) -> std::io::Result<PathBuf> {
    let name: String =
        project.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    let name: String = name.chars().rev().take(60).collect::<Vec<_>>().into_iter().rev().collect();
    let hash = project
        .to_string_lossy()
        .bytes()
        .fold(0xcbf29ce484222325_u64, |h, b| (h ^ b as u64).wrapping_mul(0x100000001b3));
    let copy = under.join(format!("project-{hash:016x}-{name}"));
    if copy.is_dir() {
        return Ok(copy);
    }
    std::fs::create_dir_all(under)?;
    let aside = tempfile::Builder::new().prefix(".project-").tempdir_in(under)?;
    let mut budget = Budget { bytes: MAX_COPY_BYTES, entries: MAX_ENTRIES };
    copy_dir(project, aside.path(), 0, &mut budget)?;
    let built = aside.keep();
    if std::fs::rename(&built, &copy).is_err() {
        // Another session built it first: use theirs.
        let _ = std::fs::remove_dir_all(&built);
    }
    Ok(copy)
}

struct Budget {
    bytes: u64,
    entries: usize,
}

fn copy_dir(from: &Path, to: &Path, depth: usize, budget: &mut Budget) -> std::io::Result<()> {
    std::fs::create_dir_all(to)?;
    let Ok(entries) = std::fs::read_dir(from) else { return Ok(()) };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let name = e.file_name();
        let (src, dst) = (e.path(), to.join(&name));
        if LEFT_OUT.iter().any(|n| name == *n) {
            continue;
        }
        let Ok(kind) = e.file_type() else { continue };
        if kind.is_symlink() {
            if let Ok(target) = std::fs::read_link(&src) {
                let _ = std::os::unix::fs::symlink(target, &dst);
            }
            continue;
        }
        let over = budget.entries == 0;
        budget.entries = budget.entries.saturating_sub(1);
        if kind.is_dir() {
            if over || depth >= MAX_DEPTH || LINKED_DIRS.iter().any(|n| name == *n) {
                std::os::unix::fs::symlink(&src, &dst)?;
            } else {
                copy_dir(&src, &dst, depth + 1, budget)?;
            }
        } else if kind.is_file() {
            let len = e.metadata().map(|m| m.len()).unwrap_or(u64::MAX);
            if over || len > MAX_FILE_BYTES || len > budget.bytes || std::fs::copy(&src, &dst).is_err() {
                let _ = std::fs::remove_file(&dst);
                std::os::unix::fs::symlink(&src, &dst)?;
            } else {
                budget.bytes -= len;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a census hook recorded in a real `claude -p` session of Claude
    /// Code 2.1.328 (stand-in; one project hook, one `--plugin-dir` plugin
    /// hook, one hook of a plugin installed from a directory marketplace):
    /// see the fixture's header for how it was made.
    const RECORD: &str = include_str!("../../../tests/fixtures/hook-start/claude-2.1.328.txt");

    /// `name` → (cwd, the CLAUDE_* variables with their values), per hook.
    fn recorded(label: &str) -> (String, Vec<(String, String)>) {
        let block: Vec<&str> = RECORD
            .split("== ")
            .find(|b| b.starts_with(&format!("{label}\n")))
            .unwrap_or_else(|| panic!("no {label} in the record"))
            .lines()
            .collect();
        let cwd = block.iter().find_map(|l| l.strip_prefix("cwd=")).unwrap().to_string();
        let vars = block
            .iter()
            .filter(|l| l.starts_with("CLAUDE_P"))
            .filter_map(|l| l.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        (cwd, vars)
    }

    /// Run `command` with [`prefix`] and [`env`] as a session would, and
    /// record what a census hook records: its cwd and CLAUDE_P* variables.
    fn run_as_audit(project: &Path, home: &Path, plugin: Option<&PluginRun>) -> (String, Vec<(String, String)>) {
        let census = "printf 'cwd=%s\\n' \"$(pwd)\"; env | grep '^CLAUDE_P' | sort";
        let out = std::process::Command::new("/bin/sh")
            .arg("-c")
            .arg(format!("{}{census}", prefix(true, plugin)))
            .current_dir("/")
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .envs(env(project, Some(home), plugin))
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let cwd = text.lines().find_map(|l| l.strip_prefix("cwd=")).unwrap().to_string();
        let vars = text
            .lines()
            .filter_map(|l| l.split_once('='))
            .filter(|(k, _)| k.starts_with("CLAUDE_P"))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        (cwd, vars)
    }

    fn names(vars: &[(String, String)]) -> Vec<&str> {
        vars.iter().map(|(k, _)| k.as_str()).collect()
    }

    #[test]
    fn audit_starts_a_project_hook_and_a_plugin_hook_as_claude_code_2_1_328_did() {
        let d = tempfile::tempdir().unwrap();
        let (project, home) = (d.path().join("proj"), d.path().join("home"));
        std::fs::create_dir_all(project.join(".claude")).unwrap();
        // The record: the project hook ran in the project with CLAUDE_PROJECT_DIR = it.
        let (cwd, vars) = recorded("project");
        assert_eq!(names(&vars), EVERY_HOOK_VARS);
        assert_eq!(vars[0].1, cwd, "CLAUDE_PROJECT_DIR is the hook's working directory");
        // Audit: the same names, and the same relation, in the copy.
        let (a_cwd, a_vars) = run_as_audit(&project, &home, None);
        assert_eq!(names(&a_vars), names(&vars));
        assert_eq!(a_vars[0].1, a_cwd);
        // The plugin hooks: the same plus CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA.
        for label in ["plugin-dir", "plugin-directory-marketplace"] {
            let (cwd, vars) = recorded(label);
            let mut want: Vec<&str> = EVERY_HOOK_VARS.iter().chain(PLUGIN_HOOK_VARS).copied().collect();
            want.sort();
            assert_eq!(names(&vars), want, "{label}");
            let get = |v: &[(String, String)], k: &str| v.iter().find(|(n, _)| n == k).unwrap().1.clone();
            assert_eq!(get(&vars, "CLAUDE_PROJECT_DIR"), cwd);
            let plugin = PluginRun { root: d.path().join("plug"), data: Some(home.join(".claude/plugins/data/p-m")) };
            let (a_cwd, a_vars) = run_as_audit(&project, &home, Some(&plugin));
            assert_eq!(names(&a_vars), want, "{label}");
            assert_eq!(get(&a_vars, "CLAUDE_PROJECT_DIR"), a_cwd);
            assert_eq!(get(&a_vars, "CLAUDE_PLUGIN_ROOT"), plugin.root.to_string_lossy());
            // Where the agent took them from: the data folder under HOME, named <plugin>-<marketplace>.
            let data = get(&vars, "CLAUDE_PLUGIN_DATA");
            assert!(data.contains("/.claude/plugins/data/"), "{data}");
        }
        // A directory marketplace's plugin ran from its source, not the cache copy.
        let (_, vars) = recorded("plugin-directory-marketplace");
        let root = vars.iter().find(|(k, _)| k == "CLAUDE_PLUGIN_ROOT").unwrap().1.clone();
        assert!(!root.contains("/plugins/cache/"), "{root}");
        let (_, vars) = recorded("plugin-directory-marketplace");
        assert!(vars.iter().any(|(k, v)| k == "CLAUDE_PLUGIN_DATA" && v.ends_with("/plug-mkt")), "{vars:?}");
        let (_, vars) = recorded("plugin-dir");
        assert!(vars.iter().any(|(k, v)| k == "CLAUDE_PLUGIN_DATA" && v.ends_with("/plugd-inline")), "{vars:?}");
    }

    #[test]
    fn the_copy_holds_the_projects_files_links_dependencies_and_leaves_git_out() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("proj");
        std::fs::create_dir_all(p.join(".claude/hooks")).unwrap();
        std::fs::create_dir_all(p.join("node_modules/dep")).unwrap();
        std::fs::create_dir_all(p.join(".git")).unwrap();
        std::fs::write(p.join(".claude/hooks/rules.yaml"), "deny: rm -rf\n").unwrap();
        std::fs::write(p.join("big.bin"), vec![0u8; (MAX_FILE_BYTES + 1) as usize]).unwrap();
        let copy = project_copy(&d.path().join("lab"), &p).unwrap();
        assert_eq!(std::fs::read_to_string(copy.join(".claude/hooks/rules.yaml")).unwrap(), "deny: rm -rf\n");
        assert!(!copy.join(".claude/hooks/rules.yaml").symlink_metadata().unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_link(copy.join("node_modules")).unwrap(), p.join("node_modules"));
        assert_eq!(std::fs::read_link(copy.join("big.bin")).unwrap(), p.join("big.bin"));
        assert!(!copy.join(".git").exists());
        // Made once: a second call reuses it.
        std::fs::write(copy.join("marker"), "").unwrap();
        assert!(project_copy(&d.path().join("lab"), &p).unwrap().join("marker").exists());
    }
}
