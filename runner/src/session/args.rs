//! The command line and environment of a session, in either mode.

use std::ffi::OsString;
use std::path::Path;

use super::{stand_in_args, Backend, Dirs, SessionSpec, STAND_IN_API_KEY, STAND_IN_ENV};
use crate::install::capabilities::Capabilities;
use crate::reap;

/// Environment variables passed through to a live session.
const LIVE_PASSTHROUGH: &[&str] =
    &["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_MODEL", "ANTHROPIC_CUSTOM_HEADERS"];

/// The arguments both modes pass: permission mode, the settings file, the
/// arm's extra arguments, the MCP config and the stand-in's start-up cuts.
pub(crate) fn common_args(
    spec: &SessionSpec<'_>,
    settings_path: &Path,
    mcp_path: &Path,
    caps: Option<&Capabilities>,
) -> Vec<OsString> {
    let mut args: Vec<OsString> = vec![
        "--permission-mode".into(),
        spec.permission_mode.unwrap_or("bypassPermissions").into(),
        "--settings".into(),
        settings_path.into(),
    ];
    args.extend(spec.extra_args.iter().map(OsString::from));
    if spec.mcp_config.is_some() {
        args.extend(["--mcp-config".into(), mcp_path.into()]);
    }
    if let Backend::StandIn(_) = spec.backend {
        // An interactive session keeps its slash commands: it is ended with `/exit`.
        let commands = spec.skills || spec.mode == crate::mode::Mode::Interactive;
        args.extend(stand_in_args(spec.setting_sources, commands, caps).into_iter().map(OsString::from));
    }
    args
}

/// The session's whole environment: [`base_env`], the arm's, and the backend's.
pub(crate) fn session_env(spec: &SessionSpec<'_>, dirs: &Dirs) -> Vec<(String, String)> {
    let mut env = agent_env(spec, dirs);
    match spec.backend {
        Backend::StandIn(standin) => {
            env.push(("ANTHROPIC_BASE_URL".into(), standin.session_url(&spec.id, &dirs.work.to_string_lossy())));
            env.push(("ANTHROPIC_API_KEY".into(), STAND_IN_API_KEY.into()));
            env.extend(STAND_IN_ENV.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        }
        Backend::Live => {
            for var in LIVE_PASSTHROUGH {
                if let Ok(v) = std::env::var(var) {
                    env.push((var.to_string(), v));
                }
            }
        }
    }
    env
}

/// [`base_env`] and the arm's own variables: what every agent's session
/// starts from, before the agent's own (its model's address and key).
pub(crate) fn agent_env(spec: &SessionSpec<'_>, dirs: &Dirs) -> Vec<(String, String)> {
    base_env(dirs, &spec.id).into_iter().chain(spec.env.iter().cloned()).collect()
}

/// What every session's agent gets, whatever the agent: PATH, the isolated
/// HOME and TMPDIR, a shell and locale, the guard's trace file and the
/// session's reap tag.
pub(crate) fn base_env(dirs: &Dirs, tag: &str) -> Vec<(String, String)> {
    let s = |p: &Path| p.to_string_lossy().into_owned();
    let mut env = vec![
        ("PATH".into(), std::env::var("PATH").unwrap_or_else(|_| "/usr/local/bin:/usr/bin:/bin".into())),
        ("HOME".into(), s(&dirs.home)),
        ("TMPDIR".into(), s(&dirs.tmp)),
        ("SHELL".into(), "/bin/bash".into()),
        ("LANG".into(), "C.UTF-8".into()),
        ("TERM".into(), "dumb".into()),
        ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC".into(), "1".into()),
        ("DISABLE_AUTOUPDATER".into(), "1".into()),
        ("FAILOPEN_TRACE".into(), s(&dirs.evidence.join("trace.jsonl"))),
        (reap::TAG_VAR.into(), tag.to_string()),
    ];
    for var in ["USER", "LOGNAME"] {
        if let Ok(v) = std::env::var(var) {
            env.push((var.into(), v));
        }
    }
    if nix::unistd::geteuid().is_root() {
        // Claude Code refuses bypassPermissions as root unless told it is sandboxed.
        env.push(("IS_SANDBOX".into(), "1".into()));
    }
    env
}
