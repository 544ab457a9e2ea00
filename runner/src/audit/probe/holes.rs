//! Holes: what the sessions prove. A write that landed under an injected
//! fault where the guard stops it as configured (fails open), a guard broken
//! as configured, a write tool its matcher leaves to no hook, a call the
//! guard refuses on its own that the agent ran without running the hook. Read by the
//! advice and the report; the sealed re-check ([`super::sealed`]) re-runs them.

use serde::Serialize;

use super::dynamic::{should_block, AuditCell};
use super::faults::Fault;
use super::judge::{CellResult, WroteHow};
use crate::audit::intake::config::{HookEntry, HookKind};
use crate::audit::lint::matcher;

/// What kind of hole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum HoleKind {
    /// The guard blocks this write, but under an injected fault the write landed.
    FailsOpen,
    /// The guard as configured is broken (crashes, missing...) and the write landed.
    BrokenAsConfigured,
    /// The hook blocks writes, but its matcher lets this tool through and no other hook covers it.
    UncoveredTool,
    /// The guard refuses this call when put to it directly, but in a session
    /// the agent ran the call without running the hook (Continue CLI loads
    /// hooks and fires no event).
    NeverRan,
}

/// One proven hole.
#[derive(Debug, Clone, Serialize)]
pub struct Hole {
    /// Hook id.
    pub hook: String,
    /// Kind.
    pub kind: HoleKind,
    /// Tool the write landed through.
    pub tool: String,
    /// Fault under which it landed.
    pub fault: Fault,
}

/// The holes the cells prove.
pub fn holes(entries: &[HookEntry], cells: &[AuditCell]) -> Vec<Hole> {
    let by_hook = group_by(cells, |c| c.hook.as_str());
    // Coverage by the tool the matcher sees: a subagent's write is its Bash call, which a Bash hook covers.
    let mut tools: Vec<&str> = cells.iter().map(|c| super::probes::matched_tool(&c.tool)).collect();
    tools.sort_unstable();
    tools.dedup();
    let guarding = entries.iter().filter(|e| !matches!(e.kind, HookKind::Other { .. }));
    let coverage = matcher::Coverage::of(guarding.map(|e| e.matcher.as_deref()), &tools);
    let mut out = Vec::new();
    for e in entries {
        let mine = by_hook.get(e.id.as_str()).map(Vec::as_slice).unwrap_or_default();
        // A plain write it refuses, not a probe: a guard that refuses only `git reset --hard`
        // has no business covering Write, and its matcher is no hole.
        let plain_write =
            |tool: &str| super::probes::TOOLS.contains(&tool) || super::probes::AGENT_TOOLS.contains(&tool);
        let guards_something =
            mine.iter().any(|c| c.fault == Fault::None && plain_write(&c.tool) && should_block(&c.result));
        for c in mine {
            let kind = match (&c.result, c.fault) {
                (CellResult::Wrote(WroteHow::GuardFailed), Fault::None) => HoleKind::BrokenAsConfigured,
                // failopen's own MCP server is not the user's: a matcher without
                // MCP tools is a finding (`mcp-uncovered`), not a proven hole.
                (CellResult::Wrote(WroteHow::GuardNotRun), Fault::None)
                    if guards_something
                        && c.tool != super::probes::MCP
                        && uncovered(&coverage, e.matcher.as_deref(), super::probes::matched_tool(&c.tool)) =>
                {
                    HoleKind::UncoveredTool
                }
                // A confirmed probe (one the guard refused on its own) that ran with no hook run.
                (CellResult::Wrote(WroteHow::GuardNotRun), Fault::None)
                    if super::is_probe_label(&c.tool) && c.tool != super::probes::MCP =>
                {
                    HoleKind::NeverRan
                }
                (CellResult::Wrote(_), f) if f != Fault::None => HoleKind::FailsOpen,
                _ => continue,
            };
            out.push(Hole { hook: e.id.clone(), kind, tool: c.tool.clone(), fault: c.fault });
        }
    }
    out
}

/// Whether no entry's matcher covers `tool`: neither `own` nor another's.
fn uncovered(coverage: &matcher::Coverage, own: Option<&str>, tool: &str) -> bool {
    let mine = matcher::covers(own, tool);
    !mine && coverage.others(tool, mine) == 0
}

/// `items` grouped by the hook id `key` gives, in their order: one pass, so
/// that the per-hook loops stay linear in the number of hooks.
pub(crate) fn group_by<'a, T>(
    items: &'a [T],
    key: impl Fn(&'a T) -> &'a str,
) -> std::collections::HashMap<&'a str, Vec<&'a T>> {
    let mut out: std::collections::HashMap<&str, Vec<&T>> = std::collections::HashMap::new();
    for item in items {
        out.entry(key(item)).or_default().push(item);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;
    use std::path::PathBuf;

    fn entry() -> HookEntry {
        HookEntry {
            id: "N1".into(),
            file: PathBuf::from(".continue/settings.json"),
            group: 0,
            index: 0,
            matcher: Some("Bash".into()),
            kind: HookKind::Command { command: "/g.sh".into() },
            timeout: Some(5.0),
            on_failure: None,
            raw: Value::Null,
            project_dir: PathBuf::new(),
            managed: false,
            plugin: None,
        }
    }

    fn cell(tool: &str, fault: Fault, result: CellResult) -> AuditCell {
        AuditCell { hook: "N1".into(), tool: tool.into(), fault, result, guard_error: None }
    }

    #[test]
    fn a_refused_probe_run_with_no_hook_run_is_a_never_ran_hole_and_a_plain_write_is_not() {
        let not_run = CellResult::Wrote(WroteHow::GuardNotRun);
        let cells = vec![
            // A plain write the hook never saw proves nothing of a guard that may allow it.
            cell("Bash", Fault::None, not_run.clone()),
            cell("Write", Fault::None, not_run.clone()),
            // A probe the guard refused on its own, confirmed in a session: the call ran, the hook did not.
            cell("Bash:git-reset-hard", Fault::None, not_run.clone()),
        ];
        let found = holes(&[entry()], &cells);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].kind, found[0].tool.as_str()), (HoleKind::NeverRan, "Bash:git-reset-hard"));
        // A subagent's Bash write that another entry's Bash matcher covers is no uncovered tool.
        let mut edit = entry();
        edit.matcher = Some("Edit".into());
        let mut bash = entry();
        (bash.id, bash.matcher) = ("N2".into(), Some("Bash".into()));
        let cells = vec![
            cell("Edit", Fault::None, CellResult::Blocked),
            cell("subagent", Fault::None, not_run.clone()),
            cell("Write", Fault::None, not_run.clone()),
        ];
        let found = holes(&[edit.clone(), bash], &cells);
        let tools: Vec<&str> = found.iter().map(|h| h.tool.as_str()).collect();
        assert_eq!(tools, ["Write"], "{found:?}");
        assert_eq!(holes(&[edit], &cells).len(), 2, "alone, the Edit hook leaves the subagent's Bash write uncovered");
        // The same probe blocked is no hole at all.
        let held = vec![cell("Bash:git-reset-hard", Fault::None, CellResult::Blocked)];
        assert!(holes(&[entry()], &held).is_empty());
    }
}
