//! Continue CLI's [`AgentDriver`]: one `cn -p --auto --config <yaml>
//! PROMPT` session against the stand-in's Chat Completions face, with its
//! own HOME holding the config and, for the battery's source, the arm's
//! hooks in `~/.continue/settings.json`. Measured on 1.5.45 and 1.5.47:
//! docs/continue.md.

use std::ffi::OsString;

use super::{config, wording};
use crate::agent::claude_code::capabilities::Capabilities;
use crate::agent::driver::{AgentDriver, HookVocabulary, Identity, Matching, SessionAsk, SessionLaunch, SessionPlace};
use crate::agent::not_yet_run::NotYetRun;
use crate::agent::wording::RefusalWording;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;
use crate::surface::HookSource;
use crate::task::PROMPT;

/// Continue CLI.
pub struct ContinueCli;

/// What Continue CLI sessions do not run yet, in Continue's words.
const NOT_YET_RUN: NotYetRun = NotYetRun {
    live_model: "continue-live-model",
    interactive: "continue-interactive",
    hook_source: "continue-hook-source",
    route: "continue-route",
};

/// Who it is ([`Identity`]).
const IDENTITY: Identity = Identity {
    npm_package: "@continuedev/cli",
    bin_name: "cn",
    display_name: "Continue CLI",
    pinned_version: super::PINNED_VERSION,
    older_version: super::OLDER_VERSION,
};

/// How its hooks are spelt: Claude Code's event and tool names, a matcher
/// tested as an unanchored regex (`new RegExp(matcher).test(toolName)`;
/// none, `""` and `*` match every tool), 600 s by default.
const VOCABULARY: HookVocabulary = HookVocabulary {
    event: config::EVENT,
    write_tools: &config::WRITE_TOOLS,
    full_matcher: "Bash|Write|Edit|MultiEdit",
    matching: Matching::UnanchoredRegex,
    default_timeout_secs: config::DEFAULT_TIMEOUT_SECS,
};

impl AgentDriver for ContinueCli {
    fn identity(&self) -> &'static Identity {
        &IDENTITY
    }

    fn hook_vocabulary(&self) -> &'static HookVocabulary {
        &VOCABULARY
    }

    /// Each source it reads is, in a session, the one file with hooks: the
    /// HOME and the working directory are the session's own.
    fn hook_alone_at(&self, source: HookSource) -> bool {
        config::reads(source)
    }

    fn wording(&self) -> &'static dyn RefusalWording {
        &wording::ContinueWording
    }

    fn hook_config(&self) -> Option<&'static dyn crate::agent::hook_config::HookConfig> {
        Some(&super::hook_config::ContinueHookConfig)
    }

    fn hook_contract(&self) -> Option<&'static dyn crate::agent::hook_contract::HookContract> {
        Some(&super::hook_contract::ContinueContract)
    }

    /// A print-mode session against the stand-in, the hook in a settings
    /// file Continue reads (its own user file, or Claude Code's user,
    /// project or local file), holding nothing but hooks.
    fn unsupported(&self, ask: &SessionAsk<'_>, _caps: Option<&Capabilities>) -> Option<&'static str> {
        if !config::reads(ask.source) {
            return Some(NOT_YET_RUN.hook_source);
        }
        // Claude Code's file for `user`, `project`, `local` is the one file
        // placed; the rest is judged as for the battery's source.
        let as_battery = SessionAsk {
            source: HookSource::SettingsFlag,
            has_files: ask.has_files && ask.source == HookSource::SettingsFlag,
            setting_sources: None,
            ..*ask
        };
        if let Some(what) = NOT_YET_RUN.asked_by(&as_battery) {
            return Some(what);
        }
        if !config::not_carried(ask.settings).is_empty() {
            return Some("continue-settings");
        }
        None
    }

    fn prepare(
        &self,
        ask: &SessionAsk<'_>,
        at: &SessionPlace<'_>,
        _caps: Option<&Capabilities>,
    ) -> std::io::Result<SessionLaunch> {
        let base_url = at.standin_url_for(self.display_name())?;
        let continue_dir = at.home.join(".continue");
        std::fs::create_dir_all(&continue_dir)?;
        let config_path = at.home.join(config::CONFIG_FILE);
        let yaml = config::config_yaml(base_url);
        std::fs::write(&config_path, &yaml)?;
        std::fs::write(at.evidence.join("continue-config.yaml"), &yaml)?;
        if let Some(path) = config::settings_path(ask.source, at.home) {
            let settings = serde_json::to_vec_pretty(&config::settings_json(ask.settings))?;
            std::fs::write(&path, &settings)?;
            std::fs::write(at.evidence.join("continue-settings.json"), &settings)?;
        }
        Ok(SessionLaunch {
            args: config::args(&config_path, PROMPT).into_iter().map(OsString::from).collect(),
            env: config::env(at.home),
            ..SessionLaunch::default()
        })
    }

    /// `cn -p` prints the model's last text and nothing of tools or hooks:
    /// the calls and their results are the stand-in's transcript, and a
    /// hook's run is the guard's trace.
    fn parse_stream(&self, stdout: &str, _hook: &HookIdentity) -> StreamFacts {
        StreamFacts::of_plain_text(stdout)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_battery_matcher_and_continues_own_cover_its_write_tools() {
        let d = ContinueCli;
        for tool in config::WRITE_TOOLS {
            assert!(d.covers(Some(&crate::task::matcher()), tool), "{tool}");
            assert!(d.covers(Some(VOCABULARY.full_matcher), tool), "{tool}");
        }
        assert!(!d.covers(Some("^bash$"), "Bash"), "a regex, case-sensitive");
        assert!(d.covers(Some("Bash"), "Bash"));
    }
}
