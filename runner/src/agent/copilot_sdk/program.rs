//! The Node program of one Copilot SDK session: `session.mjs` (failopen's
//! driver, the same for every arm) beside `sdk-session.json` (what this arm
//! asks, the Claude Agent SDK's [`session_config`], read the same way) and
//! failopen's sealed callback for this SDK, all written into the session's
//! evidence directory.

use std::path::{Path, PathBuf};

use crate::agent::agent_sdk::callback::CallbackAsk;
use crate::agent::agent_sdk::session_config;

/// The callback behaviours `session.mjs` knows; any other arm's row is
/// `unsupported` (a plain `def` returning a deny is Python's mistake).
pub const BEHAVIOURS: &[&str] = &[
    "allow",
    "deny",
    "throw",
    "reject",
    "string",
    "number",
    "null",
    "undefined",
    "wrong-case",
    "misspelt-key",
    "hang",
    "late",
];

/// failopen's driver program.
const SESSION_MJS: &str = include_str!("session.mjs");

/// Write the program into `evidence` for an SDK whose entry module is
/// `sdk`, in work directory `cwd`; returns the path to run with `node`.
pub fn write(evidence: &Path, sdk: &Path, cwd: &Path, prompt: &str, ask: &CallbackAsk) -> std::io::Result<PathBuf> {
    session_config::write(evidence, sdk, cwd, prompt, ask)?;
    let program = evidence.join("session.mjs");
    std::fs::write(&program, SESSION_MJS)?;
    std::fs::write(evidence.join("copilot_sealed_callback.mjs"), super::SEALED_CALLBACK_MJS)?;
    Ok(program)
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
    let text = std::fs::read_to_string(sdk.parent()?.parent()?.join("package.json")).ok()?;
    serde_json::from_str(&text).ok()
}
