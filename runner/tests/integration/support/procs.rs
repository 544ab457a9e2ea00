//! The `/proc` scan: live processes by what their environment holds.

use std::path::Path;

/// Live (not zombie) processes whose environment contains `needle`, as
/// (pid, command line).
pub fn with_env(needle: &str) -> Vec<(u32, String)> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else { continue };
        if pid == std::process::id() {
            continue;
        }
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else { continue };
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let zombie = stat.rsplit_once(')').is_some_and(|(_, r)| r.trim_start().starts_with('Z'));
        if !zombie && env.windows(needle.len()).any(|w| w == needle.as_bytes()) {
            let cmd = std::fs::read_to_string(format!("/proc/{pid}/cmdline")).unwrap_or_default().replace('\0', " ");
            found.push((pid, cmd));
        }
    }
    found
}

/// Live processes whose environment mentions `path` (e.g. a session's temp dir).
pub fn mentioning(path: &Path) -> Vec<(u32, String)> {
    with_env(&path.to_string_lossy())
}

/// Live processes tagged as sessions of the failopen process `pid`
/// (`FAILOPEN_SESSION_TAG=<pid>-...`).
pub fn sessions_of(pid: u32) -> Vec<(u32, String)> {
    with_env(&format!("{}={pid}-", failopen::reap::TAG_VAR))
}
