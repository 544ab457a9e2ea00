//! SVG timeline: versions along x (labels rotated), arms along y, one
//! square per (version, arm) coloured by its verdict with the grid
//! pictures' colours. A change point is outlined, and the versions that
//! changed a row are written at the row's end; the full list of change
//! points and the identical-binary columns (hatched, their squares dimmed)
//! follow under the chart. Self-contained and deterministic.

use std::fmt::Write;

use super::change_text;
use super::model::Timeline;
use crate::record::Row;
use crate::report::svg::{esc, fill, fit, NOT_RUN_FILL};
use crate::report::{Exporter, LEGEND};
use crate::tally::Summary;

/// The SVG timeline.
#[derive(Debug, Default)]
pub struct TimelineSvg;

const PAD: u32 = 20;
const TITLE_H: u32 = 56;
/// Distance from one square to the next, both ways.
const PITCH: u32 = 14;
const SQUARE: u32 = 12;
/// Width of a character of the 11px labels, roughly (a little generous).
const CHAR_W: u32 = 7;
const LINE: u32 = 18;
const ARM_CHARS: usize = 48;
/// Change points written at a row's end before `+N more`.
const ROW_NOTES: usize = 3;
const FONT: &str = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif";
/// Opacity of a square whose verdict was copied, not run.
const COPIED_OPACITY: &str = "0.45";
const CHANGE_STROKE: &str = r##" stroke="#111" stroke-width="2.5""##;

impl Exporter for TimelineSvg {
    fn render(&self, rows: &[Row]) -> anyhow::Result<String> {
        Ok(render(&Timeline::from_rows(rows)))
    }
}

fn chars(s: &str) -> u32 {
    s.chars().count() as u32
}

/// A version's column label: `2.1.301 = 2.1.300` when it is a copy.
fn version_label(t: &Timeline, v: usize) -> String {
    let c = &t.versions[v];
    match &c.identical_to {
        Some(x) => format!("{} = {}", fit(&c.version, 24), fit(x, 24)),
        None => fit(&c.version, 24),
    }
}

/// What a row's end says about its change points.
fn row_note(t: &Timeline, arm: usize) -> String {
    let notes: Vec<String> = (0..t.versions.len())
        .filter_map(|v| t.change(arm, v))
        .map(|c| format!("{}: {}", fit(&c.to_version, 24), change_text(c)))
        .collect();
    if notes.len() > ROW_NOTES {
        format!("{}; +{} more", notes[..ROW_NOTES].join("; "), notes.len() - ROW_NOTES)
    } else {
        notes.join("; ")
    }
}

/// Legend entries: (fill, outlined, hatched, text).
fn legend_items() -> Vec<(&'static str, bool, bool, String)> {
    let mut items: Vec<(&'static str, bool, bool, String)> =
        [Summary::Blocked, Summary::Wrote, Summary::Invalid, Summary::Mixed]
            .iter()
            .zip(LEGEND.iter())
            .map(|(s, (word, meaning))| (fill(*s), false, false, format!("{word}: {meaning}")))
            .collect();
    items.push((NOT_RUN_FILL, false, false, "not run".to_string()));
    items.push(("#ffffff", true, false, "change point: the verdict differs from the version before".to_string()));
    items.push(("#ffffff", false, true, "hatched: identical binary, not run (verdicts copied)".to_string()));
    items
}

/// The picture of a timeline.
pub fn render(t: &Timeline) -> String {
    let (nv, na) = (t.versions.len() as u32, t.arms.len() as u32);
    let label_w = t.arms.iter().map(|a| chars(&fit(&a.name, ARM_CHARS))).max().unwrap_or(0) * CHAR_W + 16;
    let version_h = (0..t.versions.len()).map(|v| chars(&version_label(t, v))).max().unwrap_or(0) * CHAR_W + 16;
    let notes: Vec<String> = (0..t.arms.len()).map(|a| row_note(t, a)).collect();
    let note_w = notes.iter().map(|n| chars(n)).max().unwrap_or(0) * CHAR_W + 16;
    let (x0, y0) = (PAD + label_w, PAD + TITLE_H + version_h);
    let mut below: Vec<(bool, String)> = Vec::new(); // (a heading, text)
    below.push((true, format!("Change points ({})", t.changes.len())));
    if t.changes.is_empty() {
        below.push((false, "No cell's verdict changed between versions.".to_string()));
    }
    for c in &t.changes {
        below.push((false, format!("{}: {} {} (after {})", c.to_version, c.arm, change_text(c), c.from_version)));
    }
    let identical: Vec<_> = t.identical_columns().collect();
    if !identical.is_empty() {
        below.push((true, "Identical binaries (not run: the verdicts are the identical version's)".to_string()));
        for c in identical {
            below.push((
                false,
                format!("{}: identical to {}", c.version, c.identical_to.as_deref().unwrap_or_default()),
            ));
        }
    }
    let legend = legend_items();
    let width = (x0 + nv * PITCH + note_w + PAD)
        .max(below.iter().map(|(_, s)| chars(s) * CHAR_W + 2 * PAD).max().unwrap_or(0))
        .max(760);
    let legend_at = legend_layout(&legend, width);
    let legend_lines = legend_at.last().map(|l| l.0 + 1).unwrap_or(0);
    let ly = y0 + na * PITCH + 28;
    let by = ly + legend_lines * LINE + 16;
    let height = by + below.len() as u32 * LINE + PAD;

    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{FONT}" font-size="11">"#
    );
    let _ = writeln!(
        s,
        r##"<defs><pattern id="identical" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#ffffff" fill-opacity="0.35"/><line x1="0" y1="0" x2="0" y2="6" stroke="#555" stroke-width="1.5"/></pattern></defs>"##
    );
    let _ = writeln!(s, r##"<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>"##);
    let _ = writeln!(
        s,
        r##"<text x="{PAD}" y="{}" font-size="18" font-weight="bold" fill="#111">Does the hook fail open? Verdict per cell across Claude Code versions</text>"##,
        PAD + 16
    );
    let sub = if t.is_empty() { "No rows.".to_string() } else { format!("{}.", t.headline()) };
    let _ = writeln!(s, r##"<text x="{PAD}" y="{}" font-size="12" fill="#444">{}</text>"##, PAD + 38, esc(&sub));

    for (v, c) in t.versions.iter().enumerate() {
        let x = x0 + v as u32 * PITCH;
        let colour = if c.identical_to.is_some() { "#888" } else { "#333" };
        let _ = writeln!(
            s,
            r#"<text transform="translate({},{}) rotate(-90)" fill="{colour}">{}</text>"#,
            x + PITCH / 2 + 4,
            y0 - 6,
            esc(&version_label(t, v))
        );
    }
    for (a, arm) in t.arms.iter().enumerate() {
        let y = y0 + a as u32 * PITCH;
        let _ = writeln!(
            s,
            r##"<text x="{}" y="{}" text-anchor="end" fill="#222">{}</text>"##,
            x0 - 6,
            y + 10,
            esc(&fit(&arm.name, ARM_CHARS))
        );
        for v in 0..t.versions.len() {
            square(&mut s, t, a, v, x0 + v as u32 * PITCH, y);
        }
        if !notes[a].is_empty() {
            let _ = writeln!(
                s,
                r##"<text x="{}" y="{}" fill="#111">{}</text>"##,
                x0 + nv * PITCH + 8,
                y + 10,
                esc(&notes[a])
            );
        }
    }
    for (v, c) in t.versions.iter().enumerate() {
        if c.identical_to.is_some() {
            let _ = writeln!(
                s,
                r#"<rect x="{}" y="{y0}" width="{PITCH}" height="{}" fill="url(#identical)"/>"#,
                x0 + v as u32 * PITCH,
                na * PITCH
            );
        }
    }

    for ((line, x), (swatch, outlined, hatched, text)) in legend_at.into_iter().zip(legend.iter()) {
        let y = ly + line * LINE;
        let stroke = if *outlined { CHANGE_STROKE } else { r##" stroke="#999" stroke-width="0.5""## };
        let _ =
            writeln!(s, r#"<rect x="{x}" y="{}" width="{SQUARE}" height="{SQUARE}" fill="{swatch}"{stroke}/>"#, y - 10);
        if *hatched {
            let _ = writeln!(
                s,
                r#"<rect x="{x}" y="{}" width="{SQUARE}" height="{SQUARE}" fill="url(#identical)"/>"#,
                y - 10
            );
        }
        let _ = writeln!(s, r##"<text x="{}" y="{y}" fill="#222">{}</text>"##, x + SQUARE + 6, esc(text));
    }
    for (i, (heading, text)) in below.iter().enumerate() {
        let y = by + i as u32 * LINE;
        let bold = if *heading { r#" font-weight="bold""# } else { "" };
        let _ = writeln!(s, r##"<text x="{PAD}" y="{y}"{bold} fill="#222">{}</text>"##, esc(text));
    }
    s.push_str("</svg>\n");
    s
}

/// One (arm, version) square at (x, y).
fn square(s: &mut String, t: &Timeline, a: usize, v: usize, x: u32, y: u32) {
    let (x, y) = (x + 1, y + 1);
    let Some(e) = t.entry(a, v) else {
        let _ = writeln!(s, r#"<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{NOT_RUN_FILL}"/>"#);
        return;
    };
    let dim = if e.identical_to.is_some() { format!(r#" fill-opacity="{COPIED_OPACITY}""#) } else { String::new() };
    match t.change(a, v) {
        None => {
            let _ = writeln!(
                s,
                r#"<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{}"{dim}/>"#,
                fill(e.summary)
            );
        }
        Some(c) => {
            let _ = writeln!(
                s,
                r#"<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{}"{dim}{CHANGE_STROKE}><title>{}</title></rect>"#,
                fill(e.summary),
                esc(&format!(
                    "{} on {}: {} ({} after {})",
                    c.arm,
                    c.to_version,
                    e.tally.label(),
                    change_text(c),
                    c.from_version
                ))
            );
        }
    }
}

/// (line, x) of each legend item, wrapping at the picture's width.
fn legend_layout(items: &[(&'static str, bool, bool, String)], width: u32) -> Vec<(u32, u32)> {
    crate::report::svg::wrap(items.iter().map(|(_, _, _, text)| SQUARE + 6 + chars(text) * CHAR_W + 18), PAD, width)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_helpers::row;
    use crate::verdict::VerdictKind::{Blocked as B, Wrote as W};

    #[test]
    fn one_square_per_run_cell_and_outlined_changes() {
        let rows = [
            row("2.1.10", "crash/native", 1, B, ""),
            row("2.1.9", "crash/native", 1, W, ""),
            row("2.1.9", "deny/<b>", 1, B, ""),
        ];
        let svg = TimelineSvg.render(&rows).unwrap();
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""), "{svg}");
        let squares = |colour: &str| svg.matches(&format!(r#"width="12" height="12" fill="{colour}""#)).count();
        // Legend swatches are one each; crash/native is wrote then blocked, deny/<b> blocked then not run.
        assert_eq!(squares(fill(Summary::Wrote)), 1 + 1, "{svg}");
        assert_eq!(squares(fill(Summary::Blocked)), 2 + 1, "{svg}");
        assert_eq!(squares(NOT_RUN_FILL), 1 + 1, "{svg}");
        assert_eq!(svg.matches("<title>").count(), 1, "one change point\n{svg}");
        assert!(svg.contains("2.1.10: wrote → blocked"), "{svg}");
        assert!(svg.contains("deny/&lt;b&gt;") && !svg.contains("<b>"), "labels are escaped");
        assert_eq!(svg, TimelineSvg.render(&rows).unwrap(), "deterministic");
    }
}
