//! Render, the last stage of an audit: the report as text (a terminal
//! table) or JSON (for CI), here, and as Markdown ([`markdown`]); the other
//! agents' sections ([`agent_render`]); and the words, grids and tables the
//! formats share ([`words`], [`text_sections`], [`markdown_syntax`],
//! [`markdown_tables`]). It reads the report and imports no earlier stage's
//! internals beyond what the report holds.

pub mod agent_render;
pub mod markdown;
pub mod markdown_syntax;
pub mod markdown_tables;
pub mod sarif;
pub mod text_sections;
pub mod words;

use std::fmt::Write;

use crate::audit::guard_verdict::GuardStatus;
use crate::audit::intake::config::kind_words;
use crate::audit::report::AuditReport;
use words::{census_words, on_failure_words, table};

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
    for p in &r.plugins {
        let state = if p.loaded { "loaded" } else { "NOT loaded" };
        let at = p
            .runs_from
            .as_ref()
            .or(p.install_path.as_ref())
            .map(|i| format!(" from {}", i.display()))
            .unwrap_or_default();
        let _ = writeln!(s, "plugin {} ({state}{at}): {}", p.name, p.reason);
    }
    let _ = writeln!(s, "\nResult: {}", verdict(r));
    text_sections::guards(&mut s, &r.checks.guards);
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
    if let Some(c) = &r.loaded_hooks {
        let _ = writeln!(s, "  loaded: {}", census_words(c));
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
    if r.checks.findings.is_empty() {
        let _ = writeln!(s, "  none");
    }
    for f in &r.checks.findings {
        let _ = writeln!(
            s,
            "  {:<8} {:<4} {} ({})",
            f.severity.as_str(),
            f.hook.as_deref().unwrap_or("-"),
            f.message,
            f.code
        );
    }
    text_sections::screens(&mut s, &r.checks.screens);
    if r.claude_version.is_some() {
        let _ = writeln!(
            s,
            "\nDynamic checks: a write attempt per tool and each refused probe, as configured and under injected faults"
        );
        s.push_str(&table(&r.checks.cells));
        let _ = writeln!(
            s,
            "  blocked = refused with evidence; WROTE = the file changed; invalid = cannot tell; - = not run"
        );
        for note in &r.checks.not_covered {
            let _ = writeln!(s, "  note: {note}");
        }
    }
    if r.claude_version.is_some() {
        text_sections::holes(&mut s, "Holes", &r.checks.holes);
    }
    text_sections::advice(&mut s, "Advice", &r.checks.advice);
    for re in &r.checks.rechecks {
        text_sections::recheck(&mut s, re, "(its recipe applied to a copy)", 20);
    }
    text_sections::unchecked(&mut s, &r.checks.unchecked);
    if !has_claude_part(r) {
        s.clear();
        let _ = writeln!(s, "failopen audit: no Claude Code settings here; the other agents' hooks:");
        for f in &r.checks.findings {
            let _ = writeln!(s, "  {:<8} {} ({})", f.severity.as_str(), f.message, f.code);
        }
    }
    for a in &r.agents {
        s.push_str(&agent_render::text(a));
    }
    let verdict = verdict(r);
    let _ = writeln!(s, "\nResult: {verdict} (exit {exit_code})");
    s
}

/// Whether the report has anything of Claude Code's to show: settings,
/// hooks or sources read, or no other agent's hooks either.
pub(in crate::audit) fn has_claude_part(r: &AuditReport) -> bool {
    r.agents.is_empty()
        || !(r.files.is_empty()
            && r.hooks.is_empty()
            && r.other_sources.is_empty()
            && r.managed_files.is_empty()
            && r.event_hooks.is_empty())
}

/// `Claude Code VERSION`, or that only the static checks ran.
pub(in crate::audit) fn version_words(r: &AuditReport) -> String {
    match &r.claude_version {
        Some(v) => format!("Claude Code {v}"),
        None => "static checks only".into(),
    }
}

/// The result line's words: how many holes, how many guards untested, or
/// that every guard held.
pub(in crate::audit) fn verdict(r: &AuditReport) -> String {
    let holes = r.checks.holes.len() + r.agents.iter().map(|a| a.checks.holes.len()).sum::<usize>();
    let dynamic = r.claude_version.is_some() || r.agents.iter().any(|a| a.version.is_some());
    let untested = r.untested().len();
    let s = |n: usize| if n == 1 { "" } else { "s" };
    match (r.outcome(), dynamic) {
        (GuardStatus::Held, _) => "every guard held".to_string(),
        (GuardStatus::Untested, _) if untested == 0 => "untested: no guard found, nothing guards tool calls".into(),
        (GuardStatus::Untested, false) => format!(
            "{untested} guard{} untested (static checks only: no warnings; run without --static-only to exercise them)",
            s(untested)
        ),
        (GuardStatus::Untested, true) => {
            format!(
                "{untested} guard{} untested: nothing proves {} fail closed",
                s(untested),
                if untested == 1 { "it" } else { "they" }
            )
        }
        // Open with no hole proven: an error finding of the static checks says a guard fails open.
        (GuardStatus::Open, true) if holes == 0 => {
            let errors =
                r.checks.findings.iter().filter(|f| f.severity >= crate::audit::model::Severity::Error).count()
                    + r.agents
                        .iter()
                        .flat_map(|a| a.checks.findings.iter())
                        .filter(|f| f.severity >= crate::audit::model::Severity::Error)
                        .count();
            format!("no hole proven in a session, but {errors} error finding{} say a guard fails open", s(errors))
        }
        (GuardStatus::Open, true) => format!("{holes} hole{} found", s(holes)),
        (GuardStatus::Open, false) => "warnings found (static checks only)".to_string(),
    }
}
