//! Non-blocking pipe helpers for the guard's poll loop.

use std::io::{self, ErrorKind, Read, Write};
use std::os::fd::BorrowedFd;
use std::time::Duration;

use nix::errno::Errno;
use nix::fcntl::{fcntl, FcntlArg, OFlag};
use nix::libc;

/// Most bytes seal keeps per output stream; more than this and seal refuses
/// (rather than run out of memory and crash, which would fail open).
pub const MAX_OUTPUT_BYTES: usize = 64 * 1024 * 1024;

/// Why seal could not keep all of a guard's output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutputProblem {
    /// The stream went over [`MAX_OUTPUT_BYTES`].
    TooMuch(&'static str),
    /// Memory to keep the stream ran out (an allocation failed).
    NoMemory(&'static str),
}

/// Put `fd` in non-blocking mode.
pub fn set_nonblocking(fd: BorrowedFd) -> io::Result<()> {
    let flags = OFlag::from_bits_truncate(fcntl(fd, FcntlArg::F_GETFL)?);
    fcntl(fd, FcntlArg::F_SETFL(flags | OFlag::O_NONBLOCK))?;
    Ok(())
}

/// poll(2) on `fds` (whose descriptors stay open for the call: the caller
/// borrows them). nix's safe wrapper needs its `poll` feature, which this
/// crate does not enable; this is the same single call.
pub fn poll(fds: &mut [libc::pollfd], timeout_ms: i32) -> nix::Result<libc::c_int> {
    // SAFETY: `fds` is a valid, exclusively borrowed slice of `pollfd`s and
    // its length is passed alongside; poll(2) only writes `revents`.
    let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, timeout_ms) };
    Errno::result(n)
}

/// Milliseconds covering `left`, rounded up (so the loop never spins on a
/// sub-millisecond remainder).
pub fn timeout_ms(left: Duration) -> i32 {
    left.as_nanos().div_ceil(1_000_000).min(i32::MAX as u128) as i32
}

/// Write more of the payload. Returns true when stdin should be closed.
pub fn write_some<W: Write>(pipe: Option<&mut W>, payload: &[u8], written: &mut usize) -> bool {
    let Some(pipe) = pipe else { return true };
    while *written < payload.len() {
        match pipe.write(&payload[*written..]) {
            Ok(0) => return true,
            Ok(n) => *written += n,
            Err(e) if e.kind() == ErrorKind::WouldBlock => return false,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => return true, // EPIPE: the guard does not want it
        }
    }
    true
}

/// Read what is available (bounded, so one busy pipe cannot starve the
/// deadline). Returns true at end of file (or on a read error). Past
/// [`MAX_OUTPUT_BYTES`], or when memory for more runs out, the rest is read
/// and dropped and `problem` says so (the first problem is kept).
pub fn drain<R: Read>(
    pipe: Option<&mut R>,
    buf: &mut Vec<u8>,
    name: &'static str,
    problem: &mut Option<OutputProblem>,
) -> bool {
    let Some(pipe) = pipe else { return true };
    let mut chunk = [0u8; 64 * 1024];
    for _ in 0..16 {
        match pipe.read(&mut chunk) {
            Ok(0) => return true,
            Ok(n) => {
                if problem.is_some() {
                    // Already refusing: keep reading so the guard is not
                    // blocked on a full pipe, but keep nothing more.
                } else if buf.len() + n > MAX_OUTPUT_BYTES {
                    *problem = Some(OutputProblem::TooMuch(name));
                } else if buf.try_reserve(n).is_err() {
                    *problem = Some(OutputProblem::NoMemory(name));
                } else {
                    buf.extend_from_slice(&chunk[..n]);
                }
            }
            Err(e) if e.kind() == ErrorKind::WouldBlock => return false,
            Err(e) if e.kind() == ErrorKind::Interrupted => {}
            Err(_) => return true,
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeout_rounds_up() {
        assert_eq!(timeout_ms(Duration::from_micros(1)), 1);
        assert_eq!(timeout_ms(Duration::from_millis(5)), 5);
        assert_eq!(timeout_ms(Duration::ZERO), 0);
    }

    #[test]
    fn drain_caps_what_it_keeps() {
        let mut buf = vec![0u8; MAX_OUTPUT_BYTES - 1];
        let mut over = None;
        let mut src: &[u8] = b"abc";
        assert!(drain(Some(&mut src), &mut buf, "stdout", &mut over), "read to the end");
        assert_eq!(over, Some(OutputProblem::TooMuch("stdout")));
        assert_eq!(buf.len(), MAX_OUTPUT_BYTES - 1);
        // Once refusing, nothing more is kept, even what would fit.
        let mut small = Vec::new();
        let mut src: &[u8] = b"abc";
        assert!(drain(Some(&mut src), &mut small, "stderr", &mut over));
        assert!(small.is_empty());
        assert_eq!(over, Some(OutputProblem::TooMuch("stdout")), "the first problem is kept");
    }

    #[test]
    fn write_some_stops_on_a_closed_reader() {
        let (reader, mut writer) = io::pipe().unwrap();
        drop(reader);
        let mut written = 0;
        assert!(write_some(Some(&mut writer), b"payload", &mut written), "EPIPE closes stdin");
        assert_eq!(written, 0);
    }
}
