//! Injected faults, and the throwaway copy of a hook entry each session runs.
//!
//! A fault is injected by swapping the guard command in the copy: the
//! whole command when it is bare, the command after `failopen seal ... --`
//! when it is sealed (so it is seal's protection that gets tested).

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use super::{dependencies, launcher};
use crate::audit::intake::command::{self, ParsedCommand};
use crate::audit::intake::config::{HookEntry, HookKind, PluginRun};
use crate::audit::lint::static_checks::DEFAULT_TIMEOUT_SECS;
use crate::hook_type::HookType;

/// The user's HOME, for `~` and `$HOME` in a script path.
fn home_dir() -> Option<PathBuf> {
    std::env::var_os("HOME").map(PathBuf::from)
}

/// What is done to the guard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Fault {
    /// The hook exactly as configured.
    None,
    /// The guard's script points at a path that does not exist.
    Missing,
    /// The guard exits 1 before deciding.
    Crash,
    /// The guard sleeps past the hook's timeout (then would exit 2); a
    /// plugin's `tool.execute.before` returns a promise that never settles.
    Hang,
    /// The guard is killed by SIGSEGV before deciding.
    Signal,
    /// A sealed hook's `failopen` binary is gone (a `cargo clean`, a moved
    /// checkout, an upgrade): the command exits 127 before seal can refuse.
    #[serde(rename = "no-seal")]
    SealMissing,
    /// The program the command looks up on PATH to run its guard (`node`,
    /// `python3`, `uv`, `npx`...) is not on the hook's PATH
    /// ([`super::probe::launcher`]).
    #[serde(rename = "no-launcher")]
    NoLauncher,
    /// The guard's script runs from a copy of its folder without its
    /// `node_modules` or virtualenv ([`super::probe::dependencies`]).
    #[serde(rename = "no-deps")]
    NoDeps,
    /// The model behind a prompt or agent hook answers HTTP 500.
    #[serde(rename = "model-500")]
    ModelError,
    /// The model behind a prompt or agent hook does not answer within the hook's timeout.
    #[serde(rename = "model-hang")]
    ModelHang,
    /// The model behind a prompt or agent hook answers with text that is not a verdict.
    #[serde(rename = "model-garbage")]
    ModelGarbage,
    /// The server behind an `mcp_tool` hook answers with `isError`.
    #[serde(rename = "mcp-error")]
    McpError,
    /// The server behind an `mcp_tool` hook does not answer within the hook's timeout.
    #[serde(rename = "mcp-hang")]
    McpHang,
    /// The server behind an `mcp_tool` hook cannot be started (its command is missing).
    #[serde(rename = "mcp-missing")]
    McpMissing,
    /// A plugin's `tool.execute.before` throws before it decides
    /// ([`super::plugin_faults`]).
    #[serde(rename = "throw")]
    PluginThrow,
    /// A plugin's module does not parse (a syntax error appended to a copy).
    #[serde(rename = "syntax-error")]
    PluginSyntaxError,
    /// A plugin's module exports no plugin function.
    #[serde(rename = "no-export")]
    PluginNoExport,
    /// The guard's state (the files its as-is runs wrote, [`super::state`])
    /// read-only: its directory bound read-only in the sandbox (the file
    /// itself where the directory is the project's or HOME's root), as a
    /// read-only mount or a full disk leaves it. The guard is as configured.
    #[serde(rename = "state-unwritable")]
    StateUnwritable,
    /// The guard's state file holds garbage bytes before the session (a
    /// write cut short by a killed run). The guard is as configured.
    #[serde(rename = "state-corrupt")]
    StateCorrupt,
}

impl Fault {
    /// The injected faults, in report order.
    pub const INJECTED: [Fault; 13] = [
        Fault::Missing,
        Fault::Crash,
        Fault::Hang,
        Fault::Signal,
        Fault::SealMissing,
        Fault::NoLauncher,
        Fault::NoDeps,
        Fault::ModelError,
        Fault::ModelHang,
        Fault::ModelGarbage,
        Fault::McpError,
        Fault::McpHang,
        Fault::McpMissing,
    ];

    /// The faults a plugin is run under ([`super::plugin_faults`]), in
    /// report order: a throw, a hang, and three ways to fail to load (its
    /// missing dependency is `no-deps`).
    pub const PLUGIN: [Fault; 5] =
        [Fault::PluginThrow, Fault::Hang, Fault::PluginSyntaxError, Fault::PluginNoExport, Fault::NoDeps];

    /// The faults of a guard that keeps state, run only on a guard whose
    /// screens wrote some ([`super::state`]), in report order.
    pub const STATE: [Fault; 2] = [Fault::StateUnwritable, Fault::StateCorrupt];

    /// Whether the fault is one of a guard's state.
    pub fn is_state_fault(self) -> bool {
        matches!(self, Fault::StateUnwritable | Fault::StateCorrupt)
    }

    /// Whether the fault is only a plugin's.
    pub fn is_plugin_fault(self) -> bool {
        matches!(self, Fault::PluginThrow | Fault::PluginSyntaxError | Fault::PluginNoExport)
    }

    /// Its name in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Fault::None => "as-is",
            Fault::Missing => "missing",
            Fault::Crash => "crash",
            Fault::Hang => "hang",
            Fault::Signal => "signal",
            Fault::SealMissing => "no-seal",
            Fault::NoLauncher => "no-launcher",
            Fault::NoDeps => "no-deps",
            Fault::ModelError => "model-500",
            Fault::ModelHang => "model-hang",
            Fault::ModelGarbage => "model-garbage",
            Fault::McpError => "mcp-error",
            Fault::McpHang => "mcp-hang",
            Fault::McpMissing => "mcp-missing",
            Fault::PluginThrow => "throw",
            Fault::PluginSyntaxError => "syntax-error",
            Fault::PluginNoExport => "no-export",
            Fault::StateUnwritable => "state-unwritable",
            Fault::StateCorrupt => "state-corrupt",
        }
    }

    /// How the stand-in answers the model of a prompt or agent hook under
    /// this fault; `as-is` means the model refuses the write (it is asked to).
    pub fn model_policy(self) -> Option<crate::standin::hook_model::HookPolicy> {
        use crate::standin::hook_model::HookPolicy;
        match self {
            Fault::None => Some(HookPolicy::Deny),
            Fault::ModelError => Some(HookPolicy::Error500),
            Fault::ModelHang => Some(HookPolicy::Hang),
            Fault::ModelGarbage => Some(HookPolicy::Garbage),
            _ => None,
        }
    }

    /// The `failopen mcp-guard` policy that stands in for an `mcp_tool`
    /// hook's server under this fault (as-is: it refuses, as a guard is
    /// meant to; `missing`: a server command that does not exist).
    pub fn mcp_policy(self) -> Option<&'static str> {
        match self {
            Fault::None => Some("deny"),
            Fault::McpError => Some("error"),
            Fault::McpHang => Some("hang"),
            Fault::McpMissing => Some("missing"),
            _ => None,
        }
    }

    /// Whether the fault is one of an `mcp_tool` hook's server.
    pub fn is_mcp_fault(self) -> bool {
        matches!(self, Fault::McpError | Fault::McpHang | Fault::McpMissing)
    }

    /// Whether the fault is one of the model's (for prompt and agent hooks).
    pub fn is_model_fault(self) -> bool {
        matches!(self, Fault::ModelError | Fault::ModelHang | Fault::ModelGarbage)
    }
}

/// A hang longer than this (hook timeout + 30 s) is not waited for.
pub const MAX_HANG_TIMEOUT_SECS: f64 = 60.0;

/// The fault scripts of one audit, in a throwaway directory.
#[derive(Debug)]
pub struct FaultScripts {
    dir: PathBuf,
}

/// A path that does not exist, for the `missing` fault.
pub const MISSING_DIR: &str = "/nonexistent/failopen-audit";

pub use super::hook_start::HOME_VAR;

impl FaultScripts {
    /// Write the crash and signal scripts into `dir`.
    pub fn create(dir: &Path) -> std::io::Result<FaultScripts> {
        std::fs::create_dir_all(dir)?;
        write_script(&dir.join("crash.sh"), "echo 'failopen audit: injected crash' >&2\nexit 1\n")?;
        write_script(&dir.join("signal.sh"), "kill -SEGV $$\nsleep 5\nexit 1\n")?;
        Ok(FaultScripts { dir: dir.to_path_buf() })
    }

    /// The script that hangs for `secs` then refuses (exit 2).
    pub fn hang(&self, secs: u64) -> std::io::Result<PathBuf> {
        let p = self.dir.join(format!("hang-{secs}.sh"));
        if !p.exists() {
            write_script(&p, &format!("sleep {secs}\necho 'failopen audit: hang ended' >&2\nexit 2\n"))?;
        }
        Ok(p)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

fn write_script(path: &Path, body: &str) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, format!("#!/bin/sh\n# written by failopen audit: an injected fault\n{body}"))?;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
}

/// The hook's effective timeout in seconds (Claude Code's default when unset).
pub fn effective_timeout(e: &HookEntry) -> f64 {
    let default = match &e.kind {
        HookKind::Model { model_kind: HookType::Agent, .. } => 60.0,
        HookKind::Model { .. } => 30.0,
        _ => DEFAULT_TIMEOUT_SECS,
    };
    e.timeout.filter(|t| *t > 0.0).unwrap_or(default)
}

/// Why a fault cannot be injected into this entry, if it cannot.
pub fn not_injectable(e: &HookEntry, fault: Fault) -> Option<String> {
    match (&e.kind, fault) {
        (_, Fault::None) => None,
        (HookKind::Model { .. }, Fault::ModelHang) if effective_timeout(e) > MAX_HANG_TIMEOUT_SECS => {
            Some(format!("not waited for: timeout is {} s", effective_timeout(e)))
        }
        (HookKind::Model { .. }, f) if f.is_model_fault() => None,
        (HookKind::Model { .. }, _) => {
            Some("not injected into prompt or agent hooks (their model's faults are)".into())
        }
        (_, f) if f.is_model_fault() => Some("a model fault: injected into prompt and agent hooks only".into()),
        (_, f) if f.is_plugin_fault() => Some("a plugin fault: injected into plugins only".into()),
        (HookKind::Command { .. }, f) if f.is_state_fault() => None,
        (_, f) if f.is_state_fault() => Some("a state fault: injected into command hooks only".into()),
        (HookKind::Http { .. }, Fault::Missing) => None,
        (HookKind::Http { .. }, _) => Some("not injected into HTTP hooks (only an unreachable URL is)".into()),
        (HookKind::Other { .. }, _) => Some("hook type not audited".into()),
        (HookKind::McpTool { .. }, Fault::McpHang) if effective_timeout(e) > MAX_HANG_TIMEOUT_SECS => {
            Some(format!("not waited for: timeout is {} s", effective_timeout(e)))
        }
        (HookKind::McpTool { .. }, f) if f.is_mcp_fault() => None,
        (HookKind::McpTool { .. }, _) => Some("not injected into mcp_tool hooks (their server's faults are)".into()),
        (_, f) if f.is_mcp_fault() => Some("a server fault: injected into mcp_tool hooks only".into()),
        (HookKind::Command { command }, Fault::SealMissing) if !command::parse(command).sealed() => {
            Some("not sealed: no seal binary to remove".into())
        }
        (HookKind::Command { command }, Fault::Missing) => {
            let g = command::parse(command).guard;
            match (&g.package, &g.interpreter) {
                (Some(package), Some(launcher)) if g.script_at.is_none() => Some(format!(
                    "runs {package} through {launcher}: no script file of its own to remove (no-launcher takes \
                     {launcher} away)"
                )),
                _ => None,
            }
        }
        (HookKind::Command { command }, Fault::NoLauncher) => {
            launcher::launcher(command, &e.project_dir, home_dir().as_deref()).err()
        }
        (HookKind::Command { command }, Fault::NoDeps) => {
            dependencies::dependency_root(command, &e.project_dir, home_dir().as_deref()).err()
        }
        (HookKind::Command { .. }, Fault::Hang) if effective_timeout(e) > MAX_HANG_TIMEOUT_SECS => {
            Some(format!("not waited for: timeout is {} s", effective_timeout(e)))
        }
        (HookKind::Command { .. }, _) => None,
    }
}

/// Whether `fault` applies to `e` yet is not run ([`not_injectable`] says
/// why): a hang longer than the audit waits for. Such a skip leaves the
/// guard untested under that fault; the other skips are faults that do not
/// apply to this kind of hook.
pub fn left_untried(e: &HookEntry, fault: Fault) -> bool {
    let hang = match &e.kind {
        HookKind::Command { .. } => fault == Fault::Hang,
        HookKind::Model { .. } => fault == Fault::ModelHang,
        HookKind::McpTool { .. } => fault == Fault::McpHang,
        _ => false,
    };
    hang && not_injectable(e, fault).is_some()
}

/// The hook object for a session: `e` as configured, with `fault`
/// injected, run the way the agent would run it from the user's project
/// (the session runs in the project's copy, which gives the hook its
/// directory and `$CLAUDE_PROJECT_DIR`): with `user_home`, `HOME` is set
/// from the session's environment ([`HOME_VAR`]) before the command runs,
/// so `~` and `$HOME` anywhere in it reach the user's own files, and a path
/// is never spliced into the command text. A relative script path stays
/// relative: the agent resolves it against its working directory, which in
/// an audit session (and a screen) is the session's own copy of the project,
/// so the script that runs is the copy's (issue 43: it used to be made
/// absolute against the original project, so a script edited or removed in
/// the copy was not the one that ran). `unreachable_url` is a loopback URL
/// nothing listens on.
pub fn hook_for(
    e: &HookEntry,
    fault: Fault,
    scripts: &FaultScripts,
    user_home: bool,
    unreachable_url: &str,
) -> std::io::Result<Value> {
    let mut hook = e.raw.clone();
    match &e.kind {
        HookKind::Command { command } => {
            let home = home_dir();
            let cmd = match fault {
                // A state fault leaves the guard as configured: its state is what changes.
                Fault::None | Fault::StateUnwritable | Fault::StateCorrupt => command.clone(),
                Fault::NoLauncher => {
                    let name =
                        launcher::launcher(command, &e.project_dir, home.as_deref()).map_err(std::io::Error::other)?;
                    let path = std::env::var("PATH").unwrap_or_default();
                    let shim = launcher::path_without(&name, &path, &scripts.dir)?;
                    launcher::command_without(command, &shim)
                }
                Fault::NoDeps => {
                    let (word, root) = dependencies::dependency_root(command, &e.project_dir, home.as_deref())
                        .map_err(std::io::Error::other)?;
                    dependencies::command_without(command, &word, &root, &scripts.dir, &e.project_dir, home.as_deref())?
                }
                _ => inject(command, fault, scripts, effective_timeout(e))?,
            };
            hook["command"] = Value::String(with_user_env(&cmd, user_home, e.plugin.as_ref()));
        }
        HookKind::Http { .. } if fault == Fault::Missing => hook["url"] = Value::String(unreachable_url.into()),
        // The hook as configured, its server replaced by failopen's (see `mcp_policy`).
        HookKind::McpTool { .. } => {
            hook["server"] = Value::String(crate::mcp_guard::MCP_SERVER_KEY.into());
            hook["tool"] = Value::String(crate::mcp_guard::TOOL_NAME.into());
        }
        _ => {}
    }
    Ok(hook)
}

/// `command`, started as the agent starts it ([`super::hook_start`]): `HOME`
/// and a plugin's variables set from the audit session's environment.
pub fn with_user_env(command: &str, user_home: bool, plugin: Option<&PluginRun>) -> String {
    format!("{}{command}", super::hook_start::prefix(user_home, plugin))
}

/// A module name no Python has, made from the guard's own module.
fn missing_module(module: &str) -> String {
    format!("failopen_missing_{}", module.replace('.', "_"))
}

fn inject(command: &str, fault: Fault, scripts: &FaultScripts, timeout: f64) -> std::io::Result<String> {
    let parsed: ParsedCommand = command::parse(command);
    if fault == Fault::SealMissing {
        return Ok(without_seal_binary(command, &parsed));
    }
    let guard: Vec<String> = match fault {
        Fault::Missing => {
            let g = &parsed.guard;
            let name = g
                .script
                .as_deref()
                .and_then(|s| Path::new(s).file_name())
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "guard".into());
            let missing = format!("{MISSING_DIR}/{name}");
            // The module gone (its package uninstalled, the venv recreated): Python exits 1.
            let gone = match &g.module {
                Some(module) => missing_module(module),
                None => missing,
            };
            match (g.script_at, &parsed.seal_prefix) {
                // Only the guard's own script (or module) goes: the launcher and its options stay
                // (`uv run x.py` becomes `uv run /nonexistent/.../x.py`), every other word as written.
                (Some(at), None) => {
                    return command::replace_word(command, at, &gone)
                        .ok_or_else(|| std::io::Error::other("the command cannot be taken apart"));
                }
                (Some(at), Some(_)) => {
                    let mut words = g.words.clone().unwrap_or_default();
                    words[at] = gone;
                    words
                }
                (None, _) => vec![gone],
            }
        }
        Fault::Crash => vec![scripts.path("crash.sh").to_string_lossy().into_owned()],
        Fault::Signal => vec![scripts.path("signal.sh").to_string_lossy().into_owned()],
        Fault::Hang => vec![scripts.hang(timeout.min(86_400.0).ceil() as u64 + 30)?.to_string_lossy().into_owned()],
        Fault::None
        | Fault::SealMissing
        | Fault::NoLauncher
        | Fault::NoDeps
        | Fault::ModelError
        | Fault::ModelHang
        | Fault::ModelGarbage
        | Fault::McpError
        | Fault::McpHang
        | Fault::McpMissing
        | Fault::PluginThrow
        | Fault::PluginSyntaxError
        | Fault::PluginNoExport
        | Fault::StateUnwritable
        | Fault::StateCorrupt => {
            unreachable!("handled above, or not injectable into a command")
        }
    };
    let words: Vec<String> = parsed.seal_prefix.unwrap_or_default().into_iter().chain(guard).collect();
    Ok(shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" ")))
}

/// The sealed command with its `failopen` program pointing at a path that
/// does not exist; everything else (seal's options, the guard) as written.
fn without_seal_binary(command: &str, parsed: &ParsedCommand) -> String {
    let Some(prefix) = &parsed.seal_prefix else { return command.to_string() };
    let mut words: Vec<String> = prefix.clone();
    if let Some(program) = words.iter_mut().find(|w| !command::is_assignment(w)) {
        *program = format!("{MISSING_DIR}/failopen");
    }
    let rest = command::simple_words(command).map(|w| w[prefix.len()..].to_vec()).unwrap_or_default();
    words.extend(rest);
    shlex::try_join(words.iter().map(String::as_str)).unwrap_or_else(|_| words.join(" "))
}

/// A fault in words, e.g. `crash (exit 1)`.
pub fn fault_words(f: Fault) -> &'static str {
    match f {
        Fault::None => "nothing",
        Fault::Missing => "missing",
        Fault::Crash => "crash (exit 1)",
        Fault::Hang => "hang past its timeout",
        Fault::Signal => "killed by a signal",
        Fault::SealMissing => "the seal binary missing",
        Fault::NoLauncher => "its launcher (interpreter) missing from the hook's PATH",
        Fault::NoDeps => "its dependencies (node_modules, virtualenv) missing",
        Fault::ModelError => "its model answering HTTP 500",
        Fault::ModelHang => "its model not answering in time",
        Fault::ModelGarbage => "its model answering garbage",
        Fault::McpError => "its server answering isError",
        Fault::McpHang => "its server not answering in time",
        Fault::McpMissing => "its server missing",
        Fault::PluginThrow => "a throw in its tool.execute.before",
        Fault::PluginSyntaxError => "a syntax error in its module",
        Fault::PluginNoExport => "no plugin function exported",
        Fault::StateUnwritable => "its state read-only",
        Fault::StateCorrupt => "its state file corrupt",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(raw: Value) -> HookEntry {
        let value = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [raw]}]}});
        crate::audit::intake::config::first_entry(Path::new("/proj"), value)
    }

    #[test]
    fn faults_replace_a_bare_guard_and_keep_the_rest_of_the_hook() {
        let d = tempfile::tempdir().unwrap();
        let s = FaultScripts::create(d.path()).unwrap();
        let e = entry(
            serde_json::json!({"type": "command", "command": "python3 $CLAUDE_PROJECT_DIR/g.py", "timeout": 5, "onFailure": "block"}),
        );
        // Nothing in front without the user's HOME or a plugin: the agent's session in the project's
        // copy gives the hook its directory and CLAUDE_PROJECT_DIR.
        let env = crate::audit::probe::hook_start::prefix(false, None);
        assert_eq!(env, "");
        let h = hook_for(&e, Fault::Missing, &s, false, "http://x").unwrap();
        assert_eq!(h["command"], format!("{env}python3 /nonexistent/failopen-audit/g.py"));
        // A module run by `python -m`: the module goes missing, not a script file (Python exits 1, not 2).
        let m = entry(serde_json::json!({"type": "command", "command": "python -m agent_guard"}));
        let hm = hook_for(&m, Fault::Missing, &s, false, "http://x").unwrap();
        assert_eq!(hm["command"], format!("{env}python -m failopen_missing_agent_guard"));
        assert_eq!(h["timeout"], 5);
        assert_eq!(h["onFailure"], "block");
        let h = hook_for(&e, Fault::Crash, &s, false, "http://x").unwrap();
        assert_eq!(h["command"].as_str().unwrap(), format!("{env}{}", d.path().join("crash.sh").display()));
        let h = hook_for(&e, Fault::Hang, &s, false, "http://x").unwrap();
        assert!(h["command"].as_str().unwrap().ends_with("hang-35.sh"));
        // As configured: the variable stays a variable, set from the session's environment.
        let h = hook_for(&e, Fault::None, &s, true, "http://x").unwrap();
        assert_eq!(
            h["command"],
            format!(r#"{env}HOME="$FAILOPEN_AUDIT_HOME"; export HOME; python3 $CLAUDE_PROJECT_DIR/g.py"#)
        );
    }

    #[test]
    fn missing_removes_the_guards_script_never_its_launcher() {
        let d = tempfile::tempdir().unwrap();
        let s = FaultScripts::create(d.path()).unwrap();
        // Nothing in front without the user's HOME or a plugin: the agent's session in the project's
        // copy gives the hook its directory and CLAUDE_PROJECT_DIR.
        let env = crate::audit::probe::hook_start::prefix(false, None);
        assert_eq!(env, "");
        let missing = |c: &str| {
            let e = entry(serde_json::json!({"type": "command", "command": c}));
            hook_for(&e, Fault::Missing, &s, false, "").unwrap()["command"].as_str().unwrap().to_string()
        };
        // With x.py really missing, `uv run` exits 2 and Claude Code refuses: the launcher stays.
        assert_eq!(
            missing(r#"uv run "$CLAUDE_PROJECT_DIR"/.claude/hooks/x.py --strict"#),
            format!("{env}uv run /nonexistent/failopen-audit/x.py --strict")
        );
        assert_eq!(
            missing("bun run ${CLAUDE_PLUGIN_ROOT}/hooks/guard.ts"),
            format!("{env}bun run /nonexistent/failopen-audit/guard.ts")
        );
        assert_eq!(
            missing(r#"FOO=1 node --experimental-strip-types "$CLAUDE_PROJECT_DIR/g.ts""#),
            format!("{env}FOO=1 node --experimental-strip-types /nonexistent/failopen-audit/g.ts")
        );
        assert_eq!(
            missing("uv run python -m guard.hook"),
            format!("{env}uv run python -m failopen_missing_guard_hook")
        );
        // A package run by a launcher has no script of its own: `missing` does not apply.
        let npx = entry(serde_json::json!({"type": "command", "command": "npx -y some-guard"}));
        let why = not_injectable(&npx, Fault::Missing).unwrap();
        assert!(why.contains("no script file of its own") && why.contains("npx"), "{why}");
        let uv = entry(serde_json::json!({"type": "command", "command": "uv run x.py"}));
        assert_eq!(not_injectable(&uv, Fault::Missing), None);
        // A plugin's hook gets its root and data folder as Claude Code sets them.
        let mut p = entry(serde_json::json!({"type": "command", "command": "node g.js"}));
        p.plugin = Some(PluginRun { root: "/r".into(), data: Some("/d".into()) });
        let c = hook_for(&p, Fault::None, &s, false, "").unwrap()["command"].as_str().unwrap().to_string();
        assert!(c.contains(r#"CLAUDE_PLUGIN_ROOT="$FAILOPEN_AUDIT_PLUGIN_ROOT"; export CLAUDE_PLUGIN_ROOT;"#), "{c}");
        assert!(c.contains(r#"CLAUDE_PLUGIN_DATA="$FAILOPEN_AUDIT_PLUGIN_DATA"; export CLAUDE_PLUGIN_DATA;"#), "{c}");
    }

    #[test]
    fn a_sealed_guard_keeps_seal_in_front() {
        let d = tempfile::tempdir().unwrap();
        let s = FaultScripts::create(d.path()).unwrap();
        let e = entry(
            serde_json::json!({"type": "command", "command": "/b/failopen seal --deadline 4 -- /bin/sh -c '/g/deny.sh'", "timeout": 5}),
        );
        // Nothing in front without the user's HOME or a plugin: the agent's session in the project's
        // copy gives the hook its directory and CLAUDE_PROJECT_DIR.
        let env = crate::audit::probe::hook_start::prefix(false, None);
        assert_eq!(env, "");
        let h = hook_for(&e, Fault::Missing, &s, false, "").unwrap();
        assert_eq!(h["command"], format!("{env}/b/failopen seal --deadline 4 -- /nonexistent/failopen-audit/deny.sh"));
        let h = hook_for(&e, Fault::Signal, &s, false, "").unwrap();
        assert!(h["command"].as_str().unwrap().starts_with(&format!("{env}/b/failopen seal --deadline 4 -- /")));
        let h = hook_for(&e, Fault::SealMissing, &s, false, "").unwrap();
        assert_eq!(
            h["command"],
            format!("{env}/nonexistent/failopen-audit/failopen seal --deadline 4 -- /bin/sh -c /g/deny.sh")
        );
        let bare = entry(serde_json::json!({"type": "command", "command": "/g/deny.sh", "timeout": 5}));
        assert!(not_injectable(&bare, Fault::SealMissing).is_some());
        assert!(not_injectable(&e, Fault::SealMissing).is_none());
    }

    /// A relative script runs from the session's copy of the project (the
    /// agent's working directory), not from the original: the copy's own
    /// edit is what the hook runs. Before (issue 43) it was made absolute
    /// against the original project, and this printed "original".
    #[test]
    fn a_relative_script_runs_from_the_sessions_copy_and_long_hangs_are_skipped() {
        let d = tempfile::tempdir().unwrap();
        let s = FaultScripts::create(&d.path().join("faults")).unwrap();
        let (original, copy) = (d.path().join("original"), d.path().join("copy"));
        for (dir, says) in [(&original, "original"), (&copy, "copy")] {
            std::fs::create_dir_all(dir.join(".claude/hooks")).unwrap();
            let g = dir.join(".claude/hooks/g.sh");
            crate::test_helpers::write_executable(&g, &format!("#!/bin/sh\necho {says} \"$1\"\n"));
        }
        let mut e = entry(serde_json::json!({"type": "command", "command": ".claude/hooks/g.sh --x"}));
        e.project_dir = original.clone();
        let run = |fault: Fault| {
            let hook = hook_for(&e, fault, &s, false, "").unwrap();
            let command = hook["command"].as_str().unwrap().to_string();
            let out =
                std::process::Command::new("/bin/sh").arg("-c").arg(&command).current_dir(&copy).output().unwrap();
            (command, String::from_utf8_lossy(&out.stdout).trim().to_string(), out.status.code())
        };
        let (command, said, _) = run(Fault::None);
        assert_eq!(command, ".claude/hooks/g.sh --x", "as configured");
        assert_eq!(said, "copy --x", "the copy's script ran");
        // Removed in the copy: the hook finds none there (exit 127), whatever the original holds.
        std::fs::remove_file(copy.join(".claude/hooks/g.sh")).unwrap();
        assert_eq!(run(Fault::None).2, Some(127));
        // Nothing of the project path is spliced into the text: a path with `$(...)` stays data.
        e.project_dir = d.path().join("p/$(touch x)");
        let hook = hook_for(&e, Fault::None, &s, false, "").unwrap();
        assert_eq!(hook["command"], ".claude/hooks/g.sh --x");
        let e = entry(serde_json::json!({"type": "command", "command": "/g.sh"}));
        assert!(not_injectable(&e, Fault::Hang).is_some());
        assert!(not_injectable(&e, Fault::Crash).is_none());
    }
}
