//! Render, the last stage of an audit: the report as text (a terminal
//! table) or JSON (for CI), here, and as Markdown ([`markdown`]) and SARIF
//! ([`sarif`]); every agent's part is rendered by the same code; the words,
//! grids and tables the formats share are in [`words`], [`text_sections`],
//! [`markdown_syntax`], [`markdown_tables`]. It reads the report and imports
//! no earlier stage's internals beyond what the report holds.

pub mod markdown;
pub mod markdown_syntax;
pub mod markdown_tables;
pub mod sarif;
pub mod text_sections;
pub mod words;

use std::fmt::Write;

use crate::audit::guard_verdict::GuardStatus;
use crate::audit::intake::config::kind_words;
use crate::audit::report::{AgentReport, AuditReport};
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
    let heads: Vec<String> = r.agents.iter().map(agent_head).collect();
    let _ = writeln!(s, "failopen audit: {}", heads.join("; "));
    let _ = writeln!(s, "Result: {}", verdict(r));
    let several = r.agents.len() > 1;
    for a in &r.agents {
        agent_text(&mut s, a, &tag(a, several));
    }
    let verdict = verdict(r);
    let _ = writeln!(s, "\nResult: {verdict} (exit {exit_code})");
    s
}

/// What names an agent's sections when the report has several (` (Codex CLI)`), else nothing.
pub(in crate::audit) fn tag(a: &AgentReport, several: bool) -> String {
    if several {
        format!(" ({})", a.agent_name)
    } else {
        String::new()
    }
}

/// `Claude Code 2.1.328`, or the agent and that only its static checks ran.
pub(in crate::audit) fn agent_words(a: &AgentReport) -> String {
    match &a.version {
        Some(v) => format!("{} {v}", a.agent_name),
        None => format!("{} (static checks only)", a.agent_name),
    }
}

/// The agent and, for one with an `onFailure` key, whether it honours it.
pub(in crate::audit) fn agent_head(a: &AgentReport) -> String {
    match a.on_failure {
        Some(of) => format!("{}; \"onFailure\": \"block\" {}", agent_words(a), on_failure_words(of)),
        None => agent_words(a),
    }
}

/// One agent's part of the text report; `tag` names it in each heading.
fn agent_text(s: &mut String, a: &AgentReport, tag: &str) {
    let files: Vec<String> = a.files.iter().map(|f| f.display().to_string()).collect();
    let files = if files.is_empty() { "no hook files named or found".to_string() } else { files.join(", ") };
    let _ = writeln!(s, "\n== {}: {files} ==", agent_words(a));
    if !a.managed_files.is_empty() {
        let managed: Vec<String> = a.managed_files.iter().map(|f| f.display().to_string()).collect();
        let _ = writeln!(s, "managed settings (read by {} in every session): {}", a.agent_name, managed.join(", "));
    }
    for p in &a.plugins {
        let state = if p.loaded { "loaded" } else { "NOT loaded" };
        let at = p
            .runs_from
            .as_ref()
            .or(p.install_path.as_ref())
            .map(|i| format!(" from {}", i.display()))
            .unwrap_or_default();
        let _ = writeln!(s, "plugin {} ({state}{at}): {}", p.name, p.reason);
    }
    text_sections::guards(s, &a.checks.guards);
    let _ = writeln!(s, "\nHooks{tag}");
    if a.hooks.is_empty() {
        let _ = writeln!(s, "  (no hooks that run before a tool)");
    }
    for h in &a.hooks {
        let e = &h.entry;
        let timeout = e.timeout.map(|t| format!("timeout {t}s")).unwrap_or_else(|| "no timeout".into());
        let of = if e.on_failure_block() { ", onFailure block" } else { "" };
        let m = e.matcher.as_deref().map(|m| format!("{m:?}")).unwrap_or_else(|| "(none: all tools)".into());
        let source = if e.managed { " (managed: checked statically, runs in every session)" } else { "" };
        let _ = writeln!(
            s,
            "  {}  {}{source}\n      matcher {m}, {timeout}{of}\n      {}",
            e.id,
            h.location,
            kind_words(&e.kind)
        );
    }
    if !a.other_sources.is_empty() {
        let other: Vec<String> = a.other_sources.iter().map(|f| f.display().to_string()).collect();
        let _ = writeln!(s, "  also read: {}", other.join(", "));
    }
    if let Some(c) = &a.loaded_hooks {
        let _ = writeln!(s, "  loaded: {}", census_words(c));
    }
    if !a.event_hooks.is_empty() {
        let _ = writeln!(s, "\nOther hooks that can refuse (checked statically, not run)");
    }
    for h in &a.event_hooks {
        let timeout = h.timeout.map(|t| format!("timeout {t}s")).unwrap_or_else(|| "no timeout".into());
        let of = if h.on_failure_block { ", onFailure block" } else { "" };
        let managed = if h.managed { " (managed)" } else { "" };
        let _ = writeln!(s, "  {}  {}{managed}\n      {}, {timeout}{of}\n      {}", h.id, h.location, h.event, h.what);
    }
    let _ = writeln!(s, "\nStatic findings{tag}");
    if a.checks.findings.is_empty() {
        let _ = writeln!(s, "  none");
    }
    for f in &a.checks.findings {
        let hook = f.hook.as_deref().unwrap_or("-");
        let _ = writeln!(s, "  {:<8} {hook:<4} {} ({})", f.severity.as_str(), f.message, f.code);
    }
    text_sections::screens(s, &a.checks.screens);
    text_sections::state(s, &a.checks.state);
    if a.version.is_some() {
        let _ = writeln!(
            s,
            "\nDynamic checks{tag}: a write attempt per tool and each refused probe, as configured and under injected faults"
        );
        s.push_str(&table(&a.checks.cells));
        let _ = writeln!(
            s,
            "  blocked = refused with evidence; WROTE = the file changed; SHOWN = a read probe's secret reached the \
             model; invalid = cannot tell; - = not run"
        );
        for note in &a.checks.not_covered {
            let _ = writeln!(s, "  note: {note}");
        }
        text_sections::holes(s, &format!("Holes{tag}"), &a.checks.holes);
    }
    text_sections::advice(s, &format!("Advice{tag}"), &a.checks.advice);
    for re in &a.checks.rechecks {
        text_sections::recheck(s, re, "(its recipe applied to a copy)", 20);
    }
    text_sections::unchecked(s, &a.checks.unchecked);
}

/// The result line's words: how many holes, how many guards untested, or
/// that every guard held.
pub(in crate::audit) fn verdict(r: &AuditReport) -> String {
    let holes = r.agents.iter().map(|a| a.checks.holes.len()).sum::<usize>();
    let dynamic = r.dynamic();
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
            let errors = r
                .agents
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
