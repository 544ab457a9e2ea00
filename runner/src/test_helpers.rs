//! Helpers for the unit tests of several modules (compiled for tests only).

use crate::record::Row;
use crate::verdict::VerdictKind;

/// A row with the fields tallies and reports read; the rest fixed.
pub fn row(version: &str, arm: &str, repeat: u32, verdict: VerdictKind, reason: &str) -> Row {
    let (guard, wrapper) = arm.split_once('/').unwrap_or((arm, "bare"));
    Row {
        agent_version: version.into(),
        model: "scripted".into(),
        arm: arm.into(),
        guard: guard.into(),
        wrapper: wrapper.into(),
        repeat,
        verdict,
        reason: reason.into(),
        file_bytes: None,
        hook_invocations: 1,
        hook_outcomes: String::new(),
        attempts: String::new(),
        session_exit: "0".into(),
        session_secs: 1.0,
        harness_said: String::new(),
        file_ready: None,
        hook_timeout: 5.0,
        deadline: 3.0,
        flags: String::new(),
        hook_type: "command".into(),
        mode: "print".into(),
        agent: "claude-code".into(),
    }
}
