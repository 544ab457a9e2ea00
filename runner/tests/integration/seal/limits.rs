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
    // No payload to tell the agent by: the refusal every agent reads.
    assert!(String::from_utf8_lossy(&out.stdout).contains(r#""cancel":true"#));
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

/// `kill(2)` by number (real-time signals have no `Signal`).
fn signal_seal_raw(child: &std::process::Child, signal: i32) {
    // SAFETY: kill(2) with a pid this test owns.
    assert_eq!(unsafe { nix::libc::kill(child.id() as i32, signal) }, 0);
}

#[test]
fn every_catchable_terminating_signal_kills_the_guard_group_and_refuses() {
    use nix::libc;
    // Their default action exited 128+N (not a deny) and left the guard's
    // process group running: 143, 130 and 129 before seal handled the first
    // three; 131, 138, 140, 142, 152, 154, 158 for the rest until issue 29.
    #[cfg_attr(not(target_os = "linux"), allow(unused_mut))]
    let mut signals = vec![
        (libc::SIGTERM, "SIGTERM".to_string()),
        (libc::SIGINT, "SIGINT".into()),
        (libc::SIGHUP, "SIGHUP".into()),
        (libc::SIGQUIT, "SIGQUIT".into()),
        (libc::SIGUSR1, "SIGUSR1".into()),
        (libc::SIGUSR2, "SIGUSR2".into()),
        (libc::SIGALRM, "SIGALRM".into()),
        (libc::SIGXCPU, "SIGXCPU".into()),
        (libc::SIGXFSZ, "SIGXFSZ".into()),
        (libc::SIGVTALRM, "SIGVTALRM".into()),
        (libc::SIGPROF, "SIGPROF".into()),
        (libc::SIGIO, "SIGIO".into()),
    ];
    #[cfg(target_os = "linux")]
    {
        let rt = libc::SIGRTMIN();
        signals.extend([
            (libc::SIGPWR, "SIGPWR".to_string()),
            (libc::SIGSTKFLT, "SIGSTKFLT".into()),
            (rt, "SIGRTMIN+0".into()),
            (rt + 5, "SIGRTMIN+5".into()),
            (libc::SIGRTMAX(), format!("SIGRTMIN+{}", libc::SIGRTMAX() - rt)),
        ]);
    }
    for (signal, name) in signals {
        let f = Fixture::new();
        let g = f.script("sleeper.sh", "cat >/dev/null; sleep 31 & sleep 31; exit 0");
        let (child, stdin) = f.spawn_seal(&["--deadline", "60", "--", p(&g)]);
        drop(stdin); // an empty payload, complete
        f.wait_for_processes(4); // the guard and two sleeps beside seal (and its watchdog)
        signal_seal_raw(&child, signal);
        let out = output_within(child, Duration::from_secs(10));
        assert_eq!(out.status.code(), Some(2), "{name}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(
            refusal_line(&out),
            format!("guard {} could not decide (seal received {name}); refusing by default", p(&g))
        );
        assert!(
            String::from_utf8_lossy(&out.stdout).contains(r#""cancel":true"#),
            "an empty payload: every agent's refusal"
        );
        f.assert_no_survivors();
    }
}

/// A fatal signal (an abort after a failed allocation, a memory fault) to
/// seal cannot be returned from: seal kills the guard's group and its
/// watchdog, writes one line and exits 2, instead of dying with 134 or 139.
#[test]
fn fatal_signals_to_seal_refuse_and_leave_nothing() {
    use nix::libc;
    for signal in [libc::SIGABRT, libc::SIGSEGV, libc::SIGBUS, libc::SIGILL, libc::SIGFPE, libc::SIGSYS, libc::SIGTRAP]
    {
        let f = Fixture::new();
        let g = f.script("sleeper.sh", "cat >/dev/null; sleep 31 & sleep 31; exit 0");
        let (child, stdin) = f.spawn_seal(&["--deadline", "60", "--", p(&g)]);
        drop(stdin);
        f.wait_for_processes(4);
        signal_seal_raw(&child, signal);
        let out = output_within(child, Duration::from_secs(10));
        assert_eq!(out.status.code(), Some(2), "signal {signal}: {}", String::from_utf8_lossy(&out.stderr));
        let line = refusal_line(&out);
        assert!(
            line.starts_with("failopen seal: seal itself failed (") && line.ends_with("; refusing by default"),
            "{line}"
        );
        f.assert_no_survivors();
    }
}

/// SIGTSTP, SIGTTIN and SIGTTOU would stop seal until the agent's hook
/// timeout (which fails open on versions that ignore `onFailure`): ignored.
#[test]
fn stop_signals_do_not_stop_seal() {
    use nix::libc;
    let f = Fixture::new();
    let g = f.script("slow-allow.sh", "cat >/dev/null; sleep 0.5; exit 0");
    let (child, mut stdin) = f.spawn_seal(&["--deadline", "10", "--", p(&g)]);
    std::io::Write::write_all(&mut stdin, PAYLOAD).unwrap();
    drop(stdin);
    f.wait_for_processes(3); // seal, the guard, sleep (and the watchdog)
    for signal in [libc::SIGTSTP, libc::SIGTTIN, libc::SIGTTOU] {
        signal_seal_raw(&child, signal);
    }
    let out = output_within(child, Duration::from_secs(10));
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
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
    f.wait_for_processes(3); // seal, its watchdog and the guard
    signal_seal(&child, nix::sys::signal::Signal::SIGKILL);
    child.wait().unwrap();
    f.assert_no_survivors();
}

/// `PR_SET_PDEATHSIG` reaches only the guard itself: `sh -c 'sleep 31; :'`
/// lost `sh` and kept `sleep` when seal was SIGKILLed. The watchdog, in a
/// group of its own, kills the guard's whole group when seal dies.
#[test]
fn the_guards_children_die_with_a_sigkilled_seal_too() {
    let f = Fixture::new();
    let (mut child, stdin) = f.spawn_seal(&["--deadline", "60", "--", "/bin/sh", "-c", "cat >/dev/null; sleep 31; :"]);
    drop(stdin);
    f.wait_for_processes(4); // seal, its watchdog, sh, sleep
    signal_seal(&child, nix::sys::signal::Signal::SIGKILL);
    child.wait().unwrap();
    f.assert_no_survivors();
    // Killing seal's whole process group, as a host may on its timeout,
    // does not reach the watchdog (a group of its own), which still cleans up.
    use std::os::unix::process::CommandExt;
    let mut child = std::process::Command::new(support::bin())
        .args(["seal", "--deadline", "60", "--", "/bin/sh", "-c", "cat >/dev/null; sleep 31; :"])
        .env(TAG_VAR, &f.tag)
        .stdin(std::process::Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    f.wait_for_processes(4);
    nix::sys::signal::killpg(nix::unistd::Pid::from_raw(child.id() as i32), nix::sys::signal::Signal::SIGKILL).unwrap();
    child.wait().unwrap();
    f.assert_no_survivors();
}

/// Nothing bounded the payload or the output: `head -c 3G /dev/zero | seal`
/// under `ulimit -v 1000000` aborted with 134 ("memory allocation failed"),
/// and so did a guard writing 60 MB to each pipe under `ulimit -v 200000`.
/// An abort is a hook error, so the call ran. Now both refuse.
#[test]
fn a_huge_payload_or_output_under_a_memory_limit_is_a_refusal_not_an_abort() {
    let f = Fixture::new();
    let bin = support::bin();
    let payload = Command::new("/bin/bash")
        .arg("-c")
        .arg(format!("head -c 3G /dev/zero | (ulimit -v 1000000; exec {} seal --deadline 30 -- /bin/true)", p(&bin)))
        .env(TAG_VAR, &f.tag)
        .output()
        .unwrap();
    assert_eq!(payload.status.code(), Some(2), "{}", String::from_utf8_lossy(&payload.stderr));
    assert!(refusal_line(&payload).contains("(the hook payload is larger than 64 MiB)"), "{}", refusal_line(&payload));
    let output = Command::new("/bin/bash")
        .arg("-c")
        .arg(format!(
            "ulimit -v 200000; exec {} seal --deadline 30 -- /bin/sh -c 'head -c 60000000 /dev/zero; head -c 60000000 /dev/zero >&2; exit 0'",
            p(&bin)
        ))
        .env(TAG_VAR, &f.tag)
        .write_stdin(PAYLOAD)
        .output()
        .unwrap();
    let line = refusal_line(&output);
    match output.status.code() {
        // It fit after all: then every byte was forwarded.
        Some(0) => assert_eq!(output.stdout.len(), 60_000_000),
        Some(2) => assert!(line.contains("seal ran out of memory keeping its std"), "{line}"),
        other => panic!("exit {other:?}: {line}"),
    }
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
fn orphan_escaping_with_setsid_is_bounded_by_the_grace_and_killed() {
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
    assert_eq!(out.stdout, b"");
    assert_eq!(out.stderr, b"denied\n");
    assert!(took < Duration::from_millis(2500), "waited for the escaped orphan: {took:?}");
    // It escaped the group (its pid file says it was in a session of its own), and seal, its
    // subreaper, killed it all the same (issue 44).
    assert!(pidfile.exists());
    f.assert_no_survivors();
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
