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

use std::process::Stdio;
use std::time::Instant;

use super::args::base_env;
use super::{finish, not_started, run_in_own_group, Backend, Dirs, Launched, SessionOutcome, SessionSpec};
use crate::agent::codex::{config, stream};
use crate::mode::Mode;
use crate::task::PROMPT;

/// What a Codex session cannot do of what `spec` asks, if anything: only a
/// print-mode session of a hook in the settings, against the stand-in, is
/// measured on Codex so far.
pub(crate) fn unsupported(spec: &SessionSpec<'_>) -> Option<&'static str> {
    if !matches!(spec.backend, Backend::StandIn(_)) {
        return Some("codex-live-model");
    }
    if spec.mode != Mode::Print {
        return Some("codex-interactive");
    }
    if spec.mcp_config.is_some() || spec.setting_sources.is_some() || spec.skills || !spec.files.is_empty() {
        return Some("codex-hook-source");
    }
    if spec.permission_mode.is_some() || spec.route != crate::surface::Route::Article || !spec.extra_args.is_empty() {
        return Some("codex-route");
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
    let Backend::StandIn(standin) = spec.backend else { return Ok(not_started(Some("codex-live-model"))) };
    let root = tempfile::Builder::new().prefix("session-").tempdir_in(spec.pool.sessions_dir())?;
    let dirs = Dirs::create(root.path())?;
    let codex_home = dirs.home.join(".codex");
    std::fs::create_dir_all(&codex_home)?;
    let base_url = format!("{}/v1", standin.session_url(&spec.id, &dirs.work.to_string_lossy()));
    std::fs::write(codex_home.join("config.toml"), config::config_toml(&base_url))?;
    let hooks = serde_json::to_vec_pretty(&config::hooks_json(&spec.settings))?;
    std::fs::write(codex_home.join("hooks.json"), &hooks)?;
    std::fs::write(dirs.evidence.join("hooks.json"), &hooks)?;
    let mut env = base_env(&dirs, &spec.id);
    env.extend(spec.env.iter().cloned());
    env.push(("CODEX_HOME".into(), codex_home.to_string_lossy().into_owned()));
    env.push((config::KEY_ENV.into(), super::STAND_IN_API_KEY.into()));
    let mut cmd = tokio::process::Command::new(&spec.claude.path);
    cmd.args(["exec", "--json", "--skip-git-repo-check", "--ephemeral", "-C"])
        .arg(&dirs.work)
        .args(["-m", config::MODEL, "--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust"])
        .arg(PROMPT)
        .current_dir(&dirs.work)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(dirs.evidence.join("stdout.jsonl"))?)
        .stderr(std::fs::File::create(dirs.evidence.join("stderr.txt"))?)
        .env_clear()
        .envs(env);
    let started = Instant::now();
    let (exit, pgid) = run_in_own_group(cmd, spec).await;
    let secs = started.elapsed().as_secs_f64();
    let stdout = std::fs::read_to_string(dirs.evidence.join("stdout.jsonl")).unwrap_or_default();
    let launched = Launched { exit, pgid, secs, facts: stream::parse(&stdout), flags: Vec::new() };
    finish(spec, root, &dirs, launched).await
}
