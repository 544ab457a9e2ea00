//! Installing an agent's versions with npm, safely under concurrency:
//! each install goes to a private temp directory inside the cache, then is
//! renamed into place; whoever renames first wins and the other discards
//! its copy. A half-finished install is never visible under the version's name.

use std::path::Path;
use std::process::Stdio;

use tokio::process::Command;

use super::place::{move_into_place, tail};
use super::{cache::Cache, AgentBin, InstallError};
use crate::agent::driver::Registry;
use crate::agent::Agent;
use crate::version::Version;

/// Make sure `version` is installed in `cache` and runs; return it.
pub async fn ensure(cache: &Cache, version: &str) -> Result<AgentBin, InstallError> {
    let bin = cache.binary(version);
    if !bin.exists() {
        install(cache, version).await?;
    }
    let path = std::fs::canonicalize(&bin).map_err(|e| InstallError::NotRunnable {
        agent: cache.agent().display_name(),
        path: bin.display().to_string(),
        message: e.to_string(),
    })?;
    // An SDK's version is read beside its install path (a venv's python is
    // a link out of the cache), not beside what the link points at.
    let reported = match cache.agent().driver().version_without_running(&bin) {
        Some(version) => version,
        None => read_version(cache.agent(), &path).await?,
    };
    cache.touch(version);
    Ok(AgentBin { agent: cache.agent(), path: bin, version: reported })
}

/// Install one version into the cache (no-op if another process got there first).
pub async fn install(cache: &Cache, version: &str) -> Result<(), InstallError> {
    if cache.agent().driver().registry() == Registry::PyPi {
        return super::pypi::install(cache, version).await;
    }
    let package = cache.agent().npm_package();
    let versions = cache.versions_dir();
    let io = |source| InstallError::Io { path: versions.display().to_string(), source };
    std::fs::create_dir_all(&versions).map_err(io)?;
    // Hundreds of MB, often: say what is coming before npm goes quiet for a minute.
    let started = std::time::Instant::now();
    let size = unpacked_size(package, version).await;
    eprintln!("{}", installing_line(cache.agent(), version, package, size, &versions));
    let staging =
        tempfile::Builder::new().prefix(&format!(".{version}.installing-")).tempdir_in(&versions).map_err(io)?;
    // npm runs the package's postinstall script as a child of its own: the
    // whole install is one process group, killed as a group if we are
    // dropped mid-install (an interrupted history's prefetch).
    let mut npm = Command::new("npm");
    npm.args(["install", "--no-audit", "--no-fund", "--loglevel=error", "--prefix"])
        .arg(staging.path())
        .arg(format!("{package}@{version}"));
    let out = crate::agent::ask::output_in_own_group(npm).await.map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => InstallError::NpmNotFound,
        _ => io(e),
    })?;
    if !out.status.success() {
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        if stderr.contains("ETARGET") || stderr.contains("No matching version") || stderr.contains("E404") {
            return Err(InstallError::NoSuchVersion { package, version: version.to_string() });
        }
        return Err(InstallError::NpmFailed {
            package,
            version: version.to_string(),
            code: out.status.code().map(|c| c.to_string()).unwrap_or_else(|| "signal".into()),
            stderr: tail(&stderr, 2000),
        });
    }
    move_into_place(cache, version, staging)?;
    eprintln!(
        "failopen: installed {} {version} in {:.0} s ({} on disk)",
        cache.agent().display_name(),
        started.elapsed().as_secs_f64(),
        megabytes(cache.size(version))
    );
    Ok(())
}

/// The line an install starts with: what, from where, how big, where to.
fn installing_line(agent: Agent, version: &str, package: &str, size: Option<u64>, into: &Path) -> String {
    let size = match size {
        Some(bytes) => format!(", {} unpacked, more with its dependencies", megabytes(bytes)),
        None => String::new(),
    };
    format!(
        "failopen: installing {} {version} from npm ({package}@{version}{size}) into {}; once, then cached",
        agent.display_name(),
        into.display()
    )
}

/// `12.3 MB`.
fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// The package's own unpacked size, as the registry gives it
/// (`npm view PACKAGE@VERSION dist.unpackedSize`); `None` when it does not
/// say or does not answer within 15 s (the install says its size then).
async fn unpacked_size(package: &'static str, version: &str) -> Option<u64> {
    let view = npm_view_version(package, version, "dist.unpackedSize");
    let out = tokio::time::timeout(std::time::Duration::from_secs(15), view).await.ok()?.ok()?;
    out.trim().parse().ok()
}

/// `npm view PACKAGE@VERSION FIELD`.
async fn npm_view_version(package: &'static str, version: &str, field: &str) -> Result<String, InstallError> {
    let out = Command::new("npm")
        .arg("view")
        .arg(format!("{package}@{version}"))
        .arg(field)
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output()
        .await
        .map_err(|e| InstallError::Io { path: "npm".into(), source: e })?;
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Run `<agent binary> --version` (in a throwaway HOME) and return the
/// version it reports.
pub async fn read_version(agent: Agent, path: &Path) -> Result<String, InstallError> {
    if let Some(version) = agent.driver().version_without_running(path) {
        return Ok(version);
    }
    let out = crate::agent::ask::ask(agent.display_name(), path, &["--version"]).await?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    match agent.reported_version(&stdout) {
        Some(version) if out.status.success() => Ok(version.to_string()),
        _ => Err(InstallError::NotRunnable {
            agent: agent.display_name(),
            path: path.display().to_string(),
            message: format!(
                "`--version` exited {} and printed {:?}{}",
                out.status.code().map(|c| c.to_string()).unwrap_or_else(|| "by a signal".into()),
                tail(&stdout, 200),
                if out.stderr.is_empty() {
                    String::new()
                } else {
                    format!(", stderr {:?}", tail(&String::from_utf8_lossy(&out.stderr), 300))
                }
            ),
        }),
    }
}

/// The registry's `latest` version of `agent`.
pub async fn latest_version(agent: Agent) -> Result<String, InstallError> {
    if agent.driver().registry() == Registry::PyPi {
        return super::pypi::latest_version(agent).await;
    }
    let package = agent.npm_package();
    let out = npm_view(package, &["version"]).await?;
    let v = out.trim().to_string();
    if v.parse::<Version>().is_ok() {
        Ok(v)
    } else {
        Err(InstallError::NpmFailed { package, version: "latest".into(), code: "0".into(), stderr: v })
    }
}

/// Every published version of `agent`, in the registry's order (Codex's
/// per-platform builds, `0.171.0-linux-x64`, are not versions of their own
/// and are left out).
pub async fn published_versions(agent: Agent) -> Result<Vec<String>, InstallError> {
    if agent.driver().registry() == Registry::PyPi {
        return super::pypi::published_versions(agent).await;
    }
    let package = agent.npm_package();
    let out = npm_view(package, &["versions", "--json"]).await?;
    let all: Vec<String> = serde_json::from_str(&out).map_err(|e| InstallError::NpmFailed {
        package,
        version: "versions".into(),
        code: "0".into(),
        stderr: format!("unreadable version list: {e}"),
    })?;
    Ok(all.into_iter().filter(|v| !agent.driver().is_platform_build(v)).collect())
}

async fn npm_view(package: &'static str, args: &[&str]) -> Result<String, InstallError> {
    let out = Command::new("npm")
        .arg("view")
        .arg(package)
        .args(args)
        .stdin(Stdio::null())
        .kill_on_drop(true)
        .output()
        .await
        .map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => InstallError::NpmNotFound,
            _ => InstallError::Io { path: "npm".into(), source: e },
        })?;
    if !out.status.success() {
        return Err(InstallError::NpmFailed {
            package,
            version: args.join(" "),
            code: out.status.code().map(|c| c.to_string()).unwrap_or_default(),
            stderr: tail(&String::from_utf8_lossy(&out.stderr), 2000),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_install_line_names_the_agent_package_and_size() {
        let line = installing_line(
            Agent::Codex,
            "0.171.0",
            "@openai/codex",
            Some(412_300_000),
            Path::new("/c/codex/versions"),
        );
        assert_eq!(
            line,
            "failopen: installing Codex CLI 0.171.0 from npm (@openai/codex@0.171.0, 412.3 MB unpacked, more with \
             its dependencies) into /c/codex/versions; once, then cached"
        );
        assert!(!installing_line(Agent::Codex, "1", "p", None, Path::new("/c")).contains("MB"));
    }
}
