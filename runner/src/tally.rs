//! Counting verdicts: one arm's repeats become a [`Tally`], and a tally one
//! [`Summary`] word. The model under every report, `diff`, `merge` and
//! `bisect`; it knows rows and verdicts, nothing about formats.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::record::Row;
use crate::verdict::VerdictKind;

/// One word for the runs of one arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Summary {
    /// Every run was blocked.
    Blocked,
    /// Every run wrote the file.
    Wrote,
    /// Every run was invalid (or there were none).
    Invalid,
    /// The runs disagree.
    Mixed,
}

impl Summary {
    /// The spelling used in every format.
    pub fn as_str(self) -> &'static str {
        match self {
            Summary::Blocked => "blocked",
            Summary::Wrote => "wrote",
            Summary::Invalid => "invalid",
            Summary::Mixed => "mixed",
        }
    }
}

impl std::fmt::Display for Summary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Verdict counts of one arm's repeats, with the reasons of the invalid ones.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// Blocked runs.
    pub blocked: u32,
    /// Wrote runs.
    pub wrote: u32,
    /// Invalid runs.
    pub invalid: u32,
    /// Invalid runs per reason (`session-timeout` → 1).
    pub invalid_reasons: BTreeMap<String, u32>,
}

impl Tally {
    /// Count one row.
    pub fn add(&mut self, row: &Row) {
        match row.verdict {
            VerdictKind::Blocked => self.blocked += 1,
            VerdictKind::Wrote => self.wrote += 1,
            VerdictKind::Invalid => {
                self.invalid += 1;
                let reason = if row.reason.is_empty() { "no reason recorded" } else { row.reason.as_str() };
                *self.invalid_reasons.entry(reason.to_string()).or_default() += 1;
            }
        }
    }

    /// All runs.
    pub fn runs(&self) -> u32 {
        self.blocked + self.wrote + self.invalid
    }

    /// The summary verdict: one kind when every run agrees, else `mixed`.
    pub fn summary(&self) -> Summary {
        match (self.blocked, self.wrote, self.invalid) {
            (b, 0, 0) if b > 0 => Summary::Blocked,
            (0, w, 0) if w > 0 => Summary::Wrote,
            (0, 0, _) => Summary::Invalid,
            _ => Summary::Mixed,
        }
    }

    /// Whether any run wrote the file.
    pub fn any_wrote(&self) -> bool {
        self.wrote > 0
    }

    /// The cell's main text: `blocked 3/3`, `wrote 1/1`, `invalid 1/1`, `mixed b2 w1`.
    pub fn headline(&self) -> String {
        let runs = self.runs();
        match self.summary() {
            Summary::Blocked => format!("blocked {}/{runs}", self.blocked),
            Summary::Wrote => format!("wrote {}/{runs}", self.wrote),
            Summary::Invalid => format!("invalid {}/{runs}", self.invalid),
            Summary::Mixed => {
                let parts: Vec<String> = [("b", self.blocked), ("w", self.wrote), ("i", self.invalid)]
                    .iter()
                    .filter(|(_, n)| *n > 0)
                    .map(|(k, n)| format!("{k}{n}"))
                    .collect();
                format!("mixed {}", parts.join(" "))
            }
        }
    }

    /// Why runs were invalid (`session-timeout`, or `no-attempt 1, session-timeout 2`).
    pub fn reasons_text(&self) -> Option<String> {
        match self.invalid_reasons.len() {
            0 => None,
            1 => self.invalid_reasons.keys().next().cloned(),
            _ => Some(self.invalid_reasons.iter().map(|(r, n)| format!("{r} {n}")).collect::<Vec<_>>().join(", ")),
        }
    }

    /// The full one-line cell text: headline plus reasons in brackets.
    pub fn label(&self) -> String {
        match self.reasons_text() {
            Some(r) => format!("{} ({r})", self.headline()),
            None => self.headline(),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    use crate::test_helpers::row;

    use VerdictKind::{Blocked as B, Invalid as I, Wrote as W};

    #[test]
    fn summary_and_labels_follow_the_counts() {
        let mut t = Tally::default();
        assert_eq!(t.summary(), Summary::Invalid, "no runs is never blocked");
        for _ in 0..3 {
            t.add(&row("1", "deny/bare", 1, B, ""));
        }
        assert_eq!((t.summary(), t.label()), (Summary::Blocked, "blocked 3/3".to_string()));
        t.add(&row("1", "deny/bare", 4, W, ""));
        assert_eq!((t.summary(), t.label()), (Summary::Mixed, "mixed b3 w1".to_string()));
        t.add(&row("1", "deny/bare", 5, I, "session-timeout"));
        assert_eq!(t.label(), "mixed b3 w1 i1 (session-timeout)");
        let mut i = Tally::default();
        i.add(&row("1", "hang/bare", 1, I, "session-timeout"));
        i.add(&row("1", "hang/bare", 2, I, "no-attempt"));
        assert_eq!(i.label(), "invalid 2/2 (no-attempt 1, session-timeout 1)");
        let mut w = Tally::default();
        w.add(&row("1", "crash/bare", 1, W, ""));
        assert_eq!((w.summary(), w.label()), (Summary::Wrote, "wrote 1/1".to_string()));
    }
}
