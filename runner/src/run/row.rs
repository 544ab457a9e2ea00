//! A finished session as its CSV row.

use super::Model;
use crate::cells::Cell;
use crate::record::Row;
use crate::session::SessionOutcome;
use crate::judge;

/// Build the CSV row for a finished session.
pub fn to_row(cell: &Cell, model: Model, outcome: &SessionOutcome) -> Row {
    let e = &outcome.evidence;
    let v = judge::judge_battery(e);
    let mut flags = Vec::new();
    if outcome.stragglers_killed > 0 {
        flags.push(format!("stragglers-killed:{}", outcome.stragglers_killed));
    }
    if e.compactions > 0 {
        flags.push(format!("compacted:{}", e.compactions));
    }
    let foreign = e.foreign_refusers();
    if !foreign.is_empty() {
        flags.push(format!("refused-by:{}", truncate(&foreign.join(","), 160).replace(';', ",")));
    }
    if let Some(err) = &e.result_error {
        flags.push(format!("claude-error:{}", truncate(err, 120).replace(';', ",")));
    }
    if model == Model::Live && crate::live::hook_blind(e) {
        flags.push(crate::live::FLAG_HOOK_NEVER_SAW_WRITE.to_string());
    }
    if let Some(root) = &outcome.kept_root {
        flags.push(format!("kept:{}", root.display()));
    }
    Row {
        claude_version: cell.claude.version.clone(),
        model: model.as_str().into(),
        arm: cell.arm.name.clone(),
        guard: cell.arm.guard.name.into(),
        wrapper: cell.arm.wrapper.name().into(),
        repeat: cell.repeat,
        verdict: v.kind(),
        reason: v.reason_str().into(),
        file_bytes: e.file.as_ref().map(|f| f.bytes),
        hook_invocations: e.hook_invocations,
        hook_outcomes: e.hook_outcomes.join(";"),
        attempts: e.attempts_csv(),
        session_exit: e.exit.to_csv(),
        session_secs: (outcome.secs * 100.0).round() / 100.0,
        harness_said: e.last_refusal().map(|t| truncate(t, 300)).unwrap_or_default(),
        file_ready: e.file.as_ref().map(|f| f.reads_ready),
        hook_timeout: cell.arm.hook_timeout_secs,
        deadline: cell.arm.deadline_secs,
        flags: flags.join(";"),
    }
}

fn truncate(s: &str, max: usize) -> String {
    let one_line = s.replace(['\n', '\r'], " ");
    if one_line.len() <= max {
        return one_line;
    }
    let mut end = max;
    while !one_line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}...", &one_line[..end])
}
