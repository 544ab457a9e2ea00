//! The Node program of one SDK session: `session.mjs` (failopen's driver,
//! the same for every arm) beside `sdk-session.json` (what this arm asks,
//! [`crate::agent::agent_sdk::session_config`]), both written into the
//! session's evidence directory.

use std::path::{Path, PathBuf};

use crate::agent::agent_sdk::callback::CallbackAsk;
use crate::agent::agent_sdk::session_config;

/// The callback behaviours `session.mjs` knows (a hook callback's and
/// `canUseTool`'s); any other arm's row is `unsupported`.
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
    "garbage",
];

/// failopen's driver program.
const SESSION_MJS: &str = include_str!("session.mjs");

/// Write the program into `evidence` for an SDK whose entry module is
/// `sdk`, in work directory `cwd`; returns the path to run with `node`.
pub fn write(evidence: &Path, sdk: &Path, cwd: &Path, prompt: &str, ask: &CallbackAsk) -> std::io::Result<PathBuf> {
    let sealed = ("sealed_callback.mjs", crate::agent::agent_sdk::SEALED_CALLBACK_MJS);
    session_config::write_program(evidence, sdk, cwd, prompt, ask, ("session.mjs", SESSION_MJS), &[sealed])
}

/// The Claude Code version an SDK install bundles: its package.json's
/// `claudeCodeVersion`, read beside the entry module `sdk`.
pub fn bundled_cli_version(sdk: &Path) -> Option<String> {
    package_json(sdk)?["claudeCodeVersion"].as_str().map(String::from)
}

/// The SDK's own version: its package.json's `version`, beside `sdk`.
pub fn sdk_version(sdk: &Path) -> Option<String> {
    package_json(sdk)?["version"].as_str().map(String::from)
}

fn package_json(sdk: &Path) -> Option<serde_json::Value> {
    read_package_json(sdk.parent()?)
}

/// The `package.json` of the npm package in `dir`, parsed.
pub fn read_package_json(dir: &Path) -> Option<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join("package.json")).ok()?;
    serde_json::from_str(&text).ok()
}
