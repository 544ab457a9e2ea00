//! Merge results files (e.g. the shards of one run) into one.
//!
//! Every input must carry failopen's header ([`crate::record::HEADER`], or
//! an older layout of it: the output has every column, and a row from before
//! the `hook_type` column gets its hook type from its guard); a
//! (version, arm, repeat) cell may appear only once across all inputs; the
//! output may not be one of the inputs. Rows keep their input order (file by
//! file, line by line) and the header is written once. The output is written
//! to a temporary file next to it and renamed into place, so a failed merge
//! leaves no half-written file.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::record::{read_rows, RecordError, Row, HEADER};

/// Why a merge was refused.
#[derive(Debug, thiserror::Error)]
pub enum MergeError {
    /// An input could not be read, or its header is not failopen's.
    #[error(transparent)]
    Input(#[from] RecordError),
    /// The same cell is in two places.
    #[error(
        "duplicate cell ({agent} version {version}, arm {arm}, repeat {repeat}): in {first} and in {second}; \
         merge takes disjoint files (e.g. the shards of one run)"
    )]
    Duplicate { agent: &'static str, version: String, arm: String, repeat: u32, first: String, second: String },
    /// The output is one of the inputs.
    #[error("output {0} is one of the input files; refusing to overwrite an input")]
    OutIsInput(String),
    /// The output's directory is missing.
    #[error("output {out}: directory {dir} does not exist")]
    NoDir { out: String, dir: String },
    /// Writing the output failed.
    #[error("output {path}: {message}")]
    Write { path: String, message: String },
}

/// What a merge did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Merged {
    /// Rows written.
    pub rows: usize,
    /// Files read.
    pub files: usize,
    /// The file written.
    pub out: PathBuf,
}

fn same_file(a: &Path, b: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(x), Ok(y)) => x.dev() == y.dev() && x.ino() == y.ino(),
        _ => false,
    }
}

/// Read the inputs in order, refusing foreign headers and duplicate cells.
pub fn collect(inputs: &[PathBuf]) -> Result<Vec<Row>, MergeError> {
    let mut seen: HashMap<crate::cells::CellKey, String> = HashMap::new();
    let mut rows = Vec::new();
    for path in inputs {
        let name = path.display().to_string();
        for row in read_rows(path)? {
            let key = crate::cells::CellKey::of(&row);
            if let Some(first) = seen.get(&key) {
                return Err(MergeError::Duplicate {
                    agent: key.agent.as_str(),
                    version: key.agent_version,
                    arm: key.arm,
                    repeat: key.repeat,
                    first: first.clone(),
                    second: name,
                });
            }
            seen.insert(key, name.clone());
            rows.push(row);
        }
    }
    Ok(rows)
}

/// Merge `inputs` into `out` (see the module doc).
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<Merged, MergeError> {
    let out_name = out.display().to_string();
    if inputs.iter().any(|i| i == out || same_file(i, out)) {
        return Err(MergeError::OutIsInput(out_name));
    }
    let dir = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    if !dir.is_dir() {
        return Err(MergeError::NoDir { out: out_name, dir: dir.display().to_string() });
    }
    let rows = collect(inputs)?;
    let werr = |e: &dyn std::fmt::Display| MergeError::Write { path: out_name.clone(), message: e.to_string() };
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    w.write_record(HEADER).map_err(|e| werr(&e))?;
    for row in &rows {
        let hook_type = row.hook_type().to_string();
        let mode = row.mode().as_str().to_string();
        let agent = row.agent().as_str().to_string();
        w.serialize(Row { hook_type, mode, agent, ..row.clone() }).map_err(|e| werr(&e))?;
    }
    let bytes = w.into_inner().map_err(|e| werr(&e))?;
    let mut tmp = tempfile::Builder::new().prefix(".failopen-merge").tempfile_in(dir).map_err(|e| werr(&e))?;
    tmp.write_all(&bytes).map_err(|e| werr(&e))?;
    tmp.as_file().sync_all().map_err(|e| werr(&e))?;
    tmp.persist(out).map_err(|e| werr(&e.error))?;
    Ok(Merged { rows: rows.len(), files: inputs.len(), out: out.to_path_buf() })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::RowWriter;
    use crate::test_helpers::row;
    use crate::verdict::VerdictKind::{Blocked as B, Wrote as W};

    fn write(dir: &Path, name: &str, rows: &[Row]) -> PathBuf {
        let p = dir.join(name);
        let mut w = RowWriter::open(&p).unwrap();
        for r in rows {
            w.append(r).unwrap();
        }
        p
    }

    #[test]
    fn concatenates_in_input_order_with_one_header() {
        let d = tempfile::tempdir().unwrap();
        let a = write(d.path(), "a.csv", &[row("1", "deny/bare", 1, B, ""), row("1", "crash/bare", 1, W, "")]);
        let b = write(d.path(), "b.csv", &[row("1", "hang/bare", 1, W, "")]);
        let out = d.path().join("m.csv");
        let m = merge(&[b.clone(), a.clone()], &out).unwrap();
        assert_eq!(m.rows, 3);
        let arms: Vec<String> = read_rows(&out).unwrap().into_iter().map(|r| r.arm).collect();
        assert_eq!(arms, ["hang/bare", "deny/bare", "crash/bare"]);
        let text = std::fs::read_to_string(&out).unwrap();
        assert_eq!(text.matches("agent_version,").count(), 1, "{text}");
    }

    #[test]
    fn a_file_from_before_the_mode_column_merges_with_an_interactive_one() {
        let d = tempfile::tempdir().unwrap();
        let old = d.path().join("old.csv");
        let mut print = row("1", "deny/bare", 1, B, "");
        print.mode = String::new();
        let line = String::from_utf8(crate::record::encode(&print, crate::record::Format::V2).unwrap()).unwrap();
        std::fs::write(&old, format!("{}\n{line}", HEADER[..20].join(","))).unwrap();
        let mut inter = row("1", "deny/bare", 1, W, "");
        inter.mode = "interactive".into();
        let new = write(d.path(), "new.csv", &[inter]);
        let out = d.path().join("m.csv");
        merge(&[old, new], &out).expect("same arm and repeat, another mode: no duplicate");
        let modes: Vec<String> = read_rows(&out).unwrap().into_iter().map(|r| r.mode).collect();
        assert_eq!(modes, ["print", "interactive"], "the merged file says print where the old one was silent");
    }

    #[test]
    fn a_file_from_before_the_agent_column_merges_with_a_codex_one() {
        let d = tempfile::tempdir().unwrap();
        let old = d.path().join("old.csv");
        let mut claude = row("1", "deny/bare", 1, B, "");
        claude.agent = String::new();
        let line = String::from_utf8(crate::record::encode(&claude, crate::record::Format::V3).unwrap()).unwrap();
        std::fs::write(&old, format!("{}\n{line}", HEADER[..21].join(","))).unwrap();
        let mut codex = row("1", "deny/bare", 1, W, "");
        codex.agent = "codex".into();
        let new = write(d.path(), "new.csv", &[codex]);
        let out = d.path().join("m.csv");
        merge(&[old, new], &out).expect("same version, arm and repeat, another agent: no duplicate");
        let agents: Vec<String> = read_rows(&out).unwrap().into_iter().map(|r| r.agent).collect();
        assert_eq!(agents, ["claude-code", "codex"], "the merged file names Claude Code where the old one was silent");
    }

    #[test]
    fn refuses_duplicates_naming_both_files() {
        let d = tempfile::tempdir().unwrap();
        let a = write(d.path(), "a.csv", &[row("1", "deny/bare", 1, B, "")]);
        let b = write(d.path(), "b.csv", &[row("1", "deny/bare", 2, B, ""), row("1", "deny/bare", 1, W, "")]);
        let out = d.path().join("m.csv");
        let err = merge(&[a, b], &out).unwrap_err().to_string();
        assert!(err.contains("arm deny/bare, repeat 1") && err.contains("a.csv") && err.contains("b.csv"), "{err}");
        assert!(!out.exists(), "nothing written on refusal");
    }

    #[test]
    fn refuses_to_overwrite_an_input_and_a_missing_dir() {
        let d = tempfile::tempdir().unwrap();
        let a = write(d.path(), "a.csv", &[row("1", "deny/bare", 1, B, "")]);
        let before = std::fs::read(&a).unwrap();
        let same = d.path().join(".").join("a.csv");
        assert!(matches!(merge(std::slice::from_ref(&a), &same), Err(MergeError::OutIsInput(_))));
        assert_eq!(std::fs::read(&a).unwrap(), before);
        let err = merge(&[a], &d.path().join("nope/m.csv")).unwrap_err().to_string();
        assert!(err.contains("does not exist"), "{err}");
    }
}
