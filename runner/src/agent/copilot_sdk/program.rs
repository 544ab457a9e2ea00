//! The Node program of one Copilot SDK session: `session.mjs` (failopen's
//! driver, the same for every arm) beside `sdk-session.json` (what this arm
//! asks, the Claude Agent SDK's [`session_config`], read the same way) and
//! failopen's sealed callback for this SDK, all written into the session's
//! evidence directory.

use std::path::{Path, PathBuf};

use crate::agent::agent_sdk::callback::CallbackAsk;
use crate::agent::agent_sdk::session_config;

/// Whether `session.mjs` knows the hook callback behaviour `b`: the Claude
/// Agent SDK's TypeScript program's, less `garbage` (a canUseTool answer,
/// and canUseTool is not this SDK's); any other arm's row is `unsupported`.
pub fn knows(b: &str) -> bool {
    b != "garbage" && crate::agent::agent_sdk_ts::program::BEHAVIOURS.contains(&b)
}

/// failopen's driver program.
const SESSION_MJS: &str = include_str!("session.mjs");

/// Write the program into `evidence` for an SDK whose entry module is
/// `sdk`, in work directory `cwd`; returns the path to run with `node`.
pub fn write(evidence: &Path, sdk: &Path, cwd: &Path, prompt: &str, ask: &CallbackAsk) -> std::io::Result<PathBuf> {
    let sealed = ("copilot_sealed_callback.mjs", super::SEALED_CALLBACK_MJS);
    session_config::write_program(evidence, sdk, cwd, prompt, ask, ("session.mjs", SESSION_MJS), &[sealed])
}

/// The Copilot CLI version an SDK install bundles (its package.json's
/// `copilotCliVersion`), read two levels above the entry module `sdk`.
pub fn bundled_cli_version(sdk: &Path) -> Option<String> {
    package_json(sdk)?["copilotCliVersion"].as_str().map(String::from)
}

/// The SDK's own version: its package.json's `version`.
pub fn sdk_version(sdk: &Path) -> Option<String> {
    package_json(sdk)?["version"].as_str().map(String::from)
}

/// `<package>/package.json` for the entry module `<package>/dist/index.js`.
fn package_json(sdk: &Path) -> Option<serde_json::Value> {
    crate::agent::agent_sdk_ts::program::read_package_json(sdk.parent()?.parent()?)
}
