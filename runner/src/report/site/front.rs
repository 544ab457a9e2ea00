//! The front page: what failopen answers, every agent at a glance, the
//! headline matrices (each agent's newest version: every guard run bare and
//! sealed, as rows; bare and sealed under each agent, as columns), every
//! grid, every bisect, the history in one line.
//!
//! Agents whose guards are different things (command hooks, OpenCode's
//! plugins, the Agent SDK's callbacks) share no guard, so the headline is one
//! matrix per group of agents that ran a guard in common, found from the
//! grids alone (no list of agents). Each verdict cell of a matrix is `<td
//! data-agent data-version data-arm data-verdict>` linking to the cell's page.

use std::fmt::Write;

use super::catalog::guard_notes;
use super::page::{a, legend, page, repo_link, SUMMARIES};
use super::{paths, Model};
use crate::report::grid::Grid;
use crate::report::svg::esc;

/// The headline's wrapper columns under each agent.
pub const HEADLINE_WRAPPERS: [&str; 2] = ["bare", "sealed"];

/// Whether a guard is a positive control: no objection, so its write going
/// through is the guard working (`allow`, `http-allow`, `opencode-allow`,
/// `callback-allow`...). Controls stay in the grids, not in the headline.
pub fn is_control(guard: &str) -> bool {
    guard == "allow" || guard.ends_with("-allow")
}

/// The rows of `g` (guards) run under both [`HEADLINE_WRAPPERS`], the
/// controls left out, in the grid's order.
fn bare_and_sealed(g: &Grid) -> Vec<&str> {
    g.rows
        .iter()
        .map(String::as_str)
        .filter(|r| !is_control(r) && HEADLINE_WRAPPERS.iter().all(|w| g.cell(r, w).is_some()))
        .collect()
}

/// One headline matrix: agents (their newest grids) and the guards shown.
pub struct Headline<'a> {
    /// The columns: each agent's newest grid.
    pub grids: Vec<&'a Grid>,
    /// The rows: guards run bare and sealed on at least two of them (on the
    /// one, when the group is one agent), in the report's order.
    pub rows: Vec<&'a str>,
}

/// The newest grids grouped by the guards they share (two agents are in one
/// group when a guard was run bare and sealed on both, directly or through
/// others), in the order of the agents. Agents with no such guard are left out.
pub fn headlines<'a>(m: &'a Model, newest: &[&'a Grid]) -> Vec<Headline<'a>> {
    let rows: Vec<Vec<&str>> = newest.iter().map(|g| bare_and_sealed(g)).collect();
    // Union-find over the agents, by shared rows.
    let mut group: Vec<usize> = (0..newest.len()).collect();
    fn root(group: &mut [usize], i: usize) -> usize {
        let mut r = i;
        while group[r] != r {
            r = group[r];
        }
        group[i] = r;
        r
    }
    for i in 0..newest.len() {
        for j in 0..i {
            if rows[i].iter().any(|r| rows[j].contains(r)) {
                let (a, b) = (root(&mut group, i), root(&mut group, j));
                group[a.max(b)] = a.min(b);
            }
        }
    }
    let mut out: Vec<(usize, Headline)> = Vec::new();
    for i in 0..newest.len() {
        if rows[i].is_empty() {
            continue;
        }
        let r = root(&mut group, i);
        match out.iter_mut().find(|(k, _)| *k == r) {
            Some((_, h)) => h.grids.push(newest[i]),
            None => out.push((r, Headline { grids: vec![newest[i]], rows: Vec::new() })),
        }
    }
    for (_, h) in &mut out {
        let need = if h.grids.len() > 1 { 2 } else { 1 };
        h.rows = m
            .report
            .rows
            .iter()
            .map(String::as_str)
            .filter(|row| h.grids.iter().filter(|g| bare_and_sealed(g).contains(row)).count() >= need)
            .collect();
    }
    out.into_iter().map(|(_, h)| h).collect()
}

/// The hook types of a headline's cells (`command`, `plugin`, `callback`...).
fn hook_types(m: &Model, h: &Headline) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for g in &h.grids {
        for row in &h.rows {
            for w in HEADLINE_WRAPPERS {
                let Some(arm) = g.cell(row, w) else { continue };
                if let Some(r) = m.sessions(g, &arm.arm).first() {
                    let t = r.hook_type().to_string();
                    if !out.contains(&t) {
                        out.push(t);
                    }
                }
            }
        }
    }
    out
}

fn matrix(m: &Model, n: usize, h: &Headline, s: &mut String) {
    let names: Vec<String> = h.grids.iter().map(|g| g.agent.display_name().to_string()).collect();
    let _ = writeln!(s, "<h3>{}: {} hooks</h3>", esc(&names.join(", ")), esc(&hook_types(m, h).join(", ")));
    let _ = write!(
        s,
        "<div class=\"scroll\"><table id=\"headline-{n}\" class=\"headline\">\n<thead><tr><th rowspan=\"2\">guard</th>\
         <th rowspan=\"2\" class=\"wide\">the failure it models</th>"
    );
    for g in &h.grids {
        let href = paths::link(paths::INDEX, &paths::grid(g.agent, &g.agent_version, g.mode));
        let _ = write!(s, "<th colspan=\"{}\">{}</th>", HEADLINE_WRAPPERS.len(), a(&href, &Model::title(g)));
    }
    s.push_str("</tr>\n<tr>");
    for _ in &h.grids {
        for w in HEADLINE_WRAPPERS {
            let _ = write!(s, "<th>{w}</th>");
        }
    }
    s.push_str("</tr></thead>\n<tbody>\n");
    for row in &h.rows {
        let models = guard_notes(row).map(|n| n.models).unwrap_or_default();
        let _ =
            write!(s, "<tr><th><code>{}</code></th><td class=\"wide\"><small>{}</small></td>", esc(row), esc(&models));
        for g in &h.grids {
            for w in HEADLINE_WRAPPERS {
                let Some(arm) = g.cell(row, w) else {
                    s.push_str("<td class=\"v notrun\">—</td>");
                    continue;
                };
                let verdict = arm.tally.summary().as_str();
                let href = paths::link(paths::INDEX, &Model::cell_path(g, arm));
                let _ = write!(
                    s,
                    "<td class=\"v {verdict}\" data-agent=\"{}\" data-version=\"{}\" data-arm=\"{}\" data-verdict=\"{verdict}\">{}</td>",
                    g.agent.as_str(),
                    esc(&g.agent_version),
                    esc(&arm.arm),
                    a(&href, &arm.tally.headline())
                );
            }
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table></div>\n");
}

fn headline(m: &Model, s: &mut String) {
    let newest = m.newest();
    let heads = headlines(m, &newest);
    if heads.is_empty() {
        s.push_str("<p>No guard was run bare and sealed on any agent's newest version.</p>\n");
    }
    for (n, h) in heads.iter().enumerate() {
        matrix(m, n + 1, h, s);
    }
    let without: Vec<String> = newest
        .iter()
        .filter(|g| bare_and_sealed(g).is_empty())
        .map(|g| a(&paths::grid(g.agent, &g.agent_version, g.mode), &Model::title(g)))
        .collect();
    if !without.is_empty() {
        let _ = writeln!(
            s,
            "<p>No guard was run both bare and sealed on {}: its grid has every cell.</p>",
            without.join(", ")
        );
    }
    s.push_str(
        "<p><small>Each row is a guard that objects to the write; <em>wrote</em> means the write went through anyway; \
         — means not run. The positive controls (<code>allow</code>, a guard with no objection) are in each grid.</small></p>\n",
    );
}

/// Every agent at a glance: its versions (each a grid) and the newest one's cells by verdict.
fn agents(m: &Model, s: &mut String) {
    s.push_str("<div class=\"scroll\"><table id=\"agents\"><thead><tr><th>agent</th><th>grids</th><th>newest version's cells</th></tr></thead>\n<tbody>\n");
    for g in m.newest() {
        let grids: Vec<String> = m
            .report
            .versions
            .iter()
            .filter(|o| o.agent == g.agent)
            .map(|o| {
                let label = match o.mode {
                    crate::mode::Mode::Print => o.agent_version.clone(),
                    crate::mode::Mode::Interactive => format!("{} interactive", o.agent_version),
                };
                a(&paths::grid(o.agent, &o.agent_version, o.mode), &label)
            })
            .collect();
        let counts: Vec<String> = SUMMARIES
            .iter()
            .map(|sum| (sum, g.arms.iter().filter(|a| a.tally.summary() == *sum).count()))
            .filter(|(_, n)| *n > 0)
            .map(|(sum, n)| format!("<span class=\"v {0}\">{n} {0}</span>", sum.as_str()))
            .collect();
        let _ = writeln!(
            s,
            "<tr data-agent=\"{}\"><th>{}</th><td>{}</td><td>{}</td></tr>",
            g.agent.as_str(),
            esc(g.agent.display_name()),
            grids.join(", "),
            counts.join(" ")
        );
    }
    s.push_str("</tbody></table></div>\n");
}

fn grids(m: &Model, s: &mut String) {
    s.push_str("<ul id=\"grids\">\n");
    for g in &m.report.versions {
        let href = paths::link(paths::INDEX, &paths::grid(g.agent, &g.agent_version, g.mode));
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
                g.arm(&b.arm).map(|arm| a(&paths::link(paths::INDEX, &Model::cell_path(g, arm)), &g.agent_version))
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
         <em>invalid</em> (the session cannot say, with its reason). An <em>arm</em> is one guard under one \
         wrapper: <em>bare</em> is the guard as most people install it, <em>sealed</em> is the same guard under \
         <code>failopen seal</code>, the wrapper that makes it fail closed (the grids also hold the article's \
         <em>plain</em> and <em>timed</em> wrappers, and <em>native</em>: the agent's own fail-closed switch). \
         Every cell opens to its evidence and the command that reproduces it.</p>\n",
    );
    let _ = writeln!(
        s,
        "<p class=\"start\">{} · {} · {} · {}</p>",
        a(&repo_link("docs/install.md"), "Install failopen"),
        a(&repo_link("docs/audit.md"), "Audit your own hooks"),
        a(&repo_link("docs/seal.md"), "Make a guard fail closed"),
        a(&repo_link("docs/article.md"), "The article it started from")
    );
    s.push_str("<h2 id=\"every-agent\">Every agent</h2>\n");
    agents(m, &mut s);
    s.push_str("<h2 id=\"headline\">The headline: each agent's newest version</h2>\n");
    headline(m, &mut s);
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
    if !m.site.census.is_empty() {
        let _ = writeln!(
            s,
            "<h2>Public guards</h2>\n<p>{}: {} public guards from npm and PyPI, installed as their READMEs say and audited.</p>",
            a(paths::CENSUS, "The census"),
            m.site.census.len()
        );
    }
    s.push_str("<h2>Legend</h2>\n");
    s.push_str(&legend());
    page(paths::INDEX, "When a guard hook breaks", &s)
}
