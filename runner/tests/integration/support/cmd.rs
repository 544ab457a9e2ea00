//! The failopen binary under test.

use std::path::PathBuf;

/// The path of the `failopen` binary cargo built for these tests.
pub fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("failopen")
}

/// `failopen` as an assert_cmd command, with `CI=true` (no progress bar).
pub fn failopen() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::new(bin());
    cmd.env("CI", "true");
    cmd
}
