//! HTML: a self-contained page (inline CSS, no scripts, no external
//! resources) with, per version, the guard × wrapper grid and the article
//! table; with several versions, a comparison marking the differing cells.

use std::fmt::Write;

use super::grid::{Grid, Report};
use super::svg::{fill, NOT_RUN_FILL};
use super::{Exporter, LEGEND};
use crate::record::Row;
use crate::tally::Summary;

/// The HTML report.
#[derive(Debug, Default)]
pub struct Html;

/// Escape text for HTML.
pub fn esc(s: &str) -> String {
    super::svg::esc(s)
}

fn style() -> String {
    let mut css = String::from(
        "body{font-family:DejaVu Sans,Verdana,Arial,sans-serif;margin:2em;color:#111}\
         table{border-collapse:separate;border-spacing:3px;margin:0.5em 0 1.5em}\
         th{text-align:left;padding:4px 8px;font-weight:bold}\
         td{padding:6px 10px;border-radius:4px;min-width:7em}\
         td.notrun{background:",
    );
    css.push_str(NOT_RUN_FILL);
    css.push_str(";color:#999;text-align:center}td.differs{outline:3px solid #111}small{color:#333}");
    for s in [Summary::Blocked, Summary::Wrote, Summary::Invalid, Summary::Mixed] {
        let _ = write!(css, "td.{}{{background:{}}}", s.as_str(), fill(s));
    }
    css.push_str("table.plain td{background:#fafafa}");
    css
}

fn cell(g: &Grid, report: &Report, row: &str, wrapper: &str, several: bool) -> String {
    let Some(a) = g.cell(row, wrapper) else { return r#"<td class="notrun">—</td>"#.to_string() };
    let t = &a.tally;
    let differs = several && report.differs(row, wrapper);
    let mut text = esc(&t.headline());
    if let Some(r) = t.reasons_text() {
        let _ = write!(text, "<br><small>{}</small>", esc(&r));
    }
    if differs {
        text = format!("⚠ <strong>{text}</strong>");
    }
    let class = if differs { format!("{} differs", t.summary().as_str()) } else { t.summary().as_str().to_string() };
    format!(r#"<td class="{class}" title="{}">{text}</td>"#, esc(&a.arm))
}

fn grid_table(s: &mut String, g: &Grid, report: &Report, several: bool) {
    s.push_str("<table>\n<tr><th>guard</th>");
    for w in &g.wrappers {
        let _ = write!(s, "<th>{}</th>", esc(w));
    }
    s.push_str("</tr>\n");
    for r in &g.rows {
        let _ = write!(s, "<tr><th>{}</th>", esc(r));
        for w in &g.wrappers {
            s.push_str(&cell(g, report, r, w, several));
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</table>\n");
}

fn article_table(s: &mut String, g: &Grid) {
    s.push_str("<table class=\"plain\">\n<tr><th>arm</th><th>blocked/runs</th><th>verdict</th></tr>\n");
    for a in &g.arms {
        let t = &a.tally;
        let _ = writeln!(
            s,
            "<tr><td>{}</td><td>{}/{}</td><td>{}</td></tr>",
            esc(&a.arm),
            t.blocked,
            t.runs(),
            esc(&super::article::verdict_text(t))
        );
    }
    s.push_str("</table>\n");
}

fn comparison(s: &mut String, report: &Report) {
    s.push_str("<h2>Across versions</h2>\n");
    let differing = report.differing();
    if differing.is_empty() {
        s.push_str("<p>No cell's verdict differs between versions.</p>\n");
    } else {
        let names: Vec<String> = differing.iter().map(|(r, w)| format!("<code>{}/{}</code>", esc(r), esc(w))).collect();
        let _ = writeln!(s, "<p>{} cell(s) differ between versions: {}.</p>", differing.len(), names.join(", "));
    }
    s.push_str("<table>\n<tr><th>guard / wrapper</th>");
    for g in &report.versions {
        let _ = write!(s, "<th>{}</th>", esc(&g.version));
    }
    s.push_str("</tr>\n");
    for r in &report.rows {
        for w in &report.wrappers {
            if report.versions.iter().all(|g| g.cell(r, w).is_none()) {
                continue;
            }
            let _ = write!(s, "<tr><th>{} / {}</th>", esc(r), esc(w));
            for g in &report.versions {
                s.push_str(&cell(g, report, r, w, true));
            }
            s.push_str("</tr>\n");
        }
    }
    s.push_str("</table>\n");
}

impl Exporter for Html {
    fn render(&self, rows: &[Row]) -> anyhow::Result<String> {
        let report = Report::from_rows(rows);
        let several = report.versions.len() > 1;
        let mut s = String::from("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        s.push_str("<title>failopen report</title>\n<style>");
        s.push_str(&style());
        s.push_str("</style>\n</head>\n<body>\n<h1>Does the hook fail open?</h1>\n");
        if report.is_empty() {
            s.push_str("<p>No rows.</p>\n");
        }
        for g in &report.versions {
            let _ = writeln!(s, "<h2>Claude Code {}</h2>", esc(&g.version));
            grid_table(&mut s, g, &report, several);
            article_table(&mut s, g);
        }
        if several {
            comparison(&mut s, &report);
        }
        s.push_str("<h2>Legend</h2>\n<table>\n");
        for (summary, (word, meaning)) in
            [Summary::Blocked, Summary::Wrote, Summary::Invalid, Summary::Mixed].iter().zip(LEGEND)
        {
            let _ = writeln!(s, "<tr><td class=\"{}\">{word}</td><td>{}</td></tr>", summary.as_str(), esc(meaning));
        }
        s.push_str("<tr><td class=\"notrun\">—</td><td>not run</td></tr>\n");
        if several {
            s.push_str("<tr><td class=\"differs\">⚠ <strong>bold</strong></td><td>the verdict differs between versions</td></tr>\n");
        }
        s.push_str("</table>\n</body>\n</html>\n");
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_helpers::row;
    use crate::verdict::VerdictKind::{Blocked as B, Wrote as W};

    #[test]
    fn self_contained_page_marks_differences() {
        let rows = [row("2.1.328", "crash/native", 1, B, ""), row("2.1.240", "crash/native", 1, W, "")];
        let html = Html.render(&rows).unwrap();
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(!html.contains("<script") && !html.contains("http://") && !html.contains("https://"), "{html}");
        assert!(
            html.contains(r#"<td class="wrote differs" title="crash/native">⚠ <strong>wrote 1/1</strong></td>"#),
            "{html}"
        );
    }
}
