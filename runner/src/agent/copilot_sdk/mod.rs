//! GitHub's Copilot SDK for TypeScript (npm `@github/copilot-sdk`) as an
//! agent under test: a guard written as code, the session's `onPreToolUse`
//! hook callback, in a Node program failopen writes for the arm
//! ([`program`]). The SDK starts the Copilot runtime it bundles
//! (`@github/copilot-sdk-linux-x64`, Copilot CLI's engine), which talks to
//! the stand-in as an Anthropic provider, offline, with Copilot CLI's tools
//! (`bash`, `create`) and its words for a refusal. Its [`AgentDriver`] is
//! [`driver`]. Measured: docs/copilot-sdk.md.
//!
//! [`AgentDriver`]: crate::agent::AgentDriver

pub mod driver;
pub mod program;
pub mod stream;

/// The SDK version failopen runs when none is named (bundles Copilot CLI 1.0.85).
pub const PINNED_VERSION: &str = "1.0.14";

/// The older reference release (bundles Copilot CLI 1.0.83): the oldest one
/// that pins its runtime. Releases before it depend on `@github/copilot`
/// by a caret range, so which runtime they run is whatever the registry's
/// newest 1.0.x is on the day of the install.
pub const OLDER_VERSION: &str = "1.0.13";

/// The SDK's entry module inside a version's install directory, which the
/// cache treats as the SDK's "binary" (the SDK has no command of its own).
pub const ENTRY: &str = "node_modules/@github/copilot-sdk/dist/index.js";

/// failopen's sealed callback for this SDK: the file users copy.
pub const SEALED_CALLBACK_MJS: &str = include_str!("../../../guards/sdk/copilot_sealed_callback.mjs");
