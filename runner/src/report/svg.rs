//! SVG: one guard × wrapper panel per version, side by side, coloured by
//! verdict; cells whose verdict differs between versions are outlined.
//! Self-contained and deterministic (no timestamps, no external fonts).

use std::fmt::Write;

use super::grid::{Grid, Report};
use super::{Exporter, LEGEND};
use crate::record::Row;
use crate::tally::{Summary, Tally};

/// The SVG report.
#[derive(Debug, Default)]
pub struct Svg;

const PAD: u32 = 20;
const TITLE_H: u32 = 64;
const LABEL_W: u32 = 140;
const CELL_W: u32 = 124;
const CELL_H: u32 = 40;
const VERSION_H: u32 = 26;
const HEAD_H: u32 = 24;
const PANEL_GAP: u32 = 36;
const LEGEND_LINE: u32 = 22;
const FONT: &str = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif";

/// Fill colour of a verdict.
pub fn fill(s: Summary) -> &'static str {
    match s {
        Summary::Blocked => "#8fd18f",
        Summary::Wrote => "#e8625a",
        Summary::Invalid => "#c4c4c4",
        Summary::Mixed => "#f5b942",
    }
}

/// Fill of a cell that was not run.
pub const NOT_RUN_FILL: &str = "#f6f6f6";

/// Escape text for XML.
pub fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Cut text to at most `max` characters, with an ellipsis.
pub(crate) fn fit(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        format!("{}…", s.chars().take(max.saturating_sub(1)).collect::<String>())
    }
}

fn panel_w(report: &Report) -> u32 {
    LABEL_W + CELL_W * report.wrappers.len() as u32
}

impl Exporter for Svg {
    fn render(&self, rows: &[Row]) -> anyhow::Result<String> {
        Ok(render_report(&Report::from_rows(rows)))
    }
}

/// The whole picture.
pub fn render_report(report: &Report) -> String {
    let n = report.versions.len().max(1) as u32;
    let several = report.versions.len() > 1;
    let grid_h = VERSION_H + HEAD_H + CELL_H * report.rows.len() as u32;
    let legend = legend_items(several);
    let width = (PAD * 2 + n * panel_w(report) + (n - 1) * PANEL_GAP).max(760);
    let legend_lines = legend_layout(&legend, width).last().map(|l| l.0 + 1).unwrap_or(0);
    let height = PAD + TITLE_H + grid_h + 24 + legend_lines * LEGEND_LINE + PAD;
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{FONT}" font-size="12">"#
    );
    let _ = writeln!(s, r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##);
    let versions: Vec<&str> = report.versions.iter().map(|g| g.version.as_str()).collect();
    let _ = writeln!(
        s,
        r##"<text x="{PAD}" y="{}" font-size="18" font-weight="bold" fill="#111">Does the hook fail open? Verdict per guard and wrapper</text>"##,
        PAD + 16
    );
    let sub = if versions.is_empty() {
        "No rows.".to_string()
    } else {
        format!("Claude Code {} · rows: guard · columns: wrapper · cell: verdict and runs", versions.join(", "))
    };
    let _ = writeln!(s, r##"<text x="{PAD}" y="{}" font-size="12" fill="#444">{}</text>"##, PAD + 38, esc(&sub));
    let top = PAD + TITLE_H;
    for (i, g) in report.versions.iter().enumerate() {
        let x0 = PAD + i as u32 * (panel_w(report) + PANEL_GAP);
        panel(&mut s, report, g, x0, top, several);
    }
    let ly = top + grid_h + 24;
    for ((line, x), (swatch, stroke, text)) in legend_layout(&legend, width).into_iter().zip(legend.iter()) {
        let y = ly + line * LEGEND_LINE;
        let outline =
            if *stroke { r##" stroke="#111" stroke-width="3""## } else { r##" stroke="#999" stroke-width="0.5""## };
        let _ = writeln!(s, r#"<rect x="{x}" y="{}" width="16" height="14" rx="2" fill="{swatch}"{outline}/>"#, y - 11);
        let _ = writeln!(s, r##"<text x="{}" y="{y}" fill="#222">{}</text>"##, x + 22, esc(text));
    }
    s.push_str("</svg>\n");
    s
}

fn panel(s: &mut String, report: &Report, g: &Grid, x0: u32, y0: u32, several: bool) {
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{}" font-size="15" font-weight="bold" fill="#111">Claude Code {}</text>"##,
        x0 + LABEL_W,
        y0 + 16,
        esc(&fit(&g.version, 30))
    );
    let hy = y0 + VERSION_H + 16;
    for (c, w) in report.wrappers.iter().enumerate() {
        let cx = x0 + LABEL_W + c as u32 * CELL_W + CELL_W / 2;
        let _ = writeln!(
            s,
            r##"<text x="{cx}" y="{hy}" text-anchor="middle" font-weight="bold" fill="#333">{}</text>"##,
            esc(&fit(w, 16))
        );
    }
    for (r, row) in report.rows.iter().enumerate() {
        let y = y0 + VERSION_H + HEAD_H + r as u32 * CELL_H;
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" text-anchor="end" font-weight="bold" fill="#333">{}</text>"##,
            x0 + LABEL_W - 8,
            y + CELL_H / 2 + 4,
            esc(&fit(row, 18))
        );
        for (c, w) in report.wrappers.iter().enumerate() {
            let x = x0 + LABEL_W + c as u32 * CELL_W;
            cell(s, g.cell(row, w).map(|a| &a.tally), x, y, several && report.differs(row, w));
        }
    }
}

fn cell(s: &mut String, tally: Option<&Tally>, x: u32, y: u32, differs: bool) {
    let (rx, ry, rw, rh) = (x + 2, y + 2, CELL_W - 4, CELL_H - 4);
    let (cx, cy) = (x + CELL_W / 2, y + CELL_H / 2);
    let Some(t) = tally else {
        let _ = writeln!(
            s,
            r##"<rect x="{rx}" y="{ry}" width="{rw}" height="{rh}" rx="4" fill="{NOT_RUN_FILL}" stroke="#dddddd"/>"##
        );
        let _ = writeln!(s, r##"<text x="{cx}" y="{}" text-anchor="middle" fill="#999">—</text>"##, cy + 4);
        return;
    };
    let stroke =
        if differs { r##" stroke="#111" stroke-width="3""## } else { r##" stroke="#ffffff" stroke-width="1""## };
    let _ = writeln!(
        s,
        r#"<rect x="{rx}" y="{ry}" width="{rw}" height="{rh}" rx="4" fill="{}"{stroke}/>"#,
        fill(t.summary())
    );
    let head = if differs { format!("⚠ {}", t.headline()) } else { t.headline() };
    match t.reasons_text() {
        None => {
            let _ = writeln!(
                s,
                r##"<text x="{cx}" y="{}" text-anchor="middle" fill="#111">{}</text>"##,
                cy + 4,
                esc(&fit(&head, 19))
            );
        }
        Some(reasons) => {
            let _ = writeln!(
                s,
                r##"<text x="{cx}" y="{}" text-anchor="middle" fill="#111">{}</text>"##,
                cy - 2,
                esc(&fit(&head, 19))
            );
            let _ = writeln!(
                s,
                r##"<text x="{cx}" y="{}" text-anchor="middle" font-size="10" fill="#222">{}</text>"##,
                cy + 11,
                esc(&fit(&reasons, 22))
            );
        }
    }
}

/// Legend entries: (fill, outlined, text).
fn legend_items(several: bool) -> Vec<(&'static str, bool, String)> {
    let mut items: Vec<(&'static str, bool, String)> =
        [Summary::Blocked, Summary::Wrote, Summary::Invalid, Summary::Mixed]
            .iter()
            .zip(LEGEND.iter())
            .map(|(s, (word, meaning))| (fill(*s), false, format!("{word}: {meaning}")))
            .collect();
    items.push((NOT_RUN_FILL, false, "—: not run".to_string()));
    if several {
        items.push(("#ffffff", true, "⚠ outlined: verdict differs between versions".to_string()));
    }
    items
}

/// (line, x) of each legend item, wrapping at the picture's width.
fn legend_layout(items: &[(&'static str, bool, String)], width: u32) -> Vec<(u32, u32)> {
    wrap(items.iter().map(|(_, _, text)| 22 + text.chars().count() as u32 * 7 + 24), PAD, width)
}

/// (line, x) of items of the given widths laid left to right from `pad`,
/// starting a new line when the next would pass `width - pad`.
pub(crate) fn wrap(widths: impl IntoIterator<Item = u32>, pad: u32, width: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let (mut line, mut x) = (0, pad);
    for w in widths {
        if x > pad && x + w > width - pad {
            line += 1;
            x = pad;
        }
        out.push((line, x));
        x += w;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_helpers::row;
    use crate::verdict::VerdictKind::{Blocked as B, Wrote as W};

    #[test]
    fn colours_by_verdict_and_outlines_differences() {
        let rows = [
            row("2.1.328", "crash/native", 1, B, ""),
            row("2.1.240", "crash/native", 1, W, ""),
            row("2.1.240", "deny/<b>", 1, B, ""),
        ];
        let svg = Svg.render(&rows).unwrap();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), "{svg}");
        assert!(svg.contains(fill(Summary::Blocked)) && svg.contains(fill(Summary::Wrote)));
        assert_eq!(svg.matches(r##"stroke="#111" stroke-width="3""##).count(), 3, "two cells + legend swatch\n{svg}");
        assert!(svg.contains("&lt;b&gt;") && !svg.contains("<b>"), "labels are escaped");
        assert_eq!(svg, Svg.render(&rows).unwrap(), "deterministic");
    }
}
