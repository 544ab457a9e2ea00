//! Waiting for the guard's exit without reaping it (`waitid` with
//! `WNOWAIT`), on Linux and macOS alike: while the guard is an unreaped
//! zombie its pid, hence its process group id, cannot be reused, so seal may
//! still kill the group. (nix offers `waitid` on Linux only.)

use std::io;

use nix::libc;
use nix::unistd::Pid;

/// How a child ended, peeked at without reaping.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Peek {
    /// Not exited yet.
    Running,
    /// Exited normally with this status.
    Exited(i32),
    /// Ended some other way (a signal).
    Other,
}

/// `waitid(P_PID, pid, WEXITED | WNOWAIT [| WNOHANG])`, retried on EINTR.
fn waitid(pid: Pid, hang: bool) -> io::Result<Peek> {
    let mut flags = libc::WEXITED | libc::WNOWAIT;
    if !hang {
        flags |= libc::WNOHANG;
    }
    loop {
        // SAFETY: a zeroed siginfo_t is a valid out-parameter for waitid(2).
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        // SAFETY: `info` is a valid, exclusively borrowed siginfo_t.
        let r = unsafe { libc::waitid(libc::P_PID, pid.as_raw() as libc::id_t, &mut info, flags) };
        if r == -1 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        let (code, child, status) = fields(&info);
        return Ok(match code {
            _ if child == 0 => Peek::Running,
            libc::CLD_EXITED => Peek::Exited(status),
            _ => Peek::Other,
        });
    }
}

#[cfg(any(target_os = "linux", target_os = "android"))]
fn fields(info: &libc::siginfo_t) -> (i32, libc::pid_t, i32) {
    // SAFETY: waitid filled a SIGCHLD siginfo, whose pid and status are set.
    unsafe { (info.si_code, info.si_pid(), info.si_status()) }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn fields(info: &libc::siginfo_t) -> (i32, libc::pid_t, i32) {
    (info.si_code, info.si_pid, info.si_status)
}

/// Block until `pid` has exited (it stays a zombie).
pub fn until_exited(pid: Pid) -> io::Result<()> {
    waitid(pid, true).map(|_| ())
}

/// Whether the exited, unreaped `pid` exited with status 0 (anything seal
/// cannot tell is "no").
pub fn exited_zero(pid: Pid) -> bool {
    matches!(waitid(pid, false), Ok(Peek::Exited(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peeks_without_reaping() {
        let mut child = std::process::Command::new("/bin/sh").args(["-c", "exit 0"]).spawn().unwrap();
        let pid = Pid::from_raw(child.id() as i32);
        until_exited(pid).unwrap();
        assert!(exited_zero(pid));
        assert!(exited_zero(pid), "still there: not reaped");
        assert_eq!(child.wait().unwrap().code(), Some(0));
        let mut child = std::process::Command::new("/bin/sh").args(["-c", "exit 3"]).spawn().unwrap();
        let pid = Pid::from_raw(child.id() as i32);
        until_exited(pid).unwrap();
        assert!(!exited_zero(pid));
        child.wait().unwrap();
    }
}
