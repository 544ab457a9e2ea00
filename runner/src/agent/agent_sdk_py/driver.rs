//! The Claude Agent SDK (Python)'s [`AgentDriver`]: one `python
//! session.py` per cell ([`super::program`]), run by the interpreter of the
//! version's venv in failopen's cache, whose `query()` gets the arm's
//! callback ([`crate::agent::agent_sdk::callback`]), the work directory as
//! `cwd`, `setting_sources=[]`, and the stand-in through
//! `ANTHROPIC_BASE_URL` in the environment the SDK passes to the Claude
//! Code CLI it bundles. The program prints that CLI's stream-json messages
//! as it reads them, so the stream is read as Claude Code's; the row's
//! flags carry the bundled CLI's version.

use std::path::{Path, PathBuf};

use super::program;
use crate::agent::agent_sdk::{self, wording};
use crate::agent::claude_code::capabilities::Capabilities;
use crate::agent::driver::{
    AgentDriver, HookVocabulary, Identity, Matching, Registry, SessionAsk, SessionLaunch, SessionPlace,
};
use crate::agent::wording::RefusalWording;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;
use crate::hook_type::HookType;

/// The Claude Agent SDK for Python.
pub struct AgentSdkPy;

/// Who it is ([`Identity`]): a PyPI package, whose venv's interpreter
/// stands for a command ([`AgentDriver::installed_binary`]).
const IDENTITY: Identity = Identity {
    npm_package: "claude-agent-sdk",
    bin_name: "python",
    display_name: "Claude Agent SDK (Python)",
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

impl AgentDriver for AgentSdkPy {
    fn identity(&self) -> &'static Identity {
        &IDENTITY
    }

    fn hook_vocabulary(&self) -> &'static HookVocabulary {
        &VOCABULARY
    }

    fn registry(&self) -> Registry {
        Registry::PyPi
    }

    /// The SDK's installed package (its bundled CLI included): the venv's
    /// interpreter is the machine's python3, the same for every release.
    fn build_files(&self, version_dir: &Path) -> Vec<PathBuf> {
        let mut files = Vec::new();
        for lib in std::fs::read_dir(version_dir.join(super::VENV).join("lib")).into_iter().flatten().flatten() {
            let package = lib.path().join("site-packages/claude_agent_sdk");
            files.extend(crate::agent::driver::files_under(&package));
        }
        files.sort();
        files
    }

    fn installed_binary(&self, version_dir: &Path) -> PathBuf {
        super::venv_python(version_dir)
    }

    /// The package's `_version.py`, not a `--version` run.
    fn version_without_running(&self, bin: &Path) -> Option<String> {
        program::sdk_version(bin)
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
    /// against the stand-in, doing what `session.py` knows.
    fn unsupported(&self, ask: &SessionAsk<'_>, _caps: Option<&Capabilities>) -> Option<&'static str> {
        agent_sdk::unsupported(ask, program::BEHAVIOURS)
    }

    fn prepare(
        &self,
        ask: &SessionAsk<'_>,
        at: &SessionPlace<'_>,
        _caps: Option<&Capabilities>,
    ) -> std::io::Result<SessionLaunch> {
        let python = at.binary.to_path_buf();
        agent_sdk::prepare(ask, at, program::write, python, program::bundled_cli_version(at.binary))
    }

    fn parse_stream(&self, stdout: &str, hook: &HookIdentity) -> StreamFacts {
        agent_sdk::parse_stream(stdout, hook)
    }
}
