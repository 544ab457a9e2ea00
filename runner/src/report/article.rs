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
            writeln!(s, "{} {}\n", grid.agent.display_name(), grid.agent_version)?;
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

/// One sentence per Claude Code version and missing capability that kept
/// arms from running (rows `invalid unsupported:<what>`), e.g. `Claude Code
/// 2.0.50 cannot run 2 arms: it has no --plugin-dir (no session was started).`
pub fn unsupported_notes(rows: &[Row]) -> Vec<String> {
    let mut counts: std::collections::BTreeMap<(&str, &str, &str), u32> = Default::default();
    for r in rows {
        if let Some(what) = r.reason.strip_prefix("unsupported:") {
            *counts.entry((r.agent.as_str(), r.agent_version.as_str(), what)).or_default() += 1;
        }
    }
    counts
        .into_iter()
        .map(|((agent, version, what), n)| {
            let arms = if n == 1 { "1 arm".to_string() } else { format!("{n} arms") };
            // A row's agent is as written (an old CSV's is empty: Claude Code's).
            let name = agent.parse::<crate::agent::Agent>().unwrap_or_default().display_name();
            format!("{name} {version} cannot run {arms}: it has no {what} (no session was started).")
        })
        .collect()
}

/// Escape text for a Markdown table cell.
pub fn md_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('|', "\\|").replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_helpers::row;
    use crate::verdict::VerdictKind;

    #[test]
    fn an_unsupported_capability_is_said_once_per_version() {
        let rows = [
            row("2.0.50", "deny/bare", 1, VerdictKind::Invalid, "unsupported:--plugin-dir"),
            row("2.0.50", "crash/bare", 1, VerdictKind::Invalid, "unsupported:--plugin-dir"),
            row("2.0.50", "hang/bare", 1, VerdictKind::Invalid, "session-timeout"),
            row("2.1.100", "deny/bare", 1, VerdictKind::Invalid, "unsupported:--settings"),
            row("2.1.100", "crash/bare", 1, VerdictKind::Wrote, ""),
        ];
        assert_eq!(
            unsupported_notes(&rows),
            [
                "Claude Code 2.0.50 cannot run 2 arms: it has no --plugin-dir (no session was started).",
                "Claude Code 2.1.100 cannot run 1 arm: it has no --settings (no session was started).",
            ]
        );
        assert!(unsupported_notes(&rows[2..3]).is_empty());
        let mut opencode = row("1.18.33", "deny/bare", 1, VerdictKind::Invalid, "unsupported:opencode-hooks");
        opencode.agent = "opencode".into();
        assert_eq!(
            unsupported_notes(&[opencode]),
            ["OpenCode 1.18.33 cannot run 1 arm: it has no opencode-hooks (no session was started)."]
        );
    }
}
