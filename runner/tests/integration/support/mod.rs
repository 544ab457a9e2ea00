//! What the integration tests share: the failopen command, paths of the
//! repository's fixtures, the process scan, a script writer that cannot
//! race an exec into ETXTBSY, the locks that keep heavy and timing-sensitive
//! tests apart, running a battery, running a GitHub workflow's steps, and
//! checking a reference CSV of `results/` against its arms' expectations.

pub mod actions;
pub mod battery;
// Debian's Chromium: the browser tests run on Linux.
#[cfg(target_os = "linux")]
pub mod browser;
pub mod cmd;
pub mod lock;
pub mod procs;
pub mod reference;
pub mod scripts;

pub use battery::{assert_no_leftovers, expectations_hold, read_csv, run_battery, OLD, PINNED};
pub use cmd::{bin, failopen};

use std::path::{Path, PathBuf};

/// Path of an arm set in the repository's `arms/`.
pub fn arms_file(name: &str) -> String {
    repo().join("arms").join(name).to_string_lossy().into_owned()
}

/// A fixture under `runner/tests/fixtures/`.
pub fn fixture(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(rel)
}

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}
