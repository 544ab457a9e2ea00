//! One signal stops a run keeping its rows; a second exits at once; nothing is left behind.

use super::*;

/// One SIGINT/SIGTERM after two rows are on disk: exit 130, every finished
/// row kept (and none marked interrupted), the partial table printed, no
/// further session launched, nothing left behind.
fn interrupt_once(sig: Signal) {
    let _lock = battery_lock();
    let mut run = Running::start(&["--arms", "full", "-j", "2"]);
    wait_until("two rows on disk", Duration::from_secs(180), || run.rows_on_disk() >= 2);
    let at_signal = run.rows_on_disk();
    run.signal(sig);
    let status = run.wait(Duration::from_secs(60));
    eprintln!("--- after {sig:?} with {at_signal} rows on disk: {status}\n{}", run.output());
    assert_eq!(status.code(), Some(130), "{}", run.output());
    let rows = read_csv(&run.out);
    assert!(rows.len() >= at_signal, "rows lost: {} < {at_signal}", rows.len());
    // At most the -j 2 sessions running at the signal may still end with a row.
    assert!(
        rows.len() <= at_signal + 2,
        "sessions kept launching: {} rows after the signal at {at_signal}",
        rows.len()
    );
    assert!(rows.len() < 35, "the whole battery ran");
    for r in &rows {
        assert_ne!(r.reason, "interrupted", "an interrupted session got a row: {r:?}");
        assert_ne!(r.session_exit, "interrupted", "{r:?}");
    }
    let stdout = run.stdout();
    for r in &rows {
        assert!(stdout.contains(&format!("| {} |", r.arm)), "the partial table lacks {}:\n{stdout}", r.arm);
    }
    assert!(stdout.contains(&format!("{} sessions in", rows.len())), "{stdout}");
    assert!(run.stderr().contains("interrupted"), "{}", run.stderr());
    run.assert_nothing_left();
}

#[test]
fn sigint_keeps_rows_prints_the_table_and_exits_130() {
    interrupt_once(Signal::SIGINT);
}

#[test]
fn sigterm_keeps_rows_prints_the_table_and_exits_130() {
    interrupt_once(Signal::SIGTERM);
}

/// A second signal right after the first exits at once, and still kills
/// every process of the run, including a hook that Claude Code runs in a
/// process group of its own (the hanging guard), and removes the temp root.
fn interrupt_twice(sig: Signal) {
    let _lock = battery_lock();
    let run = Running::start(&["--arms", "full", "-j", "2"]);
    let pid = run.pid();
    wait_until("a hanging guard running", Duration::from_secs(120), || {
        tagged_processes_of(pid).iter().any(|(_, cmd)| cmd.contains("hang.sh"))
    });
    let mut run = run;
    run.signal(sig);
    std::thread::sleep(Duration::from_millis(100));
    let second = Instant::now();
    // The first signal may already have ended the run; a second one then finds no process.
    let _ = kill(Pid::from_raw(pid as i32), sig);
    let status = run.wait(Duration::from_secs(10));
    let took = second.elapsed();
    eprintln!("--- two {sig:?}: {status} {took:?} after the second\n{}", run.output());
    assert_eq!(status.code(), Some(130), "{}", run.output());
    assert!(took < Duration::from_secs(3), "the second signal took {took:?}");
    read_csv(&run.out);
    run.assert_nothing_left();
}

#[test]
fn second_sigint_exits_at_once_leaving_nothing() {
    interrupt_twice(Signal::SIGINT);
}

#[test]
fn second_sigterm_exits_at_once_leaving_nothing() {
    interrupt_twice(Signal::SIGTERM);
}
