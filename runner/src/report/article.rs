//! The article's table: arm, blocked/runs, verdict; one block per version.

use std::fmt::Write;

use super::grid::{Grid, Report};
use super::Exporter;
use crate::record::Row;
use crate::tally::{Summary, Tally};

/// The article-shaped table (Markdown).
#[derive(Debug, Default)]
pub struct ArticleTable;

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
