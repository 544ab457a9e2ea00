//! Run one guard process: feed it the payload, collect its output, enforce the deadline.
//!
//! Everything happens in one `poll(2)` loop on non-blocking pipes (the guard's
//! stdin, stdout and stderr) plus one "exited" pipe closed by a tiny watcher
//! thread when the guard becomes a zombie, and optionally a "stop" descriptor
//! (seal's signal pipe): when it becomes readable the guard's group is killed
//! at once.
//!
//! The guard's group also dies with seal: a watchdog process
//! ([`super::watchdog`]) kills it if seal is SIGKILLed (which it cannot
//! catch), and on Linux `PR_SET_PDEATHSIG` = SIGKILL is set in the guard
//! before exec as well. The loop never blocks on a single
//! pipe, so a guard that never reads stdin, writes megabytes, or leaves an
//! orphan holding its pipes cannot wedge seal.
//!
//! Time bound: seal stops waiting at most `grace` after `deadline_at` (plus
//! scheduling noise): the deadline for the guard to exit *and* for its pipes
//! to reach end of file (a helper such as `exec > >(tee log)` may still be
//! copying its answer after it exits), then `grace` for them to close once
//! its process group has been killed. The deadline is an instant, not a
//! duration, because it counts from seal's own start (the payload read
//! comes out of it too).

use std::io::{self, ErrorKind};
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::libc;
use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::{getpid, getppid, Pid};

use super::pipes::{drain, poll, set_nonblocking, timeout_ms, write_some};
pub use super::pipes::{OutputProblem, MAX_OUTPUT_BYTES};
use super::signals;
use super::watchdog::Watchdog;

/// How the guard process ended, as far as seal could tell.
#[derive(Debug)]
pub enum GuardEnd {
    /// The guard exited (normally or by a signal) before the deadline.
    Exited(ExitStatus),
    /// The guard was still running at the deadline and was killed.
    TimedOut,
    /// The guard could not be started (exec failed).
    NotStarted(io::Error),
    /// The guard started but seal could not supervise it (it was killed).
    SealFailed(io::Error),
    /// The stop descriptor became readable (seal was signalled); the guard
    /// was killed.
    Stopped,
}

/// Everything seal learnt from running the guard once.
#[derive(Debug)]
pub struct GuardRun {
    /// How the guard ended.
    pub end: GuardEnd,
    /// The guard's stdout, byte for byte (possibly cut short, see `pipes_left_open`).
    pub stdout: Vec<u8>,
    /// The guard's stderr, byte for byte (possibly cut short).
    pub stderr: Vec<u8>,
    /// Some process still held stdout or stderr open when seal stopped
    /// waiting (the grace after a kill); the output is what had arrived by then.
    pub pipes_left_open: bool,
    /// The guard had exited, but its stdout or stderr was still open at the
    /// deadline: held by a process it left behind (in its group, or one that
    /// left it). Its answer may not have arrived whole, so an exit 0 is no
    /// clean allow.
    pub held_open: bool,
    /// A stream went over [`MAX_OUTPUT_BYTES`], or memory for it ran out.
    pub output_problem: Option<OutputProblem>,
}

/// Run `argv` (no shell) in its own process group with `payload` on stdin,
/// until `deadline_at` at the latest, or until `stop` becomes readable.
///
/// `argv` must not be empty. The guard's whole process group is SIGKILLed
/// when the guard exits non-zero, once an exit 0's pipes are at end of file,
/// or when the deadline passes or `stop` fires, so background children of
/// the guard never outlive it.
pub fn run_guard(
    argv: &[String],
    payload: &[u8],
    deadline_at: Instant,
    grace: Duration,
    stop: Option<BorrowedFd>,
) -> GuardRun {
    let mut run = GuardRun {
        end: GuardEnd::TimedOut,
        stdout: Vec::new(),
        stderr: Vec::new(),
        pipes_left_open: false,
        held_open: false,
        output_problem: None,
    };
    let Some((program, args)) = argv.split_first() else {
        run.end = GuardEnd::NotStarted(io::Error::new(ErrorKind::InvalidInput, "empty command"));
        return run;
    };
    // Before the guard starts, while seal has no other thread.
    let watchdog = match Watchdog::start() {
        Ok(w) => w,
        Err(e) => {
            run.end = GuardEnd::SealFailed(e);
            return run;
        }
    };
    let seal_pid = getpid();
    let mut command = Command::new(program);
    command.args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).process_group(0);
    // SAFETY: the closure runs in the forked child before exec and only
    // makes async-signal-safe system calls (prctl, getppid); it allocates
    // nothing (the error is a raw OS error).
    unsafe {
        command.pre_exec(move || die_with_parent(seal_pid));
    }
    let mut child = match command.spawn() {
        Ok(child) => child,
        Err(e) => {
            drop(watchdog);
            run.end = GuardEnd::NotStarted(e);
            return run;
        }
    };
    let mut group = Group::new(Pid::from_raw(child.id() as i32), watchdog);
    if let Err(e) = supervise(&mut child, &mut group, payload, deadline_at, grace, stop, &mut run) {
        group.release();
        run.end = GuardEnd::SealFailed(e);
    }
    run
}

/// The guard's process group while it may be alive: killed by whoever lets
/// go of it first. Seal's poll loop releases it (killing it) before it reaps
/// the guard; a panic unwinding through the loop drops it (killing it); the
/// fatal-signal handler kills it ([`signals::set_guard_group`]); and if seal
/// is SIGKILLed, the watchdog does.
struct Group {
    pid: Pid,
    watchdog: Watchdog,
    held: bool,
}

impl Group {
    fn new(pid: Pid, mut watchdog: Watchdog) -> Group {
        watchdog.watch(pid);
        signals::set_guard_group(Some(pid.as_raw()));
        Group { pid, watchdog, held: true }
    }

    /// Kill the group (it stays held: the guard is not reaped yet).
    fn kill(&self) {
        kill_group(self.pid);
    }

    /// Kill the group and let go of its id, which may be reused once the
    /// guard is reaped: nobody kills it after this.
    fn release(&mut self) {
        if self.held {
            self.kill();
            signals::set_guard_group(None);
            self.watchdog.release();
            self.held = false;
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.release();
    }
}

/// In the child, before exec: ask the kernel to SIGKILL this process when
/// seal dies, then make sure seal did not die before the request was in
/// place (the parent would then be someone else: init or a subreaper).
///
/// The kernel sends it when the *thread* that forked exits; seal spawns from
/// its main thread, which lives as long as seal. (The watchdog kills the
/// guard's children too; this covers the guard in the moment before the
/// watchdog knows its group.) Linux only: elsewhere the watchdog alone.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn die_with_parent(seal_pid: Pid) -> io::Result<()> {
    nix::sys::prctl::set_pdeathsig(Signal::SIGKILL).map_err(|e| io::Error::from_raw_os_error(e as i32))?;
    if getppid() != seal_pid {
        return Err(io::Error::from_raw_os_error(libc::ESRCH));
    }
    Ok(())
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn die_with_parent(seal_pid: Pid) -> io::Result<()> {
    if getppid() != seal_pid {
        return Err(io::Error::from_raw_os_error(libc::ESRCH));
    }
    Ok(())
}

/// The poll loop. Fills `run`; an `Err` means seal itself could not supervise.
///
/// When the guard exits 0, its group is *not* killed at once: a helper in
/// it (`exec > >(tee log)`, `exec > >(cat)`) may still be copying the
/// guard's JSON decision into seal's pipe, and an allow is only an allow
/// once its whole answer is in. Seal reads stdout and stderr to end of
/// file, up to the deadline, and only then kills the group (so background
/// children that closed their pipes still die with it). If the pipes are
/// still open at the deadline, someone else holds them: the group is killed,
/// what arrives within `grace` is kept, and `held_open` is set. Any other
/// exit is a refusal whatever is still in flight, so the group is killed at
/// once and the pipes get only the grace.
fn supervise(
    child: &mut Child,
    group: &mut Group,
    payload: &[u8],
    deadline_at: Instant,
    grace: Duration,
    stop: Option<BorrowedFd>,
    run: &mut GuardRun,
) -> io::Result<()> {
    let pid = group.pid;
    let mut exit_watch = Some(watch_exit(pid)?);
    let mut stdin = child.stdin.take().filter(|_| !payload.is_empty());
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    for fd in
        [stdin.as_ref().map(|p| p.as_fd()), stdout.as_ref().map(|p| p.as_fd()), stderr.as_ref().map(|p| p.as_fd())]
            .into_iter()
            .flatten()
    {
        set_nonblocking(fd)?;
    }
    let mut written = 0usize;
    let mut exited = false;
    let mut timed_out = false;
    // Set once the group has been killed at the deadline: the end of the grace.
    let mut grace_until: Option<Instant> = None;

    loop {
        if exited && stdout.is_none() && stderr.is_none() {
            break;
        }
        let now = Instant::now();
        let stop_at = grace_until.unwrap_or(deadline_at);
        if now >= stop_at {
            if grace_until.is_some() {
                break; // grace is over
            }
            // The deadline: the guard is still running, or it exited and
            // someone still holds its pipes open.
            if exited {
                run.held_open = true;
            } else {
                timed_out = true;
            }
            group.kill();
            stdin = None;
            grace_until = Some(now + grace);
            continue;
        }

        // Slots: 0 stdin, 1 stdout, 2 stderr, 3 exit watch, 4 stop (None = not polled).
        let fds: [Option<(BorrowedFd, libc::c_short)>; 5] = [
            stdin.as_ref().map(|p| (p.as_fd(), libc::POLLOUT)),
            stdout.as_ref().map(|p| (p.as_fd(), libc::POLLIN)),
            stderr.as_ref().map(|p| (p.as_fd(), libc::POLLIN)),
            exit_watch.as_ref().map(|p| (p.as_fd(), libc::POLLIN)),
            stop.map(|fd| (fd, libc::POLLIN)),
        ];
        let slots: Vec<usize> = (0..5).filter(|&i| fds[i].is_some()).collect();
        let mut pollfds: Vec<libc::pollfd> =
            fds.iter().flatten().map(|&(fd, events)| libc::pollfd { fd: fd.as_raw_fd(), events, revents: 0 }).collect();
        match poll(&mut pollfds, timeout_ms(stop_at - now)) {
            Ok(_) => {}
            Err(Errno::EINTR) => continue,
            Err(e) => return Err(e.into()),
        }
        let ready: Vec<usize> =
            slots.iter().zip(&pollfds).filter(|(_, p)| p.revents != 0).map(|(&slot, _)| slot).collect();
        if ready.contains(&4) {
            // Seal was told to stop: kill the group and go, without waiting
            // for a grace or reaping (seal exits right after).
            group.release();
            run.end = GuardEnd::Stopped;
            return Ok(());
        }

        for slot in ready {
            match slot {
                0 => {
                    if write_some(stdin.as_mut(), payload, &mut written) {
                        stdin = None; // all written (guard sees EOF), or the guard closed it
                    }
                }
                1 => {
                    if drain(stdout.as_mut(), &mut run.stdout, "stdout", &mut run.output_problem) {
                        stdout = None;
                    }
                }
                2 => {
                    if drain(stderr.as_mut(), &mut run.stderr, "stderr", &mut run.output_problem) {
                        stderr = None;
                    }
                }
                _ => {
                    // Slot 3 (slot 4, stop, returned above). The guard is a
                    // zombie now (not reaped: its pid, hence its process
                    // group id, cannot be reused while the group lives).
                    exit_watch = None;
                    exited = true;
                    stdin = None;
                    if !super::wait::exited_zero(pid) && grace_until.is_none() {
                        group.kill();
                        grace_until = Some(Instant::now() + grace);
                    }
                    // An exit 0: its helpers may still be writing; read on.
                }
            }
        }
    }

    // Pipes at end of file (or the grace over): nobody in the group may
    // outlive the guard, and after this its id is let go.
    group.release();
    run.pipes_left_open = stdout.is_some() || stderr.is_some();
    if exited {
        // The watcher thread has returned, so reaping now is race-free.
        let status = child.wait()?;
        if !timed_out {
            run.end = GuardEnd::Exited(status);
        }
    }
    // else: killed at the deadline but not even a zombie within the grace
    // (e.g. stuck in uninterruptible sleep): leave it unreaped rather than wait.
    Ok(())
}

/// Start a thread that waits (without reaping) for `pid` to exit, then drops
/// the write end of a pipe: the returned read end becomes readable (EOF).
fn watch_exit(pid: Pid) -> io::Result<io::PipeReader> {
    let (reader, writer) = io::pipe()?;
    std::thread::Builder::new().name("seal-exit-watch".into()).stack_size(64 * 1024).spawn(move || {
        let _ = super::wait::until_exited(pid);
        drop(writer);
    })?;
    Ok(reader)
}

/// SIGKILL the guard's process group, and the guard itself in case it left
/// the group. Errors (already gone) are ignored.
fn kill_group(pid: Pid) {
    let _ = killpg(pid, Signal::SIGKILL);
    let _ = kill(pid, Signal::SIGKILL);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> Vec<String> {
        vec!["/bin/sh".into(), "-c".into(), script.into()]
    }

    fn in_secs(secs: f64) -> Instant {
        Instant::now() + Duration::from_secs_f64(secs)
    }

    #[test]
    fn empty_argv_is_not_started() {
        let run = run_guard(&[], b"", in_secs(1.0), Duration::from_millis(200), None);
        assert!(matches!(run.end, GuardEnd::NotStarted(_)), "{:?}", run.end);
    }

    #[test]
    fn collects_output_and_status() {
        let run =
            run_guard(&sh("cat; echo err >&2; exit 7"), b"payload", in_secs(5.0), Duration::from_millis(200), None);
        let GuardEnd::Exited(status) = run.end else { panic!("{:?}", run.end) };
        assert_eq!(status.code(), Some(7));
        assert_eq!(run.stdout, b"payload");
        assert_eq!(run.stderr, b"err\n");
        assert!(!run.pipes_left_open);
    }

    #[test]
    fn big_payload_to_a_guard_that_never_reads() {
        let payload = vec![b'x'; 4 << 20];
        let run = run_guard(&sh("exit 0"), &payload, in_secs(5.0), Duration::from_millis(200), None);
        let GuardEnd::Exited(status) = run.end else { panic!("{:?}", run.end) };
        assert_eq!(status.code(), Some(0));
    }

    #[test]
    fn deadline_kills() {
        let t = Instant::now();
        let run = run_guard(&sh("sleep 20"), b"", in_secs(0.3), Duration::from_millis(200), None);
        assert!(matches!(run.end, GuardEnd::TimedOut), "{:?}", run.end);
        assert!(t.elapsed() < Duration::from_secs(10), "waited for the 20 s sleep: {:?}", t.elapsed());
    }
}
