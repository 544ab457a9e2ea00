//! The other agents' sections of the audit report ([`AgentAudit`]), as text
//! and as Markdown, after Claude Code's: each names the agent and the
//! version its hooks ran on.

use std::fmt::Write;

use super::markdown_syntax::{code, table as md_table, text as md_text};
use super::markdown_tables;
use super::text_sections;
use super::words::table;
use crate::audit::intake::config::kind_words;
use crate::audit::report::AgentAudit;

/// `Codex CLI 0.171.0`, or the agent and that only its static checks ran.
fn agent_words(a: &AgentAudit) -> String {
    match &a.version {
        Some(v) => format!("{} {v}", a.agent_name),
        None => format!("{} (static checks only)", a.agent_name),
    }
}

/// The agent's section of the text report.
pub fn text(a: &AgentAudit) -> String {
    let mut s = String::new();
    let files: Vec<String> = a.files.iter().map(|f| f.display().to_string()).collect();
    let _ = writeln!(s, "\n== {}: {} ==", agent_words(a), files.join(", "));
    text_sections::guards(&mut s, &a.checks.guards);
    let _ = writeln!(s, "\nHooks ({})", a.agent_name);
    if a.hooks.is_empty() {
        let _ = writeln!(s, "  (no hooks that run before a tool)");
    }
    for h in &a.hooks {
        let e = &h.entry;
        let timeout = e.timeout.map(|t| format!("timeout {t}s")).unwrap_or_else(|| "no timeout".into());
        let m = e.matcher.as_deref().map(|m| format!("{m:?}")).unwrap_or_else(|| "(none: all tools)".into());
        let on = h.agent_version.as_deref().map(|v| format!(" on {} {v}", a.agent_name)).unwrap_or_default();
        let _ =
            writeln!(s, "  {}  {}{on}\n      matcher {m}, {timeout}\n      {}", e.id, h.location, kind_words(&e.kind));
    }
    let _ = writeln!(s, "\nStatic findings ({})", a.agent_name);
    if a.checks.findings.is_empty() {
        let _ = writeln!(s, "  none");
    }
    for f in &a.checks.findings {
        let hook = f.hook.as_deref().unwrap_or("-");
        let _ = writeln!(s, "  {:<8} {hook:<4} {} ({})", f.severity.as_str(), f.message, f.code);
    }
    if a.version.is_some() {
        let _ = writeln!(
            s,
            "\nDynamic checks on {}: a write attempt per tool, as configured and under injected faults",
            agent_words(a)
        );
        s.push_str(&table(&a.checks.cells));
        let _ = writeln!(
            s,
            "  blocked = refused with evidence; WROTE = the file changed; invalid = cannot tell; - = not run"
        );
        for note in &a.checks.not_covered {
            let _ = writeln!(s, "  note: {note}");
        }
        text_sections::holes(&mut s, &format!("Holes ({})", agent_words(a)), &a.checks.holes);
    }
    text_sections::advice(&mut s, &format!("Advice ({})", a.agent_name), &a.checks.advice);
    for re in &a.checks.rechecks {
        text_sections::recheck(&mut s, re, &format!("(its recipe applied to a copy, on {})", agent_words(a)), 20);
    }
    text_sections::unchecked(&mut s, &a.checks.unchecked);
    s
}

/// The agent's section of the Markdown report.
pub fn markdown(a: &AgentAudit) -> String {
    let mut s = String::new();
    let files: Vec<String> = a.files.iter().map(|f| code(&f.display().to_string())).collect();
    let _ = writeln!(s, "#### {}\n\nHook configs: {}\n", md_text(&agent_words(a)), files.join(", "));
    super::markdown_tables::guards_table(&mut s, &a.checks.guards);
    let rows: Vec<Vec<String>> = a
        .hooks
        .iter()
        .map(|h| {
            vec![
                h.entry.id.clone(),
                code(&h.location),
                h.entry.matcher.as_deref().map(code).unwrap_or_else(|| "(none: all tools)".into()),
                h.entry.timeout.map(|t| format!("{t}s")).unwrap_or_else(|| "none".into()),
                code(&kind_words(&h.entry.kind)),
                md_text(&agent_words(a)),
            ]
        })
        .collect();
    md_table(
        &mut s,
        &["hook", "where", "matcher", "timeout", "runs", "agent"],
        &rows,
        "No hooks that run before a tool.",
    );
    let rows: Vec<Vec<String>> = a
        .checks
        .findings
        .iter()
        .map(|f| {
            let hook = f.hook.clone().unwrap_or_else(|| "-".into());
            vec![f.severity.as_str().into(), hook, md_text(&f.message), code(&f.code)]
        })
        .collect();
    md_table(&mut s, &["severity", "hook", "finding", "code"], &rows, "No static findings.");
    if a.version.is_some() {
        let notes = markdown_tables::fault_grid(&mut s, &a.checks.cells);
        for note in notes.iter().chain(&a.checks.not_covered) {
            let _ = writeln!(s, "- {}", md_text(note));
        }
        s.push('\n');
        markdown_tables::holes(&mut s, &a.checks.holes, "No holes proven.");
    }
    markdown_tables::advice(&mut s, &a.checks.advice);
    for re in &a.checks.rechecks {
        markdown_tables::recheck(&mut s, re, "Re-check of", "(its recipe applied to a copy)");
    }
    markdown_tables::unchecked(&mut s, &a.checks.unchecked);
    s
}
