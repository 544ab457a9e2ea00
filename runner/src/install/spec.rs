//! `--claude SPEC`: a version, `latest`, a range, or a path; ranges are
//! expanded to versions ([`expand`]), each version resolved to a binary
//! ([`resolve`]).

use std::path::{Path, PathBuf};

use super::range::VersionRange;
use super::{cache::Cache, npm, AgentBin, InstallError};
use crate::agent::Agent;
use crate::version::Version;

/// What the user asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VersionSpec {
    /// A published version, e.g. `2.1.240` (it parses as a [`Version`]).
    Version(String),
    /// The registry's `latest` tag.
    Latest,
    /// A binary on disk.
    Path(PathBuf),
    /// Every published version from one to another ([`expand`] lists them).
    Range(VersionRange),
}

impl VersionSpec {
    /// Parse one spec: `latest`, a path (it holds a `/` or exists), a range
    /// (`FROM..TO`), or a [`Version`]; anything else is
    /// [`InstallError::BadSpec`] (or [`InstallError::Range`] for a malformed range).
    pub fn parse(s: &str) -> Result<VersionSpec, InstallError> {
        let s = s.trim();
        if s == "latest" {
            Ok(VersionSpec::Latest)
        } else if s.contains('/') || Path::new(s).exists() {
            Ok(VersionSpec::Path(PathBuf::from(s)))
        } else if let Some(range) = VersionRange::parse(s) {
            Ok(VersionSpec::Range(range?))
        } else if s.parse::<Version>().is_ok() {
            Ok(VersionSpec::Version(s.to_string()))
        } else {
            Err(InstallError::BadSpec(s.to_string()))
        }
    }

    /// Parse a comma-separated list of specs.
    pub fn parse_list(s: &str) -> Result<Vec<VersionSpec>, InstallError> {
        s.split(',').filter(|p| !p.trim().is_empty()).map(VersionSpec::parse).collect()
    }
}

/// Replace every range by the published versions it holds (oldest first)
/// and drop repeated versions, keeping the first place each appears. The
/// registry is asked only when there is a range to expand.
pub async fn expand(specs: &[VersionSpec], agent: Agent, include_pre: bool) -> Result<Vec<VersionSpec>, InstallError> {
    if !specs.iter().any(|s| matches!(s, VersionSpec::Range(_))) {
        return Ok(dedup(specs.to_vec()));
    }
    let published = npm::published_versions(agent).await?;
    let latest = npm::latest_version(agent).await?;
    expand_with(specs, &published, &latest, include_pre)
}

/// [`expand`] against a given registry listing (no network).
pub fn expand_with(
    specs: &[VersionSpec],
    published: &[String],
    latest: &str,
    include_pre: bool,
) -> Result<Vec<VersionSpec>, InstallError> {
    let mut out = Vec::new();
    for spec in specs {
        match spec {
            VersionSpec::Range(r) => {
                out.extend(r.resolve(published, latest, include_pre)?.into_iter().map(VersionSpec::Version))
            }
            other => out.push(other.clone()),
        }
    }
    Ok(dedup(out))
}

fn dedup(specs: Vec<VersionSpec>) -> Vec<VersionSpec> {
    let mut out: Vec<VersionSpec> = Vec::with_capacity(specs.len());
    for s in specs {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// Resolve a spec to a runnable binary of the cache's agent, installing
/// into the cache if needed.
pub async fn resolve(spec: &VersionSpec, cache: &Cache) -> Result<AgentBin, InstallError> {
    match spec {
        VersionSpec::Path(p) => {
            let not_runnable = |e: std::io::Error| InstallError::NotRunnable {
                agent: cache.agent().display_name(),
                path: p.display().to_string(),
                message: e.to_string(),
            };
            let path = std::fs::canonicalize(p).map_err(not_runnable)?;
            let driver = cache.agent().driver();
            // A venv's python is a link out of the venv: its SDK's version is
            // read beside the path as given, which stays the path that runs
            // (as `npm::ensure` does for a cached version; `failopen history`
            // runs each release through here).
            if driver.version_without_running(&path).is_none() {
                if let Some(version) = driver.version_without_running(p) {
                    let path = std::path::absolute(p).map_err(not_runnable)?;
                    return Ok(AgentBin { agent: cache.agent(), path, version });
                }
            }
            let version = npm::read_version(cache.agent(), &path).await?;
            Ok(AgentBin { agent: cache.agent(), path, version })
        }
        VersionSpec::Version(v) => npm::ensure(cache, v).await,
        VersionSpec::Latest => {
            let v = npm::latest_version(cache.agent()).await?;
            npm::ensure(cache, &v).await
        }
        VersionSpec::Range(r) => {
            Err(InstallError::BadSpec(format!("{r} (a range names several versions; expand it first)")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_versions_latest_and_paths() {
        assert_eq!(VersionSpec::parse("2.1.240").unwrap(), VersionSpec::Version("2.1.240".into()));
        assert_eq!(VersionSpec::parse("latest").unwrap(), VersionSpec::Latest);
        assert_eq!(VersionSpec::parse("./bin/claude").unwrap(), VersionSpec::Path("./bin/claude".into()));
        assert!(matches!(VersionSpec::parse("2.1"), Err(InstallError::BadSpec(_))));
        assert!(matches!(VersionSpec::parse("newest"), Err(InstallError::BadSpec(_))));
        assert_eq!(VersionSpec::parse_list("2.1.240, latest").unwrap().len(), 2);
        assert!(matches!(VersionSpec::parse("2.1.240..latest").unwrap(), VersionSpec::Range(_)));
        assert!(matches!(VersionSpec::parse("2.1.240..soon"), Err(InstallError::Range(_))));
        assert!(matches!(VersionSpec::parse("../bin/claude").unwrap(), VersionSpec::Path(_)), "a path, not a range");
    }

    #[test]
    fn lists_mix_ranges_and_versions_and_say_each_version_once() {
        let published: Vec<String> = ["2.1.1", "2.1.2", "2.1.3", "2.1.4"].map(String::from).to_vec();
        let specs = VersionSpec::parse_list("2.1.3,2.1.1..2.1.3,latest").unwrap();
        let expanded = expand_with(&specs, &published, "2.1.4", false).unwrap();
        let v = |s: &str| VersionSpec::Version(s.into());
        assert_eq!(expanded, vec![v("2.1.3"), v("2.1.1"), v("2.1.2"), VersionSpec::Latest]);
        assert!(expand_with(&VersionSpec::parse_list("2.1.1..2.1.9").unwrap(), &published, "2.1.4", false).is_err());
    }

    /// A venv's python given as a path (what `failopen history` runs each
    /// Python SDK release through) is a link out of the venv: its SDK's
    /// version is read beside the link, and the link, not the interpreter
    /// it points at, is what runs (the bundled CLI is found beside it too).
    #[tokio::test]
    async fn a_venv_python_path_keeps_its_venv() {
        let dir = tempfile::tempdir().unwrap();
        let venv = dir.path().join("0.2.150/venv");
        let package = venv.join("lib/python3.11/site-packages/claude_agent_sdk");
        std::fs::create_dir_all(&package).unwrap();
        std::fs::create_dir_all(venv.join("bin")).unwrap();
        std::fs::write(package.join("_version.py"), "__version__ = \"0.2.150\"\n").unwrap();
        let interpreter = dir.path().join("python3.11");
        std::fs::write(&interpreter, "").unwrap();
        std::os::unix::fs::symlink(&interpreter, venv.join("bin/python")).unwrap();
        let cache = Cache::at(dir.path()).for_agent(Agent::AgentSdkPy);
        let bin = resolve(&VersionSpec::Path(venv.join("bin/python")), &cache).await.unwrap();
        assert_eq!((bin.version.as_str(), bin.path), ("0.2.150", venv.join("bin/python")));
    }
}
