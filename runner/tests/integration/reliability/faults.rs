//! Faults around the runner: a crashing or hung Claude Code, spoiled settings, forks, a flaky stand-in, a full disk, load.

use super::*;

/// A `claude` that runs `action` (bash) for sessions whose settings name
/// one of `guards` (e.g. `deny.sh`), and otherwise hands over to the real
/// pinned Claude Code. `$settings` holds the settings file's path.
fn fault_claude(dir: &Path, cases: &[(&str, &str)]) -> String {
    let real = installed_claude(PINNED);
    let mut script = format!(
        "#!/bin/bash\nREAL='{}'\nsettings=''; prev=''\nfor a in \"$@\"; do [ \"$prev\" = --settings ] && settings=\"$a\"; prev=\"$a\"; done\n",
        real.display()
    );
    for (guard, action) in cases {
        script.push_str(&format!("if [ -n \"$settings\" ] && grep -q '/{guard}' \"$settings\"; then\n{action}\nfi\n"));
    }
    script.push_str("exec \"$REAL\" \"$@\"\n");
    write_script(&dir.join("claude"), &script).to_string_lossy().into_owned()
}

fn only(arms: &[&str]) -> Vec<String> {
    let mut v = vec!["--arms".to_string(), "full".to_string()];
    for a in arms {
        v.extend(["--only".to_string(), a.to_string()]);
    }
    v
}

fn battery(claude: &str, arms: &[&str], extra: &[&str]) -> (Vec<Row>, tempfile::TempDir) {
    let mut args = only(arms);
    args.extend(["--agent-version".to_string(), claude.to_string(), "-j".into(), "2".into()]);
    args.extend(extra.iter().map(|s| s.to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_battery(&args)
}

/// A Claude Code that crashes (SIGSEGV) in some sessions only: those rows
/// are `invalid` (session-error), the others are measured as usual (an
/// allowing guard lets the write through under every wrapper).
#[test]
fn claude_crashing_in_some_sessions_is_invalid_there_only() {
    let dir = tempfile::tempdir().unwrap();
    let claude = fault_claude(dir.path(), &[("deny.sh", "kill -SEGV $$")]);
    let (rows, _d) = battery(&claude, &["deny/bare", "deny/sealed", "allow/bare", "allow/sealed"], &[]);
    assert_eq!(rows.len(), 4);
    for arm in ["deny/bare", "deny/sealed"] {
        let r = row(&rows, arm);
        assert_eq!(
            (r.verdict.as_str(), r.reason.as_str(), r.session_exit.as_str()),
            ("invalid", "session-error", "signal:11"),
            "{r:?}"
        );
    }
    for arm in ["allow/bare", "allow/sealed"] {
        assert_eq!(row(&rows, arm).verdict.as_str(), "wrote", "{:?}", row(&rows, arm));
    }
}

/// A Claude Code that hangs (with a child in its group and one that left
/// it) hits the session timeout: `invalid` (session-timeout), and its
/// processes are gone (run_battery scans /proc); the other cell still runs.
/// In the sandbox (the default) and outside it (`--no-sandbox`), the same
/// row: the sandbox's inside finds and counts the setsid sleeper as
/// failopen's reaper does outside. The pids are written (and checked) only
/// outside: the sandbox's /tmp, where the test's directory is, is not
/// writable, and its pids are its own namespace's.
#[test]
fn hung_claude_is_a_session_timeout_and_is_killed() {
    hung_claude(&[]);
    hung_claude(&["--no-sandbox"]);
}

fn hung_claude(extra: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("hung.pids");
    let hang = format!(
        "echo $$ >> '{0}'\nsleep 600 & echo $! >> '{0}'\nsetsid sleep 600 & echo $! >> '{0}'\nwait",
        pids.display()
    );
    let claude = fault_claude(dir.path(), &[("deny.sh", &hang)]);
    // Long enough for the real allow/bare session on a loaded machine (two runs share it).
    let mut args = vec!["--session-timeout", "10"];
    args.extend(extra);
    let (rows, _d) = battery(&claude, &["deny/bare", "allow/bare"], &args);
    let r = row(&rows, "deny/bare");
    assert_eq!(
        (r.verdict.as_str(), r.reason.as_str(), r.session_exit.as_str()),
        ("invalid", "session-timeout", "timeout"),
        "{r:?}"
    );
    assert!(
        r.flags.contains("stragglers-killed:"),
        "the setsid sleeper left the group and was found by its tag: {r:?}"
    );
    assert_eq!(row(&rows, "allow/bare").verdict.as_str(), "wrote", "{extra:?}: {:?}", row(&rows, "allow/bare"));
    if extra.is_empty() {
        assert!(!pids.exists(), "the sandboxed claude wrote outside its session: {}", pids.display());
        return;
    }
    let pids = std::fs::read_to_string(&pids).unwrap();
    assert_eq!(pids.lines().count(), 3, "{pids}");
    for pid in pids.lines() {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        assert!(stat.is_empty() || stat.contains(") Z"), "hung process {pid} survives: {stat}");
    }
}

/// Settings Claude Code rejects. A missing file: Claude Code 2.1.328 exits 1
/// (`Error: Settings file not found`): `invalid` (session-error). A file that
/// is not JSON: Claude Code ignores it silently and runs with no hook at
/// all; the write then goes through with no hook event and no guard run,
/// which must be `invalid` (hook-not-run), never the arm's verdict.
#[test]
fn settings_claude_code_rejects_are_invalid() {
    let dir = tempfile::tempdir().unwrap();
    let claude = fault_claude(
        dir.path(),
        &[("deny.sh", "printf '{\"hooks\": {\"PreToolUse\": [' > \"$settings\""), ("crash.sh", "rm -f \"$settings\"")],
    );
    let (rows, _d) = battery(&claude, &["deny/bare", "crash/bare", "allow/bare"], &[]);
    let r = row(&rows, "deny/bare");
    assert_eq!((r.verdict.as_str(), r.reason.as_str()), ("invalid", "hook-not-run"), "{r:?}");
    let r = row(&rows, "crash/bare");
    assert_eq!(
        (r.verdict.as_str(), r.reason.as_str(), r.session_exit.as_str()),
        ("invalid", "session-error", "1"),
        "{r:?}"
    );
    assert_eq!(row(&rows, "allow/bare").verdict.as_str(), "wrote");
}

/// Hundreds of children. deny/bare: the real Claude Code runs a guard that
/// starts 300 sleepers (half of them in new sessions, out of every process
/// group) and exits 1; like crash/bare in the article's table, Claude Code
/// lets the write through. crash/bare: the `claude` itself starts 300
/// sleepers and exits 1: `invalid` (session-error). Either way, no sleeper
/// survives the session (run_battery scans /proc).
#[test]
fn hundreds_of_children_are_all_reaped() {
    let dir = tempfile::tempdir().unwrap();
    let forks = "for i in $(seq 150); do sleep 120 >/dev/null 2>&1 & done\nfor i in $(seq 150); do setsid sleep 120 >/dev/null 2>&1 & done";
    let guard = write_script(&dir.path().join("fork-guard.sh"), &format!("#!/bin/bash\n{forks}\nexit 1\n"));
    let swap_guard = format!("sed -i 's#\"command\": \"[^\"]*\"#\"command\": \"{}\"#' \"$settings\"", guard.display());
    let claude = fault_claude(dir.path(), &[("deny.sh", &swap_guard), ("crash.sh", &format!("{forks}\nexit 1"))]);
    let (rows, _d) = battery(&claude, &["deny/bare", "crash/bare", "allow/bare"], &[]);
    let r = row(&rows, "deny/bare");
    assert_eq!(r.verdict.as_str(), "wrote", "{r:?}");
    assert!(r.hook_outcomes.contains("error:1"), "the forking guard ran: {r:?}");
    let r = row(&rows, "crash/bare");
    assert_eq!((r.verdict.as_str(), r.reason.as_str()), ("invalid", "session-error"), "{r:?}");
    assert!(r.flags.contains("stragglers-killed:"), "the setsid sleepers were found by tag: {r:?}");
    assert_eq!(row(&rows, "allow/bare").verdict.as_str(), "wrote");
}

/// The model API failing: a live run against `failopen standin serve
/// --policy flaky` (every request: 529 overloaded or a cut stream) ends
/// `invalid` (api-error) on every row, never `blocked`.
#[test]
fn stand_in_errors_are_api_errors_never_blocked() {
    let _lock = battery_lock();
    let mut server = std::process::Command::new(bin())
        .args(["standin", "serve", "--policy", "flaky"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut first = String::new();
    std::io::BufRead::read_line(&mut std::io::BufReader::new(server.stdout.take().unwrap()), &mut first).unwrap();
    let url = first.trim().to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("rows.csv");
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let output = std::process::Command::new(bin())
        .args(["run", "--model", "live", "--yes", "--repeats", "1", "-j", "2"])
        .args(only(&["deny/bare", "deny/sealed"]))
        .arg("--out")
        .arg(&out)
        .env("TMPDIR", &tmp)
        .env("CI", "true")
        .env("ANTHROPIC_BASE_URL", &url)
        .env("ANTHROPIC_API_KEY", "failopen-test-key")
        .env_remove("ANTHROPIC_AUTH_TOKEN")
        .output()
        .unwrap();
    let _ = server.kill();
    let _ = server.wait();
    let text = format!(
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.status.code().is_some_and(|c| c != 101), "{text}");
    let rows = read_csv(&out);
    assert!(rows.len() >= 2, "{text}");
    for r in &rows {
        assert_eq!((r.verdict.as_str(), r.reason.as_str()), ("invalid", "api-error"), "{r:?}");
    }
    for arm in ["deny/bare", "deny/sealed"] {
        row(&rows, arm);
    }
    support::assert_no_leftovers(&tmp);
}

/// A tmpfs of one page, mounted for the test (needs root).
struct TinyDisk(PathBuf);

impl TinyDisk {
    fn mount(at: &Path) -> Option<TinyDisk> {
        if !nix::unistd::geteuid().is_root() {
            eprintln!("skipped: mounting a tmpfs needs root");
            return None;
        }
        std::fs::create_dir_all(at).unwrap();
        let status = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=4k", "tmpfs"])
            .arg(at)
            .status()
            .unwrap();
        assert!(status.success(), "mount -t tmpfs failed as root");
        Some(TinyDisk(at.to_path_buf()))
    }
}

impl Drop for TinyDisk {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
    }
}

/// The results disk fills up: the run stops with an error naming the file
/// and the cause, the rows written so far stay whole and readable, running
/// sessions are killed, nothing is left behind.
#[test]
fn a_full_results_disk_stops_the_run_cleanly() {
    let _lock = battery_lock();
    let dir = tempfile::tempdir().unwrap();
    let Some(disk) = TinyDisk::mount(&dir.path().join("disk")) else { return };
    let out = disk.0.join("rows.csv");
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let mut child = std::process::Command::new(bin())
        .args(["run", "-j", "3"])
        .args(only(&["allow/*", "deny/*", "crash/*", "missing/*", "json-deny/*"]))
        .arg("--out")
        .arg(&out)
        .env("TMPDIR", &tmp)
        .env("CI", "true")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let status = child.wait().unwrap();
    eprintln!("--- disk full: {status}\n{stderr}");
    assert_eq!(status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("No space left on device") && stderr.contains(&out.display().to_string()), "{stderr}");
    let rows = read_csv(&out);
    assert!(!rows.is_empty() && rows.len() < 25, "{} rows fit in 4 KiB?", rows.len());
    assert!(std::fs::read(&out).unwrap().ends_with(b"\n"), "the file ends mid-row");
    assert!(tagged_processes_of(pid).is_empty(), "{:?}", tagged_processes_of(pid));
    support::assert_no_leftovers(&tmp);
    drop(disk);
}

/// 200 sessions at -j 16 on two cores: every row valid, as the battery's
/// reasoning expects on the pinned version (tests/battery.rs,
/// `expected_full`), and nothing left behind. Minutes long: `cargo test -- --ignored`.
#[test]
#[ignore]
fn load_200_sessions_at_16_jobs() {
    let started = Instant::now();
    let (rows, _d) = run_battery(&[
        "--arms",
        "full",
        "--only",
        "allow/*",
        "--only",
        "deny/*",
        "--only",
        "crash/*",
        "--only",
        "missing/*",
        "--repeats",
        "10",
        "-j",
        "16",
    ]);
    let wall = started.elapsed();
    let invalid: Vec<&Row> = rows.iter().filter(|r| r.verdict.as_str() == "invalid").collect();
    eprintln!("--- load: {} rows in {:.1} s, {} invalid, 0 left behind", rows.len(), wall.as_secs_f64(), invalid.len());
    assert_eq!(rows.len(), 200);
    assert_unique_cells(&rows);
    assert!(invalid.is_empty(), "invalid under load: {invalid:#?}");
    let mut wrong = Vec::new();
    for r in &rows {
        // From battery.rs's reasoning, for a version that honours onFailure.
        let want = match (r.guard.as_str(), r.wrapper.as_str()) {
            ("allow", _) => "wrote",
            ("deny", _) => "blocked",
            (_, "bare") => "wrote",
            ("missing", "timed") => "wrote",
            _ => "blocked",
        };
        if r.verdict.as_str() != want {
            wrong.push(format!("{} #{}: {} (expected {want})", r.arm, r.repeat, r.verdict));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
