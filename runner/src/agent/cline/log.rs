//! Cline CLI's own log of a session, `~/.cline/data/logs/cline.log` (pino,
//! one JSON object a line). When a hook's `{"cancel": true, "errorMessage":
//! ...}` ends the run, Cline's agent loop throws its `ControlledStopError`
//! with the hook's `errorMessage` (`@cline/agents`: the hook result's
//! `cancelReason` is the stop control's reason, and `applyStopControl`
//! throws `ControlledStopError(reason)`) and logs it as `Agent loop caught
//! error`, `errorName` `ControlledStopError`, `errorMessage` the hook's own
//! words (3.0.65). An abort from outside the loop is another error
//! (`AgentRuntimeAbortError`), so this line says that a hook's stop ended
//! the run, which the `--json` stream does not (its `run_aborted` reads
//! "aborted by another client" either way).

use std::path::{Path, PathBuf};

/// Where Cline writes its log under the session's HOME.
pub fn path(home: &Path) -> PathBuf {
    home.join(".cline/data/logs/cline.log")
}

/// The message Cline logs for the error its agent loop caught.
const CAUGHT: &str = "Agent loop caught error";

/// The error a hook's stop control throws.
const CONTROLLED_STOP: &str = "ControlledStopError";

/// The reason of the last hook stop that ended a run in `log`, if any: the
/// hook's `errorMessage` (Cline's default words, "Run stopped by runtime
/// control", when it gave none).
pub fn hook_stop_reason(log: &str) -> Option<String> {
    log.lines()
        .rev()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|e| e["msg"] == CAUGHT && e["errorName"] == CONTROLLED_STOP)
        .map(|e| e["errorMessage"].as_str().unwrap_or("Run stopped by runtime control").to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lines of a `missing/sealed` session on 3.0.65 (trimmed): seal refused
    /// a guard that never started with a cancel.
    const SEALED_MISSING: &str = r#"{"level":30,"msg":"hooks.discovery_completed","event":"hooks.discovery_completed"}
{"level":40,"name":"cline.cli","runId":"run_AJvEpWpA","status":"aborted","iteration":1,"errorName":"ControlledStopError","errorMessage":"guard /r/guards/cell-1/missing-guard.sh could not decide (did not start: No such file or directory); refusing by default","assistantContentPartCount":1,"msg":"Agent loop caught error"}
not json
"#;

    #[test]
    fn a_hooks_stop_is_read_with_its_reason() {
        assert_eq!(
            hook_stop_reason(SEALED_MISSING).as_deref(),
            Some("guard /r/guards/cell-1/missing-guard.sh could not decide (did not start: No such file or directory); refusing by default")
        );
        assert_eq!(path(Path::new("/h")), Path::new("/h/.cline/data/logs/cline.log"));
    }

    #[test]
    fn another_error_is_no_hooks_stop() {
        let external =
            r#"{"errorName":"AgentRuntimeAbortError","errorMessage":"Run aborted","msg":"Agent loop caught error"}"#;
        assert_eq!(hook_stop_reason(external), None);
        let other_msg = r#"{"errorName":"ControlledStopError","errorMessage":"x","msg":"something else"}"#;
        assert_eq!(hook_stop_reason(other_msg), None);
        assert_eq!(hook_stop_reason(""), None);
    }
}
