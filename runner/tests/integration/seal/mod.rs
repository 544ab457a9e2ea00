//! `failopen seal` driven through the real binary: one test per way a guard
//! can fail to decide, the pass-through paths, and `--install`.
//!
//! Guards are small shell scripts written into a tempdir per test. Every
//! seal run carries a unique `FAILOPEN_SEAL_TEST_TAG` in its environment
//! (inherited by the guard and its children), so after seal returns the test
//! can scan `/proc/*/environ` for anything of the guard still alive.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use assert_cmd::Command;

use crate::support::{self, lock};

const TAG_VAR: &str = "FAILOPEN_SEAL_TEST_TAG";

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// One test's guards, tag and time: seal's tests measure how long it takes,
/// so each holds the shared timing lock (never beside a battery).
struct Fixture {
    dir: tempfile::TempDir,
    tag: String,
    _timing: std::sync::RwLockReadGuard<'static, ()>,
}

impl Fixture {
    fn new() -> Self {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        Fixture {
            dir: tempfile::tempdir().unwrap(),
            tag: format!("seal-{}-{n}", std::process::id()),
            _timing: lock::timing(),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// A `#!/bin/sh` guard script with `body`, mode `mode`.
    fn script_mode(&self, name: &str, body: &str, mode: u32) -> PathBuf {
        self.raw_script(name, &format!("#!/bin/sh\n{body}\n"), mode)
    }

    fn script(&self, name: &str, body: &str) -> PathBuf {
        self.script_mode(name, body, 0o755)
    }

    fn raw_script(&self, name: &str, text: &str, mode: u32) -> PathBuf {
        support::scripts::write_mode(&self.path(name), text.as_bytes(), mode)
    }

    /// Run `failopen seal ARGS` with `stdin`; returns its output and how long it took.
    fn seal(&self, args: &[&str], stdin: &[u8]) -> (Output, Duration) {
        let mut cmd = support::failopen();
        cmd.arg("seal").args(args).env(TAG_VAR, &self.tag).write_stdin(stdin.to_vec()).timeout(Duration::from_secs(60));
        let start = Instant::now();
        let out = cmd.output().unwrap();
        (out, start.elapsed())
    }

    /// Start `failopen seal ARGS` with a stdin pipe this test holds (so it
    /// can write late, or never close it); the child is left running.
    fn spawn_seal(&self, args: &[&str]) -> (std::process::Child, std::process::ChildStdin) {
        let mut child = std::process::Command::new(support::bin())
            .arg("seal")
            .args(args)
            .env(TAG_VAR, &self.tag)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        (child, stdin)
    }

    /// Pids of live processes carrying this fixture's tag.
    fn survivors(&self) -> Vec<i32> {
        support::procs::with_env(&format!("{TAG_VAR}={}\0", self.tag)).into_iter().map(|(pid, _)| pid as i32).collect()
    }

    /// Wait until at least `n` tagged processes (seal included) are alive.
    fn wait_for_processes(&self, n: usize) {
        let give_up = Instant::now() + Duration::from_secs(10);
        while self.survivors().len() < n {
            assert!(Instant::now() < give_up, "the guard did not start: {:?}", self.survivors());
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Nothing of the guard may outlive seal (allowing the kernel a moment to
    /// tear killed processes down).
    fn assert_no_survivors(&self) {
        let give_up = Instant::now() + Duration::from_secs(2);
        loop {
            let left = self.survivors();
            if left.is_empty() {
                return;
            }
            if Instant::now() > give_up {
                panic!("guard processes outlived seal: {left:?}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Fixture {
    /// Kill whatever a test deliberately let escape (by pid, from the tag scan).
    fn drop(&mut self) {
        for pid in self.survivors() {
            let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGKILL);
        }
    }
}

/// Claude Code's payload (a `transcript_path` string): seal answers only an agent it can place.
const PAYLOAD: &[u8] = br#"{"session_id":"s","transcript_path":"/h/.claude/projects/p/s.jsonl","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}"#;

fn refusal_line(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or("").to_string()
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

mod arguments;
mod decisions;
mod expect_json;
mod in_flight;
mod install;
mod limits;
mod own_answer;
