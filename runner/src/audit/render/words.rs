//! Words and grids both audit renderers (text and Markdown) share, for Claude
//! Code's part and the other agents' parts alike: what a hook runs, what a
//! fault did, which holes a hook has, and the fault x tool grid.

use std::fmt::Write;

use crate::audit::model::OnFailure;
use crate::audit::probe::dynamic::{AuditCell, TOOLS};
use crate::audit::probe::faults::{fault_words, Fault};
use crate::audit::probe::holes::{Hole, HoleKind};
use crate::audit::probe::judge::{CellResult, WroteHow};
use crate::audit::probe::probes::is_read;

/// Whether `"onFailure": "block"` is honoured, and how that is known.
pub(in crate::audit) fn on_failure_words(of: OnFailure) -> &'static str {
    match of {
        OnFailure::Honoured => "honoured (measured)",
        OnFailure::Ignored => "ignored (measured)",
        OnFailure::Unknown => "unknown",
    }
}

/// What the census saw, e.g. `checked against Claude Code 2.1.328 with your
/// settings and plugins: 1 Bash call started 1 PreToolUse hook; listed 1`.
pub(in crate::audit) fn census_words(c: &crate::audit::probe::census::Census) -> String {
    if let Some(why) = &c.inconclusive {
        return format!("not checked against Claude Code {}: {why}", c.agent_version);
    }
    let per_tool: Vec<String> = c
        .tools
        .iter()
        .map(|t| {
            let listed = if t.listed == t.listed_at_most {
                t.listed.to_string()
            } else {
                format!("{} to {}", t.listed, t.listed_at_most)
            };
            format!(
                "{} {} call(s) started {} PreToolUse hook(s), audit lists {listed} per call",
                t.runs.calls, t.tool, t.runs.hooks_started
            )
        })
        .collect();
    format!(
        "checked against Claude Code {} in a session with your settings and plugins: {}",
        c.agent_version,
        per_tool.join("; ")
    )
}

/// One line per (hook, kind of hole): the tools it let through and the faults.
pub(in crate::audit) fn hole_lines(holes: &[Hole]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut groups: Vec<(&str, HoleKind, Vec<&str>, Vec<Fault>)> = Vec::new();
    for h in holes {
        let g = match groups.iter_mut().find(|g| g.0 == h.hook && g.1 == h.kind) {
            Some(g) => g,
            None => {
                groups.push((&h.hook, h.kind, vec![], vec![]));
                groups.last_mut().expect("just pushed")
            }
        };
        if !g.2.contains(&h.tool.as_str()) {
            g.2.push(&h.tool);
        }
        if !g.3.contains(&h.fault) {
            g.3.push(h.fault);
        }
    }
    for (hook, kind, tools, faults) in groups {
        let went = went_through(&tools);
        let tools = tools.join(", ");
        let what = match kind {
            HoleKind::FailsOpen => {
                let f: Vec<&str> = faults.iter().map(|f| fault_words(*f)).collect();
                format!("fails open: {went} under fault {}", f.join(", "))
            }
            HoleKind::BrokenAsConfigured => format!("broken as configured: the guard errors, and {went}"),
            HoleKind::UncoveredTool => {
                format!("uncovered: the matcher lets {tools} through, and no other hook covers it")
            }
            HoleKind::NeverRan => {
                format!(
                    "never ran: the guard refuses {tools} on its own, and the agent ran it without running the hook"
                )
            }
        };
        out.push((hook.to_string(), what));
    }
    out
}

/// What went through `tools` (cell labels): writes landed, a read probe's
/// secret reached the model ([`crate::audit::probe::probes::is_read`]).
fn went_through(tools: &[&str]) -> String {
    let (reads, writes): (Vec<&str>, Vec<&str>) = tools.iter().copied().partition(|t| is_read(t));
    let writes = (!writes.is_empty()).then(|| format!("writes through {} landed", writes.join(", ")));
    let reads =
        (!reads.is_empty()).then(|| format!("reads through {} showed their secret to the model", reads.join(", ")));
    writes.into_iter().chain(reads).collect::<Vec<_>>().join(", and ")
}

/// A re-checked cell in words: blocked, WROTE (how) (SHOWN for a read
/// probe's, [`CellResult::word_for`]), invalid: why, - (why).
pub(in crate::audit) fn describe(c: &AuditCell) -> String {
    match &c.result {
        CellResult::Blocked => "blocked".into(),
        w @ CellResult::Wrote(how) => format!(
            "{} ({})",
            w.word_for(&c.tool),
            match how {
                WroteHow::GuardFailed => "guard broke",
                WroteHow::GuardAllowed => "guard allowed",
                WroteHow::GuardNotRun => "hook not run",
            }
        ),
        CellResult::Invalid(why) => format!("invalid: {why}"),
        CellResult::Skipped(why) => format!("- ({why})"),
    }
}

/// The fault columns of the dynamic table: the four command faults always,
/// the others (seal, model, server) only when some hook was run under them.
pub(in crate::audit) fn fault_columns(cells: &[AuditCell]) -> Vec<Fault> {
    let mut faults = vec![Fault::None, Fault::Missing, Fault::Crash, Fault::Hang, Fault::Signal];
    // A plugin's faults (`Fault::PLUGIN`, issue 47) after the commands' ones.
    // A guard's state faults (issue 47) last: only where a hook learned state.
    let others =
        Fault::INJECTED.iter().chain(Fault::PLUGIN.iter().filter(|f| f.is_plugin_fault())).chain(Fault::STATE.iter());
    for &f in others.filter(|f| !matches!(f, Fault::Missing | Fault::Crash | Fault::Hang | Fault::Signal)) {
        if cells.iter().any(|c| c.fault == f && !matches!(c.result, CellResult::Skipped(_))) {
            faults.push(f);
        }
    }
    faults
}

/// The dynamic table's rows: per hook (in order of appearance) and tool,
/// the cell under each fault of `faults`; rows with no cell are left out.
pub(in crate::audit) fn table_rows<'a>(
    cells: &'a [AuditCell],
    faults: &[Fault],
) -> Vec<(&'a str, &'a str, Vec<Option<&'a AuditCell>>)> {
    let mut hooks: Vec<&str> = Vec::new();
    for c in cells {
        if !hooks.contains(&c.hook.as_str()) {
            hooks.push(&c.hook);
        }
    }
    let mut tools: Vec<&str> = TOOLS.iter().chain(crate::audit::probe::probes::AGENT_TOOLS.iter()).copied().collect();
    for c in cells {
        if !tools.contains(&c.tool.as_str()) {
            tools.push(&c.tool);
        }
    }
    let mut rows = Vec::new();
    for h in hooks {
        for &tool in &tools {
            let row: Vec<Option<&AuditCell>> =
                faults.iter().map(|f| cells.iter().find(|c| c.hook == h && c.tool == tool && c.fault == *f)).collect();
            if row.iter().any(Option::is_some) {
                rows.push((h, tool, row));
            }
        }
    }
    rows
}

/// The notes under the dynamic table: why a cell is invalid, why a tool was not run.
pub(in crate::audit) fn table_notes(rows: &[(&str, &str, Vec<Option<&AuditCell>>)]) -> Vec<String> {
    let mut notes = Vec::new();
    for (h, tool, row) in rows {
        for c in row.iter().flatten() {
            match c {
                AuditCell { result: CellResult::Invalid(why), fault, .. } => {
                    notes.push(format!("{h} {tool} {}: invalid: {why}", fault.as_str()))
                }
                AuditCell { result: CellResult::Skipped(why), fault: Fault::None, .. } => {
                    notes.push(format!("{h} {tool}: not run: {why}"))
                }
                _ => {}
            }
            // Why the guard failed, in its own words (the injected crash, hang and signal are audit's scripts).
            if let Some(said) =
                c.guard_error.as_ref().filter(|_| !matches!(c.fault, Fault::Crash | Fault::Hang | Fault::Signal))
            {
                notes.push(format!("{h} {tool} {}: the guard failed: {said}", c.fault.as_str()));
            }
        }
    }
    notes
}

/// hook x tool rows, one column per fault.
pub(in crate::audit) fn table(cells: &[AuditCell]) -> String {
    let mut s = String::new();
    let faults = fault_columns(cells);
    let width = |f: &Fault| f.as_str().len().max(8);
    let tw = cells.iter().map(|c| c.tool.len()).max().unwrap_or(0).max(12);
    let _ = write!(s, "  {:<4} {:<tw$}", "hook", "tool");
    for f in &faults {
        let _ = write!(s, " {:<w$}", f.as_str(), w = width(f));
    }
    s.push('\n');
    let rows = table_rows(cells, &faults);
    for (h, tool, row) in &rows {
        let _ = write!(s, "  {h:<4} {tool:<tw$}");
        for (c, f) in row.iter().zip(&faults) {
            let word = c.map(|c| c.result.word_for(&c.tool)).unwrap_or("-");
            let _ = write!(s, " {word:<w$}", w = width(f));
        }
        s.push('\n');
    }
    for n in table_notes(&rows) {
        let _ = writeln!(s, "  {n}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A read probe's cell that went through is SHOWN, not WROTE: it changed no
    /// file, its secret reached the model; its hole says so.
    #[test]
    fn a_read_that_went_through_is_shown_not_wrote() {
        let cell = |tool: &str| AuditCell {
            hook: "H1".into(),
            tool: tool.into(),
            fault: Fault::Crash,
            result: CellResult::Wrote(WroteHow::GuardFailed),
            guard_error: None,
        };
        assert_eq!(describe(&cell("Read:read-env")), "SHOWN (guard broke)");
        assert_eq!(describe(&cell("Bash:git-reset-hard")), "WROTE (guard broke)");
        assert!(table(&[cell("Read:read-env")]).contains("SHOWN"));
        let hole =
            |tool: &str| Hole { hook: "H1".into(), kind: HoleKind::FailsOpen, tool: tool.into(), fault: Fault::Crash };
        let lines = hole_lines(&[hole("Read:read-env"), hole("Bash")]);
        assert_eq!(lines.len(), 1);
        assert!(
            lines[0].1.starts_with(
                "fails open: writes through Bash landed, and reads through Read:read-env showed their secret to the model"
            ),
            "{lines:?}"
        );
    }
}
