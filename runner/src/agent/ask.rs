//! Asking an agent's binary a one-shot question (`--version`, `--help`)
//! without touching the user's configuration.
//!
//! The binary runs with `HOME` in a fresh temporary directory: it reads no
//! `~/.claude.json` and writes none (older releases print warnings about a
//! missing or backed-up config file, or create one). It runs in its own
//! process group, which is killed whether it answers, hangs or is dropped.

use std::path::Path;
use std::process::{Output, Stdio};
use std::time::Duration;

use tokio::process::Command;

/// A binary that does not run, or does not answer, as the agent it should be.
#[derive(Debug, thiserror::Error)]
#[error("{path}: does not run as {agent}: {message}")]
pub struct NotRunnable {
    /// The agent's name in words (`Codex CLI`).
    pub agent: &'static str,
    /// The binary.
    pub path: String,
    /// What went wrong.
    pub message: String,
}

/// How long a one-shot question may take (a cold JS entry point on a busy
/// machine answers within a few seconds).
const WAIT: Duration = Duration::from_secs(60);

/// Run `program args` in a throwaway HOME; return its output whatever its
/// exit status. Errors only when it cannot start or does not answer in time;
/// `agent` is the agent's name in words, for the error.
pub async fn ask(agent: &'static str, program: &Path, args: &[&str]) -> Result<Output, NotRunnable> {
    let not_runnable = |message: String| NotRunnable { agent, path: program.display().to_string(), message };
    let home = tempfile::Builder::new()
        .prefix("failopen-ask-")
        .tempdir()
        .map_err(|e| not_runnable(format!("cannot create a temporary HOME: {e}")))?;
    let mut cmd = Command::new(program);
    cmd.args(args)
        .env("HOME", home.path())
        // Node writes its compile cache under TMPDIR (Copilot CLI 1.0.73's launcher does).
        .env("TMPDIR", home.path())
        .env("DISABLE_AUTOUPDATER", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
    tokio::time::timeout(WAIT, output_in_own_group(cmd))
        .await
        .map_err(|_| not_runnable(format!("`{}` did not answer within {} s", args.join(" "), WAIT.as_secs())))?
        .map_err(|e| not_runnable(e.to_string()))
}

/// Run `cmd` with no stdin and its output captured, as the leader of its
/// own process group, and return its output. The group is killed when the
/// command ends or this future is dropped (a timeout, an interrupted
/// history): nothing it started outlives it, npm's postinstall scripts
/// included.
pub(crate) async fn output_in_own_group(mut cmd: Command) -> std::io::Result<Output> {
    let child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true)
        .spawn()?;
    let _group = child.id().map(GroupGuard);
    child.wait_with_output().await
}

/// Kills a process group when dropped: nothing a question started outlives it.
struct GroupGuard(u32);

impl Drop for GroupGuard {
    fn drop(&mut self) {
        crate::reap::kill_group(self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_binary_sees_a_throwaway_home_and_not_the_users() {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("claude");
        crate::test_helpers::write_executable(&bin, "#!/bin/sh\necho \"$HOME\"; touch \"$HOME/.claude.json\"\n");
        let out = ask("Claude Code", &bin, &["--version"]).await.unwrap();
        let home = String::from_utf8(out.stdout).unwrap();
        let home = Path::new(home.trim());
        assert_ne!(Some(home), std::env::var_os("HOME").as_deref().map(Path::new));
        assert!(home.file_name().unwrap().to_string_lossy().starts_with("failopen-ask-"), "{home:?}");
        assert!(!home.exists(), "the throwaway HOME is removed: {home:?}");
    }
}
