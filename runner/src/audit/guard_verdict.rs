//! Each guard's verdict: `held` only when it was exercised with a call it
//! refuses, as configured, and refused that call again under every fault
//! that applies to it; `open` when a hole was proven; `untested` otherwise,
//! with the reason. A guard that refused nothing the audit tried is never
//! `held`.

use serde::Serialize;

use super::intake::config::{HookEntry, HookKind};
use super::probe::dynamic::AuditCell;
use super::probe::faults::{self, Fault};
use super::probe::holes::Hole;
use super::probe::judge::CellResult;
use super::probe::screen::HookScreen;

/// What the audit can say of one guard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GuardStatus {
    /// Exercised with a call it refuses, and refused it under every fault.
    Held,
    /// Not exercised with a call it refuses, or a fault could not be judged.
    Untested,
    /// A hole was proven: a call it refuses (or should) went through.
    Open,
}

impl GuardStatus {
    /// Its name in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            GuardStatus::Held => "held",
            GuardStatus::Untested => "untested",
            GuardStatus::Open => "open",
        }
    }
}

/// One guard's verdict and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GuardVerdict {
    /// Hook id.
    pub hook: String,
    /// Held, untested or open.
    pub status: GuardStatus,
    /// Why, in words.
    pub reason: String,
}

/// The verdict of every entry; `dynamic`: whether sessions ran at all
/// (`false` with `--static-only` or when no agent binary was at hand).
/// `screens`: the probes tried against each hook directly, with no session.
pub fn verdicts(
    entries: &[HookEntry],
    cells: &[AuditCell],
    holes: &[Hole],
    screens: &[HookScreen],
    dynamic: bool,
) -> Vec<GuardVerdict> {
    entries
        .iter()
        .map(|e| {
            let (status, reason) = judge(e, cells, holes, screens, dynamic);
            GuardVerdict { hook: e.id.clone(), status, reason }
        })
        .collect()
}

fn judge(
    e: &HookEntry,
    cells: &[AuditCell],
    holes: &[Hole],
    screens: &[HookScreen],
    dynamic: bool,
) -> (GuardStatus, String) {
    use GuardStatus::{Held, Open, Untested};
    // A plugin that ran in sessions (issue 47) is judged by its cells as any hook; one that did not is listed only.
    let ran = cells.iter().any(|c| c.hook == e.id);
    match &e.kind {
        HookKind::Other { kind } if kind == "plugin" && !ran => {
            let why = if e.raw.get("path").is_some() {
                "a plugin (JS in the agent's process), checked statically only: no session of its agent ran it \
                 (its faults: throw, hang, fail to load, missing dependency)"
            } else {
                "an npm plugin named in a config file, checked statically only: audit does not install it, so no \
                 session ran it"
            };
            return (Untested, why.into());
        }
        HookKind::Other { kind } if kind != "plugin" => return (Untested, format!("hook type {kind} is not audited")),
        _ => {}
    }
    if e.managed {
        return (Untested, "managed settings: checked statically, not exercised on its own".into());
    }
    if !dynamic {
        return (Untested, "static checks only: no session exercised it".into());
    }
    let mine: Vec<&AuditCell> = cells.iter().filter(|c| c.hook == e.id).collect();
    let hole_count = holes.iter().filter(|h| h.hook == e.id).count();
    if hole_count > 0 {
        let tools = joined(holes.iter().filter(|h| h.hook == e.id).map(|h| h.tool.as_str()));
        return (Open, format!("{hole_count} hole{}: calls through {tools} went through", plural(hole_count)));
    }
    let tried: Vec<&AuditCell> = mine
        .iter()
        .copied()
        .filter(|c| c.fault == Fault::None && !matches!(c.result, CellResult::Skipped(_)))
        .collect();
    let refused: Vec<&str> =
        tried.iter().filter(|c| c.result == CellResult::Blocked).map(|c| c.tool.as_str()).collect();
    if tried.is_empty() {
        let why = mine.iter().find_map(|c| match &c.result {
            CellResult::Skipped(why) => Some(why.as_str()),
            _ => None,
        });
        return (Untested, format!("no probe ran: {}", why.unwrap_or("this kind of hook is not run in a session")));
    }
    if refused.is_empty() {
        let screened: Vec<&HookScreen> = screens.iter().filter(|s| s.hook == e.id).collect();
        let on_screen = screened.iter().filter(|s| s.screen.refused).count();
        let screen_words = match (screened.len(), on_screen) {
            (0, _) => String::new(),
            (n, 0) => format!(" and none of {n} probes tried on the hook directly"),
            (n, k) => format!("; it refused {k} of {n} probes on its own, none of them in a session"),
        };
        // A session that could not be judged (the model did not make the call) settles nothing: named, never counted.
        let unsettled: Vec<String> = tried
            .iter()
            .filter_map(|c| match &c.result {
                CellResult::Invalid(why) => Some(format!("{} ({why})", c.tool)),
                _ => None,
            })
            .collect();
        let settled: Vec<&&AuditCell> = tried.iter().filter(|c| !matches!(c.result, CellResult::Invalid(_))).collect();
        let unsettled_words = match unsettled.is_empty() {
            true => String::new(),
            false => format!("; unsettled: {}", unsettled.join(", ")),
        };
        return (
            Untested,
            format!(
                "refused none of {} call{} in sessions ({}){screen_words}: no fault could be injected under a refused call; give one it refuses with --probe{unsettled_words}",
                settled.len(),
                plural(settled.len()),
                joined(settled.iter().map(|c| c.tool.as_str())),
            ),
        );
    }
    let faulted: Vec<&AuditCell> =
        mine.iter().copied().filter(|c| c.fault != Fault::None && refused.contains(&c.tool.as_str())).collect();
    let run: Vec<&AuditCell> =
        faulted.iter().copied().filter(|c| !matches!(c.result, CellResult::Skipped(_))).collect();
    if run.is_empty() {
        return (
            Untested,
            format!(
                "refused {}, but no fault was injected through {}",
                joined(refused.iter().copied()),
                plural_it(&refused)
            ),
        );
    }
    if let Some(c) = run.iter().find(|c| c.result != CellResult::Blocked) {
        let why = match &c.result {
            CellResult::Invalid(why) => format!("unsettled (the session could not be judged): {why}"),
            other => other.word_for(&c.tool).to_string(),
        };
        return (Untested, format!("under fault {} through {}: {why}", c.fault.as_str(), c.tool));
    }
    if let Some(c) = faulted.iter().find(|c| faults::left_untried(e, c.fault)) {
        let why = match &c.result {
            CellResult::Skipped(why) => why.clone(),
            _ => String::new(),
        };
        return (Untested, format!("fault {} not injected ({why})", c.fault.as_str()));
    }
    let mut under: Vec<&str> = Vec::new();
    for c in &run {
        let w = faults::fault_words(c.fault);
        if !under.contains(&w) {
            under.push(w);
        }
    }
    (
        Held,
        format!(
            "refused {} as configured and under every fault: {}",
            joined(refused.iter().copied()),
            under.join(", ")
        ),
    )
}

fn joined<'a>(items: impl Iterator<Item = &'a str>) -> String {
    let mut v: Vec<&str> = Vec::new();
    for i in items {
        if !v.contains(&i) {
            v.push(i);
        }
    }
    v.join(", ")
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn plural_it(tools: &[&str]) -> &'static str {
    if tools.len() == 1 {
        "it"
    } else {
        "them"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::probe::holes::HoleKind;
    use crate::audit::probe::judge::WroteHow;
    use serde_json::Value;
    use std::path::PathBuf;

    fn entry(timeout: f64) -> HookEntry {
        HookEntry {
            id: "H1".into(),
            file: PathBuf::from("s.json"),
            group: 0,
            index: 0,
            matcher: Some("Bash".into()),
            kind: HookKind::Command { command: "/g.sh".into() },
            timeout: Some(timeout),
            on_failure: None,
            raw: Value::Null,
            project_dir: PathBuf::new(),
            managed: false,
            plugin: None,
        }
    }

    fn cell(tool: &str, fault: Fault, result: CellResult) -> AuditCell {
        AuditCell { hook: "H1".into(), tool: tool.into(), fault, result, guard_error: None }
    }

    fn all_faults(tool: &str, result: CellResult) -> Vec<AuditCell> {
        [Fault::Missing, Fault::Crash, Fault::Hang, Fault::Signal]
            .iter()
            .map(|f| cell(tool, *f, result.clone()))
            .collect()
    }

    #[test]
    fn a_guard_that_refuses_nothing_is_untested_never_held() {
        let e = entry(5.0);
        let cells = vec![
            cell("Bash", Fault::None, CellResult::Wrote(WroteHow::GuardAllowed)),
            cell("Write", Fault::None, CellResult::Wrote(WroteHow::GuardAllowed)),
            cell("Edit", Fault::None, CellResult::Skipped("not offered".into())),
        ];
        let v = verdicts(&[e], &cells, &[], &[], true);
        assert_eq!(v[0].status, GuardStatus::Untested);
        assert!(v[0].reason.starts_with("refused none of 2 calls in sessions (Bash, Write)"), "{}", v[0].reason);
        // A session that could not be judged is named as unsettled, never counted as a call let through.
        let mut cells = cells;
        cells.push(cell("NotebookEdit", Fault::None, CellResult::Invalid("no NotebookEdit call".into())));
        let v = verdicts(&[entry(5.0)], &cells, &[], &[], true);
        assert!(v[0].reason.starts_with("refused none of 2 calls in sessions (Bash, Write)"), "{}", v[0].reason);
        assert!(v[0].reason.ends_with("; unsettled: NotebookEdit (no NotebookEdit call)"), "{}", v[0].reason);
    }

    #[test]
    fn held_needs_a_refused_call_refused_again_under_every_fault() {
        let e = entry(5.0);
        let mut cells = vec![cell("Bash", Fault::None, CellResult::Blocked)];
        cells.extend(all_faults("Bash", CellResult::Blocked));
        let v = verdicts(std::slice::from_ref(&e), &cells, &[], &[], true);
        assert_eq!(v[0].status, GuardStatus::Held, "{}", v[0].reason);
        // One fault that cannot be judged: untested, with the fault named.
        cells[2].result = CellResult::Invalid("api error".into());
        let v = verdicts(std::slice::from_ref(&e), &cells, &[], &[], true);
        assert_eq!(v[0].status, GuardStatus::Untested);
        assert!(v[0].reason.contains("crash"), "{}", v[0].reason);
        // No fault run at all (refused only a tool faults are not injected through).
        let only = vec![cell("Edit", Fault::None, CellResult::Blocked)];
        assert_eq!(verdicts(std::slice::from_ref(&e), &only, &[], &[], true)[0].status, GuardStatus::Untested);
        // Static only: untested by definition.
        assert_eq!(verdicts(std::slice::from_ref(&e), &[], &[], &[], false)[0].status, GuardStatus::Untested);
    }

    #[test]
    fn a_hang_not_waited_for_leaves_the_guard_untested_and_a_hole_is_open() {
        let e = entry(600.0);
        let mut cells = vec![cell("Bash", Fault::None, CellResult::Blocked)];
        cells.extend(all_faults("Bash", CellResult::Blocked));
        cells[3].result = CellResult::Skipped("not waited for: timeout is 600 s".into());
        let v = verdicts(std::slice::from_ref(&e), &cells, &[], &[], true);
        assert_eq!(v[0].status, GuardStatus::Untested);
        assert!(v[0].reason.contains("hang"), "{}", v[0].reason);
        let hole = Hole { hook: "H1".into(), kind: HoleKind::FailsOpen, tool: "Bash".into(), fault: Fault::Crash };
        assert_eq!(verdicts(&[e], &cells, &[hole], &[], true)[0].status, GuardStatus::Open);
    }
}
