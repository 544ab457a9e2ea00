//! Cline CLI's [`AgentDriver`]: one `cline "PROMPT" --json` session against
//! the stand-in, with its own HOME holding the provider file and the arm's
//! hook as `~/.cline/hooks/PreToolUse`. Every run leaves a `cline
//! --cline-hub-daemon` behind; it carries the session's tag, so the session
//! reaps it (a `stragglers-killed` flag on the row), and each session's hub
//! has a port of its own so that no session reaches another's.

use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;

use super::{config, log, stream, wording};
use crate::agent::claude_code::capabilities::Capabilities;
use crate::agent::driver::{
    AgentDriver, HookVocabulary, Identity, Matching, OwnFiles, SessionAsk, SessionLaunch, SessionPlace,
};
use crate::agent::not_yet_run::NotYetRun;
use crate::agent::wording::RefusalWording;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;
use crate::task::PROMPT;

/// Cline CLI.
pub struct Cline;

/// What Cline sessions do not run yet, in Cline's words.
const NOT_YET_RUN: NotYetRun = NotYetRun {
    live_model: "cline-live-model",
    interactive: "cline-interactive",
    hook_source: "cline-hook-source",
    route: "cline-route",
};

/// Cline's words for a refused call ([`wording`]): the run aborted at its
/// PreToolUse hook. The words name no hook: the refusal is the hook under
/// test's only as the session's sole PreToolUse hook, and only when its
/// trace shows it ran for the call, or Cline's log says a hook's stop ended
/// the run (`crate::evidence`).
#[derive(Debug)]
pub struct ClineWording;

impl RefusalWording for ClineWording {
    fn uniform_refusal<'a>(&self, text: &'a str) -> Option<Option<&'a str>> {
        wording::aborted_message(text).map(Some)
    }

    fn names_hook_refusal(&self, text: &str) -> bool {
        wording::aborted_message(text).is_some()
    }
}

/// Who it is ([`Identity`]).
const IDENTITY: Identity = Identity {
    npm_package: "cline",
    bin_name: "cline",
    display_name: "Cline CLI",
    pinned_version: super::PINNED_VERSION,
    older_version: super::OLDER_VERSION,
};

/// How its hooks are spelt. A Cline hook file has no matcher: it runs for every tool, and is waited for 120 s, fixed, whatever the arm says.
const VOCABULARY: HookVocabulary = HookVocabulary {
    event: config::EVENT,
    write_tools: &config::WRITE_TOOLS,
    full_matcher: config::WRITE_MATCHER,
    matching: Matching::EveryTool,
    default_timeout_secs: config::HOOK_TIMEOUT_SECS,
};

impl AgentDriver for Cline {
    fn identity(&self) -> &'static Identity {
        &IDENTITY
    }

    fn hook_vocabulary(&self) -> &'static HookVocabulary {
        &VOCABULARY
    }

    fn wording(&self) -> &'static dyn RefusalWording {
        &ClineWording
    }

    fn hook_config(&self) -> Option<&'static dyn crate::agent::hook_config::HookConfig> {
        Some(&super::hook_config::ClineHookConfig)
    }

    fn hook_contract(&self) -> Option<&'static dyn crate::agent::hook_contract::HookContract> {
        Some(&super::hook_contract::ClineContract)
    }

    /// Only a print-mode session of one command hook in the settings, with
    /// the battery's matcher, against the stand-in.
    fn unsupported(&self, ask: &SessionAsk<'_>, _caps: Option<&Capabilities>) -> Option<&'static str> {
        if let Some(what) = NOT_YET_RUN.asked_by(ask) {
            return Some(what);
        }
        if config::not_carried(ask.settings).iter().any(|what| !config::is_dropped_key(what)) {
            return Some("cline-settings");
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
        let command = config::sole_command(ask.settings).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "a Cline session runs exactly one command hook")
        })?;
        let providers = config::providers_path(at.home);
        std::fs::create_dir_all(providers.parent().unwrap_or(at.home))?;
        std::fs::write(&providers, serde_json::to_vec_pretty(&config::providers_json(base_url))?)?;
        let hook = config::hook_path(at.home);
        std::fs::create_dir_all(hook.parent().unwrap_or(at.home))?;
        let script = config::hook_script(command);
        std::fs::write(&hook, &script)?;
        std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(0o755))?;
        std::fs::write(at.evidence.join("cline-PreToolUse"), &script)?;
        Ok(SessionLaunch {
            args: config::args(PROMPT).into_iter().map(OsString::from).collect(),
            env: config::env(config::free_port()?),
            ..SessionLaunch::default()
        })
    }

    fn parse_stream(&self, stdout: &str, _hook: &HookIdentity) -> StreamFacts {
        stream::parse(stdout)
    }

    /// A run the stream shows aborted at the hook is tied to the pending
    /// call when Cline's log says a hook's stop ended it ([`log`]), even
    /// when the guard left no trace (seal refused a guard that never started).
    fn read_own_log(&self, files: &OwnFiles<'_>, _hook: &HookIdentity, facts: &mut StreamFacts) {
        if facts.run_aborted_at_hook.is_some() {
            facts.hook_stop_reason =
                crate::file_read::read_text(&log::path(files.home), crate::file_read::MAX_AGENT_FILE_BYTES)
                    .ok()
                    .and_then(|l| log::hook_stop_reason(&l));
        }
    }
}
