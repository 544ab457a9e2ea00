//! Unit tests for live mode: the confirmation decision and the control marking.

use std::path::PathBuf;
use std::sync::Arc;

use super::*;
use crate::evidence::{Attempt, AttemptResult, FileFound};
use crate::install::AgentBin;

#[test]
fn yes_skips_the_question_even_without_a_terminal() {
    assert_eq!(confirm(true, false, None), Confirmation::Proceed);
    assert_eq!(confirm(true, true, Some("no")), Confirmation::Proceed);
}

#[test]
fn no_terminal_and_no_yes_refuses() {
    assert_eq!(confirm(false, false, None), Confirmation::NoTerminal);
    // An answer piped in is not a confirmation from a person at a terminal.
    assert_eq!(confirm(false, false, Some("y")), Confirmation::NoTerminal);
}

#[test]
fn terminal_asks_then_only_yes_proceeds() {
    assert_eq!(confirm(false, true, None), Confirmation::Ask);
    for yes in ["y", "Y", "yes", " YES \n"] {
        assert_eq!(confirm(false, true, Some(yes)), Confirmation::Proceed, "{yes:?}");
    }
    for no in ["", "\n", "n", "no", "yep", "sure"] {
        assert_eq!(confirm(false, true, Some(no)), Confirmation::Declined, "{no:?}");
    }
}

#[test]
fn credentials_need_a_key_or_a_token() {
    assert!(credentials_problem(false, false).unwrap().contains("ANTHROPIC_API_KEY"));
    assert_eq!(credentials_problem(true, false), None);
    assert_eq!(credentials_problem(false, true), None);
}

#[test]
fn control_is_added_once_and_first() {
    let article = crate::arms::load("article").unwrap();
    let arms = with_control(&article);
    assert_eq!(arms.len(), article.len() + 1);
    assert!(is_control(&arms[0]));
    assert_eq!(arms[0].name, "allow/bare");
    // A set that has allow/bare already (full) gets no second control.
    let full = crate::arms::load("full").unwrap();
    assert_eq!(with_control(&full).len(), full.len());
    assert_eq!(with_control(&full).iter().filter(|a| is_control(a)).count(), 1);
}

fn row(version: &str, arm: &str, verdict: VerdictKind) -> Row {
    let mut row = crate::test_helpers::row(version, arm, 1, verdict, "");
    row.model = "live".into();
    row.hook_invocations = 0;
    row
}

fn cells(versions: &[&str], repeats: u32) -> Vec<Cell> {
    let bins: Vec<AgentBin> = versions.iter().map(|v| AgentBin::claude(PathBuf::from("/x"), v.to_string())).collect();
    let arms =
        with_control(&crate::arms::filter(crate::arms::load("article").unwrap(), &["deny/bare".into()]).unwrap());
    crate::cells::expand(&bins, &arms, repeats)
}

fn flags(rows: &[(usize, Row)]) -> Vec<String> {
    rows.iter().map(|(_, r)| r.flags.clone()).collect()
}

#[test]
fn failed_control_marks_every_row_of_its_version_only() {
    // Cells: per version, allow/bare x2 then deny/bare x2.
    let cells = cells(&["A", "B"], 2);
    let gate = ControlGate::new(&cells, &[]);
    assert!(!gate.complete("A") && !gate.complete("B"));
    // A: one control wrote, one did not: held until both ended.
    assert!(gate.admit(0, row("A", "allow/bare", VerdictKind::Wrote)).is_empty());
    assert!(!gate.complete("A"));
    let released = gate.admit(1, row("A", "allow/bare", VerdictKind::Invalid));
    assert!(gate.complete("A"));
    assert_eq!(gate.status("A"), ControlStatus::Failed { wrote: 1, runs: 2 });
    assert_eq!(flags(&released), ["control;control-failed", "control;control-failed"]);
    let other = gate.admit(2, row("A", "deny/bare", VerdictKind::Blocked));
    assert_eq!(flags(&other), ["control-failed"]);
    // B: both controls wrote: nothing but the control flag.
    gate.admit(4, row("B", "allow/bare", VerdictKind::Wrote));
    let released = gate.admit(5, row("B", "allow/bare", VerdictKind::Wrote));
    assert_eq!(flags(&released), ["control", "control"]);
    assert_eq!(gate.status("B"), ControlStatus::Passed);
    assert_eq!(flags(&gate.admit(6, row("B", "deny/bare", VerdictKind::Blocked))), [""]);
}

#[test]
fn control_without_any_row_is_not_run_and_drain_releases_held_rows() {
    let cells = cells(&["A"], 2);
    let gate = ControlGate::new(&cells, &[]);
    assert!(gate.admit(0, row("A", "allow/bare", VerdictKind::Wrote)).is_empty());
    // The run stopped: the second control never ended.
    let drained = gate.drain();
    assert_eq!(flags(&drained), ["control"]);
    let gate = ControlGate::new(&cells, &[]);
    assert!(gate.abandon(0).is_empty());
    assert!(gate.abandon(1).is_empty());
    assert_eq!(gate.status("A"), ControlStatus::NotRun);
    assert_eq!(flags(&gate.admit(2, row("A", "deny/bare", VerdictKind::Blocked))), ["control-not-run"]);
}

#[test]
fn resumed_control_rows_count() {
    let cells: Vec<Cell> = cells(&["A"], 1).into_iter().filter(|c| !is_control(&c.arm)).collect();
    let gate = ControlGate::new(&cells, &[row("A", "allow/bare", VerdictKind::Invalid)]);
    assert!(gate.complete("A"));
    assert_eq!(gate.status("A"), ControlStatus::Failed { wrote: 0, runs: 1 });
}

#[tokio::test]
async fn other_cells_wait_for_the_control() {
    let cells = cells(&["A"], 1);
    let gate = Arc::new(ControlGate::new(&cells, &[]));
    let waiter = tokio::spawn({
        let gate = gate.clone();
        async move { gate.wait("A").await }
    });
    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    assert!(!waiter.is_finished(), "must wait while the control runs");
    gate.admit(0, row("A", "allow/bare", VerdictKind::Wrote));
    tokio::time::timeout(std::time::Duration::from_secs(5), waiter).await.unwrap().unwrap();
}

#[test]
fn hook_blind_needs_a_write_and_no_hook_at_all() {
    let unseen =
        Attempt { tool: "mcp__x__write".into(), matched: false, result: AttemptResult::Failed("No such tool".into()) };
    let mut e = Evidence { attempts: vec![unseen], ..Evidence::default() };
    assert!(hook_blind(&e));
    e.hook_outcomes.push("error:2".into());
    assert!(!hook_blind(&e), "Claude Code reported a PreToolUse hook");
    let e = Evidence { file: Some(FileFound { bytes: 6, reads_ready: true }), ..Evidence::default() };
    assert!(hook_blind(&e));
    let e =
        Evidence { file: Some(FileFound { bytes: 6, reads_ready: true }), hook_invocations: 1, ..Evidence::default() };
    assert!(!hook_blind(&e), "the guard's trace says it ran");
    assert!(!hook_blind(&Evidence::default()), "nothing written, nothing attempted");
}

#[test]
fn report_is_loud_about_a_failed_control() {
    let mut rows = vec![row("A", "allow/bare", VerdictKind::Invalid), row("A", "deny/bare", VerdictKind::Invalid)];
    for r in &mut rows {
        mark(r, ControlStatus::Failed { wrote: 0, runs: 1 });
    }
    let mut ok = row("B", "allow/bare", VerdictKind::Wrote);
    mark(&mut ok, ControlStatus::Passed);
    rows.push(ok);
    let report = control_report(&rows);
    assert_eq!(report.len(), 2);
    assert!(report[0].starts_with("!!! POSITIVE CONTROL FAILED on Claude Code A"), "{}", report[0]);
    assert!(report[0].contains("wrote in 0 of 1"), "{}", report[0]);
    assert_eq!(report[1], "positive control on Claude Code B: allow/bare wrote in 1 of 1 sessions");
}
