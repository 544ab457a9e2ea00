//! One `codex exec` session against the stand-in: its own `CODEX_HOME`
//! (`home/.codex`: `config.toml` naming the stand-in as the model provider,
//! `hooks.json` with the arm's hook), the same temp root, process group and
//! wall timeout as a Claude Code session, and the same evidence: the file on
//! disk, the stand-in's transcript and the guard's trace.
//!
//! The command line (docs/codex.md): `codex exec --json
//! --skip-git-repo-check --ephemeral -C work -m gpt-5.5
//! --dangerously-bypass-approvals-and-sandbox
//! --dangerously-bypass-hook-trust PROMPT`. The last flag is what makes a
//! user-level hook run at all in `codex exec` (without it Codex skips
//! untrusted hooks without a word); the one before it runs commands without
//! asking and without a sandbox, as `--permission-mode bypassPermissions`
//! does for Claude Code.

use super::args::agent_env;
use super::not_yet_run::NotYetRun;
use super::{finish, launch_headless, not_started, temp_root, Backend, SessionOutcome, SessionSpec};
use crate::agent::codex::{config, stream};
use crate::task::PROMPT;

/// What Codex sessions do not run yet, in Codex's words.
const NOT_YET_RUN: NotYetRun = NotYetRun {
    live_model: "codex-live-model",
    interactive: "codex-interactive",
    hook_source: "codex-hook-source",
    route: "codex-route",
};

/// What a Codex session cannot do of what `spec` asks, if anything: only a
/// print-mode session of a command hook in the settings, against the
/// stand-in, is measured on Codex so far.
pub(crate) fn unsupported(spec: &SessionSpec<'_>) -> Option<&'static str> {
    if let Some(what) = NOT_YET_RUN.asked_by(spec) {
        return Some(what);
    }
    if config::has_more_than_hooks(&spec.settings) {
        return Some("codex-settings");
    }
    if !config::only_command_hooks(&spec.settings) {
        return Some("codex-hook-type");
    }
    None
}

/// Run one Codex session (see the module doc).
pub(crate) async fn run(spec: &SessionSpec<'_>) -> std::io::Result<SessionOutcome> {
    if let Some(what) = unsupported(spec) {
        return Ok(not_started(Some(what)));
    }
    let Backend::StandIn(standin) = spec.backend else { return Ok(not_started(Some(NOT_YET_RUN.live_model))) };
    let (root, dirs) = temp_root(spec)?;
    let codex_home = dirs.home.join(".codex");
    std::fs::create_dir_all(&codex_home)?;
    let base_url = format!("{}/v1", standin.session_url(&spec.id, &dirs.work.to_string_lossy()));
    std::fs::write(codex_home.join("config.toml"), config::config_toml(&base_url))?;
    let hooks = serde_json::to_vec_pretty(&config::hooks_json(&spec.settings))?;
    std::fs::write(codex_home.join("hooks.json"), &hooks)?;
    std::fs::write(dirs.evidence.join("hooks.json"), &hooks)?;
    let mut env = agent_env(spec, &dirs);
    env.push(("CODEX_HOME".into(), codex_home.to_string_lossy().into_owned()));
    env.push((config::KEY_ENV.into(), super::STAND_IN_API_KEY.into()));
    let mut cmd = tokio::process::Command::new(&spec.bin.path);
    cmd.args(["exec", "--json", "--skip-git-repo-check", "--ephemeral", "-C"])
        .arg(&dirs.work)
        .args(["-m", config::MODEL, "--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust"])
        .arg(PROMPT);
    let launched = launch_headless(spec, &dirs, cmd, env, stream::parse).await?;
    finish(spec, root, &dirs, launched).await
}
