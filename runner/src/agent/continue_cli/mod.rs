//! Continue CLI (`@continuedev/cli`, binary `cn`) as an agent under test:
//! its config, settings, environment and command line ([`config`]), its
//! words for a refused call ([`wording`]) and its session ([`driver`]). It
//! is pointed at the stand-in's OpenAI Chat Completions face (an `openai`
//! model whose `apiBase` is the stand-in), whose Continue tools are `Bash`
//! and `Write`, Claude Code's names. Measured on 1.5.45 and 1.5.47:
//! docs/continue.md.
//!
//! The finding that shapes everything here: both releases load Claude
//! Code's hook files (`~/.continue/settings.json`, `~/.claude/settings.json`,
//! the project's `.continue/` and `.claude/` ones) into a hook service whose
//! events nothing ever fires, so no hook runs, and every arm's row is
//! `invalid hook-not-run` with `notes.txt` on disk.

pub mod config;
pub mod driver;
pub mod hook_config;
pub mod hook_contract;
pub mod wording;

/// The version failopen runs when no version is named: the newest release
/// in the registry when Continue CLI support was measured (1.5.47, 8
/// September 2026).
pub const PINNED_VERSION: &str = "1.5.47";

/// The older reference version: 1.5.45 (16 May 2026), the release nearest
/// to three months before [`PINNED_VERSION`] (the registry holds only
/// 1.5.11, 1.5.26, 1.5.43, 1.5.45 and 1.5.47). Its hook code is 1.5.47's.
pub const OLDER_VERSION: &str = "1.5.45";
