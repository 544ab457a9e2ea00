//! Factory's Droid CLI (`droid exec`) as an agent under test: its settings,
//! hook file, environment and command line ([`config`]), its `stream-json`
//! events ([`stream`]), its own log ([`log`]) and session transcript
//! ([`transcript`]), and the words it sends back about a refused call
//! ([`wording`]); how audit reads a user's hook files ([`hook_config`]) and
//! puts a probe to a guard ([`hook_contract`]). It runs offline with no
//! login (`FACTORY_AIRGAP_ENABLED=true`), its model a `customModels` entry
//! that speaks the Anthropic Messages API to the stand-in, with tools of its
//! own (`Execute`, `Create`, `Edit`). Its session is [`driver`]'s. Measured
//! on 0.215.0 and 0.225.2: docs/droid.md.
//!
//! Its versions are those of the per-platform package that holds the binary
//! (`@factory/cli-linux-x64`, which the binary reports for `--version`):
//! the launcher package `@factory/cli` only copies that binary in its
//! postinstall, and the registry's one launcher release (0.225.1) names a
//! platform build (0.225.1) the registry does not hold.

pub mod config;
pub mod driver;
pub mod hook_config;
pub mod hook_contract;
pub mod log;
pub mod stream;
pub mod transcript;
pub mod wording;

/// The version failopen runs when no version is named: the newest build of
/// the per-platform package in the registry when Droid support was measured
/// (0.225.2, 23 September 2026).
pub const PINNED_VERSION: &str = "0.225.2";

/// The older reference version: 0.215.0 (9 September 2026). The builds
/// before it in the registry (0.117.0 of 7 August and older) do not run
/// offline: with `FACTORY_AIRGAP_ENABLED` and a custom model they stop at
/// "Authentication failed. Please log in" before any model request.
pub const OLDER_VERSION: &str = "0.215.0";
