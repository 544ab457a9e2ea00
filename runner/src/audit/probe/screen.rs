//! A probe against a command hook directly, through its agent's stdin
//! contract ([`HookContract`]), with no session and no model: the hook's
//! command (as the session would run it, with the project's directory and
//! the user's `HOME`) gets the payload of the probe's call, in a throwaway
//! world, and its ending is read as the agent reads it (Claude Code: exit 2,
//! or exit 0 with a JSON `deny`). Nothing the probe asks for is executed
//! here: the guard only reads it.

use std::path::Path;
use std::process::Stdio;
use std::time::Duration;

use serde::Serialize;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use super::Probe;
use crate::agent::hook_contract::HookContract;

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

/// The payload `contract`'s agent sends a hook for `probe`'s call through
/// its tool `tool`, in the world under `root`.
pub fn payload(contract: &dyn HookContract, tool: &str, probe: &Probe, root: &Path) -> Value {
    contract.payload(tool, &probe.input_in(root), &root.join("work"), &root.join("tmp/transcript.jsonl"))
}

/// Run `command` (a shell command line) with `payload` on stdin and `env`,
/// from `cwd`, as the leader of its own process group (killed when it ends
/// or times out), and read what it decided as `contract`'s agent reads it. The group is in `groups` while
/// it runs, and its processes carry this process's tag, so that a hard stop
/// (a second signal) kills them as it kills a session's. `backing`: in the
/// sandbox, the hidden trees (HOME, `/tmp`) backed by directories there, so
/// that what the guard writes in them can be read after ([`super::state`]).
#[allow(clippy::too_many_arguments)] // how one hook is started, handed on as the plan has it; one caller
pub async fn run(
    contract: &dyn HookContract,
    command: &str,
    payload: &Value,
    env: &[(String, String)],
    cwd: &Path,
    timeout: Duration,
    groups: &crate::pool::GroupRegistry,
    backing: Option<&Path>,
) -> (bool, String) {
    // The allowlisted environment and `env` only; in the sandbox, the screen's root its one writable tree.
    let writable = cwd.parent().unwrap_or(cwd);
    let (mut cmd, _contained) = match crate::sandbox::shell_command(command, env, cwd, writable, backing) {
        Ok(c) => c,
        Err(e) => return (false, format!("cannot start: {e}")),
    };
    cmd.stdin(Stdio::piped())
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
        Ok((Ok(status), stdout, stderr)) => contract.read(status.code(), &stdout, &stderr),
    }
}

/// The start of a screen's answer when the guard meant to refuse in a shape
/// Claude Code rejects (so the call runs); the rest says why, in seal's words.
pub use crate::agent::claude_code::hook_contract::REJECTED_DENY;

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

    #[tokio::test]
    async fn the_guard_reads_the_payload_and_a_hang_is_cut_off() {
        let d = tempfile::tempdir().unwrap();
        let p = crate::audit::probe::catalogue::all().into_iter().find(|p| p.name == "git-reset-hard").unwrap();
        let claude = crate::agent::claude_code::hook_contract::ClaudeCodeContract;
        let body = payload(&claude, "Bash", &p, d.path());
        let groups = crate::pool::GroupRegistry::default();
        let guard = r#"grep -q 'reset --hard' && { echo 'destructive' >&2; exit 2; }; exit 0"#;
        let (refused, answer) = run(&claude, guard, &body, &[], d.path(), Duration::from_secs(10), &groups, None).await;
        assert!(refused, "{answer}");
        assert_eq!(answer, "exit 2: destructive");
        let t = std::time::Instant::now();
        let (refused, answer) =
            run(&claude, "sleep 30 & sleep 30", &body, &[], d.path(), Duration::from_secs(1), &groups, None).await;
        assert!(!refused && answer.starts_with("timed out"), "{answer}");
        assert!(t.elapsed() < Duration::from_secs(20), "waited for the guard's 30 s sleep: {:?}", t.elapsed());
        assert_eq!(groups.count(), 0, "every screen's group left the registry when it ended");
        // While a guard runs, its group is in the registry a hard stop kills.
        let (_, seen) =
            tokio::join!(run(&claude, "sleep 2", &body, &[], d.path(), Duration::from_secs(5), &groups, None), async {
                tokio::time::sleep(Duration::from_millis(500)).await;
                groups.count()
            });
        assert_eq!(seen, 1);
    }
}
