//! The text report's sections Claude Code's part of an audit and the other
//! agents' parts share: the holes, the advice, and a sealed re-check.

use std::fmt::Write;

use super::words::{describe, hole_lines};
use crate::audit::advice::{Advice, Hole};
use crate::audit::guard_verdict::GuardVerdict;
use crate::audit::probe::judge::CellResult;
use crate::audit::probe::screen::HookScreen;
use crate::audit::SealedRecheck;

/// A line per guard: held, untested or open, and why.
pub(in crate::audit) fn guards(s: &mut String, guards: &[GuardVerdict]) {
    for g in guards {
        let _ = writeln!(s, "  {:<4} {:<8} {}", g.hook, g.status.as_str(), g.reason);
    }
}

/// A line per (hook, kind of hole) under `heading`, or that none was proven.
pub(in crate::audit) fn holes(s: &mut String, heading: &str, holes: &[Hole]) {
    let _ = writeln!(s, "\n{heading}");
    if holes.is_empty() {
        let _ = writeln!(s, "  none proven");
    }
    for (hook, what) in hole_lines(holes) {
        let _ = writeln!(s, "  {hook:<4} {what}");
    }
}

/// The advice under `heading`, each change with its exact snippet below it;
/// nothing when there is none.
pub(in crate::audit) fn advice(s: &mut String, heading: &str, advice: &[Advice]) {
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
pub(in crate::audit) fn recheck(s: &mut String, re: &SealedRecheck, how: &str, tool_width: usize) {
    let closed = re.cells.iter().filter(|c| c.result == CellResult::Blocked).count();
    let _ = writeln!(s, "\nRe-check of {} {how}: {closed} of {} holes closed", re.hook, re.cells.len());
    for c in &re.cells {
        let _ = writeln!(s, "  {:<tool_width$} {:<8} {}", c.tool, c.fault.as_str(), describe(&c.result));
    }
}

/// The probes screened per hook: those it refused, each with its answer,
/// and one line naming the rest.
pub(in crate::audit) fn screens(s: &mut String, screens: &[HookScreen]) {
    if screens.is_empty() {
        return;
    }
    let _ = writeln!(s, "\nProbes tried on each hook directly (the call's payload on its stdin, no session)");
    for (hook, refused, rest) in screen_lines(screens) {
        for (probe, answer) in refused {
            // A guard's reason may span lines: one line per probe, its first.
            let answer = answer.lines().next().unwrap_or_default();
            let _ = writeln!(s, "  {hook:<4} refused  {probe:<28} {answer}");
        }
        if !rest.is_empty() {
            let _ = writeln!(s, "  {hook:<4} let through: {}", rest.join(", "));
        }
    }
}

/// One hook's screens: its id, the refused probes with their answers, the others' labels.
pub(in crate::audit) type ScreenLine<'a> = (&'a str, Vec<(&'a str, &'a str)>, Vec<&'a str>);

/// Per hook (in order): the refused probes with their answers, and the others' labels.
pub(in crate::audit) fn screen_lines(screens: &[HookScreen]) -> Vec<ScreenLine<'_>> {
    let mut out: Vec<ScreenLine<'_>> = Vec::new();
    for sc in screens {
        let i = match out.iter().position(|o| o.0 == sc.hook) {
            Some(i) => i,
            None => {
                out.push((&sc.hook, vec![], vec![]));
                out.len() - 1
            }
        };
        if sc.screen.refused {
            out[i].1.push((&sc.screen.probe, &sc.screen.answer));
        } else {
            out[i].2.push(&sc.screen.probe);
        }
    }
    out
}
