//! Compare two results files arm by arm: which summary verdicts changed.
//!
//! Each side is reduced to one agent and one version of it: the agent of the
//! file's first row (Claude Code for a file from before the `agent` column),
//! and that agent's only version or, when the file holds several, its newest
//! (by [`crate::version::compare`]: semver order, anything that is not a
//! version after every version); the [`Side::others`] list names the
//! versions (and other agents' versions) left out. Two sides of different
//! agents compare like two versions, arm by arm, but only when asked
//! ([`Diff::across_agents`]: `failopen diff` refuses it by default). Arms are matched by
//! name across the two sides, so the usual use is "the same arm set on an
//! old and a new Claude Code". The mode is part of the cell: an arm run
//! interactively is the cell `<arm> interactive`, compared only with the same
//! arm run interactively (a row from before the `mode` column is print). An arm's summary verdict comes from its
//! repeats ([`Tally::summary`]: blocked, wrote, invalid, or mixed).
//!
//! A change is an *opening* when the old summary was `blocked` and any new
//! run wrote the file (new `wrote`, or `mixed` with a wrote run): a guard
//! that used to hold now lets the write through. Every other change,
//! including an arm present on one side only, is an *other* change.

use std::fmt;
use std::path::Path;

use crate::mode::Mode;
use crate::record::{read_rows, RecordError, Row};
use crate::tally::{Summary, Tally};
use crate::version;

/// What a comparison found, worst first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffOutcome {
    /// No summary verdict changed.
    Unchanged,
    /// At least one cell moved from blocked to wrote: a guard opened.
    Opened,
    /// Some other verdict changed (none opened).
    Changed,
}

/// What kind of change an arm went through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    /// Blocked before; some run wrote the file now.
    Opened,
    /// Any other verdict change, or the arm is on one side only.
    Other,
}

/// One arm whose summary verdict differs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArmChange {
    /// Arm name.
    pub arm: String,
    /// Old tally (`None`: the arm is new).
    pub old: Option<Tally>,
    /// New tally (`None`: the arm was removed).
    pub new: Option<Tally>,
    /// Opening or other.
    pub kind: ChangeKind,
}

/// One side of the comparison.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Side {
    /// The agent compared.
    pub agent: crate::agent::Agent,
    /// The version compared (`None`: the file has no rows).
    pub version: Option<String>,
    /// Versions in the file that were left out (older than `version`).
    pub others: Vec<String>,
    /// Arms of `version`, in order of first appearance.
    pub arms: Vec<(String, Tally)>,
}

impl Side {
    /// Reduce rows to their newest version's arms.
    pub fn from_rows(rows: &[Row]) -> Side {
        let Some(agent) = rows.first().map(Row::agent) else { return Side::default() };
        let mut versions: Vec<&str> = Vec::new();
        let mut other_agents: Vec<String> = Vec::new();
        for r in rows {
            if r.agent() != agent {
                let other = format!("{} {}", r.agent(), r.agent_version);
                if !other_agents.contains(&other) {
                    other_agents.push(other);
                }
            } else if !versions.contains(&r.agent_version.as_str()) {
                versions.push(&r.agent_version);
            }
        }
        versions.sort_by(|a, b| version::compare(a, b));
        let Some(newest) = versions.pop() else { return Side::default() };
        let mut arms: Vec<(String, Tally)> = Vec::new();
        for r in rows.iter().filter(|r| r.agent() == agent && r.agent_version == newest) {
            let cell = cell_name(r);
            match arms.iter_mut().find(|(a, _)| *a == cell) {
                Some((_, t)) => t.add(r),
                None => {
                    let mut t = Tally::default();
                    t.add(r);
                    arms.push((cell, t));
                }
            }
        }
        let others = versions.iter().map(|v| v.to_string()).chain(other_agents).collect();
        Side { agent, version: Some(newest.to_string()), others, arms }
    }

    fn get(&self, arm: &str) -> Option<&Tally> {
        self.arms.iter().find(|(a, _)| a == arm).map(|(_, t)| t)
    }
}

/// A row's cell in a comparison: its arm, and its mode unless print.
pub fn cell_name(row: &Row) -> String {
    match row.mode() {
        Mode::Print => row.arm.clone(),
        mode => format!("{} {}", row.arm, mode.as_str()),
    }
}

/// The comparison of two sides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diff {
    /// The old side.
    pub old: Side,
    /// The new side.
    pub new: Side,
    /// Arms whose summary changed, old order first, then arms only in new.
    pub changes: Vec<ArmChange>,
    /// Arms present on both sides with the same summary.
    pub unchanged: usize,
}

impl Diff {
    /// The two sides' agents when they differ (both sides have rows): a
    /// Codex CLI file against a Claude Code one compares two programs, not
    /// two releases, and `failopen diff` refuses it unless asked.
    pub fn across_agents(&self) -> Option<(crate::agent::Agent, crate::agent::Agent)> {
        let both = self.old.version.is_some() && self.new.version.is_some();
        (both && self.old.agent != self.new.agent).then_some((self.old.agent, self.new.agent))
    }

    /// [`DiffOutcome::Opened`] when a guard opened (it wins over other
    /// changes), [`DiffOutcome::Changed`] for any other change, else unchanged.
    pub fn outcome(&self) -> DiffOutcome {
        if self.changes.iter().any(|c| c.kind == ChangeKind::Opened) {
            DiffOutcome::Opened
        } else if self.changes.is_empty() {
            DiffOutcome::Unchanged
        } else {
            DiffOutcome::Changed
        }
    }
}

/// Compare two sets of rows (see the module doc for the rules).
pub fn diff_rows(old: &[Row], new: &[Row]) -> Diff {
    let (old, new) = (Side::from_rows(old), Side::from_rows(new));
    let mut changes = Vec::new();
    let mut unchanged = 0;
    for (arm, o) in &old.arms {
        match new.get(arm) {
            None => {
                changes.push(ArmChange { arm: arm.clone(), old: Some(o.clone()), new: None, kind: ChangeKind::Other })
            }
            Some(n) if n.summary() == o.summary() => unchanged += 1,
            Some(n) => {
                let opened = o.summary() == Summary::Blocked && n.any_wrote();
                let kind = if opened { ChangeKind::Opened } else { ChangeKind::Other };
                changes.push(ArmChange { arm: arm.clone(), old: Some(o.clone()), new: Some(n.clone()), kind });
            }
        }
    }
    for (arm, n) in &new.arms {
        if old.get(arm).is_none() {
            changes.push(ArmChange { arm: arm.clone(), old: None, new: Some(n.clone()), kind: ChangeKind::Other });
        }
    }
    Diff { old, new, changes, unchanged }
}

/// Read and compare two results files (header checked; errors name the file).
pub fn diff_files(old: &Path, new: &Path) -> Result<Diff, RecordError> {
    Ok(diff_rows(&read_rows(old)?, &read_rows(new)?))
}

fn side_text(s: &Side) -> String {
    match &s.version {
        None => "no rows".to_string(),
        Some(v) if s.others.is_empty() => format!("{} {v}", s.agent.display_name()),
        Some(v) => format!("{} {v} (newest; left out: {})", s.agent.display_name(), s.others.join(", ")),
    }
}

impl fmt::Display for Diff {
    /// `old: …`, `new: …`, then one `arm: old → new` line per change and a count.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "old: {}", side_text(&self.old))?;
        writeln!(f, "new: {}", side_text(&self.new))?;
        for c in &self.changes {
            let label = |t: &Option<Tally>| t.as_ref().map(Tally::label);
            match (label(&c.old), label(&c.new)) {
                (Some(o), Some(n)) if c.kind == ChangeKind::Opened => {
                    writeln!(f, "{}: {o} → {n}   (guard opened)", c.arm)?
                }
                (Some(o), Some(n)) => writeln!(f, "{}: {o} → {n}", c.arm)?,
                (Some(o), None) => writeln!(f, "{}: {o} → (removed)", c.arm)?,
                (None, Some(n)) => writeln!(f, "{}: (added) → {n}", c.arm)?,
                (None, None) => {}
            }
        }
        let opened = self.changes.iter().filter(|c| c.kind == ChangeKind::Opened).count();
        match self.changes.len() {
            0 => writeln!(f, "no verdict changed ({} arms compared)", self.unchanged),
            n => writeln!(f, "{n} arm(s) changed, {opened} opened; {} unchanged", self.unchanged),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_helpers::row;
    use crate::verdict::VerdictKind::{Blocked as B, Invalid as I, Wrote as W};

    #[test]
    fn nothing_changed_is_exit_0() {
        let a = [row("2.1.240", "deny/bare", 1, B, ""), row("2.1.240", "crash/bare", 1, W, "")];
        let b = [row("2.1.328", "deny/bare", 1, B, ""), row("2.1.328", "crash/bare", 1, W, "")];
        let d = diff_rows(&a, &b);
        assert_eq!((d.outcome(), d.unchanged), (DiffOutcome::Unchanged, 2));
        assert!(d.to_string().contains("no verdict changed (2 arms compared)"), "{d}");
    }

    #[test]
    fn blocked_to_wrote_or_mixed_with_wrote_is_an_opening_and_wins() {
        let old =
            [row("1", "crash/native", 1, B, ""), row("1", "deny/bare", 1, W, ""), row("1", "hang/timed", 1, B, "")];
        let new = [
            row("2", "crash/native", 1, W, ""),
            row("2", "deny/bare", 1, B, ""),
            row("2", "hang/timed", 1, B, ""),
            row("2", "hang/timed", 2, W, ""),
        ];
        let d = diff_rows(&old, &new);
        let kinds: Vec<_> = d.changes.iter().map(|c| (c.arm.as_str(), c.kind)).collect();
        assert_eq!(
            kinds,
            [
                ("crash/native", ChangeKind::Opened),
                ("deny/bare", ChangeKind::Other),
                ("hang/timed", ChangeKind::Opened)
            ]
        );
        assert_eq!(d.outcome(), DiffOutcome::Opened);
        assert!(d.to_string().contains("crash/native: blocked 1/1 → wrote 1/1   (guard opened)"), "{d}");
    }

    #[test]
    fn blocked_to_invalid_and_added_removed_are_other_changes() {
        let old = [row("1", "hang/timed", 1, B, ""), row("1", "gone/bare", 1, B, "")];
        let new = [row("1", "hang/timed", 1, I, "session-timeout"), row("1", "new/bare", 1, W, "")];
        let d = diff_rows(&old, &new);
        assert_eq!(d.outcome(), DiffOutcome::Changed);
        let text = d.to_string();
        assert!(text.contains("hang/timed: blocked 1/1 → invalid 1/1 (session-timeout)"), "{text}");
        assert!(text.contains("gone/bare: blocked 1/1 → (removed)"), "{text}");
        assert!(text.contains("new/bare: (added) → wrote 1/1"), "{text}");
    }

    #[test]
    fn the_mode_is_part_of_the_cell() {
        let interactive = |arm: &str, v| {
            let mut r = row("1", arm, 1, v, "");
            r.mode = "interactive".into();
            r
        };
        let mut old_print = row("1", "crash/bare", 1, B, "");
        old_print.mode = String::new(); // from before the mode column: print
        let old = [old_print, interactive("crash/bare", W)];
        // Print opened; interactive unchanged; never print compared with interactive.
        let new = [row("1", "crash/bare", 1, W, ""), interactive("crash/bare", W)];
        let d = diff_rows(&old, &new);
        let kinds: Vec<_> = d.changes.iter().map(|c| (c.arm.as_str(), c.kind)).collect();
        assert_eq!(kinds, [("crash/bare", ChangeKind::Opened)]);
        assert_eq!(d.unchanged, 1);
        let d = diff_rows(&[interactive("crash/bare", B)], &[interactive("crash/bare", W)]);
        assert_eq!(d.changes[0].arm, "crash/bare interactive");
        assert_eq!(d.outcome(), DiffOutcome::Opened);
    }

    #[test]
    fn a_side_is_one_agent_and_two_agents_compare_arm_by_arm() {
        let codex = |version: &str, arm: &str, v| {
            let mut r = row(version, arm, 1, v, "");
            r.agent = "codex".into();
            r
        };
        let mut old_claude = row("2.1.328", "crash/bare", 1, W, "");
        old_claude.agent = String::new(); // from before the agent column: Claude Code
        let new = [codex("0.171.0", "crash/bare", B), codex("0.149.0", "crash/bare", W)];
        let d = diff_rows(&[old_claude], &new);
        assert_eq!(d.new.agent, crate::agent::Agent::Codex);
        assert_eq!(
            (d.new.version.as_deref(), d.new.others.as_slice()),
            (Some("0.171.0"), ["0.149.0".to_string()].as_slice())
        );
        let text = d.to_string();
        assert!(text.contains("old: Claude Code 2.1.328") && text.contains("new: Codex CLI 0.171.0"), "{text}");
        assert!(text.contains("crash/bare: wrote 1/1 → blocked 1/1"), "{text}");
        // A file holding both agents is read as its first row's agent.
        let mixed = [codex("0.171.0", "crash/bare", B), row("2.1.328", "crash/bare", 1, W, "")];
        let side = Side::from_rows(&mixed);
        assert_eq!(side.others, ["claude-code 2.1.328"]);
        assert_eq!(side.arms.len(), 1);
    }

    #[test]
    fn several_versions_compare_the_newest() {
        let old = [row("2.1.40", "x/bare", 1, W, ""), row("2.1.328", "x/bare", 1, B, "")];
        let new = [row("2.1.328", "x/bare", 1, B, "")];
        let d = diff_rows(&old, &new);
        assert_eq!(d.old.version.as_deref(), Some("2.1.328"));
        assert_eq!(d.old.others, ["2.1.40"]);
        assert_eq!(d.outcome(), DiffOutcome::Unchanged);
        // A release is newer than its pre-release.
        let old = [row("2.1.0", "x/bare", 1, B, ""), row("2.1.0-beta.1", "x/bare", 1, W, "")];
        let d = diff_rows(&old, &new);
        assert_eq!(
            (d.old.version.as_deref(), d.old.others.as_slice()),
            (Some("2.1.0"), ["2.1.0-beta.1".to_string()].as_slice())
        );
    }
}
