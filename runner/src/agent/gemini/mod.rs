//! Google's Gemini CLI as an agent under test: its settings, environment
//! and command line ([`config`]) and the words it sends back to the model
//! about a tool call ([`wording`]). Its model protocol, the Gemini API's
//! `streamGenerateContent`, is the stand-in's ([`crate::standin::gemini`]).
//! Its session is [`driver`]'s. Measured on 0.45.2 and 0.61.0: docs/gemini.md.

pub mod config;
pub mod driver;
pub mod hook_config;
pub mod hook_contract;
pub mod stream;
pub mod wording;

/// The version failopen runs when no version is named: the newest release
/// in the registry when Gemini CLI support was measured (25 September 2026).
pub const PINNED_VERSION: &str = "0.61.0";

/// The stable release about three months older than [`PINNED_VERSION`]
/// that the reference results and tests also run (0.45.2, 9 June 2026).
/// Its hook outcomes, flags, settings and tool names measured the same as
/// 0.61.0's; only its shell output lacks the `<untrusted_context>` wrapper.
pub const OLDER_VERSION: &str = "0.45.2";
