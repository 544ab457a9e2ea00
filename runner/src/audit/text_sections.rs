//! The text report's sections Claude Code's part of an audit and the other
//! agents' parts share: the holes, the advice, and a sealed re-check.

use std::fmt::Write;

use super::advice::{Advice, Hole};
use super::judge::CellResult;
use super::words::{describe, hole_lines};
use super::SealedRecheck;

/// A line per (hook, kind of hole) under `heading`, or that every guard held.
pub(super) fn holes(s: &mut String, heading: &str, holes: &[Hole]) {
    let _ = writeln!(s, "\n{heading}");
    if holes.is_empty() {
        let _ = writeln!(s, "  none: every guard held");
    }
    for (hook, what) in hole_lines(holes) {
        let _ = writeln!(s, "  {hook:<4} {what}");
    }
}

/// The advice under `heading`, each change with its exact snippet below it;
/// nothing when there is none.
pub(super) fn advice(s: &mut String, heading: &str, advice: &[Advice]) {
    if advice.is_empty() {
        return;
    }
    let _ = writeln!(s, "\n{heading}");
    for a in advice {
        let _ = writeln!(s, "  {:<4} {}", a.hook, a.change);
        if let Some(snippet) = &a.snippet {
            let _ = writeln!(s, "         {snippet}");
        }
    }
}

/// A re-check under seal: `Re-check of HOOK {how}: N of M holes closed`,
/// then a line per hole re-run, its tool in a column `tool_width` wide.
pub(super) fn recheck(s: &mut String, re: &SealedRecheck, how: &str, tool_width: usize) {
    let closed = re.cells.iter().filter(|c| c.result == CellResult::Blocked).count();
    let _ = writeln!(s, "\nRe-check of {} {how}: {closed} of {} holes closed", re.hook, re.cells.len());
    for c in &re.cells {
        let _ = writeln!(s, "  {:<tool_width$} {:<8} {}", c.tool, c.fault.as_str(), describe(&c.result));
    }
}
