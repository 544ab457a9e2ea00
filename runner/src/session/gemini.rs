//! One `gemini -p` session against the stand-in: the arm's hook in the
//! isolated HOME's `.gemini/settings.json` (user scope: `--skip-trust`
//! ignores a project's hooks), the stand-in as `GOOGLE_GEMINI_BASE_URL`,
//! and the same temp root, process group, wall timeout and evidence as a
//! Claude Code session. Measured on 0.45.2 and 0.61.0: docs/gemini.md.

use std::process::Stdio;
use std::time::Instant;

use super::args::base_env;
use super::{finish, not_started, run_in_own_group, Backend, Dirs, Launched, SessionOutcome, SessionSpec};
use crate::agent::gemini::{config, stream};
use crate::mode::Mode;
use crate::task::PROMPT;

/// What a Gemini session cannot do of what `spec` asks, if anything: only a
/// print-mode session of a command hook in the settings, against the
/// stand-in, is measured on Gemini CLI so far. Claude Code's `onFailure` is
/// dropped (Gemini has no such key), which makes a `native` arm a bare one.
pub(crate) fn unsupported(spec: &SessionSpec<'_>) -> Option<&'static str> {
    if !matches!(spec.backend, Backend::StandIn(_)) {
        return Some("gemini-live-model");
    }
    if spec.mode != Mode::Print {
        return Some("gemini-interactive");
    }
    if spec.mcp_config.is_some() || spec.setting_sources.is_some() || spec.skills || !spec.files.is_empty() {
        return Some("gemini-hook-source");
    }
    if spec.permission_mode.is_some() || spec.route != crate::surface::Route::Article || !spec.extra_args.is_empty() {
        return Some("gemini-route");
    }
    let lost = config::not_carried(&spec.settings);
    if lost.iter().any(|what| !what.ends_with(" hook key onFailure")) {
        return Some("gemini-settings");
    }
    None
}

/// Run one Gemini CLI session (see the module doc).
pub(crate) async fn run(spec: &SessionSpec<'_>) -> std::io::Result<SessionOutcome> {
    if let Some(what) = unsupported(spec) {
        return Ok(not_started(Some(what)));
    }
    let Backend::StandIn(standin) = spec.backend else { return Ok(not_started(Some("gemini-live-model"))) };
    let root = tempfile::Builder::new().prefix("session-").tempdir_in(spec.pool.sessions_dir())?;
    let dirs = Dirs::create(root.path())?;
    let gemini_dir = dirs.home.join(".gemini");
    std::fs::create_dir_all(&gemini_dir)?;
    let settings = serde_json::to_vec_pretty(&config::settings_json(&spec.settings))?;
    std::fs::write(gemini_dir.join("settings.json"), &settings)?;
    std::fs::write(dirs.evidence.join("gemini-settings.json"), &settings)?;
    let base_url = standin.session_url(&spec.id, &dirs.work.to_string_lossy());
    let mut env = base_env(&dirs, &spec.id);
    env.extend(spec.env.iter().cloned());
    env.extend(config::env(&base_url));
    let mut cmd = tokio::process::Command::new(&spec.claude.path);
    cmd.args(config::args())
        .args(["-p", PROMPT])
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
