//! A census guard's package from its registry, checked against the pinned
//! integrity before anything of it runs. Each download goes through a cache
//! of its own in the census's temp root, so every row starts from a clean cache.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use serde_json::Value;
use sha2::{Digest, Sha256};
use tokio::process::Command;

use super::list::{Package, Registry};
use super::step::run_checked;

/// How long one registry download may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(300);

/// The package file (npm tarball or PyPI wheel), in `dir`, verified.
pub async fn fetch(package: &Package, root: &Path) -> anyhow::Result<PathBuf> {
    let dir = root.join("package");
    std::fs::create_dir_all(&dir).with_context(|| dir.display().to_string())?;
    match package.registry {
        Registry::Npm => npm_pack(package, root, &dir).await,
        Registry::Pypi => pip_download(package, &dir).await,
    }
}

/// `npm pack NAME@VERSION`: npm reports the tarball's integrity, compared with the pin.
async fn npm_pack(package: &Package, root: &Path, dir: &Path) -> anyhow::Result<PathBuf> {
    let spec = format!("{}@{}", package.name, package.version);
    let mut cmd = Command::new("npm");
    cmd.args(["pack", &spec, "--json", "--loglevel=error", "--cache"])
        .arg(root.join("npm-cache"))
        .arg("--pack-destination")
        .arg(dir);
    let out = run_checked(cmd, &format!("npm pack {spec}"), FETCH_TIMEOUT).await?;
    let v: Value = serde_json::from_slice(&out).with_context(|| format!("npm pack {spec}: not JSON"))?;
    let got = v[0]["integrity"].as_str().unwrap_or_default();
    if got != package.integrity {
        anyhow::bail!("{spec}: the registry's tarball has integrity {got}, the census pins {}", package.integrity);
    }
    let file = v[0]["filename"].as_str().with_context(|| format!("npm pack {spec}: no filename"))?;
    Ok(dir.join(file))
}

/// `pip download NAME==VERSION --no-deps`, its sha256 compared with the pin.
async fn pip_download(package: &Package, dir: &Path) -> anyhow::Result<PathBuf> {
    let spec = format!("{}=={}", package.name, package.version);
    let mut cmd = Command::new("python3");
    cmd.args(["-m", "pip", "download", "--no-deps", "--no-cache-dir", "--disable-pip-version-check", "-q", "-d"])
        .arg(dir)
        .arg(&spec);
    run_checked(cmd, &format!("pip download {spec}"), FETCH_TIMEOUT).await?;
    let file = std::fs::read_dir(dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .next()
        .with_context(|| format!("pip download {spec}: no file"))?;
    let got = format!("sha256:{}", hex(&Sha256::digest(std::fs::read(&file)?)));
    if got != package.integrity {
        anyhow::bail!("{spec}: {} has {got}, the census pins {}", file.display(), package.integrity);
    }
    Ok(file)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}
