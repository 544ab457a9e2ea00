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
/// Nothing is written unless a hook gets wrapped. Then the original bytes go
/// to `SETTINGS.json.failopen-backup` (or `.failopen-backup.N` if that
/// exists; an existing backup is never overwritten) and the new JSON (2-space
/// pretty, trailing newline) replaces the file atomically (temp file in the
/// same directory + rename, mode and owner kept; the backup gets them too).
/// A symlinked settings file is followed: its target is rewritten and the
/// link stays.
pub fn install_file_with(path: &Path, seal_exe: &str, add_on_failure: bool) -> Result<InstallReport> {
    let target = match fs::canonicalize(path) {
        Ok(t) => t,
        Err(e) if e.kind() == ErrorKind::NotFound => bail!("settings file {} does not exist", path.display()),
        Err(e) => return Err(e).with_context(|| format!("cannot open settings file {}", path.display())),
    };
    let original = fs::read(&target).with_context(|| format!("cannot read settings file {}", path.display()))?;
    let mut value: serde_json::Value = serde_json::from_slice(&original).map_err(|e| parse_error(path, &e))?;
    if !value.is_object() {
        bail!("{} is not a settings file: its top level is not a JSON object; left it untouched", path.display());
    }
    let summary = wrap_settings(&mut value, seal_exe, add_on_failure);
    if !summary.changed() {
        return Ok(InstallReport {
            path: path.to_path_buf(),
            summary,
            backup: None,
            seal_path: None,
            claude: None,
            warnings: Vec::new(),
        });
    }
    let mut text = serde_json::to_string_pretty(&value).context("cannot serialise the new settings")?;
    text.push('\n');
    let backup = settings_file::write_backup(&target, &original)?;
    settings_file::replace_atomically(&target, text.as_bytes())
        .with_context(|| format!("cannot write {} (the original is unchanged)", path.display()))?;
    Ok(InstallReport {
        path: path.to_path_buf(),
        summary,
        backup: Some(backup),
        seal_path: None,
        claude: None,
        warnings: Vec::new(),
    })
}

fn parse_error(path: &Path, e: &serde_json::Error) -> anyhow::Error {
    let msg = crate::json_error::message_without_position(e);
    anyhow!(
        "cannot parse {} as JSON: {msg} at line {}, column {}; left it untouched",
        path.display(),
        e.line(),
        e.column()
    )
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
        assert!(text.starts_with("{\n  \"b\": 1,\n  \"hooks\""), "{text}");
        assert!(text.ends_with("}\n"));
        assert!(text.contains(r#""command": "/fo/failopen seal -- /bin/sh -c '/g.sh'""#), "{text}");
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
}
