//! The Node program of one SDK session: `session.mjs` (failopen's driver,
//! the same for every arm) and `sdk-session.json` (what this arm asks),
//! both written into the session's evidence directory.

use std::path::{Path, PathBuf};

use serde_json::json;

use super::callback::CallbackAsk;

/// The reason the callback's correct deny gives (and the message of a
/// `canUseTool` deny): a refusal carrying it is the callback's own.
pub const DENY_REASON: &str = "failopen-callback-deny: notes.txt is not to be written";

/// How many turns the session may take (the stand-in's script needs three).
const MAX_TURNS: u32 = 8;

/// failopen's driver program.
const SESSION_MJS: &str = include_str!("session.mjs");

/// Write the program into `evidence` for an SDK whose entry module is
/// `sdk`, in work directory `cwd`; returns the path to run with `node`.
pub fn write(evidence: &Path, sdk: &Path, cwd: &Path, prompt: &str, ask: &CallbackAsk) -> std::io::Result<PathBuf> {
    let config = json!({
        "sdk": sdk,
        "cwd": cwd,
        "prompt": prompt,
        "kind": ask.kind,
        "callback": ask.behaviour,
        "timeout_secs": ask.timeout_secs,
        "on_failure_block": ask.on_failure_block,
        "matcher": ask.matcher,
        "deny_reason": DENY_REASON,
        "max_turns": MAX_TURNS,
    });
    std::fs::write(evidence.join("sdk-session.json"), serde_json::to_vec_pretty(&config)?)?;
    let program = evidence.join("session.mjs");
    std::fs::write(&program, SESSION_MJS)?;
    Ok(program)
}

/// The Claude Code version an SDK install bundles: its package.json's
/// `claudeCodeVersion`, read beside the entry module `sdk`.
pub fn bundled_cli_version(sdk: &Path) -> Option<String> {
    let text = std::fs::read_to_string(sdk.parent()?.join("package.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["claudeCodeVersion"].as_str().map(String::from)
}

/// The SDK's own version: its package.json's `version`, beside `sdk`.
pub fn sdk_version(sdk: &Path) -> Option<String> {
    let text = std::fs::read_to_string(sdk.parent()?.join("package.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v["version"].as_str().map(String::from)
}
