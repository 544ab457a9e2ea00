//! Markdown: per version, the article table and the guard × wrapper grid;
//! with several versions, a side-by-side comparison marking differing cells.

use std::fmt::Write;

use super::article::{md_escape, table};
use super::grid::{Grid, Report};
use super::{Exporter, LEGEND};
use crate::record::Row;

/// The Markdown report.
#[derive(Debug, Default)]
pub struct Markdown;

/// The mark on cells whose verdict differs between versions.
pub const DIFFERS_MARK: &str = "⚠";

impl Exporter for Markdown {
    fn render(&self, rows: &[Row]) -> anyhow::Result<String> {
        let report = Report::from_rows(rows);
        let mut s = String::from("# failopen report\n\n");
        if report.is_empty() {
            s.push_str("No rows.\n");
            return Ok(s);
        }
        let several = report.versions.len() > 1;
        for g in &report.versions {
            // The column label without the agent's short name, after its full one.
            let label = g.version.strip_prefix(&format!("{} ", g.agent)).unwrap_or(&g.version);
            writeln!(s, "## {} {}\n", g.agent.display_name(), md_escape(label))?;
            s.push_str(&table(g));
            writeln!(s)?;
            s.push_str(&grid_table(g, &report, several));
            writeln!(s)?;
        }
        if several {
            s.push_str(&comparison(&report));
            writeln!(s)?;
        }
        s.push_str("Legend:\n\n");
        for (word, meaning) in LEGEND {
            writeln!(s, "- `{word}`: {meaning}")?;
        }
        writeln!(s, "- `—`: not run")?;
        if several {
            writeln!(s, "- **bold** {DIFFERS_MARK}: the verdict differs between versions")?;
        }
        Ok(s)
    }
}

fn cell_text(g: &Grid, report: &Report, row: &str, wrapper: &str, mark: bool) -> String {
    match g.cell(row, wrapper) {
        None => "—".to_string(),
        Some(a) if mark && report.differs(row, wrapper) => {
            format!("**{}** {DIFFERS_MARK}", md_escape(&a.tally.label()))
        }
        Some(a) => md_escape(&a.tally.label()),
    }
}

/// One version's grid: a row per guard, a column per wrapper.
fn grid_table(g: &Grid, report: &Report, mark: bool) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "| guard | {} |", g.wrappers.iter().map(|w| md_escape(w)).collect::<Vec<_>>().join(" | "));
    let _ = writeln!(s, "| --- |{}", " --- |".repeat(g.wrappers.len()));
    for r in &g.rows {
        let cells: Vec<String> = g.wrappers.iter().map(|w| cell_text(g, report, r, w, mark)).collect();
        let _ = writeln!(s, "| {} | {} |", md_escape(r), cells.join(" | "));
    }
    s
}

/// Every cell (guard / wrapper) against every version.
fn comparison(report: &Report) -> String {
    let mut s = String::from("## Across versions\n\n");
    let differing = report.differing();
    if differing.is_empty() {
        s.push_str("No cell's verdict differs between versions.\n\n");
    } else {
        let names: Vec<String> = differing.iter().map(|(r, w)| format!("`{r}/{w}`")).collect();
        let _ = writeln!(s, "{} cell(s) differ between versions: {}.\n", differing.len(), names.join(", "));
    }
    let versions: Vec<String> = report.versions.iter().map(|g| md_escape(&g.version)).collect();
    let _ = writeln!(s, "| guard / wrapper | {} |", versions.join(" | "));
    let _ = writeln!(s, "| --- |{}", " --- |".repeat(versions.len()));
    for r in &report.rows {
        for w in &report.wrappers {
            if report.versions.iter().all(|g| g.cell(r, w).is_none()) {
                continue;
            }
            let cells: Vec<String> = report.versions.iter().map(|g| cell_text(g, report, r, w, true)).collect();
            let _ = writeln!(s, "| {} / {} | {} |", md_escape(r), md_escape(w), cells.join(" | "));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_helpers::row;
    use crate::verdict::VerdictKind::{Blocked as B, Invalid as I, Wrote as W};

    #[test]
    fn grid_cells_and_not_run_dash() {
        let rows = [row("2.1.328", "deny/bare", 1, B, ""), row("2.1.328", "crash/plain", 1, I, "session-timeout")];
        let md = Markdown.render(&rows).unwrap();
        assert!(md.contains("| guard | bare | plain |"), "{md}");
        assert!(md.contains("| deny | blocked 1/1 | — |"), "{md}");
        assert!(md.contains("| crash | — | invalid 1/1 (session-timeout) |"), "{md}");
        assert!(!md.contains("Across versions"), "one version: no comparison\n{md}");
    }

    #[test]
    fn differing_cells_are_marked_only_where_they_differ() {
        let rows = [
            row("2.1.328", "crash/native", 1, B, ""),
            row("2.1.328", "deny/bare", 1, B, ""),
            row("2.1.240", "crash/native", 1, W, ""),
            row("2.1.240", "deny/bare", 1, B, ""),
        ];
        let md = Markdown.render(&rows).unwrap();
        assert!(md.contains("| crash / native | **wrote 1/1** ⚠ | **blocked 1/1** ⚠ |"), "{md}");
        assert!(md.contains("| deny / bare | blocked 1/1 | blocked 1/1 |"), "{md}");
        assert!(md.contains("1 cell(s) differ between versions: `crash/native`."), "{md}");
    }
}
