//! Qwen Code (`@qwen-code/qwen-code`, a fork of Gemini CLI with Claude
//! Code's hook format) as an agent under test: its settings, environment
//! and command line ([`config`]), its Claude-Code-like `stream-json` output
//! ([`stream`]) and the words it sends back about a refused call
//! ([`wording`]). It is pointed at the stand-in's Gemini API face
//! (`--auth-type gemini`, `GOOGLE_GEMINI_BASE_URL`), whose tools
//! (`run_shell_command`, `write_file`) are Qwen's too. Its session is
//! [`driver`]'s. Measured on 0.15.6 and 0.24.4: docs/qwen.md.

pub mod config;
pub mod driver;
pub mod hook_config;
pub mod hook_contract;
pub mod stream;
pub mod wording;

/// The version failopen runs when no version is named: the newest release
/// in the registry when Qwen Code support was measured (0.24.4, 22 September
/// 2026).
pub const PINNED_VERSION: &str = "0.24.4";

/// The older reference version: 0.15.6 (24 August 2026). The registry holds
/// no release between 0.8.2 (18 May, which has no hooks at all) and 0.15.6,
/// so this is the nearest release with hooks to three months before
/// [`PINNED_VERSION`]. Its command hooks read `timeout` in milliseconds
/// (0.24.4: in seconds, values of 1000 or more still milliseconds).
pub const OLDER_VERSION: &str = "0.15.6";
