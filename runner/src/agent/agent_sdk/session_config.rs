//! `sdk-session.json`: what one SDK session's program is told, the same
//! for both languages (which SDK, callback and options the arm asks for),
//! written into the session's evidence directory beside the program.

use std::path::{Path, PathBuf};

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

/// Write `sdk-session.json` and a session's program into `evidence`: the
/// program (its file name and text) and the files it imports from beside
/// it (a sealed callback); returns the program's path.
pub fn write_program(
    evidence: &Path,
    sdk: &Path,
    cwd: &Path,
    prompt: &str,
    ask: &CallbackAsk,
    program: (&str, &str),
    beside: &[(&str, &str)],
) -> std::io::Result<PathBuf> {
    write(evidence, sdk, cwd, prompt, ask)?;
    for (name, text) in beside {
        std::fs::write(evidence.join(name), text)?;
    }
    let path = evidence.join(program.0);
    std::fs::write(&path, program.1)?;
    Ok(path)
}
