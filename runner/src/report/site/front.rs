//! The front page: what failopen answers, the headline matrix (each agent's
//! newest version: every guard run bare and sealed on all of them, as rows;
//! bare and sealed under each agent, as columns), every grid, every bisect,
//! the history in one line.
//!
//! Each verdict cell of the matrix is `<td data-agent data-version data-arm
//! data-verdict>` linking to the cell's page.

use std::fmt::Write;

use super::catalog::guard_notes;
use super::page::{a, legend, page, SUMMARIES};
use super::{paths, Model};
use crate::report::grid::Grid;
use crate::report::svg::esc;

/// The headline's wrapper columns under each agent.
pub const HEADLINE_WRAPPERS: [&str; 2] = ["bare", "sealed"];

/// The positive controls: guards with no objection, whose write going through
/// is the guard working (they stay in the grids, not in the headline).
pub const CONTROLS: [&str; 6] = ["allow", "http-allow", "prompt-allow", "agent-allow", "mcp-allow", "model-cmd-allow"];

/// The grid rows (guards) that every newest version ran under both
/// [`HEADLINE_WRAPPERS`], in the grids' order, the [`CONTROLS`] left out.
pub fn headline_rows<'a>(m: &'a Model, newest: &[&Grid]) -> Vec<&'a str> {
    let everywhere = |row: &str| newest.iter().all(|g| HEADLINE_WRAPPERS.iter().all(|w| g.cell(row, w).is_some()));
    m.report.rows.iter().map(String::as_str).filter(|r| !CONTROLS.contains(r) && everywhere(r)).collect()
}

fn matrix(m: &Model, s: &mut String) {
    let newest = m.newest();
    let rows = headline_rows(m, &newest);
    if rows.is_empty() {
        s.push_str("<p>No guard was run bare and sealed on every agent's newest version.</p>\n");
        return;
    }
    s.push_str(
        "<table id=\"headline\">\n<thead><tr><th rowspan=\"2\">guard</th><th rowspan=\"2\">the failure it models</th>",
    );
    for g in &newest {
        let href = paths::link(paths::INDEX, &paths::grid(g.agent, &g.claude_version, g.mode));
        let _ = write!(s, "<th colspan=\"{}\">{}</th>", HEADLINE_WRAPPERS.len(), a(&href, &Model::title(g)));
    }
    s.push_str("</tr>\n<tr>");
    for _ in &newest {
        for w in HEADLINE_WRAPPERS {
            let _ = write!(s, "<th>{w}</th>");
        }
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for row in rows {
        let models = guard_notes(row).map(|n| n.models).unwrap_or_default();
        let _ = write!(s, "<tr><th><code>{}</code></th><td><small>{}</small></td>", esc(row), esc(&models));
        for g in &newest {
            for w in HEADLINE_WRAPPERS {
                let Some(arm) = g.cell(row, w) else { continue };
                let verdict = arm.tally.summary().as_str();
                let href = paths::link(paths::INDEX, &Model::cell_path(g, arm));
                let _ = write!(
                    s,
                    "<td class=\"v {verdict}\" data-agent=\"{}\" data-version=\"{}\" data-arm=\"{}\" data-verdict=\"{verdict}\">{}</td>",
                    g.agent.as_str(),
                    esc(&g.claude_version),
                    esc(&arm.arm),
                    a(&href, &arm.tally.headline())
                );
            }
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table>\n");
    s.push_str(
        "<p><small>Each row is a guard that objects to the write; <em>wrote</em> means the write went through anyway. \
         The positive control (<code>allow</code>, a guard with no objection) is in each grid.</small></p>\n",
    );
}

fn grids(m: &Model, s: &mut String) {
    s.push_str("<ul id=\"grids\">\n");
    for g in &m.report.versions {
        let href = paths::link(paths::INDEX, &paths::grid(g.agent, &g.claude_version, g.mode));
        let counts: Vec<String> = SUMMARIES
            .iter()
            .map(|sum| (sum, g.arms.iter().filter(|a| a.tally.summary() == *sum).count()))
            .filter(|(_, n)| *n > 0)
            .map(|(sum, n)| format!("{n} {sum}"))
            .collect();
        let _ = writeln!(s, "<li>{}: {} cells, {}</li>", a(&href, &Model::title(g)), g.arms.len(), counts.join(", "));
    }
    s.push_str("</ul>\n");
}

fn bisects(m: &Model, s: &mut String) {
    if m.site.bisects.is_empty() {
        return;
    }
    s.push_str("<h2 id=\"bisects\">Where a verdict changed: the bisects</h2>\n<ul>\n");
    for b in &m.site.bisects {
        let cells: Vec<String> = m
            .report
            .versions
            .iter()
            .filter(|g| m.bisect(g, &b.arm).is_some())
            .filter_map(|g| {
                g.arm(&b.arm).map(|arm| a(&paths::link(paths::INDEX, &Model::cell_path(g, arm)), &g.claude_version))
            })
            .collect();
        let on = if cells.is_empty() { String::new() } else { format!(" (the cell on {})", cells.join(", ")) };
        let _ = writeln!(s, "<li><code>{}</code>: {}{on}</li>", esc(&b.arm), esc(&b.answer));
    }
    s.push_str("</ul>\n");
}

/// The front page.
pub fn render(m: &Model) -> String {
    let mut s = String::from("<h1>When a guard hook breaks, does the agent's action still go through?</h1>\n");
    s.push_str(
        "<p>A guard hook can veto an agent's tool call. When the guard itself breaks (it crashes, its script is \
         missing, it hangs, it answers garbage) it gives no decision, and the call may go through: the guard \
         <strong>fails open</strong>. failopen runs each failure as a real session of the agent CLI in a throwaway \
         directory, against a scripted model, and judges it only by the file left on disk: <em>wrote</em> (the \
         guard failed open), <em>blocked</em> (refused, with evidence that the guard under test refused), or \
         <em>invalid</em> (the session cannot say, with its reason). <em>sealed</em> is the guard run under \
         <code>failopen seal</code>, the wrapper that makes it fail closed. Every cell opens to its evidence.</p>\n",
    );
    s.push_str("<h2>The headline: each agent's newest version</h2>\n");
    matrix(m, &mut s);
    s.push_str("<h2>Every grid: guard × wrapper, by agent and version</h2>\n");
    grids(m, &mut s);
    bisects(m, &mut s);
    s.push_str("<h2>Every release</h2>\n");
    if m.timeline.is_empty() {
        s.push_str("<p>No history was recorded.</p>\n");
    } else {
        let _ = writeln!(
            s,
            "<p>{}: {}. {}</p>",
            a(paths::TIMELINE, "the timeline"),
            esc(&m.timeline.headline()),
            a(paths::VERSIONS, "Every release's binary.")
        );
    }
    s.push_str("<h2>Legend</h2>\n");
    s.push_str(&legend());
    page(paths::INDEX, "When a guard hook breaks", &s)
}
