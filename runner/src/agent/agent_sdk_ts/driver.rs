//! The Claude Agent SDK (TypeScript)'s [`AgentDriver`]: one `node
//! session.mjs` per cell ([`super::program`]), whose `query()` gets the
//! arm's callback ([`crate::agent::agent_sdk::callback`]), the work directory as `cwd`,
//! `settingSources: []`, and the stand-in through `ANTHROPIC_BASE_URL` in
//! the environment the SDK passes to the Claude Code CLI it bundles. The
//! SDK prints that CLI's stream-json messages, so the stream is read as
//! Claude Code's; the row's flags carry the bundled CLI's version.

use std::path::{Path, PathBuf};

use super::program;
use crate::agent::agent_sdk::{self, wording};
use crate::agent::claude_code::capabilities::Capabilities;
use crate::agent::driver::{AgentDriver, HookVocabulary, Identity, Matching, SessionAsk, SessionLaunch, SessionPlace};
use crate::agent::wording::RefusalWording;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;
use crate::hook_type::HookType;

/// The Claude Agent SDK for TypeScript.
pub struct AgentSdkTs;

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

/// How its hooks are spelt. Claude Code's, which the SDK bundles; a hanging callback without a matcher `timeout` waited past 150 s in the spike (agent-notes.md).
const VOCABULARY: HookVocabulary = HookVocabulary {
    event: "PreToolUse",
    write_tools: &crate::task::WRITE_TOOLS,
    full_matcher: crate::task::MATCHER,
    matching: Matching::CLAUDE_CODE,
    default_timeout_secs: 600.0,
};

impl AgentDriver for AgentSdkTs {
    fn identity(&self) -> &'static Identity {
        &IDENTITY
    }

    fn hook_vocabulary(&self) -> &'static HookVocabulary {
        &VOCABULARY
    }

    fn installed_binary(&self, version_dir: &Path) -> PathBuf {
        version_dir.join(super::ENTRY)
    }

    /// The SDK's package.json, not a `--version` run.
    fn version_without_running(&self, bin: &Path) -> Option<String> {
        program::sdk_version(bin)
    }

    fn reports_hook_events(&self) -> bool {
        true
    }

    /// Only guards written as code: a PreToolUse callback or `canUseTool`.
    fn runs_hook_type(&self, t: HookType) -> bool {
        t.is_callback()
    }

    /// `arms/sdk.json`: the callbacks (the article's arms are settings hooks it never runs).
    fn default_arm_sets(&self) -> &'static [&'static str] {
        &["sdk"]
    }

    fn wording(&self) -> &'static dyn RefusalWording {
        &wording::AgentSdkWording
    }

    /// Only a PreToolUse or canUseTool callback, alone, in print mode
    /// against the stand-in, doing what `session.mjs` knows.
    fn unsupported(&self, ask: &SessionAsk<'_>, _caps: Option<&Capabilities>) -> Option<&'static str> {
        agent_sdk::unsupported(ask, program::BEHAVIOURS)
    }

    fn prepare(
        &self,
        ask: &SessionAsk<'_>,
        at: &SessionPlace<'_>,
        _caps: Option<&Capabilities>,
    ) -> std::io::Result<SessionLaunch> {
        agent_sdk::prepare(ask, at, program::write, PathBuf::from("node"), program::bundled_cli_version(at.binary))
    }

    fn parse_stream(&self, stdout: &str, hook: &HookIdentity) -> StreamFacts {
        agent_sdk::parse_stream(stdout, hook)
    }
}
