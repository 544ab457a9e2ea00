//! Augment's Auggie CLI (`@augmentcode/auggie`) as an agent under test: its
//! settings, environment and command line ([`config`]) and the words it
//! sends back about a refused call ([`wording`]). It takes no model base
//! URL: it speaks only Augment's own API, so its sessions run against the
//! stand-in's simulation of that API ([`crate::standin::augment`]), read
//! off the client's code. Its session is [`driver`]'s. Measured on 0.36.0
//! only, against that simulation: docs/auggie.md says what it cannot show.

pub mod config;
pub mod driver;
pub mod log;
pub mod wording;

/// The version failopen runs when no version is named: the newest release
/// in the registry when Auggie support was measured (0.36.0, 23 September 2026).
pub const PINNED_VERSION: &str = "0.36.0";

/// The older reference version: 0.25.2 (7 August 2026), the release before
/// [`PINNED_VERSION`] in the registry (it holds nothing between them); its
/// API may differ from the stand-in's, which is read off 0.36.0.
pub const OLDER_VERSION: &str = "0.25.2";
