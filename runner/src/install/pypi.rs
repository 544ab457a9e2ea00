//! Installing a Python package's versions (the Claude Agent SDK for
//! Python) from PyPI with its ordinary client, pip, into failopen's cache:
//! each version is a venv of its own (`<version>/venv`, made by the
//! machine's `python3 -m venv`), built in a private temp directory beside
//! it and renamed into place, as [`super::npm`] does for npm packages.

use tokio::process::Command;

use super::{cache::Cache, InstallError};
use crate::agent::Agent;
use crate::version::Version;

/// The Python that makes the venvs (3.10 or later for the Agent SDK).
const PYTHON: &str = "python3";

use crate::agent::agent_sdk_py::VENV;

/// Install one version into the cache (no-op if another process got there first).
pub async fn install(cache: &Cache, version: &str) -> Result<(), InstallError> {
    let package = cache.agent().npm_package();
    let versions = cache.versions_dir();
    let io = |source| InstallError::Io { path: versions.display().to_string(), source };
    std::fs::create_dir_all(&versions).map_err(io)?;
    let staging =
        tempfile::Builder::new().prefix(&format!(".{version}.installing-")).tempdir_in(&versions).map_err(io)?;
    let started = std::time::Instant::now();
    eprintln!(
        "failopen: installing {} {version} from PyPI ({package}=={version}) into a venv under {}; once, then cached",
        cache.agent().display_name(),
        versions.display()
    );
    let venv = staging.path().join(VENV);
    let mut make = Command::new(PYTHON);
    make.args(["-m", "venv"]).arg(&venv);
    run(make, package, version).await?;
    let mut pip = Command::new(venv.join("bin/python"));
    pip.args(["-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-input"])
        .arg(format!("{package}=={version}"));
    run(pip, package, version).await?;
    super::place::move_into_place(cache, version, staging)?;
    eprintln!(
        "failopen: installed {} {version} in {:.0} s ({:.1} MB on disk)",
        cache.agent().display_name(),
        started.elapsed().as_secs_f64(),
        cache.size(version) as f64 / 1e6
    );
    Ok(())
}

/// Run one step of an install in its own process group; a failure says
/// which package and version, and pip's own words.
async fn run(cmd: Command, package: &'static str, version: &str) -> Result<(), InstallError> {
    let out = crate::agent::ask::output_in_own_group(cmd).await.map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => InstallError::PythonNotFound,
        _ => InstallError::Io { path: PYTHON.into(), source: e },
    })?;
    if out.status.success() {
        return Ok(());
    }
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    if stderr.contains("No matching distribution found") {
        return Err(InstallError::NoSuchPyPiVersion { package, version: version.to_string() });
    }
    Err(InstallError::PipFailed {
        package,
        version: version.to_string(),
        code: out.status.code().map(|c| c.to_string()).unwrap_or_else(|| "signal".into()),
        stderr: super::place::tail(&stderr, 2000),
    })
}

/// Every published version of `agent`'s package, newest first, as `pip
/// index versions` lists them (`Available versions: 0.2.189, 0.2.188, ...`).
pub async fn published_versions(agent: Agent) -> Result<Vec<String>, InstallError> {
    let package = agent.npm_package();
    let mut pip = Command::new(PYTHON);
    pip.args(["-m", "pip", "index", "versions", "--disable-pip-version-check", package]);
    let out = crate::agent::ask::output_in_own_group(pip).await.map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => InstallError::PythonNotFound,
        _ => InstallError::Io { path: PYTHON.into(), source: e },
    })?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let listed = available_versions(&stdout);
    if !out.status.success() || listed.is_empty() {
        return Err(InstallError::PipFailed {
            package,
            version: "versions".into(),
            code: out.status.code().map(|c| c.to_string()).unwrap_or_default(),
            stderr: super::place::tail(&format!("{stdout}{}", String::from_utf8_lossy(&out.stderr)), 2000),
        });
    }
    Ok(listed)
}

/// The registry's latest version of `agent`'s package.
pub async fn latest_version(agent: Agent) -> Result<String, InstallError> {
    let all = published_versions(agent).await?;
    all.into_iter().max_by(|a, b| crate::version::compare(a, b)).ok_or(InstallError::PipFailed {
        package: agent.npm_package(),
        version: "latest".into(),
        code: "0".into(),
        stderr: "pip listed no version".into(),
    })
}

/// The versions on pip's `Available versions:` line.
fn available_versions(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .find_map(|l| l.trim().strip_prefix("Available versions:"))
        .map(|list| list.split(',').map(str::trim).filter(|v| v.parse::<Version>().is_ok()).map(String::from).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_pips_version_list() {
        let out = "claude-agent-sdk (0.2.189)\nAvailable versions: 0.2.189, 0.2.188, 0.1.0\n  INSTALLED: 0.2.189\n";
        assert_eq!(available_versions(out), ["0.2.189", "0.2.188", "0.1.0"]);
        assert!(available_versions("ERROR: No matching distribution found for x\n").is_empty());
    }
}
