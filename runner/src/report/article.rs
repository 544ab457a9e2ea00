//! The article's table: arm, blocked/runs, verdict; one block per version.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::grid::{Grid, Report};
use super::Exporter;
use crate::record::Row;
use crate::tally::{Summary, Tally};
use crate::verdict::VerdictKind;

/// The article-shaped table (Markdown).
#[derive(Debug, Default)]
pub struct ArticleTable;

/// Counts for one arm.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Counts {
    /// Blocked runs.
    pub blocked: u32,
    /// Wrote runs.
    pub wrote: u32,
    /// Invalid runs.
    pub invalid: u32,
}

impl Counts {
    /// All runs.
    pub fn runs(&self) -> u32 {
        self.blocked + self.wrote + self.invalid
    }

    /// One word for the cell: `blocked`, `wrote`, `invalid`, or `mixed`.
    pub fn summary(&self) -> &'static str {
        match (self.blocked, self.wrote, self.invalid) {
            (_, 0, 0) if self.blocked > 0 => "blocked",
            (0, _, 0) if self.wrote > 0 => "wrote",
            (0, 0, _) => "invalid",
            _ => "mixed",
        }
    }

    fn add(&mut self, v: VerdictKind) {
        match v {
            VerdictKind::Blocked => self.blocked += 1,
            VerdictKind::Wrote => self.wrote += 1,
            VerdictKind::Invalid => self.invalid += 1,
        }
    }
}

/// Rows grouped by version, then arm in first-seen order.
pub fn group(rows: &[Row]) -> BTreeMap<String, Vec<(String, Counts)>> {
    let mut out: BTreeMap<String, Vec<(String, Counts)>> = BTreeMap::new();
    for r in rows {
        let arms = out.entry(r.claude_version.clone()).or_default();
        let idx = match arms.iter().position(|(a, _)| *a == r.arm) {
            Some(i) => i,
            None => {
                arms.push((r.arm.clone(), Counts::default()));
                arms.len() - 1
            }
        };
        arms[idx].1.add(r.verdict);
    }
    out
}

impl Exporter for ArticleTable {
    fn render(&self, rows: &[Row]) -> anyhow::Result<String> {
        let mut s = String::new();
        for grid in Report::from_rows(rows).versions {
            writeln!(s, "Claude Code {}\n", grid.version)?;
            s.push_str(&table(&grid));
            writeln!(s)?;
        }
        Ok(s)
    }
}

/// One version's article table (Markdown): arm, blocked/runs, verdict.
pub fn table(grid: &Grid) -> String {
    let mut s = String::new();
    s.push_str("| arm | blocked/runs | verdict |\n| --- | --- | --- |\n");
    for a in &grid.arms {
        let c = &a.tally;
        s.push_str(&format!("| {} | {}/{} | {} |\n", md_escape(&a.arm), c.blocked, c.runs(), verdict_text(c)));
    }
    s
}

/// The article table's verdict: the summary word, plus `(N invalid)` when
/// some but not all runs were invalid.
pub fn verdict_text(c: &Tally) -> String {
    let verdict = c.summary().to_string();
    if c.invalid > 0 && c.summary() != Summary::Invalid {
        format!("{verdict} ({} invalid)", c.invalid)
    } else {
        verdict
    }
}

/// Escape text for a Markdown table cell.
pub fn md_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('|', "\\|").replace(['\n', '\r'], " ")
}
