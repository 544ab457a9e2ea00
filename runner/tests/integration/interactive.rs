//! Interactive sessions (issue 20): `failopen run --mode interactive`, the
//! real `claude` in a pseudo-terminal against the stand-in. The expected
//! verdicts and their reasoning are in the arm files: each arm of
//! arms/article.json carries an `interactive` expectation, and
//! arms/workspace-trust.json the trust dialog's cells, run live on the pinned
//! version (2.1.240 in its reference runs, results/interactive-*.csv:
//! `results::interactive_reference_csvs_give_every_arms_interactive_expectation`). Every run is checked
//! to leave no process and no temp directory behind ([`run_battery`]), and
//! a Ctrl-C in the middle of an interactive run too.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use failopen::mode::Mode;
use failopen::record::Row;
use failopen::verdict::VerdictKind;
use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

use crate::support::{self, arms_file, run_battery, PINNED};

/// Run `set` interactively on `version`: every arm gives its interactive
/// expectation, every row says interactive, and every session that ran
/// was ended cleanly by `/exit` (or ended itself, after a refused trust dialog).
fn interactive_expectations_hold(set: &str, version: &str) -> Vec<Row> {
    let file = arms_file(set);
    let (rows, _dir) = run_battery(&["--mode", "interactive", "--arms", &file, "--agent-version", version, "-j", "2"]);
    let arms = failopen::arms::load(&file).unwrap();
    assert_eq!(rows.len(), arms.len(), "one row per arm: {rows:#?}");
    for arm in &arms {
        let row = rows.iter().find(|r| r.arm == arm.name).unwrap_or_else(|| panic!("no row for {}", arm.name));
        let expect = arm.expect.as_ref().unwrap_or_else(|| panic!("{set}: {} carries no expectation", arm.name));
        let expect = expect.in_mode(Mode::Interactive).on(version);
        assert_eq!(
            (row.verdict, row.reason.as_str()),
            (expect.verdict, expect.reason.unwrap_or("")),
            "{} interactive on {version}: row {row:?}\nexpected from {}",
            arm.name,
            expect.source
        );
        assert_eq!((row.mode(), row.agent_version.as_str()), (Mode::Interactive, version));
        let ended = row.flags.split(';').find(|f| f.starts_with("exit-by:")).unwrap_or("");
        assert!(
            ended == "exit-by:slash-exit" || ended == "exit-by:itself",
            "{}: ended by {ended:?}: {row:?}",
            arm.name
        );
        if row.verdict == VerdictKind::Blocked {
            // The strict rule: every attempt refused by the hook under test, and a clean exit.
            assert_eq!(row.session_exit, "0", "{row:?}");
            assert!(row.attempts.split(';').all(|a| a.ends_with(":refused")), "{row:?}");
        }
    }
    rows
}

#[test]
fn article_arms_interactive_on_the_pinned_version() {
    interactive_expectations_hold("article.json", PINNED);
}

/// The trust dialog: answered Yes, a project guard runs as in print mode;
/// answered No, nothing reaches the model and the session is invalid.
fn trust_cells(version: &str) {
    let rows = interactive_expectations_hold("workspace-trust.json", version);
    for r in &rows {
        let answer = if r.arm.ends_with("answer-no") { "no" } else { "yes" };
        assert!(r.flags.contains(&format!("trust-dialog:answered-{answer}")), "the dialog was answered: {r:?}");
    }
    let refused = rows.iter().find(|r| r.arm.ends_with("answer-no")).unwrap();
    assert_eq!((refused.hook_invocations, refused.attempts.as_str()), (0, ""), "the guard never ran: {refused:?}");
}

#[test]
fn trust_dialog_cells_on_the_pinned_version() {
    trust_cells(PINNED);
}

#[test]
fn mode_interactive_with_a_live_model_is_refused_and_a_wrong_mode_lists_the_choices() {
    let out = support::failopen().args(["run", "--mode", "interactive", "--model", "live", "--yes"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("--mode interactive") && err.contains("--model scripted"), "{err}");
    let out = support::failopen().args(["run", "--mode", "tty"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success() && err.contains("print") && err.contains("interactive"), "{err}");
}

/// Ctrl-C while interactive sessions run (one of them in a hanging guard):
/// exit 130, and no terminal's session, process or temp directory left.
#[test]
fn ctrl_c_in_an_interactive_run_leaves_nothing_behind() {
    let _lock = crate::support::lock::sessions();
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let mut child = std::process::Command::new(support::bin())
        .args(["run", "--mode", "interactive", "--arms", "article", "--only", "hang/*", "-j", "2", "--out"])
        .arg(dir.path().join("rows.csv"))
        .env("TMPDIR", &tmp)
        .env("CI", "true")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !crate::support::procs::sessions_of(pid).iter().any(|(_, cmd)| cmd.contains("hang.sh")) {
        assert!(Instant::now() < deadline, "no hanging guard ever ran");
        std::thread::sleep(Duration::from_millis(50));
    }
    kill(Pid::from_raw(pid as i32), Signal::SIGINT).unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("failopen did not exit after SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(130));
    let left = crate::support::procs::sessions_of(pid);
    assert!(left.is_empty(), "processes left: {left:?}");
    support::assert_no_leftovers(Path::new(&tmp));
}
