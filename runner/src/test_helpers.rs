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

/// Write an executable (0755) script that a test runs at once.
///
/// A file this process opens for writing can be inherited, for an instant,
/// by a child another test thread is forking; running the file then fails
/// with ETXTBSY ("Text file busy"). So the bytes are written by a
/// short-lived `sh` child and this process never holds the file open for
/// writing (as the integration tests' `support::scripts` does).
pub fn write_executable(path: &std::path::Path, text: &str) {
    use std::io::Write;
    use std::os::unix::fs::PermissionsExt;
    let mut child = std::process::Command::new("sh")
        .args(["-c", "cat > \"$1\"", "sh"])
        .arg(path)
        .stdin(std::process::Stdio::piped())
        .spawn()
        .expect("spawning sh to write a script");
    child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    assert!(child.wait().unwrap().success(), "writing {}", path.display());
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}
