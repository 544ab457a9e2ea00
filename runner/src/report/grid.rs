//! The model every report format draws: version → guard × wrapper → tally.
//!
//! Rows of a results file are grouped by agent and version (and mode), then
//! by arm: one grid each, Claude Code's first, then Codex's, then Gemini's.
//! Each arm lands in one grid cell: the row is the arm's name without its
//! `/<wrapper>` suffix (for the usual `<guard>/<wrapper>` names, that is the
//! guard), the column is the wrapper. Rows keep their order of first
//! appearance in the input; wrapper columns go bare, plain, timed, native,
//! sealed (only those present), then any other wrapper in order of first
//! appearance. Versions are ordered oldest first by [`crate::version::compare`]
//! (2.1.40 < 2.1.328, a pre-release before its release, anything that is not
//! a version last).

use crate::mode::Mode;
use crate::record::Row;
use crate::tally::{Summary, Tally};

/// The canonical wrapper column order.
pub const WRAPPER_ORDER: [&str; 5] = ["bare", "plain", "timed", "native", "sealed"];

/// One arm's tally and where it sits in the grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArmTally {
    /// Arm name.
    pub arm: String,
    /// Guard name (from the rows).
    pub guard: String,
    /// Wrapper name: the grid column.
    pub wrapper: String,
    /// The grid row label.
    pub row: String,
    /// The counts.
    pub tally: Tally,
}

/// One Claude Code version's results in one mode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    /// The column's label: the version, after the agent's name for an agent
    /// other than Claude Code (`codex 0.171.0`), followed by ` interactive`
    /// for interactive sessions (print is the version alone).
    pub version: String,
    /// The agent the sessions ran.
    pub agent: crate::agent::Agent,
    /// The Claude Code version.
    pub agent_version: String,
    /// How the sessions ran Claude Code.
    pub mode: Mode,
    /// Arms in order of first appearance.
    pub arms: Vec<ArmTally>,
    /// Row labels present in this version, in the report's row order.
    pub rows: Vec<String>,
    /// Wrappers present in this version, in the report's column order.
    pub wrappers: Vec<String>,
}

impl Grid {
    /// The arm in a cell, if that cell was run.
    pub fn cell(&self, row: &str, wrapper: &str) -> Option<&ArmTally> {
        self.arms.iter().find(|a| a.row == row && a.wrapper == wrapper)
    }

    /// An arm by name.
    pub fn arm(&self, arm: &str) -> Option<&ArmTally> {
        self.arms.iter().find(|a| a.arm == arm)
    }
}

/// Every version's grid, plus the row and column order they share.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// One grid per version, oldest first.
    pub versions: Vec<Grid>,
    /// Every row label, in order of first appearance in the input.
    pub rows: Vec<String>,
    /// Every wrapper, canonical order first.
    pub wrappers: Vec<String>,
}

/// Where a row sorts: the guard's place in the catalogue, then the wrapper's
/// in [`WRAPPER_ORDER`] (`usize::MAX` for names failopen does not know).
/// The timeline orders its arms by it too.
pub(crate) fn canonical_position(r: &Row) -> (usize, usize) {
    let guard = crate::guards::catalog().iter().position(|g| g.name == r.guard).unwrap_or(usize::MAX);
    let wrapper = WRAPPER_ORDER.iter().position(|w| *w == r.wrapper).unwrap_or(usize::MAX);
    (guard, wrapper)
}

/// The column label of an agent's version in a mode: Claude Code's in print
/// mode is the version alone (as in every report before the agent and mode
/// columns), another agent's is prefixed with its name, interactive is marked.
pub fn column_label(agent: crate::agent::Agent, version: &str, mode: Mode) -> String {
    // Claude Code is the one every report named before the agent column.
    let named = if agent.driver().implied_when_unnamed() { version.to_string() } else { format!("{agent} {version}") };
    match mode {
        Mode::Print => named,
        Mode::Interactive => format!("{named} interactive"),
    }
}

/// The row label of an arm: its name without a trailing `/<wrapper>`.
fn row_label(arm: &str, wrapper: &str) -> String {
    arm.strip_suffix(&format!("/{wrapper}")).filter(|s| !s.is_empty()).unwrap_or(arm).to_string()
}

impl Report {
    /// Group rows into grids. Rows are taken in the guard catalogue's order,
    /// then the wrappers' (results files hold them in completion order);
    /// guards failopen does not know keep their order of first appearance, last.
    pub fn from_rows(rows: &[Row]) -> Report {
        let mut sorted: Vec<&Row> = rows.iter().collect();
        sorted.sort_by_key(|r| canonical_position(r));
        let mut grids: Vec<Grid> = Vec::new();
        let mut row_order: Vec<String> = Vec::new();
        let mut other_wrappers: Vec<String> = Vec::new();
        for r in sorted {
            let same = |g: &Grid| g.agent == r.agent() && g.agent_version == r.agent_version && g.mode == r.mode();
            let gi = match grids.iter().position(same) {
                Some(i) => i,
                None => {
                    grids.push(Grid {
                        version: column_label(r.agent(), &r.agent_version, r.mode()),
                        agent: r.agent(),
                        agent_version: r.agent_version.clone(),
                        mode: r.mode(),
                        arms: vec![],
                        rows: vec![],
                        wrappers: vec![],
                    });
                    grids.len() - 1
                }
            };
            let grid = &mut grids[gi];
            let ai = match grid.arms.iter().position(|a| a.arm == r.arm) {
                Some(i) => i,
                None => {
                    let mut row = row_label(&r.arm, &r.wrapper);
                    // Two arms in one cell (odd names): give the newcomer its full name.
                    if grid.arms.iter().any(|a| a.row == row && a.wrapper == r.wrapper) {
                        row = r.arm.clone();
                    }
                    grid.arms.push(ArmTally {
                        arm: r.arm.clone(),
                        guard: r.guard.clone(),
                        wrapper: r.wrapper.clone(),
                        row,
                        tally: Tally::default(),
                    });
                    grid.arms.len() - 1
                }
            };
            grid.arms[ai].tally.add(r);
            let row = grid.arms[ai].row.clone();
            if !row_order.contains(&row) {
                row_order.push(row);
            }
            if !WRAPPER_ORDER.contains(&r.wrapper.as_str()) && !other_wrappers.contains(&r.wrapper) {
                other_wrappers.push(r.wrapper.clone());
            }
        }
        let present = |w: &str| grids.iter().any(|g| g.arms.iter().any(|a| a.wrapper == w));
        let mut wrappers: Vec<String> = WRAPPER_ORDER.iter().filter(|w| present(w)).map(|w| w.to_string()).collect();
        wrappers.extend(other_wrappers);
        for g in &mut grids {
            g.rows = row_order.iter().filter(|r| g.arms.iter().any(|a| &a.row == *r)).cloned().collect();
            g.wrappers = wrappers.iter().filter(|w| g.arms.iter().any(|a| &a.wrapper == *w)).cloned().collect();
        }
        // By agent, oldest version first; each version's print grid beside its interactive one.
        grids.sort_by(|a, b| {
            a.agent
                .cmp(&b.agent)
                .then(crate::version::compare(&a.agent_version, &b.agent_version))
                .then(a.mode.cmp(&b.mode))
        });
        Report { versions: grids, rows: row_order, wrappers }
    }

    /// Whether the cell was run on two or more versions with different summaries.
    pub fn differs(&self, row: &str, wrapper: &str) -> bool {
        let mut seen: Option<Summary> = None;
        for g in &self.versions {
            if let Some(a) = g.cell(row, wrapper) {
                match seen {
                    None => seen = Some(a.tally.summary()),
                    Some(s) if s != a.tally.summary() => return true,
                    Some(_) => {}
                }
            }
        }
        false
    }

    /// Every (row, wrapper) cell that [`Report::differs`], in grid order.
    pub fn differing(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for r in &self.rows {
            for w in &self.wrappers {
                if self.differs(r, w) {
                    out.push((r.clone(), w.clone()));
                }
            }
        }
        out
    }

    /// Whether any cell was run on any version.
    pub fn is_empty(&self) -> bool {
        self.versions.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_helpers::row;
    use crate::verdict::VerdictKind::{Blocked as B, Wrote as W};

    #[test]
    fn grid_rows_follow_the_catalogue_and_wrappers_canonical_order() {
        // Completion order (hang first) is not report order: the catalogue's is.
        let rows = vec![
            row("2.1.328", "hang/sealed", 1, B, ""),
            row("2.1.328", "crash/native", 1, B, ""),
            row("2.1.328", "hang/bare", 1, W, ""),
            row("2.1.40", "crash/native", 1, W, ""),
        ];
        let r = Report::from_rows(&rows);
        assert_eq!(r.rows, ["crash", "hang"]);
        assert_eq!(r.wrappers, ["bare", "native", "sealed"]);
        assert_eq!(r.versions.iter().map(|g| g.version.as_str()).collect::<Vec<_>>(), ["2.1.40", "2.1.328"]);
        assert_eq!(r.versions[0].rows, ["crash"]);
        assert_eq!(r.versions[0].wrappers, ["native"]);
        assert!(r.differs("crash", "native"));
        assert!(!r.differs("hang", "bare"), "run on one version only: nothing to compare");
        assert_eq!(r.differing(), [("crash".to_string(), "native".to_string())]);
    }

    #[test]
    fn custom_arm_names_get_their_own_row() {
        let mut a = row("1", "hang-10s/native", 1, B, "");
        a.guard = "hang".into();
        let r = Report::from_rows(&[row("1", "hang/native", 1, W, ""), a]);
        assert_eq!(r.rows, ["hang", "hang-10s"]);
        assert_eq!(r.versions[0].cell("hang-10s", "native").unwrap().tally.blocked, 1);
    }

    #[test]
    fn each_mode_gets_its_own_column_beside_the_other_and_differences_are_marked() {
        let mut i240 = row("2.1.240", "crash/bare", 1, B, "");
        i240.mode = "interactive".into();
        let mut i328 = row("2.1.328", "crash/bare", 1, W, "");
        i328.mode = "interactive".into();
        let mut old = row("2.1.328", "crash/bare", 1, W, "");
        old.mode = String::new(); // a file from before the mode column: print
        let r = Report::from_rows(&[i328, old, i240, row("2.1.240", "crash/bare", 1, W, "")]);
        let labels: Vec<&str> = r.versions.iter().map(|g| g.version.as_str()).collect();
        assert_eq!(labels, ["2.1.240", "2.1.240 interactive", "2.1.328", "2.1.328 interactive"]);
        assert_eq!(r.versions[1].agent_version, "2.1.240");
        assert!(r.differs("crash", "bare"), "2.1.240 interactive blocked where the rest wrote");
    }

    #[test]
    fn versions_are_ordered_oldest_first() {
        let rows = vec![
            row("not-a-version", "deny/bare", 1, B, ""),
            row("2.1.328", "deny/bare", 1, B, ""),
            row("2.1.0-beta.1", "deny/bare", 1, B, ""),
            row("2.1.40", "deny/bare", 1, B, ""),
        ];
        let r = Report::from_rows(&rows);
        let order: Vec<&str> = r.versions.iter().map(|g| g.version.as_str()).collect();
        assert_eq!(order, ["2.1.0-beta.1", "2.1.40", "2.1.328", "not-a-version"]);
    }
}
