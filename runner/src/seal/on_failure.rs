//! Does the Claude Code that would run the hooks honour `"onFailure": "block"`?
//!
//! From Claude Code 2.1.295 on (measured by bisect, see
//! `results/bisect-crash-native.txt`), a command hook with
//! `"onFailure": "block"` blocks the tool call when the hook fails to run,
//! so a wrapped hook whose seal binary went missing still blocks. `seal
//! --install` adds it to the hooks it wraps when the `claude` on `PATH` is
//! that recent; this module finds that `claude` and reads its version.
//!
//! `claude --version` runs in its own process group with a bounded wait
//! ([`VERSION_WAIT`]); its output goes to a temporary file, so a child that
//! keeps a pipe open cannot hold `--install` either. After the wait the
//! group is killed.

use std::ffi::OsStr;
use std::fmt;
use std::io::{Read, Seek};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{killpg, Signal};
use nix::unistd::Pid;

use crate::version::Version;

/// The first Claude Code version that honours `"onFailure": "block"`.
pub const FIRST_HONOURING: &str = "2.1.295";

/// How long `claude --version` may take before it is killed.
pub const VERSION_WAIT: Duration = Duration::from_secs(5);

/// What `--install` found out about the `claude` on `PATH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaudeOnPath {
    /// No executable `claude` in `PATH`.
    NotFound,
    /// Found, and its version honours `onFailure`.
    Honours {
        /// The `claude` that was run.
        path: PathBuf,
        /// Its version, e.g. `2.1.328`.
        version: String,
    },
    /// Found, but its version is older than [`FIRST_HONOURING`].
    Older {
        /// The `claude` that was run.
        path: PathBuf,
        /// Its version.
        version: String,
    },
    /// Found, but its version could not be read.
    Unreadable {
        /// The `claude` that was run.
        path: PathBuf,
        /// Why not.
        why: String,
    },
}

impl ClaudeOnPath {
    /// Whether `--install` should add `"onFailure": "block"`.
    pub fn honours_on_failure(&self) -> bool {
        matches!(self, ClaudeOnPath::Honours { .. })
    }
}

impl fmt::Display for ClaudeOnPath {
    /// What was found, worded for the install report ("...: onFailure added or not").
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClaudeOnPath::NotFound => write!(f, "no claude on PATH"),
            ClaudeOnPath::Honours { path, version } => {
                write!(f, "Claude Code {version} ({}) honours \"onFailure\": \"block\"", path.display())
            }
            ClaudeOnPath::Older { path, version } => write!(
                f,
                "Claude Code {version} ({}) is older than {FIRST_HONOURING}, which is the first to honour \"onFailure\": \"block\"",
                path.display()
            ),
            ClaudeOnPath::Unreadable { path, why } => {
                write!(f, "cannot tell the version of {}: {why}", path.display())
            }
        }
    }
}

/// Find `claude` on `path_var` and read its version.
pub fn find(path_var: Option<&OsStr>) -> ClaudeOnPath {
    let Some(path) = path_var.and_then(first_executable) else { return ClaudeOnPath::NotFound };
    match read_version(&path, VERSION_WAIT) {
        Ok(version) if honours(&version) => ClaudeOnPath::Honours { path, version },
        Ok(version) => ClaudeOnPath::Older { path, version },
        Err(why) => ClaudeOnPath::Unreadable { path, why },
    }
}

/// Whether Claude Code `version` honours `"onFailure": "block"` (numeric
/// comparison of MAJOR.MINOR.PATCH).
pub fn honours(version: &str) -> bool {
    version.parse::<Version>().is_ok_and(|v| FIRST_HONOURING.parse::<Version>().is_ok_and(|first| v >= first))
}

/// The version in `claude --version` output (see
/// [`crate::version::reported_by_claude`]).
pub fn parse_version(output: &str) -> Result<String, String> {
    crate::version::reported_version(output).map(str::to_string).ok_or_else(|| {
        let shown: String = output.trim().chars().take(80).collect();
        format!("`claude --version` printed {shown:?}, which has no line starting with a version")
    })
}

/// The first executable file named `claude` in `path_var`.
fn first_executable(path_var: &OsStr) -> Option<PathBuf> {
    std::env::split_paths(path_var).filter(|dir| !dir.as_os_str().is_empty()).map(|dir| dir.join("claude")).find(
        |candidate| std::fs::metadata(candidate).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0),
    )
}

/// Run `claude --version`, waiting at most `wait`.
fn read_version(claude: &Path, wait: Duration) -> Result<String, String> {
    let mut out = tempfile::tempfile().map_err(|e| format!("cannot create a temporary file: {e}"))?;
    let stdout = out.try_clone().map_err(|e| format!("cannot create a temporary file: {e}"))?;
    let mut child = Command::new(claude)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot run it: {e}"))?;
    let group = Pid::from_raw(child.id() as i32);
    let give_up = Instant::now() + wait;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) if Instant::now() < give_up => std::thread::sleep(Duration::from_millis(10)),
            Ok(None) => {
                let _ = killpg(group, Signal::SIGKILL);
                let _ = child.wait();
                return Err(format!("`claude --version` did not answer within {} s (killed)", wait.as_secs_f64()));
            }
            Err(e) => return Err(format!("cannot wait for `claude --version`: {e}")),
        }
    };
    let _ = killpg(group, Signal::SIGKILL); // anything it left behind
    if !status.success() {
        let how = match (status.code(), status.signal()) {
            (Some(code), _) => format!("exited {code}"),
            (None, Some(sig)) => format!("was killed by signal {sig}"),
            _ => "failed".to_string(),
        };
        return Err(format!("`claude --version` {how}"));
    }
    let mut text = String::new();
    out.rewind()
        .and_then(|_| out.take(64 * 1024).read_to_string(&mut text))
        .map_err(|e| format!("cannot read what `claude --version` printed: {e}"))?;
    parse_version(&text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fake_claude(dir: &Path, body: &str) {
        crate::test_helpers::write_executable(&dir.join("claude"), &format!("#!/bin/sh\n{body}\n"));
    }

    #[test]
    fn versions_compare_numerically() {
        assert!(honours("2.1.295"));
        assert!(honours("2.1.328"));
        assert!(honours("2.2.0"));
        assert!(honours("10.0.0"));
        assert!(!honours("2.1.294"));
        assert!(!honours("2.1.29"), "29 < 295 numerically, although \"29\" > \"2\" as text");
        assert!(!honours("1.9.999"));
    }

    #[test]
    fn the_version_is_the_first_word() {
        assert_eq!(parse_version("2.1.328 (Claude Code)\n"), Ok("2.1.328".into()));
        assert_eq!(parse_version("2.1.240\n"), Ok("2.1.240".into()));
        assert!(parse_version("Claude Code 2.1.328").unwrap_err().contains("no line starting with a version"));
        assert!(parse_version("").is_err());
    }

    #[test]
    fn finds_and_reads_a_claude_on_path() {
        let dir = tempfile::tempdir().unwrap();
        let empty = tempfile::tempdir().unwrap();
        fake_claude(dir.path(), "echo '2.1.328 (Claude Code)'");
        let path = std::env::join_paths([empty.path(), dir.path()]).unwrap();
        let found = find(Some(&path));
        assert_eq!(found, ClaudeOnPath::Honours { path: dir.path().join("claude"), version: "2.1.328".into() });
        assert!(found.honours_on_failure());
        assert_eq!(find(Some(empty.path().as_os_str())), ClaudeOnPath::NotFound);
        assert_eq!(find(None), ClaudeOnPath::NotFound);
    }

    #[test]
    fn older_and_unreadable_versions_do_not_honour() {
        let dir = tempfile::tempdir().unwrap();
        fake_claude(dir.path(), "echo '2.1.294 (Claude Code)'");
        let found = find(Some(dir.path().as_os_str()));
        assert!(matches!(&found, ClaudeOnPath::Older { version, .. } if version == "2.1.294"), "{found:?}");
        assert!(!found.honours_on_failure());
        assert!(found.to_string().contains("older than 2.1.295"), "{found}");

        fake_claude(dir.path(), "echo 'not a version'");
        let found = find(Some(dir.path().as_os_str()));
        assert!(matches!(&found, ClaudeOnPath::Unreadable { why, .. } if why.contains("not a version")), "{found:?}");

        fake_claude(dir.path(), "echo 2.1.328; exit 3");
        let found = find(Some(dir.path().as_os_str()));
        assert!(matches!(&found, ClaudeOnPath::Unreadable { why, .. } if why.contains("exited 3")), "{found:?}");
    }

    #[test]
    fn a_hanging_claude_is_killed_after_the_wait() {
        let dir = tempfile::tempdir().unwrap();
        fake_claude(dir.path(), "sleep 30 & sleep 30");
        let start = Instant::now();
        let got = read_version(&dir.path().join("claude"), Duration::from_millis(300));
        assert!(got.unwrap_err().contains("did not answer within"));
        assert!(start.elapsed() < Duration::from_secs(20), "waited for the 30 s sleep: {:?}", start.elapsed());
    }
}
