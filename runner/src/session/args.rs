//! The environment every session starts from, whatever the agent; the
//! agent's own command line and variables are its driver's.

use std::path::Path;

use super::{Dirs, SessionSpec};
use crate::reap;

/// The variable that holds the stand-in's address for this session (its
/// `/s/<id>` base URL, under which it serves every agent's protocol,
/// Anthropic's `/v1/messages` among them) in every stand-in session,
/// whatever the agent: a command guard that asks a model itself
/// (`guards/model-command.sh`) reads it before `ANTHROPIC_BASE_URL`, which
/// only the Claude Code and Agent SDK drivers set. Absent in a live session.
pub const STANDIN_URL_VAR: &str = "FAILOPEN_STANDIN_URL";

/// [`base_env`], the stand-in's address ([`STANDIN_URL_VAR`], when the
/// session has one) and the arm's own variables: what every agent's session
/// starts from, before the agent's own (its model's address and key).
pub(crate) fn agent_env(spec: &SessionSpec<'_>, dirs: &Dirs, standin_url: Option<&str>) -> Vec<(String, String)> {
    let standin = standin_url.map(|url| (STANDIN_URL_VAR.to_string(), url.to_string()));
    base_env(dirs, &spec.id).into_iter().chain(standin).chain(spec.env.iter().cloned()).collect()
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
