//! Helpers shared by the integration tests: run the real binary on real
//! Claude Code, one battery at a time, and check it left nothing behind.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use failopen::record::Row;

/// The version failopen runs by default.
pub const PINNED: &str = failopen::claude::PINNED_VERSION;
/// The article's version.
pub const OLD: &str = "2.1.240";

/// Batteries share two cores: run them one at a time so timeouts keep their meaning.
static BATTERY: Mutex<()> = Mutex::new(());

/// Path of an arm set in the repository's `arms/`.
pub fn arms_file(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../arms").join(name).to_string_lossy().into_owned()
}

/// Read a results CSV.
pub fn read_csv(path: &Path) -> Vec<Row> {
    failopen::record::read_rows(path).unwrap_or_else(|e| panic!("{e}"))
}

/// A row's verdict as text.
pub fn verdict_of(row: &Row) -> &'static str {
    row.verdict.as_str()
}

/// Run `failopen run ARGS --out <tmp>/rows.csv` with a private TMPDIR, then
/// check that no temp directory and no tagged process survived it.
pub fn run_battery(args: &[&str]) -> (Vec<Row>, tempfile::TempDir) {
    let _guard = BATTERY.lock().unwrap_or_else(|p| p.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let out = dir.path().join("rows.csv");
    let mut cmd = assert_cmd::Command::cargo_bin("failopen").unwrap();
    cmd.arg("run").args(args).arg("--out").arg(&out).env("TMPDIR", &tmp).env("CI", "true").timeout(std::time::Duration::from_secs(900));
    let output = cmd.output().unwrap();
    assert!(
        output.status.success(),
        "failopen run failed: {}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_no_leftovers(&tmp);
    (read_csv(&out), dir)
}

/// Nothing under the run's TMPDIR, and no process whose environment points into it.
pub fn assert_no_leftovers(tmp: &Path) {
    let left: Vec<PathBuf> = std::fs::read_dir(tmp).unwrap().flatten().map(|e| e.path()).collect();
    assert!(left.is_empty(), "temp entries left behind: {left:?}");
    let procs = processes_mentioning(tmp);
    assert!(procs.is_empty(), "processes left behind: {procs:?}");
}

/// Live processes whose environment mentions `needle` (e.g. a session's temp dir).
pub fn processes_mentioning(needle: &Path) -> Vec<(u32, String)> {
    let needle = needle.to_string_lossy().into_owned();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else { continue };
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let zombie = stat.rsplit_once(')').is_some_and(|(_, r)| r.trim_start().starts_with('Z'));
        if !zombie && String::from_utf8_lossy(&env).contains(&needle) {
            let cmd = std::fs::read_to_string(format!("/proc/{pid}/cmdline")).unwrap_or_default().replace('\0', " ");
            found.push((pid, cmd));
        }
    }
    found
}

/// Hold this while a test runs sessions outside [`run_battery`], so that
/// sessions of one test binary never compete for the two cores.
pub fn battery_lock() -> std::sync::MutexGuard<'static, ()> {
    BATTERY.lock().unwrap_or_else(|p| p.into_inner())
}

/// Live processes tagged as sessions of the failopen process `pid`
/// (environment `FAILOPEN_SESSION_TAG=<pid>-<cell>`), found by scanning /proc.
pub fn tagged_processes_of(pid: u32) -> Vec<(u32, String)> {
    processes_mentioning(Path::new(&format!("{}={pid}-", failopen::reap::TAG_VAR)))
}

/// The installed `claude` of a version in failopen's cache.
pub fn installed_claude(version: &str) -> PathBuf {
    let path = failopen::claude::cache::Cache::from_env().binary(version);
    assert!(path.exists(), "Claude Code {version} is not installed at {} (failopen claude install {version})", path.display());
    path
}
