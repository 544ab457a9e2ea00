//! Summary CSV: one line per (version, arm) with counts and summary verdict.

use super::grid::Report;
use super::Exporter;
use crate::record::Row;

/// The summary CSV report.
#[derive(Debug, Default)]
pub struct SummaryCsv;

/// The summary's columns.
pub const SUMMARY_HEADER: [&str; 9] =
    ["version", "arm", "guard", "wrapper", "runs", "blocked", "wrote", "invalid", "verdict"];

impl Exporter for SummaryCsv {
    fn render(&self, rows: &[Row]) -> anyhow::Result<String> {
        let mut w = ::csv::Writer::from_writer(Vec::new());
        w.write_record(SUMMARY_HEADER)?;
        for g in Report::from_rows(rows).versions {
            for a in &g.arms {
                let t = &a.tally;
                w.write_record([
                    g.version.as_str(),
                    &a.arm,
                    &a.guard,
                    &a.wrapper,
                    &t.runs().to_string(),
                    &t.blocked.to_string(),
                    &t.wrote.to_string(),
                    &t.invalid.to_string(),
                    t.summary().as_str(),
                ])?;
            }
        }
        Ok(String::from_utf8(w.into_inner()?)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_helpers::row;
    use crate::verdict::VerdictKind::{Blocked as B, Invalid as I};

    #[test]
    fn one_line_per_version_and_arm() {
        let rows = [row("1.0", "deny/bare", 1, B, ""), row("1.0", "deny/bare", 2, I, "no-attempt")];
        let out = SummaryCsv.render(&rows).unwrap();
        assert_eq!(
            out,
            "version,arm,guard,wrapper,runs,blocked,wrote,invalid,verdict\n1.0,deny/bare,deny,bare,2,1,0,1,mixed\n"
        );
    }
}
