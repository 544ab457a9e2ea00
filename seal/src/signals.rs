//! Signals to seal become a refusal (exit 2), never a silent exit.
//!
//! A signal's default action ends seal with 128+N (143 for SIGTERM, 131 for
//! SIGQUIT...), which no agent reads as a deny, and leaves the guard's
//! process group running. Three kinds:
//!
//! - **Asynchronous terminating signals** ([`HANDLED`]: SIGTERM, SIGINT,
//!   SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGXCPU, SIGXFSZ, SIGVTALRM,
//!   SIGPROF, SIGPWR, SIGSTKFLT, SIGIO, and every real-time signal): a
//!   signal-hook action on one self-pipe is registered for each. It only
//!   records which signal came (an atomic) and writes a byte to the pipe; seal polls
//!   the pipe's read end next to its other descriptors (while reading the
//!   payload and while supervising the guard), kills the guard's group and
//!   refuses naming the signal. The read end is never drained: once a signal
//!   came it stays readable, so every later `poll` sees it at once.
//! - **Fatal signals** ([`FATAL`]: SIGABRT, SIGBUS, SIGSEGV, SIGILL, SIGFPE,
//!   SIGSYS, SIGTRAP): seal itself is broken (an allocation that failed
//!   aborts, a stack overflow faults) or someone sent one. Returning from the
//!   handler would re-run the faulting instruction, so the handler (on the
//!   alternate signal stack) kills the guard's group, writes one refusal line
//!   and `_exit(2)`s: only async-signal-safe calls.
//! - **Stop signals** (SIGTSTP, SIGTTIN, SIGTTOU) are ignored: a stopped seal
//!   answers nothing until the agent's hook timeout, which fails open on
//!   versions that ignore `onFailure`. SIGSTOP and SIGKILL cannot be caught;
//!   a SIGKILLed seal takes the guard's group with it through the watchdog
//!   ([`super::watchdog`]).

use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd};
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use nix::libc;
use nix::sys::signal::{sigaction, SaFlags, SigAction, SigHandler, SigSet, Signal};

/// The asynchronous terminating signals seal turns into a refusal (the
/// real-time signals, SIGRTMIN to SIGRTMAX, are handled too: [`handled`]).
pub const HANDLED: [i32; 14] = [
    libc::SIGTERM,
    libc::SIGINT,
    libc::SIGHUP,
    libc::SIGQUIT,
    libc::SIGUSR1,
    libc::SIGUSR2,
    libc::SIGALRM,
    libc::SIGXCPU,
    libc::SIGXFSZ,
    libc::SIGVTALRM,
    libc::SIGPROF,
    #[cfg(any(target_os = "linux", target_os = "android"))]
    libc::SIGPWR,
    #[cfg(any(target_os = "linux", target_os = "android"))]
    libc::SIGSTKFLT,
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    libc::SIGINFO,
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    libc::SIGEMT,
    libc::SIGIO,
];

/// The signals that mean seal itself cannot go on.
pub const FATAL: [i32; 7] =
    [libc::SIGABRT, libc::SIGBUS, libc::SIGSEGV, libc::SIGILL, libc::SIGFPE, libc::SIGSYS, libc::SIGTRAP];

/// The stop signals seal ignores.
pub const IGNORED: [i32; 3] = [libc::SIGTSTP, libc::SIGTTIN, libc::SIGTTOU];

/// Every asynchronous signal seal handles: [`HANDLED`] and the real-time ones.
pub fn handled() -> Vec<i32> {
    let mut all = HANDLED.to_vec();
    all.extend(realtime());
    all
}

#[cfg(any(target_os = "linux", target_os = "android"))]
fn realtime() -> std::ops::RangeInclusive<i32> {
    libc::SIGRTMIN()..=libc::SIGRTMAX()
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn realtime() -> std::ops::RangeInclusive<i32> {
    #[allow(clippy::reversed_empty_ranges)]
    {
        1..=0
    }
}

/// The last handled signal that arrived (0: none yet).
static CAUGHT: AtomicUsize = AtomicUsize::new(0);

/// The guard's process group while it may be alive (0: none), for the fatal
/// handler to kill.
static GUARD_GROUP: AtomicI32 = AtomicI32::new(0);

/// The watchdog's pid while it runs (0: none), for the fatal handler to reap.
static WATCHDOG: AtomicI32 = AtomicI32::new(0);

static PIPE: OnceLock<io::PipeReader> = OnceLock::new();
/// The signal pipe's write end, as a raw descriptor for [`on_handled`].
static WRITER_FD: AtomicI32 = AtomicI32::new(-1);

/// A handled signal arrived: note it and wake whoever polls the pipe.
extern "C" fn on_handled(signal: libc::c_int) {
    CAUGHT.store(signal as usize, Ordering::SeqCst);
    let fd = WRITER_FD.load(Ordering::SeqCst);
    // SAFETY: write(2) is async-signal-safe; the buffer is static.
    unsafe { libc::write(fd, b"!".as_ptr().cast(), 1) };
}
static WRITER: OnceLock<io::PipeWriter> = OnceLock::new();

/// Serialises [`install`], so the handlers are registered once.
static INSTALLING: Mutex<()> = Mutex::new(());

/// The read end of seal's signal pipe (readable once a handled signal came).
#[derive(Debug, Clone, Copy)]
pub struct SignalPipe {
    reader: &'static io::PipeReader,
}

impl SignalPipe {
    /// The descriptor to poll for readability.
    pub fn fd(&self) -> BorrowedFd<'static> {
        self.reader.as_fd()
    }

    /// The signal that arrived, if any.
    pub fn caught(&self) -> Option<Signal> {
        caught()
    }

    /// The number of the signal that arrived, if any (a real-time signal has
    /// no [`Signal`]).
    pub fn caught_number(&self) -> Option<i32> {
        caught_number()
    }
}

/// Register the handlers (once per process; later calls return the same
/// pipe). After this, no catchable signal ends seal with anything but 2.
pub fn install() -> io::Result<SignalPipe> {
    let _once = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(reader) = PIPE.get() {
        return Ok(SignalPipe { reader });
    }
    for signal in FATAL {
        let action = SigAction::new(SigHandler::Handler(on_fatal), SaFlags::SA_ONSTACK, SigSet::empty());
        let signal = Signal::try_from(signal).map_err(io::Error::from)?;
        // SAFETY: on_fatal makes only async-signal-safe calls (an atomic
        // load, kill, write, _exit) and never returns.
        unsafe { sigaction(signal, &action) }.map_err(io::Error::from)?;
    }
    for signal in IGNORED {
        let signal = Signal::try_from(signal).map_err(io::Error::from)?;
        let ignore = SigAction::new(SigHandler::SigIgn, SaFlags::empty(), SigSet::empty());
        // SAFETY: ignoring a signal installs no handler code.
        unsafe { sigaction(signal, &ignore) }.map_err(io::Error::from)?;
    }
    let (reader, writer) = io::pipe()?;
    super::pipes::set_nonblocking(writer.as_fd())?;
    // The write end lives as long as seal: the handlers write to it.
    let fd = WRITER.get_or_init(|| writer).as_raw_fd();
    WRITER_FD.store(fd, Ordering::SeqCst);
    for signal in handled() {
        // SAFETY: on_handled makes only async-signal-safe calls: an atomic
        // store and a non-blocking write(2) of one byte from a static buffer
        // to a descriptor that is never closed. The flag is set before the
        // byte is written, so whoever wakes on the pipe finds it. libc's
        // sigaction, not nix's: the real-time signals have no nix `Signal`.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_handled as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            if libc::sigaction(signal, &action, std::ptr::null_mut()) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
    }
    let reader = PIPE.get_or_init(|| reader);
    Ok(SignalPipe { reader })
}

/// The handled signal that arrived, if any (also without [`install`]: none).
pub fn caught() -> Option<Signal> {
    caught_number().and_then(|n| Signal::try_from(n).ok())
}

/// The number of the handled signal that arrived, if any.
pub fn caught_number() -> Option<i32> {
    match CAUGHT.load(Ordering::SeqCst) {
        0 => None,
        n => Some(n as i32),
    }
}

/// A signal's name for a refusal line: `SIGTERM`, or `SIGRTMIN+3`.
pub fn name(signal: i32) -> String {
    if let Ok(s) = Signal::try_from(signal) {
        return s.as_str().to_string();
    }
    let rt = realtime();
    if rt.contains(&signal) {
        return format!("SIGRTMIN+{}", signal - rt.start());
    }
    format!("signal {signal}")
}

/// Tell the fatal handler which process group is the guard's (`None`: no
/// guard is running any more).
pub fn set_guard_group(pgid: Option<i32>) {
    GUARD_GROUP.store(pgid.unwrap_or(0), Ordering::SeqCst);
}

/// Tell the fatal handler the watchdog's pid (`None`: it has been reaped).
pub fn set_watchdog(pid: Option<i32>) {
    WATCHDOG.store(pid.unwrap_or(0), Ordering::SeqCst);
}

/// The fatal handler: kill the guard's group and the watchdog (no longer
/// needed), say so, exit 2.
extern "C" fn on_fatal(signal: libc::c_int) {
    let group = GUARD_GROUP.load(Ordering::SeqCst);
    if group > 0 {
        // SAFETY: kill(2) is async-signal-safe; a negative pid is a group.
        unsafe { libc::kill(-group, libc::SIGKILL) };
    }
    let watchdog = WATCHDOG.load(Ordering::SeqCst);
    if watchdog > 0 {
        // SAFETY: kill(2) and waitpid(2) are async-signal-safe.
        unsafe {
            libc::kill(watchdog, libc::SIGKILL);
            libc::waitpid(watchdog, std::ptr::null_mut(), 0);
        }
    }
    let line: &[u8] = match signal {
        libc::SIGABRT => {
            b"failopen seal: seal itself failed (SIGABRT: an allocation failed or seal aborted); refusing by default\n"
        }
        libc::SIGSEGV | libc::SIGBUS => {
            b"failopen seal: seal itself failed (a memory fault or a stack overflow); refusing by default\n"
        }
        _ => b"failopen seal: seal itself failed (a fatal signal); refusing by default\n",
    };
    // SAFETY: write(2) and _exit(2) are async-signal-safe; the buffer is static.
    unsafe {
        libc::write(2, line.as_ptr().cast(), line.len());
        libc::_exit(2);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pipes::poll;
    use std::os::fd::AsRawFd;

    #[test]
    fn a_signal_makes_the_pipe_readable_and_is_named() {
        let pipe = install().expect("install");
        assert!(install().is_ok(), "installing twice is fine");
        // SIGHUP to ourselves: with the handler in place the test process
        // survives it (without, this test binary would die).
        nix::sys::signal::raise(Signal::SIGHUP).unwrap();
        let mut fds = [libc::pollfd { fd: pipe.fd().as_raw_fd(), events: libc::POLLIN, revents: 0 }];
        assert_eq!(poll(&mut fds, 5000), Ok(1));
        assert_eq!(pipe.caught(), Some(Signal::SIGHUP));
    }

    #[test]
    fn names() {
        assert_eq!(name(libc::SIGQUIT), "SIGQUIT");
        #[cfg(target_os = "linux")]
        assert_eq!(name(libc::SIGRTMIN() + 3), "SIGRTMIN+3");
        assert!(handled().contains(&libc::SIGUSR1));
        for s in FATAL.iter().chain(&IGNORED) {
            assert!(!handled().contains(s), "{s} is handled twice");
        }
    }
}
