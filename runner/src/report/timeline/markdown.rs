//! Markdown timeline: "what changed when". A heading, the one-line summary,
//! then one heading per version that changed something (oldest first) with
//! one bullet per change point, then the versions that were not run because
//! their binary is byte-identical to another version's.

use std::fmt::Write;

use super::change_text;
use super::model::Timeline;
use crate::record::Row;
use crate::report::article::md_escape;
use crate::report::Exporter;

/// The Markdown timeline.
#[derive(Debug, Default)]
pub struct TimelineMarkdown;

/// Text as inline code (a backtick inside would end it early: it becomes `'`).
fn code(s: &str) -> String {
    format!("`{}`", s.replace('`', "'").replace(['\n', '\r'], " "))
}

impl Exporter for TimelineMarkdown {
    fn render(&self, rows: &[Row]) -> anyhow::Result<String> {
        Ok(render(&Timeline::from_rows(rows)))
    }
}

/// The page for a timeline.
pub fn render(t: &Timeline) -> String {
    let mut s = String::from("# failopen timeline: what changed when\n\n");
    if t.is_empty() {
        s.push_str("No rows.\n");
        return s;
    }
    let _ = writeln!(s, "{}.\n", md_escape(&t.headline()));
    s.push_str(
        "A change point is a version where a cell's verdict differs from its verdict on the previous \
         version that ran it.\n\n",
    );
    let groups = t.changes_by_version();
    if groups.is_empty() {
        s.push_str("No cell's verdict changed between versions.\n\n");
    }
    for (version, changes) in groups {
        let copied = t.versions.iter().find(|c| c.version == version).and_then(|c| c.identical_to.as_deref());
        match copied {
            Some(x) => {
                let _ = writeln!(s, "## {} (identical binary of {}: not run)\n", md_escape(version), md_escape(x));
            }
            None => {
                let _ = writeln!(s, "## {}\n", md_escape(version));
            }
        }
        for c in changes {
            let _ = writeln!(s, "- {}: {} (after {})", code(&c.arm), change_text(c), md_escape(&c.from_version));
        }
        s.push('\n');
    }
    let identical: Vec<_> = t.identical_columns().collect();
    if !identical.is_empty() {
        s.push_str("## Identical binaries\n\n");
        s.push_str(
            "These versions were not run: their binary is byte-identical to another version's, whose \
             verdicts they carry.\n\n",
        );
        for c in identical {
            let _ = writeln!(
                s,
                "- {}: identical to {}",
                md_escape(&c.version),
                md_escape(c.identical_to.as_deref().unwrap_or_default())
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_helpers::row;
    use crate::verdict::VerdictKind::{Blocked as B, Wrote as W};

    #[test]
    fn one_bullet_per_change_under_its_version() {
        let rows = [
            row("2.1.10", "crash/native", 1, B, ""),
            row("2.1.9", "crash/native", 1, W, ""),
            row("2.1.9", "missing/native", 1, W, ""),
            row("2.1.10", "missing/native", 1, B, ""),
            row("2.1.10", "deny/b`are", 1, B, ""),
            row("2.1.11", "deny/b`are", 1, W, ""),
        ];
        let md = TimelineMarkdown.render(&rows).unwrap();
        assert!(md.contains("3 versions from 2.1.9 to 2.1.11, 3 cells, 3 change points."), "{md}");
        assert!(
            md.contains("## 2.1.10\n\n- `crash/native`: wrote → blocked (after 2.1.9)\n- `missing/native`: wrote → blocked (after 2.1.9)\n"),
            "{md}"
        );
        assert!(
            md.contains("## 2.1.11\n\n- `deny/b'are`: blocked → wrote (after 2.1.10)\n"),
            "a backtick cannot end the code\n{md}"
        );
        assert!(!md.contains("Identical binaries"), "{md}");
    }
}
