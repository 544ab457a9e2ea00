//! failopen's installer of agent releases (`failopen agents`), on Claude Code's, against the npm registry.

use std::process::Command;

/// failopen with its cache at `cache`. Installs are heavy (npm, 370 MB):
/// callers hold the sessions lock.
fn failopen(cache: &std::path::Path) -> Command {
    let mut c = Command::new(crate::support::bin());
    c.env("FAILOPEN_CACHE", cache);
    c
}

/// Two installs of the same version at once: both succeed, the cache holds
/// one working binary and no half-finished staging directory.
#[test]
fn concurrent_installs_do_not_corrupt_the_cache() {
    let _lock = crate::support::lock::sessions();
    let cache = tempfile::tempdir().unwrap();
    let spawn = || {
        failopen(cache.path())
            .args(["agents", "install", "2.1.328"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (a, b) = (spawn(), spawn());
    for child in [a, b] {
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    let list = failopen(cache.path()).args(["agents", "list"]).output().unwrap();
    let text = String::from_utf8_lossy(&list.stdout);
    let versions: Vec<&str> =
        text.lines().filter(|l| l.starts_with(|c: char| c.is_ascii_digit()) && l.contains('\t')).collect();
    assert_eq!(versions.len(), 1, "{text}");
    assert!(versions[0].starts_with("2.1.328\t"), "{text}");
    let entries: Vec<String> = std::fs::read_dir(cache.path().join("claude-code"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(entries.iter().all(|e| !e.contains("installing")), "staging left behind: {entries:?}");
    let version = Command::new(cache.path().join("claude-code/2.1.328/node_modules/.bin/claude"))
        .arg("--version")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&version.stdout).starts_with("2.1.328"));
}

#[test]
fn a_version_the_registry_does_not_have_is_a_clear_error() {
    let cache = tempfile::tempdir().unwrap();
    let out = failopen(cache.path()).args(["agents", "install", "0.0.999"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the npm registry has no @anthropic-ai/claude-code@0.0.999"), "{err}");
}

#[test]
fn npm_missing_is_a_clear_error() {
    let cache = tempfile::tempdir().unwrap();
    let out =
        failopen(cache.path()).env("PATH", "/nonexistent").args(["agents", "install", "2.1.240"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("npm was not found on PATH"));
}
