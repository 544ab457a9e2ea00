//! The deadline (payload read included), signals to seal, and orphans holding its pipes.

use super::*;

#[test]
fn deadline_kills_a_hanging_guard_and_refuses() {
    let f = Fixture::new();
    let g = f.script("hang.sh", "echo thinking >&2; sleep 30; exit 0");
    let (out, took) = f.seal(&["--deadline", "1", "--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        refusal_line(&out),
        format!("guard {} could not decide (no decision within 1s); refusing by default", p(&g))
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("thinking"));
    assert!(took >= Duration::from_millis(900), "returned before the deadline: {took:?}");
    assert!(took < Duration::from_secs(3), "deadline 1 s + grace, generously: {took:?}");
    f.assert_no_survivors();
}

#[test]
fn a_payload_that_never_ends_is_refused_at_the_deadline() {
    // `sleep 2 | failopen seal --deadline 0.5 -- allow` used to wait the 2 s
    // and then allow: the payload read was outside the deadline.
    let f = Fixture::new();
    let (child, mut stdin) = f.spawn_seal(&["--deadline", "0.5", "--", "/bin/sh", "-c", "exit 0"]);
    use std::io::Write;
    stdin.write_all(b"{\"hook_event_name\":").unwrap(); // half a payload, no end of input
    let start = Instant::now();
    let out = output_within(child, Duration::from_secs(10)); // a seal waiting for end of input fails here
    let took = start.elapsed();
    drop(stdin);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        refusal_line(&out),
        "guard /bin/sh -c 'exit 0' could not decide (the hook payload did not arrive within 0.5s); refusing by default"
    );
    assert!(took < Duration::from_millis(1500), "{took:?}");
    assert!(out.stdout.is_empty());
}

#[test]
fn the_guard_gets_only_the_time_left_after_the_payload() {
    // The payload takes 0.6 s to arrive and the guard 0.7 s to answer: 1.3 s
    // in all, over the 1 s deadline, although the guard alone is under it.
    let f = Fixture::new();
    let g = f.script("slow-allow.sh", "cat >/dev/null; sleep 0.7; exit 0");
    let (child, mut stdin) = f.spawn_seal(&["--deadline", "1", "--", p(&g)]);
    let start = Instant::now();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        std::thread::sleep(Duration::from_millis(600));
        stdin.write_all(PAYLOAD).unwrap();
    });
    let out = child.wait_with_output().unwrap();
    let took = start.elapsed();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(refusal_line(&out).contains("(no decision within 1s)"), "{}", refusal_line(&out));
    assert!(took < Duration::from_millis(1800), "deadline 1 s from seal's start + grace: {took:?}");
    f.assert_no_survivors();
}

#[test]
fn a_payload_in_time_still_leaves_the_guard_its_answer() {
    let f = Fixture::new();
    let copy = f.path("copy.json");
    let g = f.script("copy-allow.sh", &format!("cat > '{}'; exit 0", p(&copy)));
    let (child, mut stdin) = f.spawn_seal(&["--deadline", "5", "--", p(&g)]);
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(&PAYLOAD[..10]).unwrap();
        std::thread::sleep(Duration::from_millis(300));
        stdin.write_all(&PAYLOAD[10..]).unwrap();
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(fs::read(&copy).unwrap(), PAYLOAD);
}

/// `child.wait_with_output()`, but failing the test after `limit`.
fn output_within(child: std::process::Child, limit: Duration) -> Output {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || tx.send(child.wait_with_output()));
    rx.recv_timeout(limit).expect("seal did not exit in time").unwrap()
}

fn signal_seal(child: &std::process::Child, signal: nix::sys::signal::Signal) {
    nix::sys::signal::kill(nix::unistd::Pid::from_raw(child.id() as i32), signal).unwrap();
}

#[test]
fn sigterm_sigint_and_sighup_kill_the_guard_group_and_refuse() {
    use nix::sys::signal::Signal;
    // Their default action exited 143/130/129 (not a deny) and left the
    // guard's process group running.
    for signal in [Signal::SIGTERM, Signal::SIGINT, Signal::SIGHUP] {
        let f = Fixture::new();
        let g = f.script("sleeper.sh", "cat >/dev/null; sleep 31 & sleep 31; exit 0");
        let (child, stdin) = f.spawn_seal(&["--deadline", "60", "--", p(&g)]);
        drop(stdin); // an empty payload, complete
        f.wait_for_processes(4); // seal, the guard, two sleeps
        signal_seal(&child, signal);
        let out = output_within(child, Duration::from_secs(10));
        assert_eq!(out.status.code(), Some(2), "{signal}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(
            refusal_line(&out),
            format!("guard {} could not decide (seal received {}); refusing by default", p(&g), signal.as_str())
        );
        assert!(out.stdout.is_empty());
        f.assert_no_survivors();
    }
}

#[test]
fn a_signal_while_reading_the_payload_refuses_without_starting_the_guard() {
    let f = Fixture::new();
    let ran = f.path("ran");
    let g = f.script("touch.sh", &format!("touch '{}'; exit 0", p(&ran)));
    let (child, stdin) = f.spawn_seal(&["--deadline", "60", "--", p(&g)]);
    std::thread::sleep(Duration::from_millis(300)); // seal is waiting for the payload
    signal_seal(&child, nix::sys::signal::Signal::SIGTERM);
    let out = output_within(child, Duration::from_secs(10));
    drop(stdin);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(
        refusal_line(&out),
        format!(
            "guard {} could not decide (seal received SIGTERM while reading the hook payload); refusing by default",
            p(&g)
        )
    );
    assert!(!ran.exists(), "the guard ran");
}

#[test]
fn the_guard_dies_with_a_sigkilled_seal() {
    // SIGKILL cannot be caught: the guard is asked (PR_SET_PDEATHSIG) to die
    // with seal instead of running on without it.
    let f = Fixture::new();
    let g = f.script("exec-sleeper.sh", "cat >/dev/null; exec sleep 31");
    let (mut child, stdin) = f.spawn_seal(&["--deadline", "60", "--", p(&g)]);
    drop(stdin);
    f.wait_for_processes(2); // seal and the guard
    signal_seal(&child, nix::sys::signal::Signal::SIGKILL);
    child.wait().unwrap();
    f.assert_no_survivors();
}

#[test]
fn background_child_holding_the_pipes_does_not_keep_seal_waiting() {
    let f = Fixture::new();
    let g = f.script("bg.sh", "sleep 30 & echo 'denied' >&2; exit 2");
    let (out, took) = f.seal(&["--deadline", "10", "--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stderr, b"denied\n");
    assert!(took < Duration::from_secs(2), "waited for the orphan: {took:?}");
    f.assert_no_survivors(); // background children of a guard are killed
}

#[test]
fn orphan_escaping_with_setsid_is_bounded_by_the_grace() {
    let f = Fixture::new();
    // The orphan writes its pid once it is in its own session; the guard
    // waits for that, so the escape has surely happened before it exits.
    let pidfile = f.path("orphan.pid");
    let g = f.script(
        "escape.sh",
        &format!(
            "setsid /bin/sh -c 'echo $$ > {0}.tmp; mv {0}.tmp {0}; exec sleep 30' &\n\
             while [ ! -s {0} ]; do sleep 0.01; done\n\
             echo out; echo 'denied' >&2; exit 2",
            p(&pidfile)
        ),
    );
    let (out, took) = f.seal(&["--deadline", "10", "--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stdout, b"out\n");
    assert_eq!(out.stderr, b"denied\n");
    assert!(took < Duration::from_millis(2500), "waited for the escaped orphan: {took:?}");
    assert!(!f.survivors().is_empty(), "the escaped orphan should still be alive (else this test tests nothing)");
}

#[test]
fn orphan_escaping_with_setsid_plus_hang_is_bounded_by_deadline_and_grace() {
    let f = Fixture::new();
    let g = f.script("escape-hang.sh", "setsid sleep 30 & sleep 30");
    let (out, took) = f.seal(&["--deadline", "1", "--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert!(refusal_line(&out).contains("(no decision within 1s)"), "{}", refusal_line(&out));
    assert!(took < Duration::from_secs(3), "{took:?}");
}
