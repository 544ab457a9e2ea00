//! The CSV row: one per session, appended and flushed as each session ends.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::hook_type::HookType;
use crate::verdict::VerdictKind;

/// The columns, in order. The first fifteen are the contract (its
/// `agent_version` holds the version of whichever agent ran: see `agent`;
/// files written before it was renamed call it `claude_version`, and still
/// read, merge and diff);
/// the rest are
/// extras, each added after the ones before it (files written before one
/// was added still read, merge and diff: see [`Format`]).
pub const HEADER: [&str; 22] = [
    "agent_version",
    "model",
    "arm",
    "guard",
    "wrapper",
    "repeat",
    "verdict",
    "reason",
    "file_bytes",
    "hook_invocations",
    "hook_outcomes",
    "attempts",
    "session_exit",
    "session_secs",
    "harness_said",
    "file_ready",
    "hook_timeout",
    "deadline",
    "flags",
    "hook_type",
    "mode",
    "agent",
];

/// The first column's name in results files written before it was renamed
/// `agent_version`: it held the version of whichever agent ran, not only
/// Claude Code's.
pub const LEGACY_VERSION_COLUMN: &str = "claude_version";

/// The layouts a results file may have: the columns of [`HEADER`] up to one
/// of them. Rows read from an older layout get the missing columns'
/// defaults; rows appended to one are written in its layout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Up to `flags` (before `hook_type`): every row is a command or HTTP hook.
    V1,
    /// Up to `hook_type` (before `mode`): every row is a `claude -p` session.
    V2,
    /// Up to `mode` (before `agent`): every row is a Claude Code session.
    V3,
    /// Up to `agent`.
    V4,
}

impl Format {
    /// How many columns of [`HEADER`] this layout has.
    pub fn columns(self) -> usize {
        match self {
            Format::V1 => 19,
            Format::V2 => 20,
            Format::V3 => 21,
            Format::V4 => 22,
        }
    }

    /// The layout whose header line is `line`, if any: its first column
    /// named `agent_version`, or [`LEGACY_VERSION_COLUMN`] in a file
    /// written before the rename.
    pub fn of_header(line: &str) -> Option<Format> {
        let line = match line.strip_prefix(LEGACY_VERSION_COLUMN) {
            Some(rest) if rest.is_empty() || rest.starts_with(',') => format!("{}{rest}", HEADER[0]),
            _ => line.to_string(),
        };
        [Format::V4, Format::V3, Format::V2, Format::V1].into_iter().find(|f| line == HEADER[..f.columns()].join(","))
    }
}

/// One session's row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The version of the agent that ran (see [`Row::agent`]), as its
    /// `--version` reports it (`claude_version` in older files).
    #[serde(alias = "claude_version")]
    pub agent_version: String,
    /// `scripted` or `live`.
    pub model: String,
    /// Arm name.
    pub arm: String,
    /// Guard name.
    pub guard: String,
    /// Wrapper name.
    pub wrapper: String,
    /// Repeat number, from 1.
    pub repeat: u32,
    /// The verdict.
    pub verdict: VerdictKind,
    /// Why `invalid` (empty otherwise).
    pub reason: String,
    /// Size of notes.txt (empty when absent).
    pub file_bytes: Option<u64>,
    /// Guard invocations seen in its trace.
    pub hook_invocations: u32,
    /// The agent's hook outcomes, `;`-separated: Claude Code's from its hook events
    /// (`error:2;error:2`); Codex and Gemini CLI report none, so what ran
    /// instead (`ran:command`, `ran:patch`; `ran`, `error:policy_violation`).
    pub hook_outcomes: String,
    /// Write attempts, `Tool:result;...`.
    pub attempts: String,
    /// How the session ended.
    pub session_exit: String,
    /// Wall seconds.
    pub session_secs: f64,
    /// The last refusal text the harness sent back (truncated).
    pub harness_said: String,
    /// notes.txt reads `ready` (empty when absent).
    pub file_ready: Option<bool>,
    /// The hook's timeout, seconds.
    pub hook_timeout: f64,
    /// The wrapper's deadline, seconds.
    pub deadline: f64,
    /// Extra marks, `;`-separated (e.g. `control-failed`).
    pub flags: String,
    /// `command`, `http`, `prompt`, `agent` or `mcp_tool` (empty in files
    /// written before the column: [`Row::hook_type`] reads it from the guard).
    #[serde(default)]
    pub hook_type: String,
    /// `print` or `interactive` (empty in files written before the column:
    /// [`Row::mode`] reads it as print, the only mode there was).
    #[serde(default)]
    pub mode: String,
    /// `claude-code`, `codex` or `gemini` (empty in files written before the
    /// column: [`Row::agent`] reads it as Claude Code, the only agent there was).
    #[serde(default)]
    pub agent: String,
}

impl Row {
    /// The hook type, for a row from before the `hook_type` column too
    /// (those were all command hooks, or HTTP hooks for `http-*` guards).
    pub fn hook_type(&self) -> &str {
        match self.hook_type.as_str() {
            "" if self.guard.starts_with("http-") => HookType::Http.as_str(),
            "" => HookType::Command.as_str(),
            t => t,
        }
    }
}

impl Row {
    /// How the session ran Claude Code; a row from before the `mode`
    /// column (or with a spelling failopen never writes) is print.
    pub fn mode(&self) -> crate::mode::Mode {
        crate::mode::Mode::of_csv(&self.mode).unwrap_or_default()
    }

    /// Which agent ran the session; a row from before the `agent` column (or
    /// with a spelling failopen never writes) is Claude Code.
    pub fn agent(&self) -> crate::agent::Agent {
        crate::agent::Agent::of_csv(&self.agent).unwrap_or_default()
    }
}

/// Why a results file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// I/O trouble.
    #[error("{path}")]
    Io { path: String, source: std::io::Error },
    /// The header is not failopen's.
    #[error("{path}: not a failopen results file: header is {found:?}, expected {expected:?}")]
    Header { path: String, found: String, expected: String },
    /// A row needs a column the file's layout lacks (an interactive row
    /// appended to a file from before the `mode` column would read as print,
    /// a Codex row to one from before `agent` as Claude Code).
    #[error("{path}: this file has no `{column}` column (written by an older failopen), so a {value} row cannot be appended to it; write to a new file, then `failopen merge` the two")]
    Layout { path: String, column: &'static str, value: String },
    /// A row does not parse.
    #[error("{path}: line {line}: {message}")]
    Row { path: String, line: u64, message: String },
}

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> RecordError + '_ {
    move |source| RecordError::Io { path: path.display().to_string(), source }
}

/// Appends rows to a CSV, writing the header first if the file is new, and
/// flushing each row before returning.
#[derive(Debug)]
pub struct RowWriter {
    path: PathBuf,
    file: File,
    format: Format,
}

impl RowWriter {
    /// Create (or append to) `path`. An existing non-empty file must have
    /// failopen's header; a truncated last line (a writer killed mid-row) is
    /// cut off so the next row starts clean.
    pub fn open(path: &Path) -> Result<RowWriter, RecordError> {
        let mut file = OpenOptions::new().create(true).read(true).append(true).open(path).map_err(io_err(path))?;
        let len = file.metadata().map_err(io_err(path))?.len();
        let format = if len == 0 {
            let mut w = csv::Writer::from_writer(Vec::new());
            w.write_record(HEADER)
                .map_err(|e| RecordError::Io { path: path.display().to_string(), source: e.into() })?;
            file.write_all(&w.into_inner().unwrap_or_default()).map_err(io_err(path))?;
            file.flush().map_err(io_err(path))?;
            Format::V4
        } else {
            let format = check_header(path)?;
            repair_truncated_tail(path, &mut file)?;
            format
        };
        Ok(RowWriter { path: path.to_path_buf(), file, format })
    }

    /// Append one row and flush it to the OS. If the write fails (disk
    /// full), the part of the row that got out is cut off again, so the file
    /// still ends with a whole row.
    pub fn append(&mut self, row: &Row) -> Result<(), RecordError> {
        if self.format.columns() < Format::V3.columns() && row.mode() != crate::mode::Mode::Print {
            let path = self.path.display().to_string();
            return Err(RecordError::Layout { path, column: "mode", value: row.mode().as_str().to_string() });
        }
        // A file from before the agent column holds the unnamed agent's (Claude Code's) rows only.
        if self.format.columns() < Format::V4.columns() && !row.agent().driver().implied_when_unnamed() {
            let path = self.path.display().to_string();
            return Err(RecordError::Layout { path, column: "agent", value: row.agent().as_str().to_string() });
        }
        let bytes = encode(row, self.format)
            .map_err(|e| RecordError::Io { path: self.path.display().to_string(), source: e.into() })?;
        let before = self.file.metadata().map_err(io_err(&self.path))?.len();
        if let Err(e) = self.file.write_all(&bytes).and_then(|()| self.file.flush()) {
            let _ = self.file.set_len(before);
            return Err(io_err(&self.path)(e));
        }
        Ok(())
    }

    /// The file being written.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// One row as a CSV line in `format`'s columns.
pub fn encode(row: &Row, format: Format) -> Result<Vec<u8>, csv::Error> {
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    w.serialize(row)?;
    let full = w.into_inner().map_err(|e| e.into_error())?;
    if format == Format::V4 {
        return Ok(full);
    }
    let mut record = csv::StringRecord::new();
    csv::ReaderBuilder::new().has_headers(false).from_reader(full.as_slice()).read_record(&mut record)?;
    record.truncate(format.columns());
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(Vec::new());
    w.write_record(&record)?;
    w.into_inner().map_err(|e| e.into_error().into())
}

fn check_header(path: &Path) -> Result<Format, RecordError> {
    let f = File::open(path).map_err(io_err(path))?;
    let mut first = String::new();
    BufReader::new(f).read_line(&mut first).map_err(io_err(path))?;
    let found = first.trim_end_matches(['\n', '\r']);
    Format::of_header(found).ok_or_else(|| RecordError::Header {
        path: path.display().to_string(),
        found: found.into(),
        expected: HEADER.join(","),
    })
}

/// Cut a last line that has no newline (left by a writer killed mid-row).
fn repair_truncated_tail(path: &Path, file: &mut File) -> Result<(), RecordError> {
    let bytes = std::fs::read(path).map_err(io_err(path))?;
    if bytes.last() == Some(&b'\n') {
        return Ok(());
    }
    let keep = bytes.iter().rposition(|&b| b == b'\n').map(|i| i + 1).unwrap_or(0);
    file.set_len(keep as u64).map_err(io_err(path))?;
    file.seek(SeekFrom::End(0)).map_err(io_err(path))?;
    eprintln!(
        "note: {}: cut a truncated last line ({} bytes) left by an interrupted writer",
        path.display(),
        bytes.len() - keep
    );
    Ok(())
}

/// Read every row of a results CSV, checking the header.
pub fn read_rows(path: &Path) -> Result<Vec<Row>, RecordError> {
    check_header(path)?;
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| RecordError::Io { path: path.display().to_string(), source: e.into() })?;
    let mut rows = Vec::new();
    for (i, result) in reader.deserialize::<Row>().enumerate() {
        match result {
            Ok(row) => rows.push(row),
            Err(e) => {
                let line = e.position().map(|p| p.line()).unwrap_or(i as u64 + 2);
                return Err(RecordError::Row { path: path.display().to_string(), line, message: e.to_string() });
            }
        }
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn sample(arm: &str, verdict: VerdictKind) -> Row {
        Row {
            agent_version: "2.1.328".into(),
            model: "scripted".into(),
            arm: arm.into(),
            guard: arm.split('/').next().unwrap().into(),
            wrapper: arm.split('/').nth(1).unwrap().into(),
            repeat: 1,
            verdict,
            reason: String::new(),
            file_bytes: None,
            hook_invocations: 2,
            hook_outcomes: "error:2;error:2".into(),
            attempts: "Bash:refused;Write:refused".into(),
            session_exit: "0".into(),
            session_secs: 1.25,
            harness_said: "PreToolUse:Write hook error: \"quoted\", comma".into(),
            file_ready: None,
            hook_timeout: 5.0,
            deadline: 3.0,
            flags: String::new(),
            hook_type: "command".into(),
            mode: "print".into(),
            agent: "claude-code".into(),
        }
    }

    #[test]
    fn header_starts_with_the_contract_columns() {
        assert_eq!(
            HEADER[..15].join(","),
            "agent_version,model,arm,guard,wrapper,repeat,verdict,reason,file_bytes,hook_invocations,hook_outcomes,attempts,session_exit,session_secs,harness_said"
        );
    }

    #[test]
    fn rows_round_trip_and_are_on_disk_after_append() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("r.csv");
        let mut w = RowWriter::open(&p).unwrap();
        let a = sample("deny/bare", VerdictKind::Blocked);
        w.append(&a).unwrap();
        // Read while the writer is still open: the row is already there.
        assert_eq!(read_rows(&p).unwrap(), vec![a.clone()]);
        let mut b = sample("crash/bare", VerdictKind::Wrote);
        b.file_bytes = Some(6);
        b.file_ready = Some(true);
        w.append(&b).unwrap();
        drop(w);
        assert_eq!(read_rows(&p).unwrap(), vec![a, b]);
    }

    #[test]
    fn files_from_before_the_hook_type_column_still_read_and_append() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("old.csv");
        let old_header = HEADER[..19].join(",");
        let mut http = sample("http-deny/bare", VerdictKind::Blocked);
        http.hook_type = String::new();
        let line = String::from_utf8(encode(&http, Format::V1).unwrap()).unwrap();
        let fields = |text: &str| {
            let mut r = csv::ReaderBuilder::new().has_headers(false).from_reader(text.as_bytes());
            r.records().map(|rec| rec.unwrap().len()).collect::<Vec<_>>()
        };
        assert_eq!(fields(&line), [19], "{line}");
        std::fs::write(&p, format!("{old_header}\n{line}")).unwrap();
        let rows = read_rows(&p).unwrap();
        assert_eq!((rows[0].hook_type.as_str(), rows[0].hook_type()), ("", "http"));
        // Appending keeps the file's own layout.
        let mut w = RowWriter::open(&p).unwrap();
        w.append(&sample("crash/bare", VerdictKind::Wrote)).unwrap();
        let text = std::fs::read_to_string(&p).unwrap();
        assert_eq!(fields(&text), [19, 19, 19], "{text}");
        assert_eq!(read_rows(&p).unwrap()[1].hook_type(), "command");
    }

    #[test]
    fn files_from_before_the_mode_column_read_as_print_and_refuse_an_interactive_row() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("v2.csv");
        let mut row = sample("deny/bare", VerdictKind::Blocked);
        row.mode = String::new();
        let line = String::from_utf8(encode(&row, Format::V2).unwrap()).unwrap();
        std::fs::write(&p, format!("{}\n{line}", HEADER[..20].join(","))).unwrap();
        let rows = read_rows(&p).unwrap();
        assert_eq!(rows[0].mode(), crate::mode::Mode::Print);
        let mut w = RowWriter::open(&p).unwrap();
        w.append(&sample("crash/bare", VerdictKind::Wrote)).unwrap();
        let mut inter = sample("crash/bare", VerdictKind::Wrote);
        inter.mode = "interactive".into();
        let e = w.append(&inter).unwrap_err();
        assert!(matches!(e, RecordError::Layout { column: "mode", .. }), "{e}");
        assert_eq!(read_rows(&p).unwrap().len(), 2, "the refused row is not written");
        // A new file has the column, and the row reads back as written.
        let q = d.path().join("v3.csv");
        RowWriter::open(&q).unwrap().append(&inter).unwrap();
        assert_eq!(read_rows(&q).unwrap(), vec![inter]);
    }

    #[test]
    fn files_from_before_the_agent_column_read_as_claude_code_and_refuse_a_codex_row() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("v3.csv");
        let mut row = sample("deny/bare", VerdictKind::Blocked);
        row.agent = String::new();
        let line = String::from_utf8(encode(&row, Format::V3).unwrap()).unwrap();
        std::fs::write(&p, format!("{}\n{line}", HEADER[..21].join(","))).unwrap();
        let rows = read_rows(&p).unwrap();
        assert_eq!(rows[0].agent(), crate::agent::Agent::ClaudeCode);
        let mut w = RowWriter::open(&p).unwrap();
        w.append(&sample("crash/bare", VerdictKind::Wrote)).unwrap();
        let mut codex = sample("crash/bare", VerdictKind::Wrote);
        codex.agent = "codex".into();
        let e = w.append(&codex).unwrap_err();
        assert!(matches!(e, RecordError::Layout { column: "agent", .. }), "{e}");
        assert_eq!(read_rows(&p).unwrap().len(), 2, "the refused row is not written");
        let q = d.path().join("v4.csv");
        RowWriter::open(&q).unwrap().append(&codex).unwrap();
        assert_eq!(read_rows(&q).unwrap(), vec![codex]);
    }

    #[test]
    fn files_whose_version_column_has_its_older_name_still_read_and_append() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("legacy.csv");
        let legacy = HEADER.join(",").replacen("agent_version", LEGACY_VERSION_COLUMN, 1);
        assert!(legacy.starts_with("claude_version,model,"), "{legacy}");
        std::fs::write(&p, format!("{legacy}\n")).unwrap();
        let a = sample("deny/bare", VerdictKind::Blocked);
        RowWriter::open(&p).unwrap().append(&a).unwrap();
        assert_eq!(read_rows(&p).unwrap(), vec![a]);
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(text.starts_with(&legacy), "its header is kept: {text}");
        // Only the first column's older name: a header naming it elsewhere is no layout.
        assert_eq!(Format::of_header(&format!("model,{LEGACY_VERSION_COLUMN}")), None);
        assert_eq!(Format::of_header("claude_versionx,model"), None);
    }

    #[test]
    fn wrong_header_is_refused() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("x.csv");
        std::fs::write(&p, "a,b\n1,2\n").unwrap();
        assert!(matches!(read_rows(&p), Err(RecordError::Header { .. })));
        assert!(matches!(RowWriter::open(&p), Err(RecordError::Header { .. })));
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "a,b\n1,2\n", "nothing lost");
    }

    #[test]
    fn truncated_tail_is_cut_on_reopen() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("r.csv");
        let mut w = RowWriter::open(&p).unwrap();
        w.append(&sample("deny/bare", VerdictKind::Blocked)).unwrap();
        drop(w);
        let mut f = OpenOptions::new().append(true).open(&p).unwrap();
        f.write_all(b"2.1.328,scripted,crash/ba").unwrap();
        drop(f);
        let mut w = RowWriter::open(&p).unwrap();
        w.append(&sample("crash/bare", VerdictKind::Wrote)).unwrap();
        let rows = read_rows(&p).unwrap();
        assert_eq!(rows.iter().map(|r| r.arm.as_str()).collect::<Vec<_>>(), ["deny/bare", "crash/bare"]);
    }
}
