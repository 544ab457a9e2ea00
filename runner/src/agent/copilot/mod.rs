//! GitHub's Copilot CLI as an agent under test: its driver ([`driver`]: its
//! session), its hook file and environment ([`config`]) and the words it
//! sends back to the model about a refused call ([`wording`]), where a
//! session's hook lives and whether its project is trusted ([`sources`]),
//! how audit reads a user's hook files ([`hook_config`]) and puts a probe
//! to a guard ([`hook_contract`]). It speaks
//! the Anthropic Messages API to the stand-in (`COPILOT_PROVIDER_TYPE=anthropic`),
//! with tools of its own (`bash`, `create`). Measured on 1.0.73 and 1.0.102:
//! docs/copilot.md.

pub mod config;
pub mod driver;
pub mod hook_config;
pub mod hook_contract;
pub mod sources;
pub mod wording;

/// The version failopen runs when no version is named: the registry's
/// `latest` when Copilot CLI support was measured (1.0.102, 21 October 2026).
pub const PINNED_VERSION: &str = "1.0.102";

/// The release about three months older than [`PINNED_VERSION`] that the
/// reference results also run (1.0.73, 23 July 2026).
pub const OLDER_VERSION: &str = "1.0.73";
