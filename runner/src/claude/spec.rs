//! `--claude SPEC`: a version, `latest`, or a path; resolved to a binary.

use std::path::{Path, PathBuf};

use super::{cache::Cache, install, ClaudeBin, ClaudeError};
use crate::version::Version;

/// What the user asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaudeSpec {
    /// A published version, e.g. `2.1.240` (it parses as a [`Version`]).
    Version(String),
    /// The registry's `latest` tag.
    Latest,
    /// A binary on disk.
    Path(PathBuf),
}

impl ClaudeSpec {
    /// Parse one spec: `latest`, a path (it holds a `/` or exists), or a
    /// [`Version`]; anything else is [`ClaudeError::BadSpec`].
    pub fn parse(s: &str) -> Result<ClaudeSpec, ClaudeError> {
        let s = s.trim();
        if s == "latest" {
            Ok(ClaudeSpec::Latest)
        } else if s.contains('/') || Path::new(s).exists() {
            Ok(ClaudeSpec::Path(PathBuf::from(s)))
        } else if s.parse::<Version>().is_ok() {
            Ok(ClaudeSpec::Version(s.to_string()))
        } else {
            Err(ClaudeError::BadSpec(s.to_string()))
        }
    }

    /// Parse a comma-separated list of specs.
    pub fn parse_list(s: &str) -> Result<Vec<ClaudeSpec>, ClaudeError> {
        s.split(',').filter(|p| !p.trim().is_empty()).map(ClaudeSpec::parse).collect()
    }
}

/// Resolve a spec to a runnable binary, installing into the cache if needed.
pub async fn resolve(spec: &ClaudeSpec, cache: &Cache) -> Result<ClaudeBin, ClaudeError> {
    match spec {
        ClaudeSpec::Path(p) => {
            let path = std::fs::canonicalize(p)
                .map_err(|e| ClaudeError::NotRunnable { path: p.display().to_string(), message: e.to_string() })?;
            let version = install::read_version(&path).await?;
            Ok(ClaudeBin { path, version })
        }
        ClaudeSpec::Version(v) => install::ensure(cache, v).await,
        ClaudeSpec::Latest => {
            let v = install::latest_version().await?;
            install::ensure(cache, &v).await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_versions_latest_and_paths() {
        assert_eq!(ClaudeSpec::parse("2.1.240").unwrap(), ClaudeSpec::Version("2.1.240".into()));
        assert_eq!(ClaudeSpec::parse("latest").unwrap(), ClaudeSpec::Latest);
        assert_eq!(ClaudeSpec::parse("./bin/claude").unwrap(), ClaudeSpec::Path("./bin/claude".into()));
        assert!(matches!(ClaudeSpec::parse("2.1"), Err(ClaudeError::BadSpec(_))));
        assert!(matches!(ClaudeSpec::parse("newest"), Err(ClaudeError::BadSpec(_))));
        assert_eq!(ClaudeSpec::parse_list("2.1.240, latest").unwrap().len(), 2);
    }
}
