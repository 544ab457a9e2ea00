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
use crate::agent::driver::{AgentDriver, Registry, SessionAsk, SessionLaunch, SessionPlace};
use crate::agent::wording::RefusalWording;
use crate::attribution::HookIdentity;
use crate::evidence::StreamFacts;
use crate::install::capabilities::Capabilities;

/// The Claude Agent SDK for Python.
pub struct AgentSdkPy;

impl AgentDriver for AgentSdkPy {
    fn npm_package(&self) -> &'static str {
        "claude-agent-sdk"
    }

    fn registry(&self) -> Registry {
        Registry::PyPi
    }

    /// The SDK ships no command; its venv's interpreter stands for one
    /// ([`AgentDriver::installed_binary`]).
    fn bin_name(&self) -> &'static str {
        "python"
    }

    fn display_name(&self) -> &'static str {
        "Claude Agent SDK (Python)"
    }

    fn pinned_version(&self) -> &'static str {
        super::PINNED_VERSION
    }

    fn older_version(&self) -> &'static str {
        super::OLDER_VERSION
    }

    fn installed_binary(&self, version_dir: &Path) -> PathBuf {
        crate::install::pypi::venv_python(version_dir)
    }

    /// The package's `_version.py`, not a `--version` run.
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
