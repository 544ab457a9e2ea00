//! The process scan: live processes by what their environment holds, read
//! independently of failopen's own scan (`failopen::reap`): `/proc` on Linux,
//! `ps -E` on macOS.

use std::path::Path;

/// Live (not zombie) processes whose environment contains `needle`, as
/// (pid, command line).
#[cfg(target_os = "linux")]
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

/// Live (not zombie) processes whose command line or environment contains
/// `needle`, as (pid, command line and environment): `ps -E` prints the
/// environment after the command line (for the same user's processes; root: all).
#[cfg(target_os = "macos")]
pub fn with_env(needle: &str) -> Vec<(u32, String)> {
    let out = std::process::Command::new("ps").args(["-axEww", "-o", "pid=,stat=,command="]).output().unwrap();
    assert!(out.status.success(), "ps: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            let mut fields = line.trim_start().splitn(3, char::is_whitespace);
            let pid: u32 = fields.next()?.parse().ok()?;
            let (stat, rest) = (fields.next()?, fields.next().unwrap_or_default().trim_start());
            (pid != std::process::id() && !stat.starts_with('Z') && rest.contains(needle))
                .then(|| (pid, rest.to_string()))
        })
        .collect()
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
