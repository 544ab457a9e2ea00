//! The installer of every agent: which binary to run, and installing an
//! agent's versions from the npm registry (the Python SDK's from PyPI,
//! [`pypi`]) into failopen's cache.
//!
//! Imports point one way: [`spec`] (what `--claude` asked for) resolves
//! through [`npm`], which installs into [`cache`]; none imports
//! back. What counts as a version number is [`crate::version::Version`]'s.

pub mod cache;
pub mod npm;
mod place;
pub mod prune;
pub mod pypi;
pub mod range;
pub mod spec;

pub use crate::agent::AgentBin;
pub use spec::VersionSpec;

/// Claude Code's pinned and article versions, named here for the callers
/// that speak of `--claude`'s default.
pub use crate::agent::claude_code::{ARTICLE_VERSION, PINNED_VERSION};

/// Versions `failopen agents prune` and `history --cache-max` never remove:
/// the ones the reference results and the test suite run.
pub const PINNED_VERSIONS: [&str; 2] = [PINNED_VERSION, ARTICLE_VERSION];

/// Why an agent's binary could not be had.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// npm is not on PATH.
    #[error("npm was not found on PATH; failopen installs agents with npm (install Node.js and npm, or name an installed binary by its path)")]
    NpmNotFound,
    /// The registry does not have the version.
    #[error("the npm registry has no {package}@{version}; `npm view {package} versions` lists the published ones")]
    NoSuchVersion { package: &'static str, version: String },
    /// npm failed for another reason.
    #[error("npm install {package}@{version} failed (exit {code}): {stderr}")]
    NpmFailed { package: &'static str, version: String, code: String, stderr: String },
    /// python3 is not on PATH.
    #[error("python3 was not found on PATH; failopen installs the Python Agent SDK into a venv it makes with `python3 -m venv` (install Python 3.10 or later)")]
    PythonNotFound,
    /// PyPI does not have the version.
    #[error("PyPI has no {package}=={version}; `python3 -m pip index versions {package}` lists the published ones")]
    NoSuchPyPiVersion { package: &'static str, version: String },
    /// venv or pip failed for another reason.
    #[error("installing {package}=={version} into a venv failed (exit {code}): {stderr}")]
    PipFailed { package: &'static str, version: String, code: String, stderr: String },
    /// The binary exists but does not run or does not print a version.
    #[error("{path}: does not run as {agent}: {message}")]
    NotRunnable { agent: &'static str, path: String, message: String },
    /// A version spec that is not a version, `latest`, a range or a path.
    #[error("{0:?} names no agent version: expected a version like 2.1.328, `latest`, a range like 2.1.240..latest, or a path to the agent's binary")]
    BadSpec(String),
    /// A range that is malformed or does not resolve.
    #[error(transparent)]
    Range(#[from] range::RangeError),
    /// Filesystem trouble in the cache.
    #[error("cache {path}")]
    Io { path: String, source: std::io::Error },
}

/// A binary that did not answer a question ([`crate::agent::ask`]) does not run.
impl From<crate::agent::ask::NotRunnable> for InstallError {
    fn from(e: crate::agent::ask::NotRunnable) -> InstallError {
        InstallError::NotRunnable { agent: e.agent, path: e.path, message: e.message }
    }
}
