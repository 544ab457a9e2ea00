//! OpenAI's Codex CLI as an agent under test: its driver ([`driver`]: its
//! session), its config files ([`config`]), the words it sends back to the
//! model ([`wording`]), its `--json` stream ([`stream`]) and the stdin
//! contract audit puts a probe to a guard through ([`hook_contract`]). Its model
//! protocol, the Responses API, is the stand-in's
//! ([`crate::standin::responses`]). Measured on 0.149.0 and 0.171.0:
//! docs/codex.md.

pub mod config;
pub mod driver;
pub mod hook_config;
pub mod hook_contract;
pub mod stream;
pub mod wording;

/// The version failopen runs when no version is named.
pub const PINNED_VERSION: &str = "0.171.0";

/// The version about three months older than [`PINNED_VERSION`] that the
/// reference results and tests also run (0.149.0, 21 August 2026).
pub const OLDER_VERSION: &str = "0.149.0";
