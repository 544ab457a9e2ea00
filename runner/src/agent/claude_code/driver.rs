//! Claude Code's [`AgentDriver`]: `claude -p` (or the real `claude` in a
//! pseudo-terminal) with the arm's settings through `--settings`, against
//! the stand-in (`ANTHROPIC_BASE_URL`) or a live model.

use std::path::{Path, PathBuf};

use futures::future::BoxFuture;

use super::capabilities::{self, Capabilities};
use super::{session, wording::ClaudeCodeWording};
use crate::agent::driver::{AgentDriver, HookVocabulary, Identity, Matching, SessionAsk, SessionLaunch, SessionPlace};
use crate::agent::wording::RefusalWording;
use crate::agent::AgentBin;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;

/// Claude Code.
pub struct ClaudeCode;

/// Who it is ([`Identity`]).
const IDENTITY: Identity = Identity {
    npm_package: "@anthropic-ai/claude-code",
    bin_name: "claude",
    display_name: super::DISPLAY_NAME,
    pinned_version: super::PINNED_VERSION,
    older_version: super::ARTICLE_VERSION,
};

/// How its hooks are spelt. Claude Code's hooks reference: a hook with no timeout is waited for 600 s.
const VOCABULARY: HookVocabulary = HookVocabulary {
    event: "PreToolUse",
    write_tools: &crate::task::WRITE_TOOLS,
    full_matcher: crate::task::MATCHER,
    matching: Matching::CLAUDE_CODE,
    default_timeout_secs: 600.0,
};

impl AgentDriver for ClaudeCode {
    fn identity(&self) -> &'static Identity {
        &IDENTITY
    }

    fn hook_vocabulary(&self) -> &'static HookVocabulary {
        &VOCABULARY
    }

    /// The binary alone: one self-contained file in every release (`cli.js`,
    /// then the native `claude.exe`), and the hash results/history-versions.csv
    /// records for 404 releases.
    fn build_files(&self, version_dir: &Path) -> Vec<PathBuf> {
        vec![self.installed_binary(version_dir)]
    }

    /// Its reference runs predate the agent column: `claude-2.1.328.csv`,
    /// and `interactive-2.1.328.csv` for its sessions in a terminal.
    fn implied_when_unnamed(&self) -> bool {
        true
    }

    fn results_prefixes(&self) -> &'static [&'static str] {
        &["claude-", "interactive-"]
    }

    fn runs_live_and_interactive(&self) -> bool {
        true
    }

    fn reports_hook_events(&self) -> bool {
        true
    }

    fn hook_errors(&self, stdout: &str) -> Vec<String> {
        super::hook_census::pretooluse_errors(stdout)
    }

    fn hook_config(&self) -> Option<&'static dyn crate::agent::hook_config::HookConfig> {
        Some(&super::hook_config::ClaudeCodeHookConfig)
    }

    fn hook_contract(&self) -> Option<&'static dyn crate::agent::hook_contract::HookContract> {
        Some(&super::hook_contract::ClaudeCodeContract)
    }

    fn wording(&self) -> &'static dyn RefusalWording {
        &ClaudeCodeWording
    }

    /// The flags its `--help` declares. Unknown (`--help` did not answer)
    /// leaves the flags as they were; the session's stderr then tells an
    /// unknown option.
    fn capabilities<'a>(&'a self, bin: &'a AgentBin) -> BoxFuture<'a, Option<Capabilities>> {
        Box::pin(async move { capabilities::probe(bin).await.ok() })
    }

    /// A guard written as code (an Agent SDK callback arm) has no place in
    /// Claude Code's settings: `unsupported:sdk-callback`.
    fn unsupported(&self, ask: &SessionAsk<'_>, caps: Option<&Capabilities>) -> Option<&'static str> {
        if crate::agent::agent_sdk::callback::has_callback(ask.settings) {
            return Some("sdk-callback");
        }
        // Copilot CLI's project hook files: Claude Code reads no such file.
        if ask.source == crate::surface::HookSource::GithubHooks {
            return Some("claude-code-github-hooks");
        }
        // Auggie's tenant without the hooks flag: no Claude Code session has one.
        if ask.source == crate::surface::HookSource::AugmentUnflagged {
            return Some("claude-code-augment-unflagged");
        }
        caps.and_then(|c| session::unsupported(ask, c))
    }

    fn unknown_option<'a>(&self, stderr: &'a str) -> Option<&'a str> {
        capabilities::unknown_option(stderr)
    }

    /// `evidence/settings.json` (and `evidence/mcp.json`), then the command line.
    fn prepare(
        &self,
        ask: &SessionAsk<'_>,
        at: &SessionPlace<'_>,
        caps: Option<&Capabilities>,
    ) -> std::io::Result<SessionLaunch> {
        let settings_path = at.evidence.join("settings.json");
        std::fs::write(&settings_path, serde_json::to_vec_pretty(ask.settings)?)?;
        let mcp_path = at.evidence.join("mcp.json");
        if let Some(mcp) = ask.mcp_config {
            std::fs::write(&mcp_path, serde_json::to_vec_pretty(mcp)?)?;
        }
        Ok(SessionLaunch {
            args: session::args(ask, &settings_path, &mcp_path, caps),
            env: session::env(at.standin_url),
            ..SessionLaunch::default()
        })
    }

    fn parse_stream(&self, stdout: &str, hook: &HookIdentity) -> StreamFacts {
        super::stream::parse_stream(stdout, hook)
    }
}
