//! The timeline model: every arm's summary on every Claude Code version,
//! and the versions where an arm's summary changed.
//!
//! Versions are ordered oldest first by [`crate::version::compare`]
//! (2.1.9 < 2.1.10 < 2.1.100). Arms are ordered as the grid reports order
//! their rows: the guard's place in the catalogue, then the wrapper's
//! (see [`crate::report::grid`]); arms that tie there (`crash/native` and
//! `crash/native@bash`, or guards failopen does not know) go by guard,
//! wrapper and arm name, so the order does not depend on which session of
//! which run finished first.
//!
//! A change point is a version where an arm's summary differs from its
//! summary at the previous version that has the arm (versions without it
//! are skipped, not counted as a change). Rows flagged
//! `identical-binary:VERSION` were not run: `failopen history` copied their
//! verdicts from the byte-identical binary of VERSION. They are data like
//! any other here (so a copy never differs from its source); the model only
//! remembers where they came from, for the formats to show.

use std::collections::HashMap;

use crate::record::Row;
use crate::report::grid::canonical_position;
use crate::tally::{Summary, Tally};
use crate::version;

/// The prefix of the flag on a row whose verdict was copied from a
/// byte-identical binary instead of being run: `identical-binary:2.1.300`.
pub const IDENTICAL_FLAG: &str = "identical-binary:";

/// The version a row's verdict was copied from, if its `flags`
/// (`;`-separated) hold `identical-binary:VERSION`.
pub fn copied_from(row: &Row) -> Option<&str> {
    row.flags.split(';').find_map(|f| f.trim().strip_prefix(IDENTICAL_FLAG)).filter(|v| !v.is_empty())
}

/// One arm: a row of the timeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arm {
    /// Arm name (`crash/native@bash`).
    pub name: String,
    /// Guard name, from the arm's row on its oldest version.
    pub guard: String,
    /// Wrapper name, likewise.
    pub wrapper: String,
    /// Hook type (`command`, `http`, ...), likewise; read through
    /// [`Row::hook_type`], so files from before that column have one too.
    pub hook_type: String,
}

/// One Claude Code version: a column of the timeline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    /// The version.
    pub version: String,
    /// When every row of this version was copied from the byte-identical
    /// binary of one other version: that version (the column was not run).
    pub identical_to: Option<String>,
}

/// One arm on one version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The counts of its rows.
    pub tally: Tally,
    /// `tally.summary()`, kept.
    pub summary: Summary,
    /// When every one of its rows was copied from the byte-identical binary
    /// of one other version: that version.
    pub identical_to: Option<String>,
}

/// A version where an arm's summary differs from the one before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChangePoint {
    /// The arm.
    pub arm: String,
    /// The previous version that has the arm (not always the previous
    /// column: versions without the arm are skipped).
    pub from_version: String,
    /// The version that changed it.
    pub to_version: String,
    /// The summary on `from_version`.
    pub from: Summary,
    /// The summary on `to_version`.
    pub to: Summary,
}

/// Versions × arms, with the change points.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Timeline {
    /// The versions, oldest first.
    pub versions: Vec<Column>,
    /// The arms, in report order.
    pub arms: Vec<Arm>,
    /// `entries[arm][version]`; `None` where the arm was not run on that version.
    entries: Vec<Vec<Option<Entry>>>,
    /// Every change point, by version (oldest first), then arm order.
    pub changes: Vec<ChangePoint>,
    /// (arm index, version index) → index in `changes`.
    change_at: HashMap<(usize, usize), usize>,
}

/// The rows of one (arm, version), being counted.
#[derive(Default)]
struct Acc {
    tally: Tally,
    /// The first row's source (`None`: it was run).
    copied: Option<String>,
    /// Whether every row so far had the same source as the first.
    uniform: bool,
}

/// How arms sort: catalogue guard, canonical wrapper, then names.
fn arm_key(r: &Row) -> ((usize, usize), &str, &str, &str) {
    (canonical_position(r), r.guard.as_str(), r.wrapper.as_str(), r.arm.as_str())
}

/// The one value every item has, if they all have the same (and there is one).
fn uniform<'a>(mut items: impl Iterator<Item = Option<&'a String>>) -> Option<String> {
    let first = items.next()??;
    items.all(|i| i == Some(first)).then(|| first.clone())
}

impl Timeline {
    /// Build the timeline of `rows` (any order, any number of versions).
    pub fn from_rows(rows: &[Row]) -> Timeline {
        let mut names: Vec<&str> = Vec::new();
        // Each arm's row from its oldest version (ties: first in the input).
        let mut arm_rows: HashMap<&str, &Row> = HashMap::new();
        for r in rows {
            if !names.contains(&r.agent_version.as_str()) {
                names.push(&r.agent_version);
            }
            let older = |seen: &Row| version::compare(&r.agent_version, &seen.agent_version).is_lt();
            match arm_rows.get(r.arm.as_str()) {
                Some(seen) if !older(seen) => {}
                _ => {
                    arm_rows.insert(&r.arm, r);
                }
            }
        }
        names.sort_by(|a, b| version::compare(a, b));
        let mut firsts: Vec<&Row> = arm_rows.into_values().collect();
        firsts.sort_by(|a, b| arm_key(a).cmp(&arm_key(b)));
        let arms: Vec<Arm> = firsts
            .iter()
            .map(|r| Arm {
                name: r.arm.clone(),
                guard: r.guard.clone(),
                wrapper: r.wrapper.clone(),
                hook_type: r.hook_type().to_string(),
            })
            .collect();
        let version_index: HashMap<&str, usize> = names.iter().enumerate().map(|(i, v)| (*v, i)).collect();
        let arm_index: HashMap<&str, usize> = arms.iter().enumerate().map(|(i, a)| (a.name.as_str(), i)).collect();

        let mut acc: Vec<Vec<Option<Acc>>> = arms.iter().map(|_| names.iter().map(|_| None).collect()).collect();
        for r in rows {
            let (a, v) = (arm_index[r.arm.as_str()], version_index[r.agent_version.as_str()]);
            let from = copied_from(r).map(str::to_string);
            let cell = acc[a][v].get_or_insert_with(|| Acc { copied: from.clone(), uniform: true, ..Acc::default() });
            cell.uniform &= cell.copied == from;
            cell.tally.add(r);
        }
        let entries: Vec<Vec<Option<Entry>>> = acc
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(|c| {
                        c.map(|c| Entry {
                            summary: c.tally.summary(),
                            tally: c.tally,
                            identical_to: if c.uniform { c.copied } else { None },
                        })
                    })
                    .collect()
            })
            .collect();

        let versions: Vec<Column> = names
            .iter()
            .enumerate()
            .map(|(v, name)| Column {
                version: name.to_string(),
                identical_to: uniform(
                    entries.iter().filter_map(|row| row[v].as_ref()).map(|e| e.identical_to.as_ref()),
                ),
            })
            .collect();

        let mut found: Vec<(usize, usize, ChangePoint)> = Vec::new();
        for (a, row) in entries.iter().enumerate() {
            let mut prev: Option<(usize, Summary)> = None;
            for (v, e) in row.iter().enumerate() {
                let Some(e) = e else { continue };
                if let Some((pv, from)) = prev {
                    if from != e.summary {
                        found.push((
                            v,
                            a,
                            ChangePoint {
                                arm: arms[a].name.clone(),
                                from_version: names[pv].to_string(),
                                to_version: names[v].to_string(),
                                from,
                                to: e.summary,
                            },
                        ));
                    }
                }
                prev = Some((v, e.summary));
            }
        }
        found.sort_by_key(|(v, a, _)| (*v, *a));
        let change_at = found.iter().enumerate().map(|(i, (v, a, _))| ((*a, *v), i)).collect();
        let changes = found.into_iter().map(|(_, _, c)| c).collect();
        Timeline { versions, arms, entries, changes, change_at }
    }

    /// Arm `arm` on version `version` (indices into [`Timeline::arms`] and
    /// [`Timeline::versions`]), if it was run (or copied) there.
    pub fn entry(&self, arm: usize, version: usize) -> Option<&Entry> {
        self.entries.get(arm)?.get(version)?.as_ref()
    }

    /// The change point at arm `arm`, version `version` (indices), if that
    /// version changed the arm's summary.
    pub fn change(&self, arm: usize, version: usize) -> Option<&ChangePoint> {
        self.change_at.get(&(arm, version)).map(|&i| &self.changes[i])
    }

    /// The change points, grouped by the version that made them, oldest first.
    pub fn changes_by_version(&self) -> Vec<(&str, Vec<&ChangePoint>)> {
        let mut out: Vec<(&str, Vec<&ChangePoint>)> = Vec::new();
        for c in &self.changes {
            match out.last_mut() {
                Some((v, group)) if *v == c.to_version => group.push(c),
                _ => out.push((&c.to_version, vec![c])),
            }
        }
        out
    }

    /// The index of an arm by name.
    pub fn arm_index(&self, name: &str) -> Option<usize> {
        self.arms.iter().position(|a| a.name == name)
    }

    /// The columns that were not run (copied from an identical binary).
    pub fn identical_columns(&self) -> impl Iterator<Item = &Column> {
        self.versions.iter().filter(|c| c.identical_to.is_some())
    }

    /// Whether there are no rows at all.
    pub fn is_empty(&self) -> bool {
        self.versions.is_empty()
    }

    /// The distinct guards, wrappers and hook types of the arms, each in
    /// arm order (for filters).
    pub fn facets(&self) -> [Vec<&str>; 3] {
        let mut out: [Vec<&str>; 3] = Default::default();
        for a in &self.arms {
            for (list, value) in out.iter_mut().zip([&a.guard, &a.wrapper, &a.hook_type]) {
                if !list.contains(&value.as_str()) {
                    list.push(value);
                }
            }
        }
        out
    }

    /// The one-line summary every format opens with: `3 versions from
    /// 2.1.9 to 2.1.100, 4 cells, 2 change points`.
    pub fn headline(&self) -> String {
        let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        let span = match (self.versions.first(), self.versions.last()) {
            (Some(a), Some(b)) if self.versions.len() > 1 => format!(" from {} to {}", a.version, b.version),
            (Some(a), _) => format!(" ({})", a.version),
            _ => String::new(),
        };
        format!(
            "{}{span}, {}, {}",
            plural(self.versions.len(), "version", "versions"),
            plural(self.arms.len(), "cell", "cells"),
            plural(self.changes.len(), "change point", "change points")
        )
    }
}
