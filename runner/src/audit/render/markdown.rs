//! The audit report as Markdown: the text report's sections as GitHub
//! tables, for a CI job summary (`$GITHUB_STEP_SUMMARY`) or a pull request.

use std::fmt::Write;

use super::markdown_syntax::{code, table, text};
use super::markdown_tables;
use super::words::on_failure_words;
use crate::audit::intake::config::kind_words;
use crate::audit::render::{agent_words, tag, verdict};
use crate::audit::report::{AgentReport, AuditReport};

/// The Markdown report; its heading names the result and the process's `exit_code`.
pub fn markdown(r: &AuditReport, exit_code: i32) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "### failopen audit: {} (exit {exit_code})\n", text(&verdict(r)));
    let several = r.agents.len() > 1;
    for a in &r.agents {
        agent_markdown(&mut s, a, &tag(a, several));
    }
    s
}

/// One agent's part of the Markdown report; `tag` names it in each heading.
fn agent_markdown(s: &mut String, a: &AgentReport, tag: &str) {
    let of =
        a.on_failure.map(|of| format!("; `\"onFailure\": \"block\"` {}", on_failure_words(of))).unwrap_or_default();
    let _ = writeln!(s, "{}{of}\n", text(&agent_words(a)));
    let paths = |files: &[std::path::PathBuf]| -> String {
        files.iter().map(|f| code(&f.display().to_string())).collect::<Vec<_>>().join(", ")
    };
    if !a.files.is_empty() {
        let _ = writeln!(s, "Files: {}\n", paths(&a.files));
    }
    for p in &a.plugins {
        let state = if p.loaded { "loaded" } else { "**not loaded**" };
        let _ = writeln!(s, "- plugin {} ({state}): {}", code(&p.name), text(&p.reason));
    }
    if !a.plugins.is_empty() {
        s.push('\n');
    }
    markdown_tables::guards_table(s, &a.checks.guards);
    if !a.managed_files.is_empty() {
        let _ = writeln!(
            s,
            "Managed settings (read by {} in every session): {}\n",
            text(a.agent_name),
            paths(&a.managed_files)
        );
    }
    if !a.other_sources.is_empty() {
        let _ = writeln!(s, "Also read: {}\n", paths(&a.other_sources));
    }
    if let Some(c) = &a.loaded_hooks {
        let _ = writeln!(s, "Hooks loaded: {}\n", text(&super::words::census_words(c)));
    }

    let _ = writeln!(s, "#### Hooks{}\n", text(tag));
    let rows: Vec<Vec<String>> = a
        .hooks
        .iter()
        .map(|h| {
            let e = &h.entry;
            let managed = if e.managed { " (managed: checked statically)" } else { "" };
            vec![
                e.id.clone(),
                format!("{}{managed}", code(&h.location)),
                e.matcher.as_deref().map(code).unwrap_or_else(|| "(none: all tools)".into()),
                e.timeout.map(|t| format!("{t}s")).unwrap_or_else(|| "none".into()),
                if e.on_failure_block() { "block".into() } else { "-".into() },
                code(&kind_words(&e.kind)),
            ]
        })
        .collect();
    table(s, &["hook", "where", "matcher", "timeout", "onFailure", "runs"], &rows, "No hooks that run before a tool.");
    if !a.event_hooks.is_empty() {
        let _ = writeln!(s, "#### Other hooks that can refuse (checked statically, not run)\n");
        let rows: Vec<Vec<String>> = a
            .event_hooks
            .iter()
            .map(|h| {
                vec![
                    h.id.clone(),
                    format!("{}{}", code(&h.location), if h.managed { " (managed)" } else { "" }),
                    h.event.clone(),
                    h.timeout.map(|t| format!("{t}s")).unwrap_or_else(|| "none".into()),
                    if h.on_failure_block { "block".into() } else { "-".into() },
                    code(&h.what),
                ]
            })
            .collect();
        table(s, &["hook", "where", "event", "timeout", "onFailure", "runs"], &rows, "");
    }

    let _ = writeln!(s, "#### Static findings{}\n", text(tag));
    let rows: Vec<Vec<String>> = a
        .checks
        .findings
        .iter()
        .map(|f| {
            vec![
                f.severity.as_str().into(),
                f.hook.clone().unwrap_or_else(|| "-".into()),
                text(&f.message),
                code(&f.code),
            ]
        })
        .collect();
    table(s, &["severity", "hook", "finding", "code"], &rows, "None.");

    if !a.checks.screens.is_empty() {
        let _ = writeln!(s, "#### Probes tried on each hook directly (stdin, no session)\n");
        let rows: Vec<Vec<String>> = super::text_sections::screen_lines(&a.checks.screens)
            .into_iter()
            .map(|(hook, refused, rest)| {
                let refused: Vec<String> = refused.iter().map(|(p, a)| format!("{} ({})", code(p), text(a))).collect();
                let rest: Vec<String> = rest.iter().map(|p| code(p)).collect();
                vec![hook.to_string(), refused.join("<br>"), rest.join(", ")]
            })
            .collect();
        table(s, &["hook", "refused", "let through"], &rows, "");
    }
    if !a.checks.state.is_empty() {
        let _ = writeln!(s, "#### State the hooks keep (files their screens wrote)\n");
        let rows: Vec<Vec<String>> =
            a.checks.state.iter().map(|f| vec![f.hook.clone(), code(&f.shown()), f.bytes.to_string()]).collect();
        table(s, &["hook", "file", "bytes"], &rows, "");
    }
    if a.version.is_some() {
        let _ = writeln!(
            s,
            "#### Dynamic checks{}: a write attempt per tool and each refused probe, as configured and under injected faults\n",
            text(tag)
        );
        let notes = markdown_tables::fault_grid(s, &a.checks.cells);
        let _ = writeln!(
            s,
            "blocked = refused with evidence; **WROTE** = the file changed; **SHOWN** = a read probe's secret \
             reached the model; invalid = cannot tell; - = not run\n"
        );
        for note in notes.iter().chain(&a.checks.not_covered) {
            let _ = writeln!(s, "- {}", text(note));
        }
        if !a.checks.cells.is_empty() || !a.checks.not_covered.is_empty() {
            s.push('\n');
        }

        let _ = writeln!(s, "#### Holes{}\n", text(tag));
        markdown_tables::holes(s, &a.checks.holes, "None proven.");
    }

    if !a.checks.advice.is_empty() {
        let _ = writeln!(s, "#### Advice{}\n", text(tag));
        markdown_tables::advice(s, &a.checks.advice);
    }
    for re in &a.checks.rechecks {
        markdown_tables::recheck(s, re, "#### Re-check of", "(its recipe applied to a copy)");
    }
    markdown_tables::unchecked(s, &a.checks.unchecked);
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;
    use crate::audit::advice::Advice;
    use crate::audit::advice::{RecheckStatus, Rechecked};
    use crate::audit::checks::Checks;
    use crate::audit::intake::config::{HookEntry, HookKind};
    use crate::audit::model::{Finding, OnFailure, Severity};
    use crate::audit::probe::dynamic::AuditCell;
    use crate::audit::probe::faults::Fault;
    use crate::audit::probe::holes::{Hole, HoleKind};
    use crate::audit::probe::judge::{CellResult, WroteHow};
    use crate::audit::probe::recheck::{Change, Outcome, Recheck, RecheckCell, Role};
    use crate::audit::report::ReportHook;

    fn hook(id: &str, matcher: &str, command: &str) -> HookEntry {
        HookEntry {
            id: id.into(),
            file: PathBuf::from("/p/.claude/settings.json"),
            group: 0,
            index: 0,
            matcher: Some(matcher.into()),
            kind: HookKind::Command { command: command.into() },
            timeout: Some(5.0),
            on_failure: None,
            raw: serde_json::Value::Null,
            project_dir: PathBuf::from("/p"),
            managed: false,
            plugin: None,
        }
    }

    fn cell(tool: &str, fault: Fault, result: CellResult) -> AuditCell {
        AuditCell { hook: "H1".into(), tool: tool.into(), fault, result, guard_error: None }
    }

    /// A report with one unprotected guard that failed open under a crash.
    fn report() -> AuditReport {
        let e = hook("H1", "Bash|Write", "guard.sh --deny `x` <y>");
        AuditReport {
            schema: crate::audit::report::SCHEMA,
            agents: vec![AgentReport {
                agent: "claude-code",
                agent_name: "Claude Code",
                version: Some("2.1.328".into()),
                on_failure: Some(OnFailure::Honoured),
                files: vec![PathBuf::from("/p/.claude/settings.json")],
                managed_files: vec![],
                other_sources: vec![],
                plugins: vec![],
                event_hooks: vec![],
                hooks: vec![ReportHook { location: e.location(), entry: e }],
                loaded_hooks: None,
                checks: Checks {
                    findings: vec![Finding {
                        hook: Some("H1".into()),
                        severity: Severity::Warning,
                        code: "unprotected".into(),
                        message: "no \"onFailure\": \"block\" | not sealed".into(),
                    }],
                    cells: vec![
                        cell("Bash", Fault::None, CellResult::Blocked),
                        cell("Bash", Fault::Crash, CellResult::Wrote(WroteHow::GuardFailed)),
                        cell("Write", Fault::None, CellResult::Invalid("tool-error".into())),
                    ],
                    holes: vec![Hole {
                        hook: "H1".into(),
                        kind: HoleKind::FailsOpen,
                        tool: "Bash".into(),
                        fault: Fault::Crash,
                    }],
                    advice: vec![Advice {
                        hook: "H1".into(),
                        change: "add onFailure".into(),
                        snippet: Some("\"onFailure\": \"block\"".into()),
                        recheck: Rechecked { status: RecheckStatus::Proved, what: "1 of 1 hole refused".into() },
                    }],
                    rechecks: vec![Recheck {
                        hook: "H1".into(),
                        changes: vec![Change::OnFailure],
                        hook_json: serde_json::json!({"onFailure": "block"}),
                        matcher: Some("Bash|Write".into()),
                        cells: vec![RecheckCell {
                            role: Role::Hole,
                            cell: cell("Bash", Fault::Crash, CellResult::Blocked),
                        }],
                        outcome: Outcome::Proved,
                        measured: "1 of 1 hole refused".into(),
                        went_wrong: vec![],
                    }],
                    unchecked: vec![],
                    not_covered: vec!["faults are injected through Bash and Write only".into()],
                    guards: vec![crate::audit::guard_verdict::GuardVerdict {
                        hook: "H1".into(),
                        status: crate::audit::guard_verdict::GuardStatus::Open,
                        reason: "1 hole: calls through Bash went through".into(),
                    }],
                    screens: vec![],
                    state: vec![],
                },
            }],
        }
    }

    #[test]
    fn every_section_is_a_table_and_the_heading_names_the_result() {
        let md = markdown(&report(), 3);
        assert!(md.starts_with("### failopen audit: 1 hole found (exit 3)\n"), "{md}");
        assert!(md.contains("Claude Code 2.1.328; `\"onFailure\": \"block\"` honoured (measured)"), "{md}");
        assert!(
            md.contains("| H1 | `/p/.claude/settings.json PreToolUse[0].hooks[0]` | `Bash\\|Write` | 5s | - | ``command guard.sh --deny `x` <y>`` |"),
            "the matcher's pipe is escaped, the command's backticks fenced\n{md}"
        );
        assert!(md.contains("| warning | H1 | no \"onFailure\": \"block\" \\| not sealed | `unprotected` |"), "{md}");
        assert!(md.contains("| hook | tool | as-is | missing | crash | hang | signal |\n| --- | --- | --- | --- | --- | --- | --- |\n"), "{md}");
        assert!(md.contains("| H1 | Bash | blocked | - | **WROTE** | - | - |"), "{md}");
        assert!(md.contains("| H1 | Write | invalid | - | - | - | - |"), "{md}");
        assert!(
            md.contains("- H1 Write as-is: invalid: tool-error\n- faults are injected through Bash and Write only\n"),
            "{md}"
        );
        assert!(md.contains("| H1 | fails open: writes through Bash landed under fault crash (exit 1) |"), "{md}");
        assert!(
            md.contains(
                "| H1 | add onFailure | `\"onFailure\": \"block\"` | **fix, re-checked**: 1 of 1 hole refused |"
            ),
            "{md}"
        );
        assert!(md.contains("#### Re-check of H1 (its recipe applied to a copy): proved"), "{md}");
        assert!(md.contains("| hole | Bash | crash | blocked |"), "{md}");
        let mut widths = Vec::new();
        for line in md.lines() {
            match (line.starts_with('|'), widths.last()) {
                (true, Some(&w)) => {
                    assert_eq!(unescaped_pipes(line), w, "ragged row: {line}\n{md}")
                }
                (true, _) => widths.push(unescaped_pipes(line)),
                (false, _) => widths.clear(),
            }
        }
    }

    fn unescaped_pipes(line: &str) -> usize {
        line.char_indices().filter(|&(i, c)| c == '|' && !line[..i].ends_with('\\')).count()
    }

    #[test]
    fn static_only_has_no_dynamic_sections_and_says_none() {
        let mut r = report();
        let a = &mut r.agents[0];
        a.version = None;
        a.on_failure = Some(OnFailure::Unknown);
        a.checks.cells.clear();
        a.checks.holes.clear();
        a.checks.advice.clear();
        a.checks.rechecks.clear();
        a.checks.findings.clear();
        a.checks.guards[0].status = crate::audit::guard_verdict::GuardStatus::Untested;
        let md = markdown(&r, 6);
        assert!(md.starts_with("### failopen audit: 1 guard untested (static checks only: no warnings; run without --static-only to exercise them) (exit 6)"), "{md}");
        assert!(md.contains("#### Static findings\n\nNone.\n"), "{md}");
        assert!(!md.contains("Dynamic checks") && !md.contains("#### Holes") && !md.contains("Advice"), "{md}");
    }

    #[test]
    fn text_and_code_cannot_break_out_of_a_cell() {
        assert_eq!(text("a|b <c> *d* _e_ `f`\ng"), "a\\|b &lt;c&gt; \\*d\\* \\_e\\_ \\`f\\` g");
        assert_eq!(code("a|b"), "`a\\|b`");
        assert_eq!(code("x `y` z"), "``x `y` z``");
        assert_eq!(code("`edge"), "`` `edge ``");
        assert_eq!(code("two\nlines"), "`two lines`");
    }
}
