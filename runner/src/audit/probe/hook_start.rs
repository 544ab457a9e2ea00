//! How the agent starts a hook's command, so that audit's sessions and its
//! direct screens start it the same way: the variables it sets and the
//! directory it runs in.
//!
//! Measured on Claude Code 2.1.328 with a census hook (a command that
//! records its environment's names and its working directory) in a real
//! `claude -p` session: `runner/tests/fixtures/hook-start/claude-2.1.328.txt`,
//! checked by [`tests`]; and, for audit's own sessions and screens on Claude
//! Code, Gemini CLI and Codex CLI, by the integration test `audit_hook_start`:
//!
//! - every hook runs in the project directory (the session's working
//!   directory), with `CLAUDE_PROJECT_DIR` set to it, and gets it as its
//!   payload's `cwd`;
//! - a plugin's hook also gets `CLAUDE_PLUGIN_ROOT` (the directory the
//!   plugin is loaded from: for a `directory` marketplace its source
//!   directory, not the cache copy) and `CLAUDE_PLUGIN_DATA`
//!   (`~/.claude/plugins/data/<name>-<marketplace>`).
//!
//! Audit's sessions run **in a copy of the project** (each its own, in its
//! temp root: [`crate::session::project`]): the agent itself gives the hook
//! the copy as its working directory, payload `cwd` and project variables,
//! whatever the agent, and the session's write lands there. What audit adds
//! is what a session cannot have natively: the user's `HOME` (the session's
//! is a throwaway one) and a plugin's variables (the hook runs from the
//! session's settings, not from its plugin). The values travel in the
//! session's environment ([`env`]) and are assigned in front of the command
//! ([`prefix`]): a path is never spliced into the command text. A screen
//! (no session) runs the hook in a copy of the project too, with the payload's
//! `cwd` and the agent's project variables ([`screen_env`]) set to it.

use std::path::Path;

use crate::audit::intake::config::PluginRun;

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

/// The shell text put in front of a hook's command: `HOME` (with
/// `user_home`) and the plugin's variables (with `plugin`) set from the
/// session's environment. Plain assignments from variables: no word
/// splitting, no re-parsing of the values. The working directory and the
/// project variables are the agent's own (the session runs in the copy).
pub fn prefix(user_home: bool, plugin: Option<&PluginRun>) -> String {
    let mut out = String::new();
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

/// The session environment [`prefix`] reads: the user's `home` and the
/// plugin's directories.
pub fn env(home: Option<&Path>, plugin: Option<&PluginRun>) -> Vec<(String, String)> {
    let s = |p: &Path| p.to_string_lossy().into_owned();
    let mut env = Vec::new();
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

/// What a screen adds to [`env`] to start the hook as the agent's session
/// would in the project copy `work` (the screen's working directory, and its
/// payload's `cwd`): the agent's project variables `vars`
/// ([`crate::agent::hook_contract::HookContract::project_vars`]) set to it.
pub fn screen_env(work: &Path, vars: &[&str]) -> Vec<(String, String)> {
    vars.iter().map(|v| (v.to_string(), work.to_string_lossy().into_owned())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::claude_code::hook_contract::ClaudeCodeContract;
    use crate::agent::hook_contract::HookContract;

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

    /// Run `command` with [`prefix`], [`env`] and [`screen_env`] in
    /// `project` as a screen does, and record what a census hook records:
    /// its cwd and CLAUDE_P* variables.
    fn run_as_audit(project: &Path, home: &Path, plugin: Option<&PluginRun>) -> (String, Vec<(String, String)>) {
        let census = "printf 'cwd=%s\\n' \"$(pwd)\"; env | grep '^CLAUDE_P' | sort";
        let out = std::process::Command::new("/bin/sh")
            .arg("-c")
            .arg(format!("{}{census}", prefix(true, plugin)))
            .current_dir(project)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .envs(env(Some(home), plugin))
            .envs(screen_env(project, ClaudeCodeContract.project_vars()))
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
}
