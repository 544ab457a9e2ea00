//! The findings as a static site: `failopen report results --format site
//! --out DIR`. A folder of self-contained pages (inline style and script,
//! nothing fetched), drawn from the same models as every other format: the
//! reference rows' [`Report`] (their tallies, grid by grid), the history's
//! [`Timeline`], the ledger, the bisect files and the shipped arm sets.
//!
//! - [`front`]: the front page: the headline matrix (each agent's newest
//!   version, failure modes × bare and sealed), every grid, every bisect;
//! - [`grid_page`]: one agent version's guard × wrapper grid, filterable by
//!   guard, wrapper, hook type, event, source, route and verdict;
//! - [`cell_page`]: one cell's evidence: the arm, its expectation and
//!   reasoning, the bisect's answer, its history, the sessions' rows;
//! - [`census_page`]: the census of public guards, each row linking its evidence;
//! - [`history_pages`]: the timeline (the timeline format's page) and the
//!   ledger of every release;
//! - [`paths`]: where each page lives, from names alone (stable URLs);
//! - [`input`]: reading a results folder.

pub mod bisect;
pub mod catalog;
pub mod cell_page;
pub mod census_page;
pub mod front;
pub mod grid_page;
pub mod history_pages;
pub mod input;
pub mod page;
pub mod paths;

#[cfg(test)]
mod tests;

use std::collections::HashMap;

use crate::agent::Agent;
use crate::history::ledger;
use crate::mode::Mode;
use crate::record::Row;
use crate::report::grid::{ArmTally, Grid, Report};
use crate::report::timeline::Timeline;
use crate::report::{Exporter, Output, Page};

pub use bisect::Bisect;
pub use catalog::Catalog;

/// The site's inputs beside the reference rows (which [`Exporter::export`] takes).
#[derive(Debug, Clone, Default)]
pub struct Site {
    /// The history's rows (`history.csv`): the timeline.
    pub history: Vec<Row>,
    /// The history's ledger (`history-versions.csv`).
    pub ledger: Vec<ledger::Entry>,
    /// The bisect files, by file name.
    pub bisects: Vec<Bisect>,
    /// The arms, with their expectations.
    pub catalog: Catalog,
    /// The census of public guards (`census.csv` and `census/`), when present.
    pub census: Vec<census_page::CensusEntry>,
}

/// A cell: (agent, version, mode, arm).
type CellId = (Agent, String, Mode, String);

/// Everything the pages are drawn from, built once.
pub struct Model<'a> {
    /// The inputs.
    pub site: &'a Site,
    /// The reference rows, grid by grid (their tallies).
    pub report: Report,
    /// The timeline of the history's rows.
    pub timeline: Timeline,
    sessions: HashMap<CellId, Vec<&'a Row>>,
}

impl<'a> Model<'a> {
    /// Group the rows.
    pub fn new(site: &'a Site, rows: &'a [Row]) -> Model<'a> {
        let mut sessions: HashMap<CellId, Vec<&Row>> = HashMap::new();
        for r in rows {
            sessions.entry((r.agent(), r.agent_version.clone(), r.mode(), r.arm.clone())).or_default().push(r);
        }
        for list in sessions.values_mut() {
            list.sort_by_key(|r| r.repeat);
        }
        Model { site, report: Report::from_rows(rows), timeline: Timeline::from_rows(&site.history), sessions }
    }

    /// The rows of one cell, by repeat.
    pub fn sessions(&self, g: &Grid, arm: &str) -> &[&'a Row] {
        let id = (g.agent, g.agent_version.clone(), g.mode, arm.to_string());
        self.sessions.get(&id).map(Vec::as_slice).unwrap_or_default()
    }

    /// Each agent's newest version in print mode: the headline's columns.
    pub fn newest(&self) -> Vec<&Grid> {
        let mut out: Vec<&Grid> = Vec::new();
        for g in self.report.versions.iter().filter(|g| g.mode == Mode::Print) {
            match out.iter_mut().find(|n| n.agent == g.agent) {
                // Grids go oldest first within an agent.
                Some(n) => *n = g,
                None => out.push(g),
            }
        }
        out
    }

    /// The bisect that answers for `arm`, on the default agent (Claude Code,
    /// which `failopen bisect` runs) in print mode.
    pub fn bisect(&self, g: &Grid, arm: &str) -> Option<&'a Bisect> {
        (g.agent.driver().implied_when_unnamed() && g.mode == Mode::Print)
            .then(|| self.site.bisects.iter().find(|b| b.arm == arm))
            .flatten()
    }

    /// How the pages name a grid: `Claude Code 2.1.328`, `Claude Code 2.1.328 interactive`.
    pub fn title(g: &Grid) -> String {
        match g.mode {
            Mode::Print => format!("{} {}", g.agent.display_name(), g.agent_version),
            Mode::Interactive => format!("{} {} interactive", g.agent.display_name(), g.agent_version),
        }
    }

    /// The cell page of `a` in grid `g`.
    pub fn cell_path(g: &Grid, a: &ArmTally) -> String {
        paths::cell(g.agent, &g.agent_version, g.mode, &a.arm)
    }

    /// Every page.
    pub fn pages(&self) -> anyhow::Result<Vec<Page>> {
        let mut pages = vec![
            Page { path: paths::INDEX.into(), text: front::render(self) },
            Page { path: paths::TIMELINE.into(), text: history_pages::timeline(self)? },
            Page { path: paths::VERSIONS.into(), text: history_pages::versions(self) },
        ];
        if !self.site.census.is_empty() {
            pages.push(Page { path: paths::CENSUS.into(), text: census_page::render(&self.site.census) });
            for e in &self.site.census {
                pages.push(Page { path: e.evidence_path(), text: serde_json::to_string_pretty(&e.evidence)? + "\n" });
            }
        }
        for g in &self.report.versions {
            pages.push(Page { path: paths::grid(g.agent, &g.agent_version, g.mode), text: grid_page::render(self, g) });
            for a in &g.arms {
                pages.push(Page { path: Model::cell_path(g, a), text: cell_page::render(self, g, a) });
            }
        }
        paths::check(pages.iter().map(|p| p.path.as_str()))?;
        Ok(pages)
    }
}

impl Exporter for Site {
    fn render(&self, rows: &[Row]) -> anyhow::Result<String> {
        Ok(front::render(&Model::new(self, rows)))
    }

    fn export(&self, rows: &[Row]) -> anyhow::Result<Output> {
        if rows.is_empty() {
            anyhow::bail!("the site needs reference rows: none were given");
        }
        Model::new(self, rows).pages().map(Output::Folder)
    }
}
