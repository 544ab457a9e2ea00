//! `failopen seal --install SETTINGS.json`: route a settings file's
//! PreToolUse command hooks through seal, on disk, with a backup.
//!
//! The JSON transform itself is [`wrap_settings`] (pure, in `wrap.rs`).

use std::fmt;
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};

use super::exe_path::{self, ExeFacts, ExePath};
use super::on_failure::{self, ClaudeOnPath};
use super::settings_file;
pub use super::wrap::{wrap_settings, HookEntry, InstallSummary};

/// What `--install` did to one settings file.
#[derive(Debug, Clone)]
pub struct InstallReport {
    /// The settings file, as given.
    pub path: PathBuf,
    /// Which hooks were wrapped, already wrapped, or skipped.
    pub summary: InstallSummary,
    /// Where the original was saved (only when the file was changed).
    pub backup: Option<PathBuf>,
    /// The failopen path written into the hooks and how it was chosen
    /// (`None` when the caller gave the path).
    pub seal_path: Option<ExePath>,
    /// The `claude` found on `PATH`, which decided whether `"onFailure":
    /// "block"` was added (`None` when the caller decided).
    pub claude: Option<ClaudeOnPath>,
    /// Things the user should act on (e.g. the path lies in a build directory).
    pub warnings: Vec<String>,
}

impl fmt::Display for InstallReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.summary;
        let path = self.path.display();
        if s.changed() {
            let n = s.wrapped.len();
            write!(f, "{path}: wrapped {n} PreToolUse command hook{} with seal", if n == 1 { "" } else { "s" })?;
        } else if s.already_wrapped.is_empty() && s.skipped.is_empty() && s.unprotected.is_empty() {
            write!(f, "{path}: no PreToolUse hooks found; file not changed")?;
            if let Some(shape) = &s.other_shape {
                write!(
                    f,
                    "\n  note: it has hooks in {shape}, which --install does not wrap (it wraps Claude Code's \
                     hooks.PreToolUse); to seal them, write each command as `failopen seal -- /bin/sh -c '<command>'` by hand"
                )?;
            }
        } else {
            write!(f, "{path}: nothing to wrap; file not changed")?;
        }
        for e in &s.wrapped {
            write!(f, "\n  wrapped: {e}")?;
        }
        for e in &s.already_wrapped {
            write!(f, "\n  already wrapped (left alone): {e}")?;
        }
        for e in &s.unprotected {
            write!(f, "\n  NOT PROTECTED (left alone, fix it by hand): {e}")?;
        }
        for e in &s.skipped {
            write!(f, "\n  skipped: {e}")?;
        }
        if let Some(b) = &self.backup {
            write!(f, "\n  backup of the original: {}", b.display())?;
        }
        if let (Some(p), true) = (&self.seal_path, s.changed()) {
            write!(f, "\n  failopen path written: {} ({})", p.path.display(), p.source)?;
        }
        if let Some(claude) = &self.claude {
            write!(f, "\n  onFailure: {claude}: ")?;
            match (claude.honours_on_failure(), s.changed()) {
                (_, false) => write!(f, "nothing newly wrapped, so nothing added")?,
                (true, true) => {
                    let n = s.on_failure_added;
                    write!(f, "added to {n} wrapped hook{}", if n == 1 { "" } else { "s" })?;
                    if s.on_failure_kept > 0 {
                        write!(f, " ({} kept the onFailure they had)", s.on_failure_kept)?;
                    }
                }
                (false, true) => {
                    let n = s.on_failure_added;
                    write!(
                        f,
                        "added to {n} wrapped hook{} all the same (Claude Code honours it from {}; earlier releases \
                         ignore the key), so a missing seal binary still blocks once Claude Code is that recent",
                        if n == 1 { "" } else { "s" },
                        on_failure::FIRST_HONOURING
                    )?;
                }
            }
        }
        for w in &self.warnings {
            write!(f, "\n  {w}")?;
        }
        Ok(())
    }
}

/// Wrap the PreToolUse command hooks of the settings file at `path` with
/// this executable, keeping a backup of the original. The path written is
/// the most stable one naming this binary (see [`exe_path`]); the report
/// warns when it lies in a build or versioned directory. The wrapped hooks
/// get `"onFailure": "block"` whatever `claude` is on `PATH` (see
/// [`on_failure`]): Claude Code honours it from 2.1.295 and earlier releases
/// ignore the key, and without it a sealed hook whose seal binary is gone
/// fails open, the `no-seal` hole the next audit would find. The `claude`
/// found is reported.
pub fn install_file(path: &Path) -> Result<InstallReport> {
    let facts =
        ExeFacts::from_env().context("cannot tell where this failopen is (its executable or the current directory)")?;
    let chosen = exe_path::choose(&facts);
    let Some(exe) = chosen.path.to_str() else {
        bail!("the failopen path {} is not valid UTF-8, so it cannot go into a settings file", chosen.path.display());
    };
    let claude = on_failure::find(facts.path_var.as_deref());
    let mut report = install_file_with(path, exe, true)?;
    if report.summary.changed() {
        report.warnings.extend(exe_path::build_dir_warning(&chosen.path));
    }
    report.seal_path = Some(chosen);
    report.claude = Some(claude);
    Ok(report)
}

/// [`install_file`] with an explicit path for the seal executable, and
/// whether to add `"onFailure": "block"` to the hooks it wraps.
///
/// Refused, with the file untouched: anything but a regular file (a FIFO or
/// a device is refused before it is opened), text that is not UTF-8 or not
/// strict JSON, a top level that is not an object, and any object with a
/// repeated key (each named with its lines; see [`super::wrap::document`]).
///
/// Nothing is written unless a hook gets wrapped. Then the file is edited in
/// place at the spans of the wrapped commands (every other byte kept), the
/// original bytes go to a complete, verified backup
/// (`SETTINGS.json.failopen-backup`, see [`settings_file::write_backup`]),
/// and only then is the new text put in place atomically (temp file in the
/// same directory, fsync, rename, fsync of the directory; mode and owner
/// kept). A symlinked settings file is followed: its target is rewritten and
/// the link stays.
pub fn install_file_with(path: &Path, seal_exe: &str, add_on_failure: bool) -> Result<InstallReport> {
    let target = match fs::canonicalize(path) {
        Ok(t) => t,
        Err(e) if e.kind() == ErrorKind::NotFound => bail!("settings file {} does not exist", path.display()),
        Err(e) => return Err(e).with_context(|| format!("cannot open settings file {}", path.display())),
    };
    let original =
        settings_file::read_regular(&target).with_context(|| format!("cannot use settings file {}", path.display()))?;
    let text = std::str::from_utf8(&original).map_err(|e| {
        anyhow!("{} is not UTF-8 text (byte {} is not); left it untouched", path.display(), e.valid_up_to())
    })?;
    let wrapped = wrap_settings(text, seal_exe, add_on_failure)
        .map_err(|e| anyhow!("{}: {e}; left it untouched", path.display()))?;
    let summary = wrapped.summary;
    let mut report = InstallReport {
        path: path.to_path_buf(),
        summary,
        backup: None,
        seal_path: None,
        claude: None,
        warnings: Vec::new(),
    };
    if !report.summary.changed() {
        return Ok(report);
    }
    // The edit must give strict JSON again, with the same keys: checked
    // before anything is written.
    super::wrap::document::parse(&wrapped.text).map_err(|e| {
        anyhow!("internal error: the edited {} would not be valid ({e}); left it untouched", path.display())
    })?;
    ignore_file_size_signal();
    let backup = settings_file::write_backup(&target, &original)
        .with_context(|| format!("cannot back up {} (the original is unchanged)", path.display()))?;
    settings_file::replace_atomically(&target, &original, wrapped.text.as_bytes())
        .with_context(|| format!("cannot write {} (the original is unchanged)", path.display()))?;
    report.backup = Some(backup);
    Ok(report)
}

/// Past `ulimit -f`, a write raises SIGXFSZ, whose default action kills the
/// process on the spot, leaving its temporary file behind. Ignored, the write
/// fails with EFBIG instead, and the temporary file is removed.
fn ignore_file_size_signal() {
    use nix::sys::signal::{signal, SigHandler, Signal};
    // SAFETY: SIG_IGN installs no handler code; `--install` is a one-shot
    // setup command that never relies on SIGXFSZ.
    let _ = unsafe { signal(Signal::SIGXFSZ, SigHandler::SigIgn) };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_backup_once_and_is_idempotent_on_disk() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        let original = r#"{"b":1,"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"/g.sh"}]}]},"a":2}"#;
        fs::write(&path, original).unwrap();
        fs::write(dir.path().join("settings.json.failopen-backup"), "older").unwrap();

        let report = install_file_with(&path, "/fo/failopen", false).unwrap();
        let backup = report.backup.clone().unwrap();
        assert_eq!(backup, dir.path().canonicalize().unwrap().join("settings.json.failopen-backup.1"));
        assert_eq!(fs::read_to_string(&backup).unwrap(), original);
        assert_eq!(fs::read_to_string(dir.path().join("settings.json.failopen-backup")).unwrap(), "older");
        let text = fs::read_to_string(&path).unwrap();
        let expected = original.replace(r#""/g.sh""#, r#""/fo/failopen seal -- /bin/sh -c '/g.sh'""#);
        assert_eq!(text, expected, "only the command's span changed");
        assert!(report.to_string().contains("wrapped 1 PreToolUse command hook with seal"), "{report}");

        let again = install_file_with(&path, "/fo/failopen", false).unwrap();
        assert!(again.backup.is_none());
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
        assert!(again.to_string().contains("nothing to wrap"), "{again}");
    }

    #[test]
    fn follows_a_symlink_and_keeps_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.json");
        let link = dir.path().join("settings.json");
        fs::write(&real, r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"/g.sh"}]}]}}"#).unwrap();
        fs::set_permissions(&real, fs::Permissions::from_mode(0o600)).unwrap();
        std::os::unix::fs::symlink("real.json", &link).unwrap();

        install_file_with(&link, "/fo/failopen", false).unwrap();
        assert!(fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link was replaced");
        assert!(fs::read_to_string(&real).unwrap().contains("seal -- /bin/sh -c"));
        assert_eq!(fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o600);
    }

    #[test]
    fn parse_error_names_file_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.json");
        fs::write(&path, "{\n  \"a\": 1,\n  oops\n}\n").unwrap();
        let err = install_file_with(&path, "/fo/failopen", false).unwrap_err().to_string();
        assert!(err.contains("s.json") && err.contains("line 3, column 3"), "{err}");
    }

    /// Run `f` on another thread; fail (instead of hanging) past 5 s.
    fn within_5s<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || tx.send(f()));
        rx.recv_timeout(std::time::Duration::from_secs(5)).expect("it blocked")
    }

    #[test]
    fn a_fifo_or_a_device_is_refused_at_once() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("settings.json");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600)).unwrap();
        let f = fifo.clone();
        let err = within_5s(move || format!("{:#}", install_file_with(&f, "/fo/failopen", false).unwrap_err()));
        assert!(err.contains("settings.json") && err.contains("is a FIFO (named pipe), not a settings file"), "{err}");
        let err = within_5s(|| {
            format!("{:#}", install_file_with(Path::new("/dev/zero"), "/fo/failopen", false).unwrap_err())
        });
        assert!(err.contains("/dev/zero is a character device"), "{err}");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "nothing written beside the FIFO");
    }

    #[test]
    fn repeated_keys_are_refused_with_their_lines_and_the_file_left_alone() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        let text = "{\n  \"env\": {\"TOKEN\": \"a\"},\n  \"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"/first.sh\"}]}]},\n  \"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"/second.sh\"}]}]},\n  \"env\": {}\n}\n";
        fs::write(&path, text).unwrap();
        let err = install_file_with(&path, "/fo/failopen", false).unwrap_err().to_string();
        for says in [
            "settings.json: it has 2 repeated keys:",
            "\"env\" appears on lines 2 and 5: the agent reads only the last one (line 5), so what is under line 2 never takes effect",
            "\"hooks\" appears on lines 3 and 4",
            "a hook under an earlier one never runs",
            "left it untouched",
        ] {
            assert!(err.contains(says), "{says:?} in {err}");
        }
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1, "no backup, no temp file");
    }

    #[test]
    fn a_truncated_backup_is_completed_and_an_identical_one_reused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        let original = r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"/g.sh"}]}]}}"#;
        fs::write(&path, original).unwrap();
        // What an older failopen left when its backup write failed half way.
        fs::write(dir.path().join("settings.json.failopen-backup"), &original[..20]).unwrap();
        let report = install_file_with(&path, "/fo/failopen", false).unwrap();
        let canonical = dir.path().canonicalize().unwrap().join("settings.json.failopen-backup");
        assert_eq!(report.backup.as_deref(), Some(canonical.as_path()));
        assert_eq!(fs::read_to_string(&canonical).unwrap(), original, "completed in place, no .1 beside it");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);

        // Restored by hand and installed again: the backup already holds these bytes.
        fs::write(&path, original).unwrap();
        let report = install_file_with(&path, "/fo/failopen", false).unwrap();
        assert_eq!(report.backup.as_deref(), Some(canonical.as_path()));
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
    }
}
