//! The guard's group dies with seal, even when seal is SIGKILLed.
//!
//! SIGKILL cannot be caught, and `PR_SET_PDEATHSIG` (Linux only) reaches
//! only the guard itself, not the children it started: `sh -c 'sleep 40'`
//! lost `sh` and kept `sleep`. So before it starts the guard, seal forks a
//! watchdog: a process of its own, in a process group of its own (a kill of
//! seal's group does not reach it), holding nothing but the read end of a
//! pipe whose only writer is seal. Seal tells it the guard's group id once
//! the guard runs ([`Watchdog::watch`]), and that it is done before it reaps
//! the guard ([`Watchdog::release`], so the id cannot have been reused). If
//! the pipe reaches end of file before "done", seal died: the watchdog kills
//! the group and exits. Either way it exits as soon as seal's end closes,
//! and seal reaps it when it lets go.
//!
//! Messages on the pipe: `G<pgid>\n` (watch this group), `D` (done).
//!
//! What it cannot cover: a SIGKILL in the microseconds between the guard's
//! start and the `G` message (the guard itself still dies by
//! `PR_SET_PDEATHSIG` on Linux), and a SIGKILL to the watchdog itself.

use std::io::{self, Write};
use std::os::fd::{AsRawFd, OwnedFd};

use nix::libc;
use nix::sys::wait::waitpid;
use nix::unistd::{fork, ForkResult, Pid};

/// Seal's end of the watchdog.
#[derive(Debug)]
pub struct Watchdog {
    pid: Pid,
    writer: Option<io::PipeWriter>,
}

impl Watchdog {
    /// Fork the watchdog. Call it while seal has no other thread (the child
    /// runs only async-signal-safe calls either way).
    pub fn start() -> io::Result<Watchdog> {
        let (reader, writer) = io::pipe()?;
        let reader: OwnedFd = reader.into();
        // SAFETY: the child runs only async-signal-safe calls (setpgid,
        // sigaction via signal(), close, read, kill, _exit) and never
        // returns into Rust code of the parent's.
        match unsafe { fork() }.map_err(io::Error::from)? {
            ForkResult::Child => watch_from_child(reader.as_raw_fd()),
            ForkResult::Parent { child } => {
                drop(reader);
                super::signals::set_watchdog(Some(child.as_raw()));
                Ok(Watchdog { pid: child, writer: Some(writer) })
            }
        }
    }

    /// The guard runs: kill its group `pgid` if seal dies from now on.
    pub fn watch(&mut self, pgid: Pid) {
        if let Some(w) = self.writer.as_mut() {
            let _ = w.write_all(format!("G{}\n", pgid.as_raw()).as_bytes());
        }
    }

    /// Seal has killed the group itself (or the guard never started): the
    /// watchdog exits without killing anything, and is reaped.
    pub fn release(&mut self) {
        if let Some(mut w) = self.writer.take() {
            let _ = w.write_all(b"D");
            drop(w);
            while let Err(nix::errno::Errno::EINTR) = waitpid(self.pid, None) {}
            super::signals::set_watchdog(None);
        }
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.release();
    }
}

/// Close every descriptor but `keep` (async-signal-safe): close_range(2)
/// where the kernel has it, else one close(2) per possible descriptor.
unsafe fn close_all_but(keep: i32) {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        let below = if keep > 0 { libc::syscall(libc::SYS_close_range, 0u32, (keep - 1) as u32, 0) } else { 0 };
        let above = libc::syscall(libc::SYS_close_range, (keep + 1) as u32, u32::MAX, 0);
        if below == 0 && above == 0 {
            return;
        }
    }
    for fd in 0..4096 {
        if fd != keep {
            libc::close(fd);
        }
    }
}

/// The watchdog's whole life, in the forked child.
fn watch_from_child(ctl: i32) -> ! {
    // SAFETY (whole function): only async-signal-safe libc calls on plain
    // integers and a stack buffer.
    unsafe {
        libc::setpgid(0, 0);
        // `pkill failopen` (by name) leaves it alone; `pkill -f` matches its
        // command line, which is seal's, and kills both.
        #[cfg(any(target_os = "linux", target_os = "android"))]
        libc::prctl(libc::PR_SET_NAME, c"seal-watchdog".as_ptr());
        for signal in 1..32 {
            if signal != libc::SIGKILL && signal != libc::SIGSTOP && signal != libc::SIGCHLD {
                libc::signal(signal, libc::SIG_IGN);
            }
        }
        // Hold nothing of seal's: not its stdout or stderr (an agent may wait
        // for their end of file), not the payload, not the signal pipe.
        close_all_but(ctl);
        let mut group: libc::pid_t = 0;
        let mut buf = [0u8; 64];
        let mut number: libc::pid_t = 0;
        let mut reading_number = false;
        loop {
            let n = libc::read(ctl, buf.as_mut_ptr().cast(), buf.len());
            if n < 0 && nix::errno::Errno::last() == nix::errno::Errno::EINTR {
                continue;
            }
            if n <= 0 {
                break; // seal is gone (or closed without "done")
            }
            for &b in &buf[..n as usize] {
                match b {
                    b'G' => {
                        reading_number = true;
                        number = 0;
                    }
                    b'0'..=b'9' if reading_number => {
                        number = number.saturating_mul(10).saturating_add((b - b'0') as i32)
                    }
                    b'\n' if reading_number => {
                        reading_number = false;
                        group = number;
                    }
                    b'D' => libc::_exit(0),
                    _ => {}
                }
            }
        }
        if group > 1 {
            libc::kill(-group, libc::SIGKILL);
        }
        libc::_exit(0)
    }
}
