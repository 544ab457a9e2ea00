//! Reading a results folder for the site, by the names `failopen` gives its
//! files there (top level only, in name order):
//!
//! - the reference runs, [`REFERENCE`]: `claude-*.csv`, `codex-*.csv`,
//!   `gemini-*.csv`, `interactive-*.csv` (the rows of the grids and cells);
//! - [`HISTORY`] and its ledger [`LEDGER`], when present (the timeline);
//! - the bisects, `bisect-*.txt`.

use std::path::{Path, PathBuf};

use super::{Bisect, Catalog, Site};
use crate::history::ledger::Ledger;
use crate::record::{read_rows, Row};

/// The name prefixes of the reference runs (each `PREFIX*.csv`).
pub const REFERENCE: [&str; 4] = ["claude-", "codex-", "gemini-", "interactive-"];
/// The history's rows.
pub const HISTORY: &str = "history.csv";
/// The history's ledger.
pub const LEDGER: &str = "history-versions.csv";
/// The name prefix of a bisect's output (each `bisect-*.txt`).
pub const BISECT: &str = "bisect-";

/// The reference rows and the rest of the site's inputs, read from `dir`.
pub fn read(dir: &Path) -> anyhow::Result<(Vec<Row>, Site)> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| anyhow::anyhow!("{}: not a results folder to build the site from: {e}", dir.display()))?;
    let mut names: Vec<String> = entries.flatten().filter_map(|e| e.file_name().into_string().ok()).collect();
    names.sort();
    let path = |name: &str| -> PathBuf { dir.join(name) };
    let flat = |e: crate::record::RecordError| anyhow::anyhow!("{:#}", anyhow::Error::new(e));
    let mut rows = Vec::new();
    let mut site = Site { catalog: Catalog::builtin()?, ..Site::default() };
    for name in &names {
        let reference = REFERENCE.iter().any(|p| name.starts_with(p)) && name.ends_with(".csv");
        if reference && path(name).is_file() {
            rows.extend(read_rows(&path(name)).map_err(flat)?);
        } else if name.starts_with(BISECT) && name.ends_with(".txt") {
            let text =
                std::fs::read_to_string(path(name)).map_err(|e| anyhow::anyhow!("{}: {e}", path(name).display()))?;
            site.bisects.push(Bisect::parse(&path(name).display().to_string(), &text)?);
            if let Some(b) = site.bisects.last_mut() {
                b.file = name.clone();
            }
        }
    }
    if rows.is_empty() {
        anyhow::bail!(
            "{}: no reference rows to build the site from (files {})",
            dir.display(),
            REFERENCE.map(|p| format!("{p}*.csv")).join(", ")
        );
    }
    if path(HISTORY).is_file() {
        site.history = read_rows(&path(HISTORY)).map_err(flat)?;
    }
    if path(LEDGER).is_file() {
        site.ledger = Ledger::open(&path(LEDGER))?.entries().to_vec();
    }
    Ok((rows, site))
}
