//! A probe against a command hook directly, through Claude Code's stdin
//! contract, with no session and no model: the hook's command (as the
//! session would run it, with `CLAUDE_PROJECT_DIR` and the user's `HOME`)
//! gets the PreToolUse payload of the probe's call, in a throwaway world.
//! A refusal is exit 2, or exit 0 with a JSON `deny`. Nothing the probe
//! asks for is executed here: the guard only reads it.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use serde::Serialize;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::Probe;

/// The most of a guard's stdout or stderr read.
const MAX_OUTPUT: u64 = 64 * 1024;

/// What the guard said to one probe.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Screen {
    /// The probe's label (`Bash:git-reset-hard`).
    pub probe: String,
    /// Whether the guard refused it.
    pub refused: bool,
    /// How it answered: `exit 2: <reason>`, `deny: <reason>`, `allowed`, `exit 1`, `timed out` ...
    pub answer: String,
}

/// One probe screened against one hook.
#[derive(Debug, Clone, Serialize)]
pub struct HookScreen {
    /// Hook id.
    pub hook: String,
    /// What the hook answered.
    #[serde(flatten)]
    pub screen: Screen,
}

/// The PreToolUse payload Claude Code sends a hook for `probe`'s call in the world under `root`.
pub fn payload(probe: &Probe, root: &Path) -> Value {
    json!({
        "session_id": "failopen-screen",
        "transcript_path": root.join("tmp/transcript.jsonl"),
        "cwd": root.join("work"),
        "permission_mode": "bypassPermissions",
        "hook_event_name": "PreToolUse",
        "tool_name": probe.tool,
        "tool_input": probe.input_in(root),
        "tool_use_id": "toolu_failopen_screen",
    })
}

/// Run `command` (a shell command line) with `payload` on stdin and `env`,
/// from `cwd`, as the leader of its own process group (killed when it ends
/// or times out), and read what it decided. The group is in `groups` while
/// it runs, and its processes carry this process's tag, so that a hard stop
/// (a second signal) kills them as it kills a session's.
pub async fn run(
    command: &str,
    payload: &Value,
    env: &[(String, String)],
    cwd: &Path,
    timeout: Duration,
    groups: &crate::pool::GroupRegistry,
) -> (bool, String) {
    let mut cmd = tokio::process::Command::new("/bin/sh");
    cmd.arg("-c")
        .arg(command)
        .current_dir(cwd)
        .envs(env.iter().map(|(k, v)| (k.as_str(), v.as_str())))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env(crate::reap::TAG_VAR, crate::pool::session_id("screen"))
        .process_group(0)
        .kill_on_drop(true);
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return (false, format!("cannot start: {e}")),
    };
    let group = child.id();
    if let Some(g) = group {
        groups.insert(g);
    }
    let _kill = Group(group, groups);
    let mut stdin = child.stdin.take();
    let body = payload.to_string();
    let mut out = child.stdout.take();
    let mut err = child.stderr.take();
    let work = async {
        if let Some(mut s) = stdin.take() {
            let _ = s.write_all(body.as_bytes()).await;
        }
        let read = |p: Option<tokio::process::ChildStdout>| async move {
            let mut buf = Vec::new();
            if let Some(p) = p {
                let _ = p.take(MAX_OUTPUT).read_to_end(&mut buf).await;
            }
            buf
        };
        let read_err = |p: Option<tokio::process::ChildStderr>| async move {
            let mut buf = Vec::new();
            if let Some(p) = p {
                let _ = p.take(MAX_OUTPUT).read_to_end(&mut buf).await;
            }
            buf
        };
        let (o, e) = tokio::join!(read(out.take()), read_err(err.take()));
        let status = child.wait().await;
        (status, o, e)
    };
    match tokio::time::timeout(timeout, work).await {
        Err(_) => (false, format!("timed out after {} s", timeout.as_secs())),
        Ok((Err(e), _, _)) => (false, format!("cannot wait: {e}")),
        Ok((Ok(status), stdout, stderr)) => decide(status.code(), &stdout, &stderr),
    }
}

/// The start of a screen's answer when the guard meant to refuse in a shape
/// Claude Code rejects (so the call runs); the rest says why, in seal's words.
pub const REJECTED_DENY: &str = "a deny Claude Code rejects: ";

/// Claude Code's reading of a PreToolUse hook's answer: exit 2 refuses with
/// stderr as the reason; exit 0 refuses when stdout is a JSON deny that
/// passes Claude Code's hook-output schema, read as seal reads it
/// ([`crate::seal::answer::claude_code`]): a deny with a null reason, no
/// `hookEventName` or another event's is no decision, and the call runs.
pub fn decide(code: Option<i32>, stdout: &[u8], stderr: &[u8]) -> (bool, String) {
    let first = |b: &[u8]| {
        String::from_utf8_lossy(b)
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .trim()
            .chars()
            .take(120)
            .collect::<String>()
    };
    match code {
        Some(2) => (true, format!("exit 2: {}", first(stderr))),
        Some(0) => exit0(stdout),
        Some(n) => (false, format!("exit {n}: {}", first(stderr))),
        None => (false, "killed by a signal".into()),
    }
}

/// An exit 0's answer, as Claude Code reads it.
fn exit0(stdout: &[u8]) -> (bool, String) {
    use crate::seal::answer::{self, claude_code, Reading};
    // Plain text, or nothing, is an allow.
    let Ok(v) = answer::parse(stdout) else { return (false, "allowed".into()) };
    match claude_code::read(Some("PreToolUse"), &v) {
        Reading::Deny => {
            let reason = v
                .pointer("/hookSpecificOutput/permissionDecisionReason")
                .or_else(|| v.get("reason"))
                .and_then(Value::as_str)
                .unwrap_or("");
            (true, format!("deny: {}", reason.chars().take(120).collect::<String>()))
        }
        Reading::Ask => (false, "ask (not a refusal)".into()),
        Reading::Rejected(why) if answer::means_refusal(&v) => (false, format!("{REJECTED_DENY}{why}")),
        _ => (false, "allowed".into()),
    }
}

struct Group<'a>(Option<u32>, &'a crate::pool::GroupRegistry);

impl Drop for Group<'_> {
    fn drop(&mut self) {
        if let Some(g) = self.0 {
            crate::reap::kill_group(g);
            self.1.remove(g);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_is_exit_2_or_a_json_deny() {
        assert!(decide(Some(2), b"", b"no\n").0);
        assert!(
            decide(
                Some(0),
                br#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}"#,
                b""
            )
            .0
        );
        assert!(decide(Some(0), br#"{"decision":"block","reason":"x"}"#, b"").0);
        assert!(!decide(Some(0), br#"{"hookSpecificOutput":{"permissionDecision":"allow"}}"#, b"").0);
        assert!(!decide(Some(1), b"", b"boom").0, "a crash is not a refusal");
        assert!(!decide(None, b"", b"").0);
    }

    /// Measured on Claude Code 2.1.328 (arms/shapes.json): each of these
    /// denies is no decision to it, and the call runs.
    #[test]
    fn a_deny_claude_code_rejects_is_no_refusal_and_says_why() {
        for (answer, why) in [
            (r#"{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"x"}}"#, "hookEventName"),
            (
                r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":null}}"#,
                "permissionDecisionReason",
            ),
            (
                r#"{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny","permissionDecisionReason":"x"}}"#,
                "PostToolUse",
            ),
            (r#"{"async":true,"decision":"block","reason":"x"}"#, "async"),
            (r#"{"decision":"deny","reason":"x"}"#, "decision"),
        ] {
            let (refused, said) = decide(Some(0), answer.as_bytes(), b"");
            assert!(!refused, "{answer}");
            assert!(said.starts_with(REJECTED_DENY) && said.contains(why), "{answer}: {said}");
        }
        assert_eq!(decide(Some(0), b"{}", b""), (false, "allowed".into()));
        assert_eq!(decide(Some(0), b"ok\n", b""), (false, "allowed".into()));
    }

    #[tokio::test]
    async fn the_guard_reads_the_payload_and_a_hang_is_cut_off() {
        let d = tempfile::tempdir().unwrap();
        let p = crate::audit::probe::catalogue::all().into_iter().find(|p| p.name == "git-reset-hard").unwrap();
        let body = payload(&p, d.path());
        let groups = crate::pool::GroupRegistry::default();
        let guard = r#"grep -q 'reset --hard' && { echo 'destructive' >&2; exit 2; }; exit 0"#;
        let (refused, answer) = run(guard, &body, &[], d.path(), Duration::from_secs(10), &groups).await;
        assert!(refused, "{answer}");
        assert_eq!(answer, "exit 2: destructive");
        let t = std::time::Instant::now();
        let (refused, answer) = run("sleep 30 & sleep 30", &body, &[], d.path(), Duration::from_secs(1), &groups).await;
        assert!(!refused && answer.starts_with("timed out"), "{answer}");
        assert!(t.elapsed() < Duration::from_secs(5));
        assert_eq!(groups.count(), 0, "every screen's group left the registry when it ended");
        // While a guard runs, its group is in the registry a hard stop kills.
        let (_, seen) = tokio::join!(run("sleep 2", &body, &[], d.path(), Duration::from_secs(5), &groups), async {
            tokio::time::sleep(Duration::from_millis(500)).await;
            groups.count()
        });
        assert_eq!(seen, 1);
    }
}
