//! SIGTERM, SIGINT and SIGHUP to seal become a refusal, not a silent exit.
//!
//! Their default action kills seal with exit 143/130/129, which Claude Code
//! does not read as a deny, and leaves the guard's process group running.
//! Instead, a signal-hook self-pipe is registered for each: the handler only
//! records which signal came (an atomic) and writes a byte to the pipe. Seal
//! polls the pipe's read end next to its other descriptors (while reading the
//! payload and while supervising the guard), so it can kill the guard's
//! group and refuse naming the signal.
//!
//! The read end is never drained: once a signal came it stays readable, so
//! every later `poll` sees it at once.

use std::io;
use std::os::fd::{AsFd, BorrowedFd};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use nix::sys::signal::Signal;
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// The signals seal turns into a refusal.
pub const HANDLED: [i32; 3] = [SIGTERM, SIGINT, SIGHUP];

/// The last handled signal that arrived (0: none yet).
static CAUGHT: AtomicUsize = AtomicUsize::new(0);

static PIPE: OnceLock<io::PipeReader> = OnceLock::new();

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
}

/// Register the handlers (once per process; later calls return the same
/// pipe). After this, SIGTERM, SIGINT and SIGHUP no longer end seal.
pub fn install() -> io::Result<SignalPipe> {
    let _once = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(reader) = PIPE.get() {
        return Ok(SignalPipe { reader });
    }
    let (reader, writer) = io::pipe()?;
    for signal in HANDLED {
        // Actions run in registration order: the flag is set before the
        // byte is written, so whoever wakes on the pipe finds it.
        signal_hook::flag::register_usize(signal, &CAUGHT, signal as usize)?;
        signal_hook::low_level::pipe::register(signal, writer.try_clone()?)?;
    }
    drop(writer);
    let reader = PIPE.get_or_init(|| reader);
    Ok(SignalPipe { reader })
}

/// The handled signal that arrived, if any (also without [`install`]: none).
pub fn caught() -> Option<Signal> {
    match CAUGHT.load(Ordering::SeqCst) {
        0 => None,
        n => Signal::try_from(n as i32).ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seal::pipes::poll;
    use nix::libc;
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
}
