//! `sdk-session.json`: what one SDK session's program is told, the same
//! for both languages (which SDK, callback and options the arm asks for),
//! written into the session's evidence directory beside the program.

use std::path::Path;

use serde_json::json;

use super::callback::CallbackAsk;

/// Write `sdk-session.json` into `evidence` for an SDK at `sdk` (the TS
/// entry module, or the Python venv's interpreter), in work directory `cwd`.
pub fn write(evidence: &Path, sdk: &Path, cwd: &Path, prompt: &str, ask: &CallbackAsk) -> std::io::Result<()> {
    let config = json!({
        "sdk": sdk,
        "cwd": cwd,
        "prompt": prompt,
        "kind": ask.kind,
        "callback": ask.behaviour,
        "timeout_secs": ask.timeout_secs,
        "on_failure_block": ask.on_failure_block,
        "matcher": ask.matcher,
        "deny_reason": super::DENY_REASON,
        "max_turns": super::MAX_TURNS,
        "sealed_deadline_secs": ask.sealed_deadline_secs,
        "sealed_reason": super::SEALED_REASON,
    });
    std::fs::write(evidence.join("sdk-session.json"), serde_json::to_vec_pretty(&config)?)
}
