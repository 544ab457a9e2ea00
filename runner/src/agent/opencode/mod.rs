//! OpenCode (npm `opencode-ai`) as an agent under test: its driver
//! ([`driver`]: its session), its config, environment and config
//! directories ([`config`]), the guard plugin an arm puts under test
//! ([`plugin`]), its `--format json` output ([`stream`]) and its words for a
//! plugin's refusal ([`wording`]). It speaks the OpenAI Chat Completions API
//! to the stand-in (an `@ai-sdk/openai-compatible` provider), with tools of
//! its own (`bash`, `write`, `edit`). Its guards are not commands but JS
//! plugins whose `tool.execute.before` hook refuses a call by throwing.
//! Measured on 1.17.18 and 1.18.33: docs/opencode.md.

pub mod audit_plugin;
pub mod config;
pub mod driver;
pub mod flavour;
pub mod hook_config;
pub mod plugin;
pub mod session;
pub mod stream;
pub mod wording;

/// The version failopen runs when no version is named: the registry's
/// `latest` when OpenCode support was measured (1.18.33, 28 September 2026).
pub const PINNED_VERSION: &str = "1.18.33";

/// The older release the reference results also run: 1.17.18 (13 July
/// 2026), the oldest release of about three months before whose Linux build
/// is on the registry (`opencode-linux-x64` has no 1.17.15, docs/opencode.md).
pub const OLDER_VERSION: &str = "1.17.18";
