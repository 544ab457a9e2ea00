//! No process the guard started outlives seal (Linux).
//!
//! Killing the guard's process group reaches every process still in it, but
//! not one that left it: `setsid sleep 30 &` (a session of its own) or a
//! child that called `setpgid(0, 0)`. So in `failopen seal` seal first
//! makes itself a child subreaper (`PR_SET_CHILD_SUBREAPER`): an orphan
//! anywhere below it is reparented to seal rather than to init, and before
//! it answers seal kills every child it has left (and the group each leads)
//! and reaps them, until none is left. The watchdog is seal's child too,
//! but it has been reaped by then ([`crate::watchdog::Watchdog::release`]).
//!
//! Not on macOS (or another Unix): there is no subreaper, and an escapee is
//! reparented to launchd; seal still kills the guard's group.
//!
//! Only the `failopen seal` process does this ([`crate::run_from_stdio`]):
//! in a library caller (a test harness running [`crate::seal`] on threads)
//! the children are not seal's to kill.

use std::io;
use std::time::{Duration, Instant};

use nix::libc;

/// Make this process a child subreaper. Linux only; elsewhere `Ok(false)`.
pub fn become_subreaper() -> io::Result<bool> {
    #[cfg(any(target_os = "linux", target_os = "android"))]
    {
        // SAFETY: prctl with integer arguments changes only this process's flag.
        let r = unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1 as libc::c_ulong, 0, 0, 0) };
        if r != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(true)
    }
    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    {
        Ok(false)
    }
}

/// Kill and reap every child this process has (and every process group one
/// of them leads), until none is left or `budget` has passed. Returns how
/// many it killed.
pub fn kill_all(budget: Duration) -> usize {
    let until = Instant::now() + budget;
    let mut killed = 0;
    loop {
        if !reap() {
            return killed; // ECHILD: no child at all, living or not
        }
        let kids = children();
        if kids.is_empty() || Instant::now() >= until {
            return killed;
        }
        for pid in kids {
            // SAFETY: plain syscalls on a pid that is this process's
            // unreaped child, so it cannot have been reused.
            unsafe {
                if libc::getpgid(pid) == pid {
                    libc::kill(-pid, libc::SIGKILL);
                }
                libc::kill(pid, libc::SIGKILL);
            }
            killed += 1;
        }
        // Give the kernel a moment to end them (their own orphans are reparented to seal).
        std::thread::sleep(Duration::from_millis(1));
    }
}

/// Reap every child that has exited; whether any child is left.
fn reap() -> bool {
    loop {
        let mut status = 0;
        // SAFETY: waitpid with WNOHANG on any child.
        let r = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
        if r == 0 {
            return true; // children left, none exited
        }
        if r < 0 {
            return std::io::Error::last_os_error().raw_os_error() != Some(libc::ECHILD);
        }
    }
}

/// This process's children, from `/proc/self/task/*/children` (or, without
/// that file, a scan of every `/proc/PID/stat` for this parent).
fn children() -> Vec<i32> {
    let mut kids = Vec::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return kids;
    };
    let mut had_file = false;
    for task in tasks.flatten() {
        if let Ok(list) = std::fs::read_to_string(task.path().join("children")) {
            had_file = true;
            kids.extend(list.split_whitespace().filter_map(|p| p.parse::<i32>().ok()));
        }
    }
    if had_file {
        return kids;
    }
    let me = std::process::id() as i32;
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return kids;
    };
    for entry in procs.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<i32>().ok()) else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // pid (comm) state ppid ...: the comm may hold spaces and parentheses.
        let ppid = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1)?.parse::<i32>().ok());
        if ppid == Some(me) {
            kids.push(pid);
        }
    }
    kids
}
