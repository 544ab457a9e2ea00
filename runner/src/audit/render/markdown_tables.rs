//! The Markdown tables Claude Code's part of an audit report and the other
//! agents' parts share: the holes, the advice, and its re-checks.

use std::fmt::Write;

use super::markdown_syntax::{code, table, text};
use super::words::{describe, fault_columns, hole_lines, table_notes, table_rows};
use crate::audit::advice::Advice;
use crate::audit::probe::dynamic::AuditCell;
use crate::audit::probe::holes::Hole;
use crate::audit::probe::judge::CellResult;
use crate::audit::probe::recheck::{Recheck, Unchecked};

/// A row per guard: held, untested or open, and why.
pub(in crate::audit) fn guards_table(s: &mut String, guards: &[crate::audit::guard_verdict::GuardVerdict]) {
    let rows: Vec<Vec<String>> =
        guards.iter().map(|g| vec![g.hook.clone(), format!("**{}**", g.status.as_str()), text(&g.reason)]).collect();
    table(s, &["guard", "result", "why"], &rows, "No guard found.");
}

/// One row per (hook, kind of hole), or `empty` when every guard held.
pub(in crate::audit) fn holes(s: &mut String, holes: &[Hole], empty: &str) {
    let rows: Vec<Vec<String>> = hole_lines(holes).into_iter().map(|(hook, what)| vec![hook, text(&what)]).collect();
    table(s, &["hook", "hole"], &rows, empty);
}

/// One row per piece of advice: the hook, the change in words, the exact
/// change as code, and whether it was re-checked with what that measured.
pub(in crate::audit) fn advice(s: &mut String, advice: &[Advice]) {
    let rows: Vec<Vec<String>> = advice
        .iter()
        .map(|a| {
            vec![
                a.hook.clone(),
                text(&a.change),
                a.snippet.as_deref().map(code).unwrap_or_default(),
                format!("**{}**: {}", text(a.recheck.status.as_str()), text(&a.recheck.what)),
            ]
        })
        .collect();
    table(s, &["hook", "change", "exact change", "re-check"], &rows, "");
}

/// A re-check: a line `{lead} {hook} {how}: OUTCOME`, what it measured,
/// then one row per cell re-run.
pub(in crate::audit) fn recheck(s: &mut String, re: &Recheck, lead: &str, how: &str) {
    let outcome = super::text_sections::outcome_words(re);
    let _ = writeln!(s, "{lead} {} {how}: {outcome}\n\n{}\n", re.hook, text(&re.measured));
    let rows: Vec<Vec<String>> = re
        .cells
        .iter()
        .map(|c| {
            vec![
                super::text_sections::role_words(c.role).into(),
                text(&c.cell.tool),
                c.cell.fault.as_str().into(),
                text(&describe(&c.cell)),
            ]
        })
        .collect();
    table(s, &["why", "tool", "fault", "result"], &rows, "");
}

/// The holes no re-check covers, with why.
pub(in crate::audit) fn unchecked(s: &mut String, unchecked: &[Unchecked]) {
    let rows: Vec<Vec<String>> =
        unchecked.iter().map(|u| vec![u.hook.clone(), text(&u.tool), u.fault.as_str().into(), text(&u.why)]).collect();
    table(s, &["hook", "hole's tool", "fault", "not re-checked because"], &rows, "");
}

/// The fault x tool grid of `cells`: a row per (hook, tool), a column per
/// fault, a write in bold (or `No hook was run.`). Returns the grid's notes
/// (the cells that could not be told, and why), for the caller to list.
pub(in crate::audit) fn fault_grid(s: &mut String, cells: &[AuditCell]) -> Vec<String> {
    let faults = fault_columns(cells);
    let grid = table_rows(cells, &faults);
    let mut header = vec!["hook", "tool"];
    header.extend(faults.iter().map(|f| f.as_str()));
    let rows: Vec<Vec<String>> = grid
        .iter()
        .map(|(h, tool, row)| {
            let mut line = vec![h.to_string(), tool.to_string()];
            line.extend(row.iter().map(|c| match c {
                Some(c @ AuditCell { result: CellResult::Wrote(_), .. }) => {
                    format!("**{}**", c.result.word_for(&c.tool))
                }
                Some(c) => c.result.word_for(&c.tool).into(),
                None => "-".into(),
            }));
            line
        })
        .collect();
    table(s, &header, &rows, "No hook was run.");
    table_notes(&grid)
}
