//! One `gemini -p` session against the stand-in: the arm's hook in the
//! isolated HOME's `.gemini/settings.json` (user scope: `--skip-trust`
//! ignores a project's hooks), the stand-in as `GOOGLE_GEMINI_BASE_URL`,
//! and the same temp root, process group, wall timeout and evidence as a
//! Claude Code session. Measured on 0.45.2 and 0.61.0: docs/gemini.md.

use super::args::agent_env;
use super::not_yet_run::NotYetRun;
use super::{finish, launch_headless, not_started, temp_root, Backend, SessionOutcome, SessionSpec};
use crate::agent::gemini::{config, stream};
use crate::task::PROMPT;

/// What Gemini CLI sessions do not run yet, in Gemini's words.
const NOT_YET_RUN: NotYetRun = NotYetRun {
    live_model: "gemini-live-model",
    interactive: "gemini-interactive",
    hook_source: "gemini-hook-source",
    route: "gemini-route",
};

/// What a Gemini session cannot do of what `spec` asks, if anything: only a
/// print-mode session of a command hook in the settings, against the
/// stand-in, is measured on Gemini CLI so far. Claude Code's `onFailure` is
/// dropped (Gemini has no such key), which makes a `native` arm a bare one.
pub(crate) fn unsupported(spec: &SessionSpec<'_>) -> Option<&'static str> {
    if let Some(what) = NOT_YET_RUN.asked_by(spec) {
        return Some(what);
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
    let Backend::StandIn(standin) = spec.backend else { return Ok(not_started(Some(NOT_YET_RUN.live_model))) };
    let (root, dirs) = temp_root(spec)?;
    let gemini_dir = dirs.home.join(".gemini");
    std::fs::create_dir_all(&gemini_dir)?;
    let settings = serde_json::to_vec_pretty(&config::settings_json(&spec.settings))?;
    std::fs::write(gemini_dir.join("settings.json"), &settings)?;
    std::fs::write(dirs.evidence.join("gemini-settings.json"), &settings)?;
    let base_url = standin.session_url(&spec.id, &dirs.work.to_string_lossy());
    let mut env = agent_env(spec, &dirs);
    env.extend(config::env(&base_url));
    let mut cmd = tokio::process::Command::new(&spec.bin.path);
    cmd.args(config::args()).args(["-p", PROMPT]);
    let launched = launch_headless(spec, &dirs, cmd, env, stream::parse).await?;
    finish(spec, root, &dirs, launched).await
}
