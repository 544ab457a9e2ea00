//! Anthropic's Claude Agent SDK for Python (PyPI `claude-agent-sdk`) as an
//! agent under test: the same guards written as code as
//! [`super::agent_sdk_ts`], a PreToolUse hook callback in a `HookMatcher` or
//! a `can_use_tool` callback, passed to `query()` in a Python program
//! failopen writes for the arm ([`program`]) and runs with the interpreter
//! of a venv failopen makes in its cache ([`crate::install::pypi`]). The
//! SDK spawns the Claude Code CLI it bundles, so the stream, its refusals
//! and the verdict rule are Claude Code's. Its [`AgentDriver`] is [`driver`].
//! Measured: docs/agent-sdk.md.
//!
//! [`AgentDriver`]: crate::agent::AgentDriver

pub mod driver;
pub mod program;

/// The SDK version failopen runs when none is named (bundles Claude Code 2.1.332).
pub const PINNED_VERSION: &str = "0.2.189";

/// The SDK release about three months older (bundles Claude Code 2.1.258).
pub const OLDER_VERSION: &str = "0.2.145";

/// The venv inside a version's install directory (install/pypi.rs makes it).
pub const VENV: &str = "venv";

/// The venv's interpreter under a version's install directory, which
/// stands for the Python SDK's "binary".
pub fn venv_python(version_dir: &std::path::Path) -> std::path::PathBuf {
    version_dir.join(VENV).join("bin/python")
}
