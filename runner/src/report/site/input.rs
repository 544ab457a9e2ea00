//! Reading a results folder for the site, by the names `failopen` gives its
//! files there (top level only, in name order):
//!
//! - the reference runs, [`is_reference`]: every agent's `<agent>-*.csv`
//!   (each driver names its prefixes: `codex-`, `qwen-`, `agent-sdk-ts-`,
//!   Claude Code's `claude-` and `interactive-`), histories left out (the
//!   rows of the grids and cells);
//! - [`HISTORY`] and its ledger [`LEDGER`], when present (the timeline);
//! - the bisects, `bisect-*.txt`;
//! - the census of public guards, [`CENSUS`] and each row's evidence in `census/`.

use std::path::{Path, PathBuf};

use super::census_page::CensusEntry;
use super::{Bisect, Catalog, Site};
use crate::agent::Agent;
use crate::history::ledger::Ledger;
use crate::record::{read_rows, Row};

/// The history's rows.
pub const HISTORY: &str = "history.csv";
/// The history's ledger.
pub const LEDGER: &str = "history-versions.csv";
/// The census's rows (`failopen census`).
pub const CENSUS: &str = "census.csv";
/// The name prefix of a bisect's output (each `bisect-*.txt`).
pub const BISECT: &str = "bisect-";

/// Whether a file of a results folder is a reference run: a CSV named by an
/// agent's prefix ([`Agent::results_prefixes`]) that is not a history or its
/// ledger (`copilot-history.csv`, `agent-sdk-ts-history-versions.csv`).
pub fn is_reference(name: &str) -> bool {
    let history = [HISTORY, LEDGER].iter().any(|h| name == *h || name.ends_with(&format!("-{h}")));
    let named = Agent::ALL.iter().flat_map(|(_, a)| a.results_prefixes()).any(|p| name.starts_with(&p));
    named && name.ends_with(".csv") && !history
}

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
        if is_reference(name) && path(name).is_file() {
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
        let names: Vec<String> =
            Agent::ALL.iter().flat_map(|(_, a)| a.results_prefixes()).map(|p| format!("{p}*.csv")).collect();
        anyhow::bail!("{}: no reference rows to build the site from (files {})", dir.display(), names.join(", "));
    }
    if path(HISTORY).is_file() {
        site.history = read_rows(&path(HISTORY)).map_err(flat)?;
    }
    if path(LEDGER).is_file() {
        site.ledger = Ledger::open(&path(LEDGER))?.entries().to_vec();
    }
    if path(CENSUS).is_file() {
        site.census = read_census(dir)?;
    }
    Ok((rows, site))
}

/// The census rows of `dir/census.csv`, each with its evidence JSON.
fn read_census(dir: &Path) -> anyhow::Result<Vec<CensusEntry>> {
    let mut out = Vec::new();
    for row in crate::census::row::read_rows(&dir.join(CENSUS))? {
        let mut e = CensusEntry { row, evidence: serde_json::Value::Null };
        let file = dir.join(e.evidence_path());
        let text = std::fs::read(&file).map_err(|err| anyhow::anyhow!("{}: {err}", file.display()))?;
        e.evidence = serde_json::from_slice(&text).map_err(|err| anyhow::anyhow!("{}: {err}", file.display()))?;
        out.push(e);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::is_reference;

    #[test]
    fn every_agents_runs_are_read_and_histories_are_not() {
        for name in [
            "claude-2.1.328.csv",
            "interactive-surface-2.1.240.csv",
            "codex-0.171.0.csv",
            "qwen-0.24.4.csv",
            "kilo-7.0.33.csv",
            "continue-1.5.47.csv",
            "agent-sdk-ts-0.3.333.csv",
            "agent-sdk-py-0.2.189.csv",
            "copilot-shapes-http.csv",
        ] {
            assert!(is_reference(name), "{name}");
        }
        for name in [
            "history.csv",
            "history-versions.csv",
            "copilot-history.csv",
            "agent-sdk-py-history-versions.csv",
            "shapes-older.csv",
            "claude-2.1.328.txt",
            "bisect-crash-native.txt",
        ] {
            assert!(!is_reference(name), "{name}");
        }
    }
}
