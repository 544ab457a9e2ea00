//! The process scan on macOS, which has no `/proc`: every process's
//! environment through `sysctl(KERN_PROCARGS2)`, read by `sysinfo`. As on
//! Linux, that is the environment the process was started with, readable for
//! the same user's processes (root: all); zombies are skipped.

use std::os::unix::ffi::OsStrExt;

use sysinfo::{ProcessRefreshKind, ProcessStatus, ProcessesToUpdate, System, UpdateKind};

/// The pids of live processes (not zombies, not this one) whose environment
/// has a `NAME=value` entry that `matches`; unreadable ones are skipped.
pub(super) fn pids_where(matches: impl Fn(&[u8]) -> bool) -> Vec<u32> {
    let me = std::process::id();
    let Ok(mut system) = System::new() else { return Vec::new() };
    let what = ProcessRefreshKind::nothing().with_environ(UpdateKind::Always).without_tasks();
    system.refresh_processes_specifics(ProcessesToUpdate::All, true, what);
    let mut pids: Vec<u32> = system
        .processes()
        .values()
        .filter(|p| p.pid().as_u32() != me && p.status() != ProcessStatus::Zombie)
        .filter(|p| p.environ().iter().any(|var| matches(var.as_bytes())))
        .map(|p| p.pid().as_u32())
        .collect();
    pids.sort_unstable();
    pids
}
