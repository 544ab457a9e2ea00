//! OpenAI's Codex CLI as an agent under test.

/// The npm package Codex CLI ships in.
pub const NPM_PACKAGE: &str = "@openai/codex";

/// The version failopen runs when `--codex` is not given.
pub const PINNED_VERSION: &str = "0.171.0";
