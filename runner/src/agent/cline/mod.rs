//! Cline CLI (npm `cline`) as an agent under test: its driver ([`driver`]:
//! its session), its provider file, hook file and environment ([`config`]),
//! its `--json` output ([`stream`]), its own log ([`log`]) and its words for a hook's refusal
//! ([`wording`]). It speaks the OpenAI Chat Completions API to the stand-in
//! (an `openai-compatible` provider), with tools of its own (`run_commands`,
//! `editor`). Its hook is an executable file named `PreToolUse` whose stdout
//! JSON `{"cancel": true}` aborts the whole run; nothing else refuses.
//! Measured on 3.0.57 and 3.0.65: docs/cline.md.

pub mod config;
pub mod driver;
pub mod hook_config;
pub mod hook_contract;
pub mod log;
pub mod stream;
pub mod wording;

/// The version failopen runs when no version is named: the registry's
/// `latest` when Cline support was measured (3.0.65, 27 September 2026).
pub const PINNED_VERSION: &str = "3.0.65";

/// The older release the reference results also run: 3.0.57 (24 August
/// 2026), the oldest of the 3.x line. The release about three months older,
/// 2.18.0 (15 July 2026), is the previous program (a Node CLI with its own
/// config store) and never reached the stand-in from the provider file
/// (docs/cline.md).
pub const OLDER_VERSION: &str = "3.0.57";
