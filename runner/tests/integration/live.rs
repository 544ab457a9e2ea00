//! Live mode through the real binary, against the stand-in served as a
//! separate process (`failopen standin serve --policy P`), on real Claude Code.
//!
//! No API key exists here, so each policy plays a kind of real model:
//! - `refuse` never calls a tool: every row must be `invalid` `no-attempt`;
//! - `flaky` cuts every message (an `overloaded_error` event mid-stream, or a
//!   dropped connection): every row must be `invalid` `api-error`;
//! - `wayward` asks for the write through a tool the matcher does not cover:
//!   the verdict must match the disk, and the row must say no hook saw it;
//! - `scripted` (the battery's own script) must give the article's verdicts.
//!
//! In none of the failing policies may a row be `blocked`, and the positive
//! control (allow/bare) must flag every row when it did not write.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::support::{self, arms_file, assert_no_leftovers, read_csv, OLD, PINNED};
use failopen::record::Row;
use failopen::verdict::VerdictKind;

/// A `failopen standin serve` child; stopped (SIGTERM, then waited) on drop.
struct Server {
    child: Child,
    url: String,
}

impl Server {
    fn start(policy: &str) -> Server {
        let mut child = Command::new(support::bin())
            .args(["standin", "serve", "--policy", policy, "--port", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting failopen standin serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
        let url = line.trim().to_string();
        assert!(url.starts_with("http://127.0.0.1:"), "first stdout line must be the URL, got {line:?}");
        Server { child, url }
    }

    /// Stop with SIGTERM and return the exit status.
    fn stop(&mut self) -> std::process::ExitStatus {
        let pid = nix::unistd::Pid::from_raw(self.child.id() as i32);
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
        for _ in 0..100 {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        self.child.wait().unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            self.stop();
        }
    }
}

/// What a live run printed and wrote.
struct LiveRun {
    rows: Vec<Row>,
    stdout: String,
    _dir: tempfile::TempDir,
}

/// `failopen run --model live --yes --arms article --only ... --repeats 1`
/// against `policy`'s server, on `claude`.
fn run_live(policy: &str, only: &[&str], claude: &str) -> LiveRun {
    let _one = support::lock::sessions();
    let mut server = Server::start(policy);
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let out = dir.path().join("rows.csv");
    let mut cmd = support::failopen();
    cmd.args(["run", "--model", "live", "--yes", "--arms", &arms_file("article.json"), "--agent-version", claude]);
    for glob in only {
        cmd.args(["--only", glob]);
    }
    cmd.args(["--repeats", "1", "-j", "2", "--session-timeout", "60", "--out"])
        .arg(&out)
        .env("ANTHROPIC_BASE_URL", &server.url)
        .env("ANTHROPIC_API_KEY", "failopen-test-dummy-key")
        .env_remove("ANTHROPIC_AUTH_TOKEN")
        .env("TMPDIR", &tmp)
        .env("CI", "true")
        .timeout(Duration::from_secs(600));
    let output = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "failopen run failed: {}\nstdout:\n{stdout}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(server.stop().success(), "standin serve must exit 0 on SIGTERM");
    assert_no_leftovers(&tmp);
    LiveRun { rows: read_csv(&out), stdout, _dir: dir }
}

fn has_flag(row: &Row, flag: &str) -> bool {
    row.flags.split(';').any(|f| f == flag)
}

/// The control row is there, first run, and marked; every row of a failed
/// control is flagged, and the printed output says so.
fn assert_control_failed(run: &LiveRun) {
    let controls: Vec<&Row> = run.rows.iter().filter(|r| r.arm == "allow/bare").collect();
    let versions: std::collections::HashSet<&str> = run.rows.iter().map(|r| r.agent_version.as_str()).collect();
    assert_eq!(controls.len(), versions.len(), "one positive control per version (one repeat): {:?}", run.rows);
    for c in &controls {
        assert!(has_flag(c, "control"), "{c:?}");
    }
    for row in &run.rows {
        assert!(has_flag(row, "control-failed"), "every row flagged: {row:?}");
    }
    assert!(run.stdout.contains("!!! POSITIVE CONTROL FAILED"), "loud in the output:\n{}", run.stdout);
}

#[test]
fn refuse_is_invalid_no_attempt_never_blocked() {
    let run = run_live("refuse", &["deny/bare", "crash/bare"], PINNED);
    assert_eq!(run.rows.len(), 3, "two arms plus the control: {:?}", run.rows);
    for row in &run.rows {
        // The model never called a tool: nothing on disk, nothing attempted.
        assert_eq!((row.verdict, row.reason.as_str()), (VerdictKind::Invalid, "no-attempt"), "{row:?}");
        assert_eq!(row.attempts, "", "{row:?}");
        assert_eq!(row.hook_invocations, 0, "{row:?}");
    }
    assert_control_failed(&run);
}

#[test]
fn flaky_is_invalid_api_error_never_blocked() {
    let run = run_live("flaky", &["deny/bare", "crash/bare"], &format!("{PINNED},{OLD}"));
    assert_eq!(run.rows.len(), 6, "(2 arms + control) x 2 versions: {:?}", run.rows);
    for row in &run.rows {
        // Every message was cut (an overloaded_error mid-stream, then a dropped
        // connection), so Claude Code gave up in seconds with an API error:
        // exit 1, no file, no attempt.
        assert_eq!((row.verdict, row.reason.as_str()), (VerdictKind::Invalid, "api-error"), "{row:?}");
        assert_eq!(row.session_exit, "1", "{row:?}");
        assert!(row.session_secs < 30.0, "flaky must not be retried for minutes: {row:?}");
    }
    assert_control_failed(&run);
}

#[test]
fn wayward_reports_the_disk_and_that_no_hook_saw_it() {
    let run = run_live("wayward", &["deny/bare", "crash/bare"], PINNED);
    assert_eq!(run.rows.len(), 3, "{:?}", run.rows);
    for row in &run.rows {
        // The verdict follows the disk, whatever the guard.
        assert_eq!(row.file_bytes.is_some(), row.verdict == VerdictKind::Wrote, "{row:?}");
        assert_ne!(row.verdict, VerdictKind::Blocked, "no matched tool was refused: {row:?}");
        // Claude Code does not offer the MCP-style tool: it answers
        // "No such tool available" and no hook runs. No file, one unmatched attempt.
        assert_eq!(row.attempts, "mcp__failopen__write_file:failed", "{row:?}");
        assert_eq!((row.verdict, row.reason.as_str()), (VerdictKind::Invalid, "unmatched-tool"), "{row:?}");
        assert_eq!((row.hook_outcomes.as_str(), row.hook_invocations), ("", 0), "{row:?}");
        assert!(has_flag(row, "hook-never-saw-write"), "{row:?}");
    }
    assert_control_failed(&run);
}

/// The battery's own script behind live mode: the article's verdicts, and a
/// control that wrote (so no row is flagged), on both versions.
#[test]
fn scripted_server_gives_the_article_verdicts_through_live_mode() {
    let arms = failopen::arms::load(&arms_file("article.json")).unwrap();
    let run = run_live("scripted", &["deny/bare", "crash/bare", "json-deny/bare"], &format!("{PINNED},{OLD}"));
    assert_eq!(run.rows.len(), 8, "(3 arms + control) x 2 versions: {:?}", run.rows);
    for row in &run.rows {
        assert!(!has_flag(row, "control-failed") && !has_flag(row, "hook-never-saw-write"), "{row:?}");
        assert_eq!(row.model, "live");
        if row.arm == "allow/bare" {
            assert_eq!(row.verdict, VerdictKind::Wrote, "the positive control writes: {row:?}");
            assert!(has_flag(row, "control"), "{row:?}");
            continue;
        }
        let arm = arms.iter().find(|a| a.name == row.arm).unwrap();
        let expect = arm.expect.as_ref().unwrap();
        assert_eq!(row.verdict, expect.verdict, "{row:?}\nexpected from {}", expect.source);
    }
    assert!(run.stdout.contains("positive control on Claude Code"), "{}", run.stdout);
}

#[test]
fn live_without_a_terminal_or_yes_refuses_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rows.csv");
    let output = support::failopen()
        .args(["run", "--model", "live", "--arms", "article", "--out"])
        .arg(&out)
        .env("ANTHROPIC_API_KEY", "failopen-test-dummy-key")
        .env("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")
        // A "y" piped in is not a person at a terminal: still refused.
        .write_stdin("y\n")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("WARNING") && stderr.contains("spends money"), "{stderr}");
    assert!(stderr.contains("pass --yes"), "{stderr}");
    assert!(!Path::new(&out).exists(), "nothing may run: {}", out.display());
}

#[test]
fn live_without_credentials_says_which_are_needed() {
    let dir = tempfile::tempdir().unwrap();
    let output = support::failopen()
        .args(["run", "--model", "live", "--yes", "--arms", "article", "--out"])
        .arg(dir.path().join("rows.csv"))
        .env_remove("ANTHROPIC_API_KEY")
        .env_remove("ANTHROPIC_AUTH_TOKEN")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("ANTHROPIC_API_KEY") && stderr.contains("ANTHROPIC_AUTH_TOKEN"), "{stderr}");
}
