//! The process scan on Linux: `/proc/<pid>/environ` of every process.

use std::fs;

/// The pids of live processes (not zombies, not this one) whose environment
/// has a `NAME=value` entry that `matches`; unreadable ones are skipped.
pub(super) fn pids_where(matches: impl Fn(&[u8]) -> bool) -> Vec<u32> {
    let me = std::process::id();
    let Ok(entries) = fs::read_dir("/proc") else { return Vec::new() };
    let mut pids = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        if pid == me || is_zombie(pid) {
            continue;
        }
        let Ok(environ) = fs::read(format!("/proc/{pid}/environ")) else { continue };
        if environ.split(|&b| b == 0).any(&matches) {
            pids.push(pid);
        }
    }
    pids
}

fn is_zombie(pid: u32) -> bool {
    fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.rsplit_once(')').map(|(_, rest)| rest.trim_start().starts_with('Z')))
        .unwrap_or(false)
}
