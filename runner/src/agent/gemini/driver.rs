//! Gemini CLI's [`AgentDriver`]: one `gemini -p` session against the
//! stand-in, the arm's hook in the isolated HOME's `.gemini/settings.json`
//! (user scope: `--skip-trust` ignores a project's hooks), the stand-in as
//! `GOOGLE_GEMINI_BASE_URL`. Measured on 0.45.2 and 0.61.0: docs/gemini.md.

use std::ffi::OsString;
use std::path::PathBuf;

use super::{config, stream, wording};
use crate::agent::claude_code::capabilities::Capabilities;
use crate::agent::driver::{AgentDriver, HookVocabulary, Identity, Matching, SessionAsk, SessionLaunch, SessionPlace};
use crate::agent::hook_config::HookConfig;
use crate::agent::not_yet_run::NotYetRun;
use crate::agent::wording::RefusalWording;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;
use crate::task::PROMPT;

/// Gemini CLI.
pub struct Gemini;

/// What Gemini CLI sessions do not run yet, in Gemini's words.
const NOT_YET_RUN: NotYetRun = NotYetRun {
    live_model: "gemini-live-model",
    interactive: "gemini-interactive",
    hook_source: "gemini-hook-source",
    route: "gemini-route",
};

/// Gemini's words for a refused call ([`wording`]).
#[derive(Debug)]
pub struct GeminiWording;

impl RefusalWording for GeminiWording {
    fn uniform_refusal<'a>(&self, text: &'a str) -> Option<Option<&'a str>> {
        wording::is_hook_refusal(text).then(|| wording::refusal_reason(text))
    }

    fn names_hook_refusal(&self, text: &str) -> bool {
        wording::is_hook_refusal(text)
    }
}

/// Who it is ([`Identity`]).
const IDENTITY: Identity = Identity {
    npm_package: "@google/gemini-cli",
    bin_name: "gemini",
    display_name: "Gemini CLI",
    pinned_version: super::PINNED_VERSION,
    older_version: super::OLDER_VERSION,
};

/// How its hooks are spelt. Gemini CLI tests an unanchored regex (`""` and `*` match all); its timeout default is 60000 ms (docs/gemini.md).
const VOCABULARY: HookVocabulary = HookVocabulary {
    event: config::EVENT,
    write_tools: &config::WRITE_TOOLS,
    full_matcher: config::WRITE_MATCHER,
    matching: Matching::UnanchoredRegex,
    default_timeout_secs: 60.0,
};

impl AgentDriver for Gemini {
    fn identity(&self) -> &'static Identity {
        &IDENTITY
    }

    fn hook_vocabulary(&self) -> &'static HookVocabulary {
        &VOCABULARY
    }

    fn system_hook_layers(&self) -> Vec<PathBuf> {
        config::system_settings_with_hooks()
    }

    fn hook_contract(&self) -> Option<&'static dyn crate::agent::hook_contract::HookContract> {
        Some(&super::hook_contract::GeminiContract)
    }

    fn hook_config(&self) -> Option<&'static dyn HookConfig> {
        Some(&super::hook_config::GeminiHookConfig)
    }

    fn wording(&self) -> &'static dyn RefusalWording {
        &GeminiWording
    }

    /// Only a print-mode session of a command hook in the settings, against
    /// the stand-in, is measured on Gemini CLI so far. Claude Code's
    /// `onFailure` is dropped (Gemini has no such key), which makes a
    /// `native` arm a bare one.
    fn unsupported(&self, ask: &SessionAsk<'_>, _caps: Option<&Capabilities>) -> Option<&'static str> {
        if let Some(what) = NOT_YET_RUN.asked_by(ask) {
            return Some(what);
        }
        let lost = config::not_carried(ask.settings);
        if lost.iter().any(|what| !what.ends_with(" hook key onFailure")) {
            return Some("gemini-settings");
        }
        None
    }

    fn prepare(
        &self,
        ask: &SessionAsk<'_>,
        at: &SessionPlace<'_>,
        _caps: Option<&Capabilities>,
    ) -> std::io::Result<SessionLaunch> {
        let gemini_dir = at.home.join(".gemini");
        std::fs::create_dir_all(&gemini_dir)?;
        let settings = serde_json::to_vec_pretty(&config::settings_json(ask.settings))?;
        std::fs::write(gemini_dir.join("settings.json"), &settings)?;
        std::fs::write(at.evidence.join("gemini-settings.json"), &settings)?;
        let base_url = at.standin_url_for(self.display_name())?;
        let mut args: Vec<OsString> = config::args().into_iter().map(OsString::from).collect();
        args.extend(["-p", PROMPT].map(OsString::from));
        Ok(SessionLaunch { args, env: config::env(base_url), ..SessionLaunch::default() })
    }

    fn parse_stream(&self, stdout: &str, _hook: &HookIdentity) -> StreamFacts {
        stream::parse(stdout)
    }
}
