//! Reliability (issue 7): interrupts, resume, leftovers, hostile input,
//! faults and load, through the real binary on real Claude Code.
//!
//! Fault injection happens outside failopen: a fake `claude` script in front
//! of the real one (it crashes, hangs, forks, or spoils the settings file
//! before handing over), a flaky stand-in server, a 4 KiB tmpfs. failopen
//! itself has no test-only switch.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::support::battery::installed_claude;
use crate::support::lock::sessions as battery_lock;
use crate::support::procs::sessions_of as tagged_processes_of;
use crate::support::{self, bin, read_csv, run_battery, PINNED};
use failopen::cells::CellKey;
use failopen::record::Row;
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

// ---------------------------------------------------------------- helpers

fn write_script(path: &Path, text: &str) -> PathBuf {
    support::scripts::write(path, text)
}

/// A `failopen run` started in the background, with a private TMPDIR and
/// stdout/stderr in files.
struct Running {
    child: Child,
    dir: tempfile::TempDir,
    tmp: PathBuf,
    out: PathBuf,
}

impl Running {
    fn start(args: &[&str]) -> Running {
        let dir = tempfile::tempdir().unwrap();
        let tmp = dir.path().join("tmp");
        std::fs::create_dir(&tmp).unwrap();
        let out = dir.path().join("rows.csv");
        let child = std::process::Command::new(bin())
            .arg("run")
            .args(args)
            .arg("--out")
            .arg(&out)
            .env("TMPDIR", &tmp)
            .env("CI", "true")
            .stdin(Stdio::null())
            .stdout(File::create(dir.path().join("stdout.txt")).unwrap())
            .stderr(File::create(dir.path().join("stderr.txt")).unwrap())
            .spawn()
            .unwrap();
        Running { child, dir, tmp, out }
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn signal(&self, sig: Signal) {
        kill(Pid::from_raw(self.pid() as i32), sig).unwrap();
    }

    /// Rows on disk now (whole lines after the header).
    fn rows_on_disk(&self) -> usize {
        std::fs::read(&self.out).map(|b| b.iter().filter(|&&c| c == b'\n').count().saturating_sub(1)).unwrap_or(0)
    }

    fn wait(&mut self, limit: Duration) -> ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("failopen did not exit within {limit:?}\n{}", self.output());
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn stdout(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("stdout.txt")).unwrap_or_default()
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("stderr.txt")).unwrap_or_default()
    }

    fn output(&self) -> String {
        format!("stdout:\n{}\nstderr:\n{}", self.stdout(), self.stderr())
    }

    /// No tagged process of this run and nothing under its TMPDIR.
    fn assert_nothing_left(&self) {
        let procs = tagged_processes_of(self.pid());
        assert!(procs.is_empty(), "processes left behind: {procs:?}\n{}", self.output());
        support::assert_no_leftovers(&self.tmp);
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wait_until(what: &str, limit: Duration, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !cond() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn assert_unique_cells(rows: &[Row]) {
    let mut keys: Vec<_> = rows.iter().map(CellKey::of).collect();
    keys.sort();
    let before = keys.len();
    keys.dedup();
    assert_eq!(keys.len(), before, "a cell appears twice: {rows:#?}");
}

fn row<'a>(rows: &'a [Row], arm: &str) -> &'a Row {
    rows.iter().find(|r| r.arm == arm).unwrap_or_else(|| panic!("no row for {arm}: {rows:#?}"))
}

mod faults;
mod hostile;
mod interrupt;
mod resume;
