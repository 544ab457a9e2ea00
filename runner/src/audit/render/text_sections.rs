//! The text report's sections Claude Code's part of an audit and the other
//! agents' parts share: the holes, the advice, and its re-checks.

use std::fmt::Write;

use super::words::{describe, hole_lines};
use crate::audit::advice::Advice;
use crate::audit::guard_verdict::GuardVerdict;
use crate::audit::probe::holes::Hole;
use crate::audit::probe::recheck::{Recheck, Unchecked};
use crate::audit::probe::screen::HookScreen;
use crate::audit::probe::state::StateFile;

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

/// The advice under `heading`, each change with whether it was re-checked,
/// its exact snippet and what the re-check measured below it; nothing when
/// there is none.
pub(in crate::audit) fn advice(s: &mut String, heading: &str, advice: &[Advice]) {
    if advice.is_empty() {
        return;
    }
    let _ = writeln!(s, "\n{heading}");
    for a in advice {
        let _ = writeln!(s, "  {:<4} [{}] {}", a.hook, a.recheck.status.as_str(), a.change);
        if let Some(snippet) = &a.snippet {
            let _ = writeln!(s, "         {snippet}");
        }
        let _ = writeln!(s, "         {}: {}", recheck_lead(a), a.recheck.what);
    }
}

fn recheck_lead(a: &Advice) -> &'static str {
    match a.recheck.status {
        crate::audit::advice::RecheckStatus::NotRechecked => "why not re-checked",
        _ => "re-check",
    }
}

/// A re-check: `Re-check of HOOK, {how}: OUTCOME`, what it measured, then
/// a line per cell re-run (why, tool, fault, result), its tool in a column
/// `tool_width` wide.
pub(in crate::audit) fn recheck(s: &mut String, re: &Recheck, how: &str, tool_width: usize) {
    let _ = writeln!(s, "\nRe-check of {} {how}: {}", re.hook, outcome_words(re));
    let _ = writeln!(s, "  {}", re.measured);
    for c in &re.cells {
        let role = role_words(c.role);
        let _ =
            writeln!(s, "  {role:<9} {:<tool_width$} {:<11} {}", c.cell.tool, c.cell.fault.as_str(), describe(&c.cell));
    }
}

/// The holes no re-check covers, with why; nothing when there is none.
pub(in crate::audit) fn unchecked(s: &mut String, unchecked: &[Unchecked]) {
    if unchecked.is_empty() {
        return;
    }
    let _ = writeln!(s, "\nHoles not re-checked");
    for u in unchecked {
        let _ = writeln!(s, "  {:<4} {} under {}: {}", u.hook, u.tool, u.fault.as_str(), u.why);
    }
}

/// A re-check's outcome in words.
pub(in crate::audit) fn outcome_words(re: &Recheck) -> &'static str {
    use crate::audit::probe::recheck::Outcome;
    match re.outcome {
        Outcome::Proved => "proved (every hole closed, every refusal kept)",
        Outcome::Failed => "FAILED (a call went through on the changed copy)",
        Outcome::Unsettled => "unsettled (a cell could not be told)",
    }
}

/// Why a re-check cell ran, in a word.
pub(in crate::audit) fn role_words(role: crate::audit::probe::recheck::Role) -> &'static str {
    use crate::audit::probe::recheck::Role;
    match role {
        Role::Hole => "hole",
        Role::Refusal => "refusal",
        Role::SealGone => "seal gone",
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

/// Where each hook keeps state: the files its screens wrote.
pub(in crate::audit) fn state(s: &mut String, state: &[StateFile]) {
    if state.is_empty() {
        return;
    }
    let _ =
        writeln!(s, "\nState the hooks keep (files their screens wrote; run under state-unwritable and state-corrupt)");
    for f in state {
        let _ = writeln!(s, "  {:<4} {} ({} bytes)", f.hook, f.shown(), f.bytes);
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
