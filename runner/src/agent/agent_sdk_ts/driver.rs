//! The Claude Agent SDK (TypeScript)'s [`AgentDriver`]: one `node
//! session.mjs` per cell ([`super::program`]), whose `query()` gets the
//! arm's callback ([`super::callback`]), the work directory as `cwd`,
//! `settingSources: []`, and the stand-in through `ANTHROPIC_BASE_URL` in
//! the environment the SDK passes to the Claude Code CLI it bundles. The
//! SDK prints that CLI's stream-json messages, so the stream is read as
//! Claude Code's; the row's flags carry the bundled CLI's version.

use std::path::{Path, PathBuf};

use super::{callback, program, wording};
use crate::agent::claude_code::capabilities::Capabilities;
use crate::agent::driver::{AgentDriver, Identity, SessionAsk, SessionLaunch, SessionPlace};
use crate::agent::not_yet_run::NotYetRun;
use crate::agent::wording::RefusalWording;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;
use crate::task::PROMPT;

/// The Claude Agent SDK for TypeScript.
pub struct AgentSdkTs;

/// What SDK sessions do not run yet.
const NOT_YET_RUN: NotYetRun = NotYetRun {
    live_model: "agent-sdk-live-model",
    interactive: "agent-sdk-interactive",
    hook_source: "agent-sdk-hook-source",
    route: "agent-sdk-route",
};

/// Who it is ([`Identity`]).
const IDENTITY: Identity = Identity {
    npm_package: "@anthropic-ai/claude-agent-sdk",
    // The SDK ships no command; its entry module stands for one
    // ([`AgentDriver::installed_binary`]).
    bin_name: "sdk.mjs",
    display_name: "Claude Agent SDK (TypeScript)",
    pinned_version: super::PINNED_VERSION,
    older_version: super::OLDER_VERSION,
};

impl AgentDriver for AgentSdkTs {
    fn identity(&self) -> &'static Identity {
        &IDENTITY
    }

    fn installed_binary(&self, version_dir: &Path) -> PathBuf {
        version_dir.join(super::ENTRY)
    }

    /// The SDK's package.json, not a `--version` run.
    fn version_without_running(&self, bin: &Path) -> Option<String> {
        program::sdk_version(bin)
    }

    fn hook_event(&self) -> &'static str {
        "PreToolUse"
    }

    fn write_tools(&self) -> &'static [&'static str] {
        &crate::task::WRITE_TOOLS
    }

    fn full_matcher(&self) -> String {
        crate::task::matcher()
    }

    /// The bundled Claude Code's default; a hanging callback without a
    /// matcher `timeout` waited past 150 s in the spike (agent-notes.md).
    fn default_hook_timeout_secs(&self) -> f64 {
        600.0
    }

    fn reports_hook_events(&self) -> bool {
        true
    }

    fn wording(&self) -> &'static dyn RefusalWording {
        &wording::AgentSdkWording
    }

    /// Only a PreToolUse or canUseTool callback, alone, in print mode
    /// against the stand-in: a command hook is Claude Code's to measure.
    fn unsupported(&self, ask: &SessionAsk<'_>, _caps: Option<&Capabilities>) -> Option<&'static str> {
        NOT_YET_RUN.asked_by(ask).or_else(|| callback::read(ask.settings).err())
    }

    fn prepare(
        &self,
        ask: &SessionAsk<'_>,
        at: &SessionPlace<'_>,
        _caps: Option<&Capabilities>,
    ) -> std::io::Result<SessionLaunch> {
        let unsupported = |what: &str| std::io::Error::new(std::io::ErrorKind::Unsupported, what.to_string());
        let callback = callback::read(ask.settings).map_err(unsupported)?;
        let base_url = at.standin_url.ok_or_else(|| unsupported("the Agent SDK runs against the stand-in only"))?;
        std::fs::write(at.evidence.join("settings.json"), serde_json::to_vec_pretty(ask.settings)?)?;
        let script = program::write(at.evidence, at.binary, at.work, PROMPT, &callback)?;
        let flags = program::bundled_cli_version(at.binary).map(|v| format!("bundled-cli:{v}")).into_iter().collect();
        Ok(SessionLaunch {
            args: vec![script.into_os_string()],
            env: crate::agent::claude_code::session::env(Some(base_url)),
            program: Some(PathBuf::from("node")),
            flags,
        })
    }

    /// The SDK relays the bundled CLI's stream-json messages: Claude Code's
    /// reader, plus the callback's own lines ([`wording::callback_answers`]).
    fn parse_stream(&self, stdout: &str, hook: &HookIdentity) -> StreamFacts {
        let mut facts = crate::evidence::parse_stream(stdout, hook);
        facts.hook_outcomes.extend(wording::callback_answers(stdout));
        facts
    }
}
