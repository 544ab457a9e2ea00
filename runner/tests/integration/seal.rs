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

const PAYLOAD: &[u8] =
    br#"{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}"#;

fn refusal_line(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).lines().next().unwrap_or("").to_string()
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

// ---------------------------------------------------------------- pass-through

#[test]
fn exit_0_passes_stdout_and_stderr_through_byte_for_byte() {
    let f = Fixture::new();
    let g = f.script("allow.sh", r"cat >/dev/null; printf 'a\000b\377no newline'; printf 'note\n' >&2; exit 0");
    let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, b"a\0b\xffno newline");
    assert_eq!(out.stderr, b"note\n");
    f.assert_no_survivors();
}

#[test]
fn exit_2_passes_the_reason_through_byte_for_byte() {
    let f = Fixture::new();
    let g = f.script("deny.sh", r"printf 'Blocked: rm -rf is not allowed\n\twith detail' >&2; printf out; exit 2");
    let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stderr, b"Blocked: rm -rf is not allowed\n\twith detail");
    assert_eq!(out.stdout, b"out");
}

#[test]
fn json_decision_on_stdout_passes_through_byte_for_byte() {
    let f = Fixture::new();
    let json = r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}"#;
    let g = f.script("json.sh", &format!("printf '%s\\n' '{json}'"));
    for args in [vec!["--", p(&g)], vec!["--expect-json", "--", p(&g)]] {
        let (out, _) = f.seal(&args, PAYLOAD);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert_eq!(out.stdout, format!("{json}\n").into_bytes(), "{args:?}");
        assert!(out.stderr.is_empty());
    }
}

#[test]
fn guard_receives_the_exact_payload() {
    let f = Fixture::new();
    let copy = f.path("copy.bin");
    let g = f.script("copy.sh", &format!("cat > '{}'; exit 0", p(&copy)));
    // Bigger than a pipe buffer, with every byte value.
    let payload: Vec<u8> = (0..300_000u32).map(|i| (i % 251) as u8).collect();
    let (out, _) = f.seal(&["--", p(&g)], &payload);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(fs::read(&copy).unwrap(), payload);
}

#[test]
fn guard_that_never_reads_stdin_does_not_block_seal() {
    let f = Fixture::new();
    let g = f.script("deaf.sh", "echo fine >&2; exit 2");
    let (out, took) = f.seal(&["--deadline", "10", "--", p(&g)], &vec![b'x'; 4 << 20]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stderr, b"fine\n");
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn five_megabytes_on_each_stream_are_all_forwarded() {
    let f = Fixture::new();
    let big: Vec<u8> = (0..5_000_000u32).map(|i| b'a' + (i % 26) as u8).collect();
    let file = f.path("big.bin");
    fs::write(&file, &big).unwrap();
    // stderr first: a seal that read stdout to the end first would deadlock.
    for code in [0, 2] {
        let g = f.script(&format!("big{code}.sh"), &format!("cat '{0}' >&2; cat '{0}'; exit {code}", p(&file)));
        let (out, _) = f.seal(&["--deadline", "20", "--", p(&g)], PAYLOAD);
        assert_eq!(out.status.code(), Some(code));
        assert_eq!(out.stdout.len(), big.len());
        assert!(out.stdout == big, "stdout differs");
        assert!(out.stderr == big, "stderr differs");
    }
}

// ---------------------------------------------------------------- refusals

#[test]
fn exit_1_is_refused_with_one_line_naming_the_guard() {
    let f = Fixture::new();
    let g = f.script("crash.sh", "echo 'Traceback: boom' >&2; exit 1");
    let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(refusal_line(&out), format!("guard {} could not decide (exit 1); refusing by default", p(&g)));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Traceback: boom"), "guard stderr appended");
    assert!(out.stdout.is_empty());
}

#[test]
fn other_exit_codes_are_refused() {
    let f = Fixture::new();
    for code in [3, 127, 255, 1] {
        let g = f.script(&format!("exit{code}.sh"), &format!("exit {code}"));
        let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
        assert_eq!(out.status.code(), Some(2), "exit {code}");
        assert!(refusal_line(&out).contains(&format!("(exit {code})")), "{}", refusal_line(&out));
    }
}

#[test]
fn death_by_signal_is_refused_naming_the_signal() {
    let f = Fixture::new();
    let g = f.script("segv.sh", "kill -SEGV $$");
    let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        refusal_line(&out),
        format!("guard {} could not decide (killed by SIGSEGV); refusing by default", p(&g))
    );
}

#[test]
fn missing_guard_is_refused() {
    let f = Fixture::new();
    let g = f.path("nowhere.sh");
    let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        refusal_line(&out),
        format!("guard {} could not decide (did not start: No such file or directory); refusing by default", p(&g))
    );
}

#[test]
fn guard_without_exec_bit_is_refused() {
    let f = Fixture::new();
    let g = f.script_mode("noexec.sh", "exit 0", 0o644);
    let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert!(refusal_line(&out).contains("(did not start: Permission denied)"), "{}", refusal_line(&out));
}

#[test]
fn bad_interpreter_is_refused_and_named() {
    let f = Fixture::new();
    let g = f.raw_script("badshebang.sh", "#!/nonexistent/interp\nexit 0\n", 0o755);
    let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    let line = refusal_line(&out);
    assert!(line.contains("did not start") && line.contains("#! interpreter /nonexistent/interp is missing"), "{line}");
}

#[test]
fn no_guard_or_bad_arguments_still_exit_2() {
    let f = Fixture::new();
    // Anything but 0/2 from seal itself would fail open, argument errors included.
    for args in [vec![], vec!["--"], vec!["--deadline", "soon", "--", "/bin/true"]] {
        let (out, _) = f.seal(&args, PAYLOAD);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn bad_deadlines_are_refused_even_when_the_guard_would_deny() {
    let f = Fixture::new();
    // `inf` used to panic (exit 101) and turn this deny into an allow.
    for value in ["inf", "-inf", "NaN", "0", "-1", "86401", "1e20"] {
        let (out, _) = f.seal(&["--deadline", value, "--", "/bin/sh", "-c", "exit 2"], b"{}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "--deadline {value}: {err}");
        let line = err.lines().next().unwrap_or("");
        assert!(
            line.contains(&format!("'{value}'")) && line.contains("greater than 0 and at most 86400"),
            "--deadline {value}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    // The limit itself is accepted.
    let (out, _) = f.seal(&["--deadline", "86400", "--", "/bin/sh", "-c", "exit 0"], b"{}");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Run the binary with exactly `args` (no `seal` prepended).
fn failopen(args: &[&str]) -> Output {
    support::failopen().args(args).write_stdin(PAYLOAD).timeout(Duration::from_secs(60)).output().unwrap()
}

#[test]
fn help_and_version_exit_2_in_seal_mode() {
    // Exit 0 would be an allow: printing help is not a decision.
    for args in [
        vec!["seal", "-h"],
        vec!["seal", "--help"],
        vec!["seal", "--version"],
        vec!["seal", "-V"],
        vec!["--version", "seal", "--", "/bin/true"],
        vec!["--help", "seal"],
        vec!["help", "seal"],
        vec!["seal", "--deadline", "3", "--help", "--", "/bin/true"],
    ] {
        let out = failopen(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(!out.stdout.is_empty(), "{args:?} still prints what it prints");
    }
    let help = String::from_utf8_lossy(&failopen(&["seal", "--help"]).stdout).into_owned();
    assert!(help.contains("--help and --version also exit 2, on purpose"), "{help}");
    assert!(help.contains("Never put `failopen seal --install` in a hook command"), "{help}");
    assert!(String::from_utf8_lossy(&failopen(&["seal", "--version"]).stdout).contains(env!("CARGO_PKG_VERSION")));
}

#[test]
fn unknown_flags_and_missing_guards_are_argument_errors_exit_2() {
    for (args, says) in [
        (vec!["seal", "--bogus", "--", "/bin/true"], "unexpected argument '--bogus'"),
        (vec!["seal", "--bogus"], "unexpected argument '--bogus'"),
        (vec!["seal"], "required arguments were not provided"),
        (vec!["seal", "--deadline"], "a value is required for '--deadline"),
        (vec!["seal", "--expect-json"], "required arguments were not provided"),
    ] {
        let out = failopen(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
    // Dashes after the guard still belong to the guard.
    let out = failopen(&["seal", "/bin/sh", "-c", "[ \"$1\" = --bogus ] && exit 2", "sh", "--bogus"]);
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(out.stderr.is_empty(), "the guard's own deny: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn other_subcommands_keep_their_exit_codes() {
    assert_eq!(failopen(&["--version"]).status.code(), Some(0));
    assert_eq!(failopen(&["--help"]).status.code(), Some(0));
    // Bad input to any other subcommand is failopen's usual exit 1 (clap's own would be 2).
    assert_eq!(failopen(&["report", "--bogus"]).status.code(), Some(1));
}

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

#[test]
fn expect_json_refuses_exit_0_with_garbage() {
    let f = Fixture::new();
    let g = f.script("garbage.sh", "echo 'allowed!'; exit 0");
    let (out, _) = f.seal(&["--expect-json", "--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty(), "a refused decision's stdout is not forwarded");
    assert!(
        refusal_line(&out).starts_with(&format!("guard {} exited 0 without a JSON decision", p(&g))),
        "{}",
        refusal_line(&out)
    );
}

#[test]
fn expect_json_refuses_exit_0_with_empty_stdout() {
    let f = Fixture::new();
    let g = f.script("silent.sh", "exit 0");
    let (out, _) = f.seal(&["--expect-json", "--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert!(refusal_line(&out).contains("exited 0 without a JSON decision"), "{}", refusal_line(&out));
    // Without the flag the same guard is an allow.
    let (out, _) = f.seal(&["--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn expect_json_requires_a_decision_not_just_an_object() {
    // `{}` and `{"continue":true}` on exit 0 are "no objection" to Claude Code.
    let f = Fixture::new();
    for (i, answer) in ["{}", r#"{"continue":true}"#, r#"{"hookSpecificOutput":{"permissionDecision":"maybe"}}"#]
        .into_iter()
        .enumerate()
    {
        let g = f.script(&format!("no-decision{i}.sh"), &format!("cat >/dev/null; printf '%s' '{answer}'"));
        let (out, _) = f.seal(&["--expect-json", "--", p(&g)], PAYLOAD);
        assert_eq!(out.status.code(), Some(2), "{answer}");
        assert!(out.stdout.is_empty(), "{answer}");
        assert!(
            refusal_line(&out).starts_with(&format!("guard {} exited 0 without a PreToolUse decision: ", p(&g))),
            "{answer}: {}",
            refusal_line(&out)
        );
    }
}

#[test]
fn expect_json_accepts_each_events_own_decision_byte_for_byte() {
    let f = Fixture::new();
    let event = |name: &str| format!(r#"{{"session_id":"s","hook_event_name":"{name}"}}"#).into_bytes();
    let cases: [(Vec<u8>, &str, i32); 8] = [
        (PAYLOAD.to_vec(), r#"{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}"#, 0),
        (PAYLOAD.to_vec(), r#"{"decision":"block","reason":"deprecated but honoured"}"#, 0),
        (event("PermissionRequest"), r#"{"hookSpecificOutput":{"decision":{"behavior":"deny","message":"no"}}}"#, 0),
        (event("PermissionRequest"), r#"{"hookSpecificOutput":{"permissionDecision":"deny"}}"#, 2),
        (event("Stop"), r#"{"decision":"block","reason":"tests are red"}"#, 0),
        (event("Stop"), r#"{"continue":true}"#, 2),
        (b"not json".to_vec(), r#"{"decision":"block"}"#, 0),
        (b"not json".to_vec(), r#"{"systemMessage":"hi"}"#, 2),
    ];
    for (i, (payload, answer, code)) in cases.into_iter().enumerate() {
        let g = f.script(&format!("answer{i}.sh"), &format!("cat >/dev/null; printf '%s\\n' '{answer}'"));
        let (out, _) = f.seal(&["--expect-json", "--", p(&g)], &payload);
        assert_eq!(out.status.code(), Some(code), "{answer}: {}", String::from_utf8_lossy(&out.stderr));
        if code == 0 {
            assert_eq!(out.stdout, format!("{answer}\n").into_bytes(), "passed through byte for byte");
            assert!(out.stderr.is_empty());
        }
    }
}

#[test]
fn expect_json_leaves_exit_2_alone() {
    let f = Fixture::new();
    let g = f.script("deny2.sh", "echo 'not json' >&2; exit 2");
    let (out, _) = f.seal(&["--expect-json", "--", p(&g)], PAYLOAD);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stderr, b"not json\n");
}

// ---------------------------------------------------------------- --install

fn install(f: &Fixture, settings: &Path) -> Output {
    let _ = f;
    support::failopen().arg("seal").arg("--install").arg(settings).output().unwrap()
}

/// `failopen seal --install SETTINGS` run as `program` (a path to the
/// binary, e.g. a symlink) with `PATH` set to `path`.
fn install_as(program: &Path, settings: &Path, path: &str) -> Output {
    std::process::Command::new(program).arg("seal").arg("--install").arg(settings).env("PATH", path).output().unwrap()
}

/// The first hook of the first PreToolUse group in `settings`.
fn first_command_hook(settings: &Path) -> serde_json::Value {
    let v: serde_json::Value = serde_json::from_str(&fs::read_to_string(settings).unwrap()).unwrap();
    v["hooks"]["PreToolUse"][0]["hooks"][0].clone()
}

/// The command of the first hook in `settings`.
fn first_command(settings: &Path) -> String {
    first_command_hook(settings)["command"].as_str().unwrap().to_string()
}

#[test]
fn install_writes_the_failopen_found_on_path_not_the_build_output() {
    let f = Fixture::new();
    let bin = f.path("bin");
    fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(support::bin(), bin.join("failopen")).unwrap();
    let settings = f.path("settings.json");
    fs::write(&settings, SETTINGS.replace("@GUARD@", "/g/guard.sh")).unwrap();

    // Invoked by its build path, as `cargo run` or a test would.
    let out = install_as(&support::bin(), &settings, &format!("{}:/usr/bin:/bin", p(&bin)));
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let command = first_command(&settings);
    assert!(command.starts_with(&format!("{}/failopen seal ", p(&bin))), "{command}");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("failopen path written:") && report.contains("(the failopen on PATH)"), "{report}");
    assert!(!report.contains("warning"), "{report}");
}

#[test]
fn install_without_failopen_on_path_writes_the_invoked_path_unresolved() {
    let f = Fixture::new();
    let dev = f.path("dev");
    fs::create_dir(&dev).unwrap();
    let link = dev.join("failopen");
    std::os::unix::fs::symlink(support::bin(), &link).unwrap();
    let settings = f.path("settings.json");
    fs::write(&settings, SETTINGS.replace("@GUARD@", "/g/guard.sh")).unwrap();

    let out = install_as(&link, &settings, "/usr/bin:/bin");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let command = first_command(&settings);
    assert!(command.starts_with(&format!("{} seal ", p(&link))), "the symlink, not its target: {command}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("the path failopen was invoked as"));
}

#[test]
fn install_warns_when_the_path_written_is_a_build_directory() {
    let f = Fixture::new();
    let settings = f.path("settings.json");
    fs::write(&settings, SETTINGS.replace("@GUARD@", "/g/guard.sh")).unwrap();
    // A build directory of its own (the real one may be anywhere under CARGO_TARGET_DIR).
    let exe = f.path("checkout/target/release/failopen");
    fs::create_dir_all(exe.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(support::bin(), &exe).unwrap();
    let out = install_as(&exe, &settings, "/usr/bin:/bin");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report = String::from_utf8_lossy(&out.stdout);
    let warning = report.lines().find(|l| l.contains("warning:")).unwrap_or_else(|| panic!("no warning: {report}"));
    assert!(warning.contains(p(&exe)) && warning.contains("a cargo build directory"), "{warning}");
}

/// A `bin` directory holding a fake `claude` that prints `version_line`
/// (none when `None`) and a `failopen` symlink to the binary under test.
fn bin_with_claude(f: &Fixture, version_line: Option<&str>) -> PathBuf {
    let bin = f.path("bin");
    fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(support::bin(), bin.join("failopen")).unwrap();
    if let Some(line) = version_line {
        support::scripts::write(&bin.join("claude"), &format!("#!/bin/sh\necho '{line}'\n"));
    }
    bin
}

#[test]
fn install_adds_on_failure_block_when_the_claude_on_path_honours_it() {
    let f = Fixture::new();
    let bin = bin_with_claude(&f, Some("2.1.328 (Claude Code)"));
    let settings = f.path("settings.json");
    fs::write(&settings, SETTINGS.replace("@GUARD@", "/g/guard.sh")).unwrap();
    let out = install_as(&bin.join("failopen"), &settings, &format!("{}:/usr/bin:/bin", p(&bin)));
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_str(&fs::read_to_string(&settings).unwrap()).unwrap();
    let hooks = &v["hooks"]["PreToolUse"][0]["hooks"];
    assert_eq!(hooks[0]["onFailure"], "block");
    assert_eq!(hooks[1].get("onFailure"), None, "the skipped http hook is not touched");
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(
        report.contains(&format!(
            "onFailure: Claude Code 2.1.328 ({}/claude) honours \"onFailure\": \"block\": added to 1 wrapped hook",
            p(&bin)
        )),
        "{report}"
    );
}

#[test]
fn install_leaves_on_failure_out_for_an_older_missing_or_unreadable_claude() {
    for (version_line, says) in [
        (Some("2.1.294 (Claude Code)"), "Claude Code 2.1.294"),
        (None, "onFailure: no claude on PATH: "),
        (Some("Claude Code, version unknown"), "does not start with a version"),
    ] {
        let f = Fixture::new();
        let bin = bin_with_claude(&f, version_line);
        let settings = f.path("settings.json");
        fs::write(&settings, SETTINGS.replace("@GUARD@", "/g/guard.sh")).unwrap();
        let out = install_as(&bin.join("failopen"), &settings, &format!("{}:/usr/bin:/bin", p(&bin)));
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(first_command_hook(&settings).get("onFailure"), None, "{version_line:?}");
        let report = String::from_utf8_lossy(&out.stdout);
        let line = report.lines().find(|l| l.contains("onFailure:")).unwrap_or_else(|| panic!("{report}"));
        assert!(line.contains(says) && line.ends_with("\"onFailure\": \"block\" not added"), "{line}");
        if version_line == Some("2.1.294 (Claude Code)") {
            assert!(line.contains("older than 2.1.295"), "{line}");
        }
    }
}

const SETTINGS: &str = r#"{
  "model": "opus",
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash|Write",
        "hooks": [
          { "type": "command", "command": "GUARD_MODE=strict @GUARD@ --flag", "timeout": 5 },
          { "type": "http", "url": "http://127.0.0.1:9/hook" }
        ]
      }
    ]
  },
  "permissions": { "allow": [] }
}
"#;

#[test]
fn install_wraps_keeps_a_backup_and_the_wrapped_hook_fails_closed() {
    let f = Fixture::new();
    let guard = f.script("crash.sh", "exit 1");
    let settings = f.path("settings.json");
    let original = SETTINGS.replace("@GUARD@", p(&guard));
    fs::write(&settings, &original).unwrap();

    let out = install(&f, &settings);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(report.contains("wrapped 1 PreToolUse command hook"), "{report}");
    assert!(report.contains("skipped") && report.contains("http"), "{report}");
    let backup = f.path("settings.json.failopen-backup");
    assert!(report.contains(p(&backup)), "{report}");
    assert_eq!(fs::read_to_string(&backup).unwrap(), original);

    let new: serde_json::Value = serde_json::from_str(&fs::read_to_string(&settings).unwrap()).unwrap();
    let keys: Vec<_> = new.as_object().unwrap().keys().cloned().collect();
    assert_eq!(keys, ["model", "hooks", "permissions"]);
    let hook = &new["hooks"]["PreToolUse"][0]["hooks"];
    assert_eq!(hook[1]["type"], "http");
    let command = hook[0]["command"].as_str().unwrap();
    assert!(command.contains(" seal --deadline 4 -- /bin/sh -c "), "{command}");

    // The wrapped command, run the way Claude Code runs it, refuses the crash.
    let run = Command::new("/bin/sh").arg("-c").arg(command).write_stdin(PAYLOAD).output().unwrap();
    assert_eq!(run.status.code(), Some(2), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(String::from_utf8_lossy(&run.stderr).contains("(exit 1)"), "{}", String::from_utf8_lossy(&run.stderr));
}

#[test]
fn install_twice_changes_nothing_the_second_time() {
    let f = Fixture::new();
    let settings = f.path("settings.json");
    fs::write(&settings, SETTINGS.replace("@GUARD@", "/g/guard.sh")).unwrap();
    assert_eq!(install(&f, &settings).status.code(), Some(0));
    let after_first = fs::read(&settings).unwrap();
    let backups = || fs::read_dir(f.dir.path()).unwrap().count();
    let files = backups();

    let out = install(&f, &settings);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("already wrapped"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(fs::read(&settings).unwrap(), after_first, "second run rewrote the file");
    assert_eq!(backups(), files, "second run wrote a backup");
}

#[test]
fn install_backup_keeps_the_mode_of_a_private_settings_file() {
    // A 0600 settings file may hold secrets in `env`; its backup was 0644.
    let f = Fixture::new();
    let settings = f.path("settings.json");
    fs::write(&settings, SETTINGS.replace("@GUARD@", "/g/guard.sh")).unwrap();
    fs::set_permissions(&settings, fs::Permissions::from_mode(0o600)).unwrap();
    assert_eq!(install(&f, &settings).status.code(), Some(0));
    let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode(&f.path("settings.json.failopen-backup")), 0o600);
    assert_eq!(mode(&settings), 0o600);
}

#[test]
fn install_never_overwrites_an_existing_backup() {
    let f = Fixture::new();
    let settings = f.path("settings.json");
    fs::write(&settings, SETTINGS.replace("@GUARD@", "/g/guard.sh")).unwrap();
    fs::write(f.path("settings.json.failopen-backup"), "precious").unwrap();
    assert_eq!(install(&f, &settings).status.code(), Some(0));
    assert_eq!(fs::read_to_string(f.path("settings.json.failopen-backup")).unwrap(), "precious");
    assert!(fs::read_to_string(f.path("settings.json.failopen-backup.1")).unwrap().contains("/g/guard.sh --flag"));
}

#[test]
fn install_refuses_unparsable_settings_and_leaves_them_alone() {
    let f = Fixture::new();
    let settings = f.path("broken.json");
    let text = "{\n  \"hooks\": {\n    \"PreToolUse\": [,]\n  }\n}\n";
    fs::write(&settings, text).unwrap();
    let out = install(&f, &settings);
    assert_ne!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(p(&settings)) && err.contains("line 3, column 20"), "{err}");
    assert_eq!(fs::read_to_string(&settings).unwrap(), text);
    assert_eq!(fs::read_dir(f.dir.path()).unwrap().count(), 1, "no backup or temp file left behind");
}

#[test]
fn install_on_a_missing_file_is_a_clear_error() {
    let f = Fixture::new();
    let settings = f.path("nope.json");
    let out = install(&f, &settings);
    assert_ne!(out.status.code(), Some(0));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(p(&settings)) && err.contains("does not exist"), "{err}");
    assert!(!settings.exists());
}
