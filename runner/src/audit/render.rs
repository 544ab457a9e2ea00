//! The audit report as text (a terminal table) or JSON (for CI).

use std::fmt::Write;

use super::config::HookKind;
use super::dynamic::{AuditCell, TOOLS};
use super::faults::Fault;
use super::judge::{CellResult, WroteHow};
use super::{AuditReport, OnFailure};

/// The JSON report (pretty, trailing newline), with the process's `exit_code`.
pub fn json(r: &AuditReport, exit_code: i32) -> String {
    let mut v = serde_json::to_value(r).unwrap_or_default();
    v["exit_code"] = exit_code.into();
    format!("{}\n", serde_json::to_string_pretty(&v).unwrap_or_default())
}

/// The text report; its last line names the process's `exit_code`.
pub fn text(r: &AuditReport, exit_code: i32) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "failopen audit: {}; \"onFailure\": \"block\" {}",
        version_words(r),
        on_failure_words(r.on_failure)
    );
    let files: Vec<String> = r.files.iter().map(|f| f.display().to_string()).collect();
    let _ = writeln!(s, "settings: {}", files.join(", "));
    if !r.managed_files.is_empty() {
        let managed: Vec<String> = r.managed_files.iter().map(|f| f.display().to_string()).collect();
        let _ = writeln!(s, "managed settings (read by Claude Code in every session): {}", managed.join(", "));
    }
    let _ = writeln!(s, "\nHooks");
    if r.hooks.is_empty() {
        let _ = writeln!(s, "  (no PreToolUse hooks)");
    }
    for h in &r.hooks {
        let what = kind_words(&h.kind);
        let timeout = h.timeout.map(|t| format!("timeout {t}s")).unwrap_or_else(|| "no timeout".into());
        let of = if h.on_failure_block() { ", onFailure block" } else { "" };
        let m = h.matcher.as_deref().map(|m| format!("{m:?}")).unwrap_or_else(|| "(none: all tools)".into());
        let source = if h.managed { " (managed: checked statically, runs in every session)" } else { "" };
        let _ = writeln!(s, "  {}  {}{source}\n      matcher {m}, {timeout}{of}\n      {what}", h.id, h.location());
    }
    if !r.other_sources.is_empty() {
        let other: Vec<String> = r.other_sources.iter().map(|f| f.display().to_string()).collect();
        let _ = writeln!(s, "  also read: {}", other.join(", "));
    }
    if !r.event_hooks.is_empty() {
        let _ = writeln!(s, "\nOther hooks that can refuse (checked statically, not run)");
    }
    for h in &r.event_hooks {
        let timeout = h.timeout.map(|t| format!("timeout {t}s")).unwrap_or_else(|| "no timeout".into());
        let of = if h.on_failure_block { ", onFailure block" } else { "" };
        let managed = if h.managed { " (managed)" } else { "" };
        let _ = writeln!(s, "  {}  {}{managed}\n      {}, {timeout}{of}\n      {}", h.id, h.location, h.event, h.what);
    }
    let _ = writeln!(s, "\nStatic findings");
    if r.findings.is_empty() {
        let _ = writeln!(s, "  none");
    }
    for f in &r.findings {
        let _ = writeln!(
            s,
            "  {:<8} {:<4} {} ({})",
            f.severity.as_str(),
            f.hook.as_deref().unwrap_or("-"),
            f.message,
            f.code
        );
    }
    if r.claude_version.is_some() {
        let _ = writeln!(s, "\nDynamic checks: a write attempt per tool, as configured and under injected faults");
        s.push_str(&table(&r.cells));
        let _ = writeln!(
            s,
            "  blocked = refused with evidence; WROTE = the file changed; invalid = cannot tell; - = not run"
        );
        for note in &r.not_covered {
            let _ = writeln!(s, "  note: {note}");
        }
    }
    if r.claude_version.is_some() {
        let _ = writeln!(s, "\nHoles");
        if r.holes.is_empty() {
            let _ = writeln!(s, "  none: every guard held");
        }
        for (hook, what) in hole_lines(&r.holes) {
            let _ = writeln!(s, "  {hook:<4} {what}");
        }
    }
    if !r.advice.is_empty() {
        let _ = writeln!(s, "\nAdvice");
        for a in &r.advice {
            let _ = writeln!(s, "  {:<4} {}", a.hook, a.change);
            if let Some(snippet) = &a.snippet {
                let _ = writeln!(s, "         {snippet}");
            }
        }
    }
    for re in &r.sealed_recheck {
        let closed = re.cells.iter().filter(|c| c.result == CellResult::Blocked).count();
        let _ = writeln!(
            s,
            "\nRe-check of {} wrapped as `failopen seal --install` would: {closed} of {} holes closed",
            re.hook,
            re.cells.len()
        );
        for c in &re.cells {
            let _ = writeln!(s, "  {:<12} {:<8} {}", c.tool, c.fault.as_str(), describe(&c.result));
        }
    }
    if !has_claude_part(r) {
        s.clear();
        let _ = writeln!(s, "failopen audit: no Claude Code settings here; the other agents' hooks:");
        for f in &r.findings {
            let _ = writeln!(s, "  {:<8} {} ({})", f.severity.as_str(), f.message, f.code);
        }
    }
    for a in &r.agents {
        s.push_str(&super::agent_render::text(a));
    }
    let verdict = verdict(r);
    let _ = writeln!(s, "\nResult: {verdict} (exit {exit_code})");
    s
}

/// Whether the report has anything of Claude Code's to show: settings,
/// hooks or sources read, or no other agent's hooks either.
pub(super) fn has_claude_part(r: &AuditReport) -> bool {
    r.agents.is_empty()
        || !(r.files.is_empty()
            && r.hooks.is_empty()
            && r.other_sources.is_empty()
            && r.managed_files.is_empty()
            && r.event_hooks.is_empty())
}

/// `Claude Code VERSION`, or that only the static checks ran.
pub(super) fn version_words(r: &AuditReport) -> String {
    match &r.claude_version {
        Some(v) => format!("Claude Code {v}"),
        None => "static checks only".into(),
    }
}

/// Whether `"onFailure": "block"` is honoured, and how that is known.
pub(super) fn on_failure_words(of: OnFailure) -> &'static str {
    match of {
        OnFailure::Honoured => "honoured (measured)",
        OnFailure::Ignored => "ignored (measured)",
        OnFailure::Unknown => "unknown",
    }
}

/// What a hook runs, e.g. `command /path/guard.sh`.
pub(super) fn kind_words(kind: &HookKind) -> String {
    match kind {
        HookKind::Command { command } => format!("command {command}"),
        HookKind::Http { url } => format!("http {url}"),
        HookKind::Model { model_kind, prompt } => format!("{model_kind} {prompt:?}"),
        HookKind::McpTool { server, tool } => format!("mcp_tool {server}/{tool}"),
        HookKind::Other { kind } => format!("type {kind}"),
    }
}

/// The result line's words: how many holes, or that every guard held.
pub(super) fn verdict(r: &AuditReport) -> String {
    let holes = r.holes.len() + r.agents.iter().map(|a| a.holes.len()).sum::<usize>();
    let dynamic = r.claude_version.is_some() || r.agents.iter().any(|a| a.version.is_some());
    match (r.fails_open(), dynamic) {
        (false, true) => "every guard held".to_string(),
        (false, false) => "no warnings (static checks only; run without --static-only to fault-inject)".to_string(),
        (true, true) => format!("{holes} hole{} found", if holes == 1 { "" } else { "s" }),
        (true, false) => "warnings found (static checks only)".to_string(),
    }
}

/// One line per (hook, kind of hole): the tools it let through and the faults.
pub(super) fn hole_lines(holes: &[super::advice::Hole]) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut groups: Vec<(&str, super::advice::HoleKind, Vec<&str>, Vec<Fault>)> = Vec::new();
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
        let tools = tools.join(", ");
        let what = match kind {
            super::advice::HoleKind::FailsOpen => {
                let f: Vec<&str> = faults.iter().map(|f| fault_words(*f)).collect();
                format!("fails open: writes through {tools} landed under fault {}", f.join(", "))
            }
            super::advice::HoleKind::BrokenAsConfigured => {
                format!("broken as configured: the guard errors, and writes through {tools} landed")
            }
            super::advice::HoleKind::UncoveredTool => {
                format!("uncovered: the matcher lets {tools} through, and no other hook covers it")
            }
        };
        out.push((hook.to_string(), what));
    }
    out
}

fn fault_words(f: Fault) -> &'static str {
    match f {
        Fault::None => "nothing",
        Fault::Missing => "missing",
        Fault::Crash => "crash (exit 1)",
        Fault::Hang => "hang past its timeout",
        Fault::Signal => "killed by a signal",
        Fault::SealMissing => "the seal binary missing",
        Fault::ModelError => "its model answering HTTP 500",
        Fault::ModelHang => "its model not answering in time",
        Fault::ModelGarbage => "its model answering garbage",
        Fault::McpError => "its server answering isError",
        Fault::McpHang => "its server not answering in time",
        Fault::McpMissing => "its server missing",
    }
}

/// A re-checked cell in words: blocked, WROTE (how), invalid: why, - (why).
pub(super) fn describe(r: &CellResult) -> String {
    match r {
        CellResult::Blocked => "blocked".into(),
        CellResult::Wrote(how) => format!(
            "WROTE ({})",
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
pub(super) fn fault_columns(cells: &[AuditCell]) -> Vec<Fault> {
    let mut faults = vec![Fault::None, Fault::Missing, Fault::Crash, Fault::Hang, Fault::Signal];
    for &f in
        Fault::INJECTED.iter().filter(|f| !matches!(f, Fault::Missing | Fault::Crash | Fault::Hang | Fault::Signal))
    {
        if cells.iter().any(|c| c.fault == f && !matches!(c.result, CellResult::Skipped(_))) {
            faults.push(f);
        }
    }
    faults
}

/// The dynamic table's rows: per hook (in order of appearance) and tool,
/// the cell under each fault of `faults`; rows with no cell are left out.
pub(super) fn table_rows<'a>(
    cells: &'a [AuditCell],
    faults: &[Fault],
) -> Vec<(&'a str, &'static str, Vec<Option<&'a AuditCell>>)> {
    let mut hooks: Vec<&str> = Vec::new();
    for c in cells {
        if !hooks.contains(&c.hook.as_str()) {
            hooks.push(&c.hook);
        }
    }
    let mut rows = Vec::new();
    for h in hooks {
        for &tool in TOOLS.iter().chain(super::probes::AGENT_TOOLS.iter()) {
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
pub(super) fn table_notes(rows: &[(&str, &str, Vec<Option<&AuditCell>>)]) -> Vec<String> {
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
        }
    }
    notes
}

/// hook x tool rows, one column per fault.
pub(super) fn table(cells: &[AuditCell]) -> String {
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
            let word = c.map(|c| c.result.word()).unwrap_or("-");
            let _ = write!(s, " {word:<w$}", w = width(f));
        }
        s.push('\n');
    }
    for n in table_notes(&rows) {
        let _ = writeln!(s, "  {n}");
    }
    s
}
