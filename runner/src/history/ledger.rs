//! The history's ledger: one line per version it dealt with, beside the
//! rows (`history.csv` → `history-versions.csv`). It says which binary each
//! version was (its SHA-256, so a byte-identical later release is known
//! without a run), whether its verdicts were copied from an identical one,
//! and where the time and disk went.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// One version's line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The version, as published.
    pub version: String,
    /// SHA-256 of the file `claude` resolves to, hex.
    pub binary_sha256: String,
    /// That file's size.
    pub binary_bytes: u64,
    /// An earlier version with the same binary, whose rows were copied
    /// (flagged `identical-binary:VERSION`) instead of running sessions.
    pub identical_to: String,
    /// Wall seconds spent installing it (0 when it was already in the
    /// cache). The install overlaps the previous version's sessions.
    pub install_secs: f64,
    /// Sessions run for it now (0 when copied).
    pub sessions: usize,
    /// Rows of it that are invalid.
    pub invalid: usize,
    /// Wall seconds from the start of its sessions (or copy) to the end.
    pub run_secs: f64,
    /// failopen's Claude Code cache, in bytes, at its largest while this
    /// version was handled (installs in flight included).
    pub cache_bytes: u64,
    /// What ran the binary: `native`, or `node <version>` for a release that
    /// ships a JavaScript entry point (empty in ledgers written before this
    /// column).
    #[serde(default)]
    pub runtime: String,
}

/// The ledger file.
#[derive(Debug)]
pub struct Ledger {
    path: PathBuf,
    entries: Vec<Entry>,
}

/// Reading or writing the ledger failed; names the file.
#[derive(Debug, thiserror::Error)]
#[error("history ledger {path}: {message}")]
pub struct LedgerError {
    /// The ledger file.
    pub path: String,
    /// What went wrong.
    pub message: String,
}

impl Ledger {
    /// The ledger that goes with the rows file `out`: `NAME-versions.csv` beside it.
    pub fn path_for(out: &Path) -> PathBuf {
        let stem = out.file_stem().and_then(|s| s.to_str()).unwrap_or("history");
        out.with_file_name(format!("{stem}-versions.csv"))
    }

    /// Open (reading what an earlier, interrupted history wrote).
    pub fn open(path: &Path) -> Result<Ledger, LedgerError> {
        let err = |message: String| LedgerError { path: path.display().to_string(), message };
        let mut entries = Vec::new();
        if path.exists() {
            let mut reader = csv::Reader::from_path(path).map_err(|e| err(e.to_string()))?;
            for (i, record) in reader.deserialize::<Entry>().enumerate() {
                entries.push(record.map_err(|e| err(format!("line {}: {e}", i + 2)))?);
            }
        }
        Ok(Ledger { path: path.to_path_buf(), entries })
    }

    /// The ledger's file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every entry, in the order written.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The latest entry for `version`.
    pub fn get(&self, version: &str) -> Option<&Entry> {
        self.entries.iter().rev().find(|e| e.version == version)
    }

    /// The earliest version other than `version` whose binary has `sha256`.
    pub fn same_binary(&self, sha256: &str, version: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.binary_sha256 == sha256 && e.version != version)
    }

    /// Append one entry and flush it to disk (the file is rewritten whole,
    /// through a temp file and a rename, so a kill never leaves half a line).
    pub fn record(&mut self, entry: Entry) -> Result<(), LedgerError> {
        let err = |message: String| LedgerError { path: self.path.display().to_string(), message };
        self.entries.push(entry);
        let dir = self.path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| err(e.to_string()))?;
        let mut perms = tmp.as_file().metadata().map_err(|e| err(e.to_string()))?.permissions();
        {
            let mut w = csv::Writer::from_writer(tmp.as_file());
            for e in &self.entries {
                w.serialize(e).map_err(|e| err(e.to_string()))?;
            }
            w.flush().map_err(|e| err(e.to_string()))?;
        }
        // A temp file is private (0600); the ledger is a results file like the rows beside it.
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o644);
        tmp.as_file().set_permissions(perms).map_err(|e| err(e.to_string()))?;
        tmp.as_file().sync_all().map_err(|e| err(e.to_string()))?;
        tmp.persist(&self.path).map_err(|e| err(e.to_string()))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(version: &str, sha: &str) -> Entry {
        Entry {
            version: version.into(),
            binary_sha256: sha.into(),
            binary_bytes: 10,
            identical_to: String::new(),
            install_secs: 1.5,
            sessions: 35,
            invalid: 0,
            run_secs: 20.0,
            cache_bytes: 1 << 30,
            runtime: "native".into(),
        }
    }

    #[test]
    fn entries_survive_a_reopen_and_identical_binaries_are_found() {
        let dir = tempfile::tempdir().unwrap();
        let path = Ledger::path_for(&dir.path().join("history.csv"));
        assert!(path.ends_with("history-versions.csv"));
        let mut ledger = Ledger::open(&path).unwrap();
        ledger.record(entry("2.1.1", "aa")).unwrap();
        ledger.record(entry("2.1.2", "bb")).unwrap();
        let reopened = Ledger::open(&path).unwrap();
        assert_eq!(reopened.entries(), ledger.entries());
        let mode = std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&path).unwrap().permissions());
        assert_eq!(mode & 0o777, 0o644, "readable like the rows file");
        assert_eq!(reopened.same_binary("bb", "2.1.3").map(|e| e.version.as_str()), Some("2.1.2"));
        assert!(reopened.same_binary("bb", "2.1.2").is_none(), "a version is not identical to itself");
        assert!(reopened.same_binary("cc", "2.1.3").is_none());
    }

    #[test]
    fn a_damaged_ledger_is_an_error_naming_the_file_and_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h-versions.csv");
        std::fs::write(&path, "version,binary_sha256\n2.1.1\n").unwrap();
        let e = Ledger::open(&path).unwrap_err().to_string();
        assert!(e.contains("h-versions.csv") && e.contains("line 2"), "{e}");
    }

    #[test]
    fn a_ledger_from_before_the_runtime_column_still_reads() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h-versions.csv");
        let old =
            "version,binary_sha256,binary_bytes,identical_to,install_secs,sessions,invalid,run_secs,cache_bytes\n\
                   2.1.240,ab,10,,0.0,35,0,72.35,100\n";
        std::fs::write(&path, old).unwrap();
        let mut ledger = Ledger::open(&path).unwrap();
        assert_eq!(ledger.get("2.1.240").map(|e| e.runtime.as_str()), Some(""));
        // Written back, the column is there for every line.
        ledger.record(entry("2.0.50", "cd")).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.lines().next().unwrap().ends_with(",runtime"), "{text}");
        assert_eq!(Ledger::open(&path).unwrap().get("2.0.50").unwrap().runtime, "native");
    }
}
