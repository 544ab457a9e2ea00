//! The sealed re-check: each unsealed command hook's fails-open cells run
//! again with the hook wrapped as `failopen seal --install` would wrap it,
//! to show that the advice closes the hole.

use serde::Serialize;

use super::dynamic::{AuditCell, Runner};
use super::faults::Fault;
use super::holes::{Hole, HoleKind};
use crate::audit::intake::command;
use crate::audit::intake::config::{HookEntry, HookKind};

/// The re-check of the hole cells with the hook wrapped by seal.
#[derive(Debug, Clone, Serialize)]
pub struct SealedRecheck {
    /// Hook id.
    pub hook: String,
    /// The command as `seal --install` would write it.
    pub command: String,
    /// The re-run cells.
    pub cells: Vec<AuditCell>,
}

/// Re-run each unsealed command hook's fails-open cells with the hook
/// wrapped as `seal --install` would wrap it.
/// `tools`: the write tools of the runner's agent.
pub async fn recheck(
    runner: &Runner<'_>,
    hooks: &[HookEntry],
    holes: &[Hole],
    seal_exe: &str,
    tools: &[&'static str],
) -> anyhow::Result<Vec<SealedRecheck>> {
    let mut out = Vec::new();
    for (i, e) in hooks.iter().enumerate() {
        let HookKind::Command { command } = &e.kind else { continue };
        if e.managed || command::parse(command).sealed() {
            continue;
        }
        let cells: Vec<(usize, &'static str, Fault)> = holes
            .iter()
            .filter(|h| h.hook == e.id && matches!(h.kind, HoleKind::FailsOpen | HoleKind::BrokenAsConfigured))
            .filter_map(|h| tools.iter().find(|t| **t == h.tool).map(|t| (i, *t, h.fault)))
            .collect();
        if cells.is_empty() {
            continue;
        }
        let wrapped = crate::seal::wrap::wrap_command(
            command,
            seal_exe,
            e.timeout.and_then(crate::seal::wrap::deadline_for_timeout),
        );
        let mut sealed = e.clone();
        sealed.raw["command"] = serde_json::Value::String(wrapped.clone());
        sealed.kind = HookKind::Command { command: wrapped.clone() };
        let plan: Vec<(usize, &'static str, Fault)> = cells.iter().map(|&(_, t, f)| (0, t, f)).collect();
        let rerun = runner.run_cells(std::slice::from_ref(&sealed), &plan).await?;
        out.push(SealedRecheck { hook: e.id.clone(), command: wrapped, cells: rerun });
    }
    Ok(out)
}
