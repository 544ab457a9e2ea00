//! Anthropic's Claude Agent SDK for TypeScript (npm
//! `@anthropic-ai/claude-agent-sdk`) as an agent under test: a guard written
//! as code, a PreToolUse hook callback or a `canUseTool` callback, passed to
//! `query()` in a Node program failopen writes for the arm ([`program`]).
//! The SDK spawns the Claude Code CLI it bundles, which talks to the
//! stand-in through `ANTHROPIC_BASE_URL`, so the session's stream, its
//! refusals and the verdict rule are Claude Code's; the callback's own
//! trace says what it returned. Its [`AgentDriver`] is [`driver`].
//! Measured: docs/agent-sdk.md.
//!
//! [`AgentDriver`]: crate::agent::AgentDriver

pub mod driver;
pub mod program;

/// The SDK version failopen runs when none is named (bundles Claude Code 2.1.333).
pub const PINNED_VERSION: &str = "0.3.333";

/// The SDK release about three months older (2026-09-02; bundles Claude Code 2.1.258).
pub const OLDER_VERSION: &str = "0.3.258";

/// The SDK's entry module inside a version's install directory, which the
/// cache treats as the SDK's "binary" (the SDK has no command of its own).
pub const ENTRY: &str = "node_modules/@anthropic-ai/claude-agent-sdk/sdk.mjs";
