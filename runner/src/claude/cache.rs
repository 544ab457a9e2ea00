//! failopen's cache of Claude Code installs: `$FAILOPEN_CACHE` (default
//! `~/.cache/failopen`), one directory per version under `claude-code/`.

use std::path::{Path, PathBuf};

use crate::version::{self, Version};

/// The cache root.
#[derive(Debug, Clone)]
pub struct Cache {
    root: PathBuf,
}

impl Cache {
    /// The cache named by `FAILOPEN_CACHE`, else `$HOME/.cache/failopen`.
    pub fn from_env() -> Cache {
        let root = std::env::var_os("FAILOPEN_CACHE")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/failopen")))
            .unwrap_or_else(|| PathBuf::from(".failopen-cache"));
        Cache { root }
    }

    /// A cache at an explicit root.
    pub fn at(root: &Path) -> Cache {
        Cache { root: root.to_path_buf() }
    }

    /// Where Claude Code versions live.
    pub fn versions_dir(&self) -> PathBuf {
        self.root.join("claude-code")
    }

    /// The install directory of one version.
    pub fn version_dir(&self, version: &str) -> PathBuf {
        self.versions_dir().join(version)
    }

    /// The binary of one installed version.
    pub fn binary(&self, version: &str) -> PathBuf {
        self.version_dir(version).join("node_modules/.bin/claude")
    }

    /// Installed versions (directories named as a [`Version`] that hold a
    /// binary), oldest first by [`Version`]'s order.
    pub fn installed(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(self.versions_dir()) else { return Vec::new() };
        let mut versions: Vec<String> = entries
            .flatten()
            .filter_map(|e| e.file_name().to_str().map(String::from))
            .filter(|name| name.parse::<Version>().is_ok() && self.binary(name).exists())
            .collect();
        versions.sort_by(|a, b| version::compare(a, b));
        versions
    }
}
