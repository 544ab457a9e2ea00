//! Leftover processes: kill a session's process group, and find (and kill)
//! any process that still carries the session's environment tag, even one
//! that left the group (setsid, a daemonised guard child).
//!
//! Finding them means reading every process's environment: from `/proc` on
//! Linux ([`linux`]), through `sysctl(KERN_PROCARGS2)` on macOS ([`macos`]).
//! Both see the environment a process was started with, for processes of the
//! same user (root: all), and skip zombies. A process that unsets the tag and
//! re-executes itself is not found on either; its group, if it stayed in it,
//! is still killed.

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
use linux::pids_where;
#[cfg(target_os = "macos")]
mod macos;
#[cfg(target_os = "macos")]
use macos::pids_where;

use nix::sys::signal::{kill, killpg, Signal};
use nix::unistd::Pid;

/// The environment variable that tags every process of a session.
pub const TAG_VAR: &str = "FAILOPEN_SESSION_TAG";

/// SIGKILL a whole process group. Errors (already gone) are ignored.
pub fn kill_group(pgid: u32) {
    if pgid > 1 {
        let _ = killpg(Pid::from_raw(pgid as i32), Signal::SIGKILL);
    }
}

/// The pids of live processes whose environment has `TAG_VAR=<tag>`.
///
/// Processes whose environment cannot be read (other users) are skipped.
/// Zombies are not counted: they have exited and only await their parent.
pub fn tagged_pids(tag: &str) -> Vec<u32> {
    let needle = format!("{TAG_VAR}={tag}");
    pids_where(|var| var == needle.as_bytes())
}

/// The pids of live processes whose tag starts with `prefix` (every session
/// of one run: tags are `<runner pid>-<cell index>`).
pub fn tagged_pids_with_prefix(prefix: &str) -> Vec<u32> {
    let needle = format!("{TAG_VAR}={prefix}");
    pids_where(|var| var.starts_with(needle.as_bytes()))
}

/// Kill every process whose tag starts with `prefix`, repeating briefly
/// until none is left (a hard stop of a whole run). Returns how many were killed.
pub fn reap_prefix(prefix: &str) -> usize {
    kill_until_gone(|| tagged_pids_with_prefix(prefix))
}

/// SIGKILL whatever `find` returns until it returns nothing (at most ~0.5 s).
fn kill_until_gone(find: impl Fn() -> Vec<u32>) -> usize {
    let mut killed = 0;
    for _ in 0..50 {
        let pids = find();
        if pids.is_empty() {
            break;
        }
        for pid in pids {
            if kill(Pid::from_raw(pid as i32), Signal::SIGKILL).is_ok() {
                killed += 1;
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    killed
}

/// Kill every process tagged `tag` but the pids in `spare`, until none is
/// left; how many were killed (inside a sandbox: every tagged process but
/// the namespace's init, [`crate::sandbox::control`]).
pub fn reap_tagged_except(tag: &str, spare: &[u32]) -> usize {
    kill_until_gone(|| tagged_pids(tag).into_iter().filter(|p| !spare.contains(p)).collect())
}

/// Kill the group and every tagged process; repeat briefly until none is
/// left. Returns how many tagged processes had to be killed individually.
pub fn reap_session(pgid: Option<u32>, tag: &str) -> usize {
    if let Some(pgid) = pgid {
        kill_group(pgid);
    }
    kill_until_gone(|| tagged_pids(tag))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    #[test]
    fn finds_and_kills_a_tagged_process_that_left_the_group() {
        let tag = format!("reap-test-{}", std::process::id());
        // The sleeper leaves failopen's session and group: setsid(2) before it execs.
        let mut cmd = Command::new("sleep");
        cmd.arg("30").env(TAG_VAR, &tag);
        // SAFETY: setsid is async-signal-safe, the only call between fork and exec.
        unsafe { cmd.pre_exec(|| nix::unistd::setsid().map(|_| ()).map_err(std::io::Error::from)) };
        let mut child = cmd.spawn().unwrap();
        let sleeper = child.id();
        // A process caught mid-exec may not show its environment yet.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
        while !tagged_pids(&tag).contains(&sleeper) && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(tagged_pids(&tag).contains(&sleeper), "the tagged sleeper is visible");
        assert_ne!(
            nix::unistd::getpgid(Some(Pid::from_raw(sleeper as i32))).unwrap(),
            nix::unistd::getpgrp(),
            "it left our group"
        );
        let before = tagged_pids(&tag);
        let killed = reap_session(None, &tag);
        let _ = child.wait();
        assert!(killed >= 1, "killed {killed}; tagged before: {before:?}");
        let after = tagged_pids(&tag);
        assert!(after.is_empty(), "still tagged: {after:?}");
    }
}
