//! failopen's cache of agent installs: `$FAILOPEN_CACHE` (default
//! `~/.cache/failopen`), one directory per version under the agent's own
//! (`claude-code/`, `codex/`, `gemini/`).

use std::collections::HashSet;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::agent::Agent;
use crate::version::{self, Version};

/// The cache root.
#[derive(Debug, Clone)]
pub struct Cache {
    root: PathBuf,
    agent: Agent,
}

impl Cache {
    /// The cache named by `FAILOPEN_CACHE`, else `$HOME/.cache/failopen`.
    pub fn from_env() -> Cache {
        let root = std::env::var_os("FAILOPEN_CACHE")
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache/failopen")))
            .unwrap_or_else(|| PathBuf::from(".failopen-cache"));
        Cache { root, agent: Agent::default() }
    }

    /// A cache at an explicit root.
    pub fn at(root: &Path) -> Cache {
        Cache { root: root.to_path_buf(), agent: Agent::default() }
    }

    /// The cache's root directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The same cache root, for `agent`'s installs.
    pub fn for_agent(&self, agent: Agent) -> Cache {
        Cache { root: self.root.clone(), agent }
    }

    /// Whose installs this cache holds.
    pub fn agent(&self) -> Agent {
        self.agent
    }

    /// The agent's pinned and older reference versions, which pruning and a
    /// history's cache bound never remove (Claude Code's 2.1.328 and 2.1.240).
    pub fn pinned(&self) -> [&'static str; 2] {
        let driver = self.agent.driver();
        [driver.pinned_version(), driver.older_version()]
    }

    /// Where the agent's versions live (Claude Code's: `claude-code/`).
    pub fn versions_dir(&self) -> PathBuf {
        self.root.join(self.agent.as_str())
    }

    /// The install directory of one version.
    pub fn version_dir(&self, version: &str) -> PathBuf {
        self.versions_dir().join(version)
    }

    /// The binary of one installed version.
    pub fn binary(&self, version: &str) -> PathBuf {
        self.agent.driver().installed_binary(&self.version_dir(version))
    }

    /// Record that `version` was just used (its marker file's mtime is the
    /// time); [`Cache::last_used`] reads it, and pruning drops the least
    /// recently used first. Best effort: a read-only cache still runs.
    pub fn touch(&self, version: &str) {
        let _ = std::fs::write(self.version_dir(version).join(LAST_USED), b"");
    }

    /// When `version` was last run or installed by failopen: its marker's
    /// mtime, else the install directory's.
    pub fn last_used(&self, version: &str) -> Option<SystemTime> {
        let dir = self.version_dir(version);
        std::fs::metadata(dir.join(LAST_USED)).or_else(|_| std::fs::metadata(&dir)).and_then(|m| m.modified()).ok()
    }

    /// Bytes on disk under `version`'s install directory (files and
    /// symlinks themselves; links are not followed).
    pub fn size(&self, version: &str) -> u64 {
        tree_bytes(&self.version_dir(version))
    }

    /// Bytes on disk under the whole Claude Code cache, installs in
    /// progress included.
    pub fn total_bytes(&self) -> u64 {
        tree_bytes(&self.versions_dir())
    }

    /// Remove an installed version. The directory is first renamed out of
    /// its version's name, so no one sees a half-removed install.
    pub fn remove(&self, version: &str) -> std::io::Result<()> {
        let dir = self.version_dir(version);
        let trash = self.versions_dir().join(format!(".{version}.removing-{}", std::process::id()));
        std::fs::rename(&dir, &trash)?;
        std::fs::remove_dir_all(&trash)
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

/// The marker file in a version's directory whose mtime says when failopen last used it.
const LAST_USED: &str = ".failopen-last-used";

/// Bytes under `path`, each file counted once however many hard links it
/// has (an install hard-links its native binary into two places).
fn tree_bytes(path: &Path) -> u64 {
    fn walk(path: &Path, seen: &mut HashSet<(u64, u64)>) -> u64 {
        let Ok(meta) = std::fs::symlink_metadata(path) else { return 0 };
        if !meta.is_dir() {
            return if meta.nlink() > 1 && !seen.insert((meta.dev(), meta.ino())) { 0 } else { meta.len() };
        }
        let Ok(entries) = std::fs::read_dir(path) else { return 0 };
        entries.flatten().map(|e| walk(&e.path(), seen)).sum()
    }
    walk(path, &mut HashSet::new())
}
