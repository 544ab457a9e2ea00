//! Copilot CLI's [`AgentDriver`]: one `copilot -p` session against the
//! stand-in, with its own `COPILOT_HOME` (`home/.copilot`) holding the arm's
//! hook in `hooks/failopen.json`, and the stand-in as an Anthropic provider.
//! Its `-p` output is plain text (no events): the evidence is the file on
//! disk, the stand-in's transcript and the guard's trace.

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use futures::future::BoxFuture;

use super::{config, sources, wording};
use crate::agent::claude_code::capabilities::Capabilities;
use crate::agent::driver::{AgentDriver, HookVocabulary, Identity, Matching, SessionAsk, SessionLaunch, SessionPlace};
use crate::agent::hook_config::HookConfig;
use crate::agent::not_yet_run::NotYetRun;
use crate::agent::wording::{HookEnding, RefusalWording};
use crate::agent::AgentBin;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;
use crate::surface::{HookSource, Route};
use crate::task::PROMPT;

/// Copilot CLI.
pub struct Copilot;

/// What Copilot sessions do not run yet, in Copilot's words.
const NOT_YET_RUN: NotYetRun = NotYetRun {
    live_model: "copilot-live-model",
    interactive: "copilot-interactive",
    hook_source: "copilot-hook-source",
    route: "copilot-route",
};

/// Copilot's words for a refused call ([`wording`]).
#[derive(Debug)]
pub struct CopilotWording;

impl RefusalWording for CopilotWording {
    fn uniform_refusal<'a>(&self, text: &'a str) -> Option<Option<&'a str>> {
        wording::is_hook_refusal(text).then(|| wording::refusal_reason(text))
    }

    fn names_hook_refusal(&self, text: &str) -> bool {
        wording::is_hook_refusal(text)
    }

    /// Copilot words an exit 2 and a failure itself, and shows neither
    /// the hook's stderr nor which hook of the file refused.
    fn ending_reason(&self, ending: HookEnding) -> Option<&'static str> {
        Some(match ending {
            HookEnding::Exit2 => wording::EXIT_2_REASON,
            HookEnding::Failed => wording::ERRORED_REASON,
        })
    }

    /// Copilot's tool_result for a hook's refusal has no `is_error`.
    fn is_unflagged_refusal(&self, text: &str) -> bool {
        wording::is_hook_refusal(text)
    }
}

/// Who it is ([`Identity`]).
const IDENTITY: Identity = Identity {
    npm_package: "@github/copilot",
    bin_name: "copilot",
    display_name: "Copilot CLI",
    pinned_version: super::PINNED_VERSION,
    older_version: super::OLDER_VERSION,
};

/// How its hooks are spelt. A Copilot hook entry has no matcher: it runs for every tool. Its default timeout is not measured: Claude Code's 600 s is assumed (every arm gives a timeout).
const VOCABULARY: HookVocabulary = HookVocabulary {
    event: config::EVENT,
    write_tools: &config::WRITE_TOOLS,
    full_matcher: config::WRITE_MATCHER,
    matching: Matching::EveryTool,
    default_timeout_secs: 600.0,
};

impl AgentDriver for Copilot {
    fn identity(&self) -> &'static Identity {
        &IDENTITY
    }

    fn hook_vocabulary(&self) -> &'static HookVocabulary {
        &VOCABULARY
    }

    /// `GitHub Copilot CLI 1.0.102.` (a sentence, with its full stop).
    fn reported_version<'a>(&self, output: &'a str) -> Option<&'a str> {
        output.lines().rev().find_map(|line| {
            let v = line.trim().strip_prefix("GitHub Copilot CLI ")?.trim_end_matches('.');
            v.parse::<crate::version::Version>().is_ok().then_some(v)
        })
    }

    fn wording(&self) -> &'static dyn RefusalWording {
        &CopilotWording
    }

    fn hook_config(&self) -> Option<&'static dyn HookConfig> {
        Some(&super::hook_config::CopilotHookConfig)
    }

    /// `{sessionId, timestamp, cwd, toolName, toolArgs}` on stdin; a refusal
    /// is any exit but 0, or a top-level JSON deny on exit 0 ([`super::hook_contract`]).
    fn hook_contract(&self) -> Option<&'static dyn crate::agent::hook_contract::HookContract> {
        Some(&super::hook_contract::CopilotContract)
    }

    /// No flags to read; unpacks the binary's package (about 235 MB) into
    /// failopen's cache once, before the first session, so that sessions
    /// started together do not unpack it into the same place at once.
    /// Also reads, once per binary, whether its `--help` lists
    /// `--trust-folder` ([`sources::has_trust_flag`]).
    fn capabilities<'a>(&'a self, bin: &'a AgentBin) -> BoxFuture<'a, Option<Capabilities>> {
        Box::pin(async move {
            let cache = config::package_cache(&bin.path);
            if let Some(cache) = &cache {
                unpack_once(&bin.path, cache).await;
            }
            if sources::has_trust_flag(&bin.path).is_none() {
                if let Some(help) = help_text(&bin.path, cache.as_deref()).await {
                    sources::record_help(&bin.path, &help);
                }
            }
            None
        })
    }

    /// Copilot's own hook files and Claude Code's settings files, which
    /// failopen wrote and nothing else in the session holds a hook.
    fn hook_alone_at(&self, source: HookSource) -> bool {
        sources::reads(source)
    }

    /// Only a print-mode session of a command hook in the settings, with
    /// the battery's matcher, against the stand-in.
    fn unsupported(&self, ask: &SessionAsk<'_>, _caps: Option<&Capabilities>) -> Option<&'static str> {
        if !sources::reads(ask.source) {
            return Some(NOT_YET_RUN.hook_source);
        }
        // The hook's own file (Claude Code's settings for `project`, `local`,
        // `user`) is the one file placed and the one source asked: what else
        // the session asks is judged as for the battery's source.
        let as_battery = SessionAsk {
            source: HookSource::SettingsFlag,
            // The subagent route: the stand-in calls Copilot's `task` (docs/copilot.md).
            route: if ask.route == Route::Subagent { Route::Article } else { ask.route },
            has_files: ask.has_files && ask.source == HookSource::SettingsFlag,
            setting_sources: None,
            ..*ask
        };
        if let Some(what) = NOT_YET_RUN.asked_by(&as_battery) {
            return Some(what);
        }
        if config::not_carried(ask.settings).iter().any(|what| what != "hook key onFailure") {
            return Some("copilot-settings");
        }
        None
    }

    fn prepare(
        &self,
        ask: &SessionAsk<'_>,
        at: &SessionPlace<'_>,
        _caps: Option<&Capabilities>,
    ) -> std::io::Result<SessionLaunch> {
        let copilot_home = at.home.join(".copilot");
        std::fs::create_dir_all(&copilot_home)?;
        if let Some(file) = sources::hook_file(ask.source, &copilot_home, at.work) {
            let hooks = serde_json::to_vec_pretty(&config::hooks_json(ask.settings))?;
            if let Some(dir) = file.parent() {
                std::fs::create_dir_all(dir)?;
            }
            std::fs::write(&file, &hooks)?;
            std::fs::write(at.evidence.join("copilot-hooks.json"), &hooks)?;
        }
        let base_url = at.standin_url_for(self.display_name())?;
        let cache = config::package_cache(&at.bin.path);
        let mut args: Vec<OsString> = config::args(PROMPT).into_iter().map(OsString::from).collect();
        let mut flags = Vec::new();
        if sources::trusted(ask.source, ask.trust) {
            if sources::has_trust_flag(&at.bin.path) == Some(true) {
                args.push(sources::TRUST_FLAG.into());
                flags.push("copilot-trust:flag".to_string());
            } else {
                let config = serde_json::to_vec_pretty(&sources::trusting_config(at.work))?;
                std::fs::write(copilot_home.join("config.json"), &config)?;
                std::fs::write(at.evidence.join("copilot-config.json"), &config)?;
                flags.push("copilot-trust:config".to_string());
            }
        }
        let mut env = config::env(base_url, &copilot_home, cache.as_deref());
        if config::has_http_hook(&config::hooks_json(ask.settings)) {
            // The guard server is plain http on loopback (docs/copilot.md).
            let (key, value) = config::ALLOW_LOCALHOST;
            env.push((key.to_string(), value.to_string()));
            flags.push("copilot-allow-localhost".to_string());
        }
        Ok(SessionLaunch { args, env, flags, ..SessionLaunch::default() })
    }

    /// Plain text: no facts (the stand-in's transcript has the calls).
    fn parse_stream(&self, _stdout: &str, _hook: &HookIdentity) -> StreamFacts {
        StreamFacts::default()
    }
}

/// `bin --help`, with its package cache at `cache` and a throwaway HOME;
/// `None` if it does not answer within a minute.
async fn help_text(bin: &Path, cache: Option<&Path>) -> Option<String> {
    let home = tempfile::Builder::new().prefix("failopen-copilot-help-").tempdir().ok()?;
    let mut cmd = tokio::process::Command::new(bin);
    cmd.arg("--help")
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .env("TMPDIR", home.path());
    if let Some(cache) = cache {
        cmd.env("XDG_CACHE_HOME", cache);
    }
    let out =
        tokio::time::timeout(Duration::from_secs(60), crate::agent::ask::output_in_own_group(cmd)).await.ok()?.ok()?;
    Some(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Run `bin --version` with its package cache at `cache`, unless it is
/// already unpacked there; one at a time, in its own process group.
async fn unpack_once(bin: &Path, cache: &Path) {
    static LOCK: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());
    let _one = LOCK.lock().await;
    if cache.join("copilot").join("pkg").is_dir() {
        return;
    }
    let Ok(home) = tempfile::Builder::new().prefix("failopen-copilot-unpack-").tempdir() else { return };
    let mut cmd = tokio::process::Command::new(bin);
    cmd.arg("--version")
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home.path())
        .env("TMPDIR", home.path())
        .env("XDG_CACHE_HOME", cache)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .process_group(0)
        .kill_on_drop(true);
    let Ok(mut child) = cmd.spawn() else { return };
    let pid = child.id();
    let _ = tokio::time::timeout(Duration::from_secs(300), child.wait()).await;
    if let Some(pid) = pid {
        crate::reap::kill_group(pid);
    }
    let _ = child.wait().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_copilots_version_sentence() {
        let out = "GitHub Copilot CLI 1.0.73.\nRun 'copilot update' to check for updates.\n";
        assert_eq!(Copilot.reported_version(out), Some("1.0.73"));
        assert_eq!(Copilot.reported_version("1.0.73\n"), None);
    }
}
