//! Read the hook payload from seal's stdin, inside the deadline.
//!
//! Claude Code writes the payload and closes the pipe; a payload that never
//! ends (a writer that stalls, a `sleep 2 | failopen seal ...`) must not
//! hold seal past its deadline, or the hook's `timeout` fires first and the
//! call fails open. So the read is a `poll(2)` loop bounded by the deadline,
//! which also watches an optional "stop" descriptor (seal's signal pipe).
//!
//! Stdin is not switched to `O_NONBLOCK`: that flag lives on the open file
//! description, which seal shares with whoever handed it the descriptor (a
//! terminal, the parent's pipe), and would leak into them. Each `read`
//! follows a `poll` that reported the descriptor readable, so it returns
//! what is there without waiting.

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd};
use std::time::Instant;

use nix::errno::Errno;
use nix::libc;

use super::pipes::{poll, timeout_ms};

/// The largest hook payload seal reads (64 MiB): far above any tool call's
/// input, and a bound on the memory a runaway writer can make seal use.
pub const MAX_PAYLOAD_BYTES: usize = 64 * 1024 * 1024;

/// How reading the payload ended.
#[derive(Debug)]
pub enum PayloadRead {
    /// End of input reached: the whole payload.
    Complete(Vec<u8>),
    /// The deadline passed before end of input (`got` bytes had arrived).
    Late {
        /// Bytes read before the deadline.
        got: usize,
    },
    /// The stop descriptor became readable (seal was signalled).
    Stopped,
    /// More than [`MAX_PAYLOAD_BYTES`] arrived.
    TooBig,
    /// Memory to keep the payload ran out.
    NoMemory,
    /// Reading failed (e.g. stdin is closed).
    Failed(io::Error),
}

/// Read `input` to end of file, giving up at `deadline_at` or as soon as
/// `stop` becomes readable.
pub fn read_until(input: BorrowedFd, deadline_at: Instant, stop: Option<BorrowedFd>) -> PayloadRead {
    let mut payload = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let now = Instant::now();
        if now >= deadline_at {
            return PayloadRead::Late { got: payload.len() };
        }
        let mut fds = vec![libc::pollfd { fd: input.as_raw_fd(), events: libc::POLLIN, revents: 0 }];
        if let Some(stop) = stop {
            fds.push(libc::pollfd { fd: stop.as_raw_fd(), events: libc::POLLIN, revents: 0 });
        }
        match poll(&mut fds, timeout_ms(deadline_at - now)) {
            Ok(_) => {}
            Err(Errno::EINTR) => continue,
            Err(e) => return PayloadRead::Failed(e.into()),
        }
        if fds.get(1).is_some_and(|p| p.revents != 0) {
            return PayloadRead::Stopped;
        }
        if fds[0].revents == 0 {
            continue; // poll timed out: the loop head sees the deadline
        }
        match nix::unistd::read(input, &mut chunk) {
            Ok(0) => return PayloadRead::Complete(payload),
            Ok(n) if payload.len() + n > MAX_PAYLOAD_BYTES => return PayloadRead::TooBig,
            Ok(n) if payload.try_reserve(n).is_err() => return PayloadRead::NoMemory,
            Ok(n) => payload.extend_from_slice(&chunk[..n]),
            Err(Errno::EINTR | Errno::EAGAIN) => {}
            Err(e) => return PayloadRead::Failed(e.into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::os::fd::AsFd;
    use std::time::Duration;

    #[test]
    fn reads_to_end_of_file() {
        let (reader, mut writer) = io::pipe().unwrap();
        let big: Vec<u8> = (0..300_000u32).map(|i| i as u8).collect();
        let expected = big.clone();
        let t = std::thread::spawn(move || writer.write_all(&big));
        let got = read_until(reader.as_fd(), Instant::now() + Duration::from_secs(10), None);
        t.join().unwrap().unwrap();
        let PayloadRead::Complete(bytes) = got else { panic!("{got:?}") };
        assert!(bytes == expected);
    }

    #[test]
    fn a_payload_without_end_of_file_is_late_at_the_deadline() {
        let (reader, mut writer) = io::pipe().unwrap();
        writer.write_all(b"{\"half\":").unwrap();
        let start = Instant::now();
        let got = read_until(reader.as_fd(), start + Duration::from_millis(300), None);
        assert!(matches!(got, PayloadRead::Late { got: 8 }), "{got:?}");
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(300) && took < Duration::from_secs(2), "{took:?}");
        drop(writer);
    }

    #[test]
    fn a_readable_stop_descriptor_ends_the_read() {
        let (reader, _writer) = io::pipe().unwrap();
        let (stop, mut poke) = io::pipe().unwrap();
        poke.write_all(b"!").unwrap();
        let got = read_until(reader.as_fd(), Instant::now() + Duration::from_secs(10), Some(stop.as_fd()));
        assert!(matches!(got, PayloadRead::Stopped), "{got:?}");
    }

    #[test]
    fn a_payload_over_the_cap_is_too_big() {
        let (reader, mut writer) = io::pipe().unwrap();
        let t = std::thread::spawn(move || {
            let chunk = vec![b'x'; 1 << 20];
            while writer.write_all(&chunk).is_ok() {}
        });
        let got = read_until(reader.as_fd(), Instant::now() + Duration::from_secs(60), None);
        assert!(matches!(got, PayloadRead::TooBig), "{got:?}");
        drop(reader);
        t.join().unwrap();
    }

    #[test]
    fn a_deadline_already_past_is_late_without_reading() {
        let (reader, writer) = io::pipe().unwrap();
        drop(writer);
        let got = read_until(reader.as_fd(), Instant::now(), None);
        assert!(matches!(got, PayloadRead::Late { got: 0 }), "{got:?}");
    }
}
