//! Keeping the cache bounded: a [`CacheLimit`] (a number of versions or a
//! size) and the choice of what to remove to meet it. The agent's pinned
//! versions ([`Cache::pinned`]) and the ones a caller is using are never
//! removed; the rest go least recently used first.

use std::time::SystemTime;

use super::cache::Cache;

/// How much the cache may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheLimit {
    /// At most this many installed versions.
    Versions(usize),
    /// At most this many bytes of installs.
    Bytes(u64),
}

/// Why a limit did not parse; carries the text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a cache limit: expected a number of versions (e.g. 4) or a size with a unit (e.g. 3G, 500M, 2GiB)"
)]
pub struct CacheLimitError(pub String);

impl std::str::FromStr for CacheLimit {
    type Err = CacheLimitError;

    fn from_str(text: &str) -> Result<CacheLimit, CacheLimitError> {
        let err = || CacheLimitError(text.to_string());
        let t = text.trim();
        if let Ok(n) = t.parse::<usize>() {
            return Ok(CacheLimit::Versions(n));
        }
        let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).ok_or_else(err)?;
        let (number, unit) = t.split_at(split);
        let number: f64 = number.parse().map_err(|_| err())?;
        let scale: f64 = match unit.trim().to_ascii_uppercase().as_str() {
            "B" => 1.0,
            "K" | "KB" | "KIB" => 1024.0,
            "M" | "MB" | "MIB" => 1024.0 * 1024.0,
            "G" | "GB" | "GIB" => 1024.0 * 1024.0 * 1024.0,
            "T" | "TB" | "TIB" => 1024.0_f64.powi(4),
            _ => return Err(err()),
        };
        if !number.is_finite() || number < 0.0 {
            return Err(err());
        }
        Ok(CacheLimit::Bytes((number * scale) as u64))
    }
}

/// One installed version as pruning sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Installed {
    /// The version.
    pub version: String,
    /// Bytes on disk.
    pub bytes: u64,
    /// When failopen last used it (`None`: unknown, treated as oldest).
    pub last_used: Option<SystemTime>,
}

/// What to remove from `installed` so that it fits `limit`: least recently
/// used first, never one in `pinned` nor one in `keep`. When the pinned
/// and kept versions alone exceed the limit, everything else goes and the
/// cache stays above it.
pub fn plan(installed: &[Installed], limit: CacheLimit, pinned: &[&str], keep: &[String]) -> Vec<String> {
    let protected = |v: &str| pinned.contains(&v) || keep.iter().any(|k| k == v);
    let mut removable: Vec<&Installed> = installed.iter().filter(|i| !protected(&i.version)).collect();
    removable.sort_by_key(|i| i.last_used);
    let (mut count, mut bytes) = (installed.len(), installed.iter().map(|i| i.bytes).sum::<u64>());
    let over = |count: usize, bytes: u64| match limit {
        CacheLimit::Versions(n) => count > n,
        CacheLimit::Bytes(b) => bytes > b,
    };
    let mut out = Vec::new();
    for i in removable {
        if !over(count, bytes) {
            break;
        }
        out.push(i.version.clone());
        count -= 1;
        bytes -= i.bytes;
    }
    out
}

/// The cache's installed versions with their sizes and last use.
pub fn inventory(cache: &Cache) -> Vec<Installed> {
    cache
        .installed()
        .into_iter()
        .map(|version| Installed { bytes: cache.size(&version), last_used: cache.last_used(&version), version })
        .collect()
}

/// Remove what [`plan`] chooses; returns the versions removed and their bytes.
pub fn enforce(cache: &Cache, limit: CacheLimit, keep: &[String]) -> std::io::Result<Vec<(String, u64)>> {
    let installed = inventory(cache);
    let mut removed = Vec::new();
    for version in plan(&installed, limit, &cache.pinned(), keep) {
        let bytes = installed.iter().find(|i| i.version == version).map_or(0, |i| i.bytes);
        cache.remove(&version)?;
        removed.push((version, bytes));
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use super::*;

    const LAST_USED_FOR_TESTS: &str = ".failopen-last-used";

    fn inst(version: &str, bytes: u64, at: u64) -> Installed {
        Installed { version: version.into(), bytes, last_used: Some(UNIX_EPOCH + Duration::from_secs(at)) }
    }

    #[test]
    fn limits_read_as_counts_or_sizes() {
        assert_eq!("4".parse(), Ok(CacheLimit::Versions(4)));
        assert_eq!("3G".parse(), Ok(CacheLimit::Bytes(3 << 30)));
        assert_eq!("500 MiB".parse(), Ok(CacheLimit::Bytes(500 << 20)));
        assert_eq!("1.5g".parse(), Ok(CacheLimit::Bytes(3 << 29)));
        for bad in ["", "G", "3X", "-1G", "four"] {
            assert!(bad.parse::<CacheLimit>().is_err(), "{bad:?}");
        }
    }

    /// Claude Code's pinned versions.
    const PINNED: &[&str] = &crate::install::PINNED_VERSIONS;

    #[test]
    fn the_least_recently_used_go_first_and_pinned_or_kept_versions_never() {
        let installed = [
            inst("2.1.300", 10, 1), // oldest use
            inst(super::super::ARTICLE_VERSION, 10, 0),
            inst("2.1.301", 10, 3),
            inst("2.1.302", 10, 2),
            inst("2.1.303", 10, 4),
        ];
        assert_eq!(plan(&installed, CacheLimit::Versions(3), PINNED, &[]), ["2.1.300", "2.1.302"]);
        assert_eq!(plan(&installed, CacheLimit::Versions(3), PINNED, &["2.1.300".into()]), ["2.1.302", "2.1.301"]);
        assert_eq!(plan(&installed, CacheLimit::Bytes(35), PINNED, &[]), ["2.1.300", "2.1.302"]);
        assert!(plan(&installed, CacheLimit::Versions(5), PINNED, &[]).is_empty());
        // Pinned alone over the limit: everything else goes, the pinned stays.
        assert_eq!(plan(&installed, CacheLimit::Versions(0), PINNED, &[]).len(), 4);
    }

    #[test]
    fn enforce_removes_directories_and_leaves_no_trash() {
        let root = tempfile::tempdir().unwrap();
        let cache = Cache::at(root.path());
        for v in ["2.1.1", "2.1.2", "2.1.3"] {
            let bin = cache.binary(v);
            std::fs::create_dir_all(bin.parent().unwrap()).unwrap();
            std::fs::write(&bin, vec![0u8; 100]).unwrap();
        }
        for (v, at) in [("2.1.1", 1), ("2.1.2", 2), ("2.1.3", 3)] {
            cache.touch(v);
            let marker = std::fs::File::options().write(true).open(cache.version_dir(v).join(LAST_USED_FOR_TESTS));
            marker.unwrap().set_modified(UNIX_EPOCH + Duration::from_secs(1000 + at)).unwrap();
        }
        // 2.1.1 is the least recently used, but kept: 2.1.2 goes.
        let removed = enforce(&cache, CacheLimit::Versions(2), &["2.1.1".into()]).unwrap();
        assert_eq!(removed, [("2.1.2".to_string(), 100)]);
        assert_eq!(cache.installed(), ["2.1.1", "2.1.3"]);
        let names: Vec<String> = std::fs::read_dir(cache.versions_dir())
            .unwrap()
            .flatten()
            .map(|e| e.file_name().into_string().unwrap())
            .collect();
        assert_eq!(names.len(), 2, "no trash left: {names:?}");
    }
}
