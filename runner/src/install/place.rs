//! What every registry's installer shares: putting a finished install in
//! place, and the tail of a failed command's output for its error.

use super::{cache::Cache, InstallError};

/// Rename a finished install in `staging` to `version`'s directory; when
/// another install got there first, ours is dropped with `staging`.
pub(super) fn move_into_place(cache: &Cache, version: &str, staging: tempfile::TempDir) -> Result<(), InstallError> {
    let target = cache.version_dir(version);
    if target.exists() {
        return Ok(());
    }
    let staged = staging.keep();
    if let Err(e) = std::fs::rename(&staged, &target) {
        let _ = std::fs::remove_dir_all(&staged);
        if !target.exists() {
            return Err(InstallError::Io { path: target.display().to_string(), source: e });
        }
    }
    Ok(())
}

/// The last `max` bytes of `s`, trimmed, cut on a character boundary.
pub(super) fn tail(s: &str, max: usize) -> String {
    let s = s.trim();
    if s.len() <= max {
        return s.to_string();
    }
    let mut start = s.len() - max;
    while !s.is_char_boundary(start) {
        start += 1;
    }
    format!("...{}", &s[start..])
}
