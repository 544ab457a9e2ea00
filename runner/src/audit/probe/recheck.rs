//! The re-check of each hook's recipe: the one change audit would print for
//! it ([`recipe`]: seal as `failopen seal --install` writes it, with
//! `"onFailure": "block"` where the agent was measured to honour it; the key
//! alone on a sealed hook or a hook seal cannot wrap; the matcher widened by
//! the write tools it left out), applied to a copy of the entry and re-run in
//! real sessions ([`run`]). It proves a fix only when every hole cell is
//! refused on the copy, every call the guard refused as-is is still refused,
//! and (for a sealed copy) the seal binary gone is refused too, as the next
//! audit would try it. A hole no change can close, or that cannot be re-run,
//! is listed with the reason ([`Unchecked`]).

use serde::Serialize;
use serde_json::Value;

use super::dynamic::{AuditCell, Runner};
use super::faults::Fault;
use super::holes::{Hole, HoleKind};
use super::judge::CellResult;
use super::{agent_hooks, is_probe_label, probes, Probe};
use crate::agent::AgentDriver;
use crate::audit::intake::command;
use crate::audit::intake::config::{HookEntry, HookKind};
use crate::audit::model::OnFailure;

/// One change to a hook entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Change {
    /// Its command wrapped by `failopen seal`, as `failopen seal --install` writes it.
    Seal {
        /// The wrapped command.
        command: String,
    },
    /// `"onFailure": "block"` added.
    OnFailure,
    /// Its matcher widened: the old one, or the write tools it left out.
    Matcher {
        /// The new matcher.
        matcher: String,
        /// The tools added.
        added: Vec<String>,
    },
}

/// Why a re-check cell was run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Role {
    /// A hole of the hook as configured: the copy must refuse it.
    Hole,
    /// A call the hook as configured refused: the copy must still refuse it.
    Refusal,
    /// The seal binary gone under a refused call (the next audit's `no-seal`): the copy must refuse it.
    SealGone,
}

/// One cell of a re-check.
#[derive(Debug, Clone, Serialize)]
pub struct RecheckCell {
    /// Why it was run.
    pub role: Role,
    /// The session on the changed copy.
    #[serde(flatten)]
    pub cell: AuditCell,
}

/// What a re-check showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// Every cell refused: the change is a fix.
    Proved,
    /// A call went through on the copy: the change is no fix.
    Failed,
    /// No call went through, but a cell could not be told: not proved.
    Unsettled,
}

/// A hook's recipe, applied to a copy and re-run.
#[derive(Debug, Clone, Serialize)]
pub struct Recheck {
    /// Hook id.
    pub hook: String,
    /// The recipe: the changes, all applied together.
    pub changes: Vec<Change>,
    /// The hook as changed (its JSON object).
    pub hook_json: Value,
    /// Its matcher as changed.
    pub matcher: Option<String>,
    /// The cells re-run on the copy.
    pub cells: Vec<RecheckCell>,
    /// What they showed.
    pub outcome: Outcome,
    /// What the re-check measured, in words.
    pub measured: String,
    /// What went wrong (a call that went through, a cell that could not be told).
    pub went_wrong: Vec<String>,
}

/// A hole no re-check covers, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Unchecked {
    /// Hook id.
    pub hook: String,
    /// The hole's tool (or probe label).
    pub tool: String,
    /// The hole's fault.
    pub fault: Fault,
    /// Why it was not re-checked.
    pub why: String,
}

/// The rule the advice of every agent shares: a call the agent ran without
/// running the hook (a never-ran hole) is closed by no change to the hook,
/// seal included, since a wrapper around a hook that never runs never runs either.
pub fn never_ran(holes: &[&Hole]) -> bool {
    holes.iter().any(|h| h.kind == HoleKind::NeverRan)
}

/// Why a never-ran hole is closed by no change to the hook.
pub const NEVER_RAN_WHY: &str =
    "the agent ran the call without running the hook: no change to the hook (seal included) can make it run";

/// `old` widened by `add`, read as `driver` reads a matcher: a list of names
/// gets the names appended, a regular expression an anchored alternative;
/// `None` when it covers them all already (or `old` covers every tool).
pub fn widened(driver: &dyn AgentDriver, old: Option<&str>, add: &[&str]) -> Option<String> {
    let missing: Vec<&str> = add.iter().copied().filter(|t| !driver.covers(old, t)).collect();
    let old = old?.trim();
    if missing.is_empty() || old.is_empty() || old == "*" {
        return None;
    }
    Some(match crate::matcher::is_name_list(old) {
        true => format!("{old}|{}", missing.join("|")),
        false => format!("{old}|^({})$", missing.join("|")),
    })
}

/// The one recipe for `e`'s holes `mine`: the changes that may close them,
/// and the holes left to no change, with why. `on_failure`: whether the
/// agent honours `"onFailure": "block"` (measured; other agents: unknown).
pub fn recipe(
    e: &HookEntry,
    mine: &[&Hole],
    on_failure: OnFailure,
    driver: &dyn AgentDriver,
    seal_exe: &str,
) -> (Vec<Change>, Vec<Unchecked>) {
    let mut changes = Vec::new();
    let mut unchecked = Vec::new();
    let mut leave = |h: &Hole, why: &str| {
        unchecked.push(Unchecked { hook: h.hook.clone(), tool: h.tool.clone(), fault: h.fault, why: why.into() })
    };
    let breaks: Vec<&Hole> =
        mine.iter().copied().filter(|h| matches!(h.kind, HoleKind::FailsOpen | HoleKind::BrokenAsConfigured)).collect();
    let add_on_failure = on_failure == OnFailure::Honoured && !e.on_failure_block();
    if e.managed {
        for h in mine {
            leave(h, "a managed hook: settings you own cannot change it");
        }
        return (changes, unchecked);
    }
    // The rule every agent's advice shares: no change to a hook the agent does not run.
    if never_ran(mine) {
        for h in mine {
            leave(h, NEVER_RAN_WHY);
        }
        return (changes, unchecked);
    }
    let uncovered_hole = mine.iter().any(|h| h.kind == HoleKind::UncoveredTool);
    // A guard that gets a wider matcher is faulted through those tools by the next audit: unprotected, it
    // would fail open there, so the recipe seals it too.
    let unprotected = |command: &str| !command::parse(command).sealed() && !e.on_failure_block();
    let seal_it = match &e.kind {
        HookKind::Command { command } => uncovered_hole && unprotected(command),
        _ => false,
    };
    if !breaks.is_empty() || seal_it {
        match &e.kind {
            HookKind::Command { command } if !command::parse(command).sealed() => {
                changes.push(Change::Seal { command: sealed_command(e, command, driver, seal_exe) });
                if add_on_failure {
                    changes.push(Change::OnFailure);
                }
            }
            HookKind::Command { .. } => {
                let other = breaks.iter().any(|h| h.fault != Fault::SealMissing);
                if add_on_failure && !other {
                    changes.push(Change::OnFailure);
                } else {
                    let why = match other {
                        true => "sealed already, and the guard still fails open: seal's --deadline must be below the hook's timeout",
                        false => "the seal binary missing fails open, and this agent has no measured onFailure: point the hook at a failopen that stays put",
                    };
                    breaks.iter().for_each(|h| leave(h, why));
                }
            }
            HookKind::Http { .. } | HookKind::McpTool { .. } if add_on_failure => changes.push(Change::OnFailure),
            HookKind::Model { .. } => breaks
                .iter()
                .for_each(|h| leave(h, "neither seal nor onFailure closes a prompt or agent hook's model failure")),
            _ => breaks.iter().for_each(|h| leave(h, "this agent honours no change audit can re-check for this hook")),
        }
    }
    let uncovered: Vec<&str> = mine
        .iter()
        .filter(|h| h.kind == HoleKind::UncoveredTool)
        .map(|h| probes::matched_tool(&h.tool))
        .filter(|t| driver.write_tools().contains(t))
        .collect();
    if let Some(matcher) = widened(driver, e.matcher.as_deref(), &uncovered) {
        let added = uncovered.iter().filter(|t| !driver.covers(e.matcher.as_deref(), t)).map(|t| t.to_string());
        changes.push(Change::Matcher { matcher, added: dedup(added) });
    } else {
        for h in mine.iter().filter(|h| h.kind == HoleKind::UncoveredTool) {
            leave(h, "no matcher that only adds write tools covers it");
        }
    }
    (changes, unchecked)
}

fn dedup(items: impl Iterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for i in items {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

/// `command` wrapped as `failopen seal --install` wraps it, the agent's
/// project variables braced (so seal's shell expands them).
pub fn sealed_command(e: &HookEntry, command: &str, driver: &dyn AgentDriver, seal_exe: &str) -> String {
    let vars = driver.hook_config().map_or(&[][..], |c| c.project_dir_vars());
    let command = agent_hooks::brace_vars(command, vars);
    crate::seal::wrap::wrap_command(&command, seal_exe, e.timeout.and_then(crate::seal::wrap::deadline_for_timeout))
}

/// `e` with `changes` applied (a copy).
pub fn apply(e: &HookEntry, changes: &[Change]) -> HookEntry {
    let mut out = e.clone();
    for c in changes {
        match c {
            Change::Seal { command } => {
                out.raw["command"] = Value::String(command.clone());
                out.kind = HookKind::Command { command: command.clone() };
            }
            Change::OnFailure => {
                out.raw["onFailure"] = Value::String("block".into());
                out.on_failure = Some("block".into());
            }
            Change::Matcher { matcher, .. } => out.matcher = Some(matcher.clone()),
        }
    }
    out
}

/// Re-run each hook's recipe on a copy: its hole cells, the calls it
/// refused as configured (`cells`, with the probes of this audit), and,
/// sealed, the seal binary gone under the first of them.
#[allow(clippy::too_many_arguments)] // the probe stage's findings, handed on one by one; one caller
pub async fn run(
    runner: &Runner<'_>,
    entries: &[HookEntry],
    cells: &[AuditCell],
    holes: &[Hole],
    probes: &[Probe],
    on_failure: OnFailure,
    seal_exe: &str,
    writes: &'static [&'static str],
) -> anyhow::Result<(Vec<Recheck>, Vec<Unchecked>)> {
    let driver = runner.bin.agent.driver();
    let mut rechecks = Vec::new();
    let mut unchecked = Vec::new();
    for e in entries {
        let mine: Vec<&Hole> = holes.iter().filter(|h| h.hook == e.id).collect();
        if mine.is_empty() {
            continue;
        }
        let (changes, left) = recipe(e, &mine, on_failure, driver, seal_exe);
        unchecked.extend(left);
        if changes.is_empty() {
            continue;
        }
        let closes = |h: &Hole| match h.kind {
            HoleKind::FailsOpen | HoleKind::BrokenAsConfigured => {
                changes.iter().any(|c| matches!(c, Change::Seal { .. } | Change::OnFailure))
            }
            HoleKind::UncoveredTool => changes.iter().any(|c| matches!(c, Change::Matcher { .. })),
            HoleKind::NeverRan => false,
        };
        let mut plan: Vec<(Role, String, Fault)> =
            mine.iter().filter(|h| closes(h)).map(|h| (Role::Hole, h.tool.clone(), h.fault)).collect();
        let refused: Vec<&AuditCell> = cells
            .iter()
            .filter(|c| c.hook == e.id && c.fault == Fault::None && c.result == CellResult::Blocked)
            .collect();
        plan.extend(refused.iter().map(|c| (Role::Refusal, c.tool.clone(), Fault::None)));
        let sealed = changes.iter().any(|c| matches!(c, Change::Seal { .. }));
        let under = refused.first().map(|c| c.tool.clone()).or_else(|| {
            mine.iter().find(|h| h.fault != Fault::None && is_probe_label(&h.tool)).map(|h| h.tool.clone())
        });
        if let (true, Some(tool)) = (sealed, under) {
            plan.push((Role::SealGone, tool, Fault::SealMissing));
        }
        let copy = apply(e, &changes);
        // Every session of the re-check at once, as the pool's slots allow; each cell keeps its role.
        let mut plain: Vec<(usize, &'static str, Fault)> = Vec::new();
        let mut probed: Vec<(usize, &Probe, Fault)> = Vec::new();
        let mut missing: Vec<RecheckCell> = Vec::new();
        let mut roles: Vec<(Role, String, Fault)> = Vec::new();
        for (role, tool, fault) in plan {
            // The agent's own session tools first (Copilot's `bash`, `create`), then every tool a session can write with.
            let known =
                writes.iter().chain(probes::TOOLS.iter()).chain(probes::AGENT_TOOLS.iter()).find(|t| **t == tool);
            match (is_probe_label(&tool), probes.iter().find(|p| p.label() == tool), known) {
                (true, Some(p), _) => probed.push((0, p, fault)),
                (false, _, Some(t)) => plain.push((0, t, fault)),
                _ => {
                    let why = format!("{tool} cannot be re-run: it is neither a write tool nor a probe of this audit");
                    let cell = AuditCell {
                        hook: e.id.clone(),
                        tool,
                        fault,
                        result: CellResult::Skipped(why),
                        guard_error: None,
                    };
                    missing.push(RecheckCell { role, cell });
                    continue;
                }
            }
            roles.push((role, tool, fault));
        }
        let copies = std::slice::from_ref(&copy);
        let (plain, probed) =
            futures::future::try_join(runner.run_cells(copies, &plain), runner.run_probe_cells(copies, &probed))
                .await?;
        let ran: Vec<AuditCell> = plain.into_iter().chain(probed).collect();
        let mut rerun: Vec<RecheckCell> = ran
            .into_iter()
            .map(|cell| {
                let role = roles
                    .iter()
                    .find(|(_, t, f)| *t == cell.tool && *f == cell.fault)
                    .map_or(Role::Hole, |(r, _, _)| *r);
                RecheckCell { role, cell }
            })
            .collect();
        rerun.extend(missing);
        rechecks.push(judged(e, changes, &copy, rerun));
    }
    Ok((rechecks, unchecked))
}

/// The re-check of `e` judged: proved when every cell was refused.
fn judged(e: &HookEntry, changes: Vec<Change>, copy: &HookEntry, cells: Vec<RecheckCell>) -> Recheck {
    let count = |role: Role| cells.iter().filter(|c| c.role == role).count();
    let refused = |role: Role| cells.iter().filter(|c| c.role == role && c.cell.result == CellResult::Blocked).count();
    let mut measured = format!(
        "{} of {} hole{} refused on the changed copy",
        refused(Role::Hole),
        count(Role::Hole),
        if count(Role::Hole) == 1 { "" } else { "s" }
    );
    measured.push_str(&format!(
        ", {} of {} call{} it refused as configured still refused",
        refused(Role::Refusal),
        count(Role::Refusal),
        if count(Role::Refusal) == 1 { "" } else { "s" }
    ));
    if count(Role::SealGone) > 0 {
        measured.push_str(&format!(
            ", the seal binary missing {}",
            if refused(Role::SealGone) == count(Role::SealGone) { "refused" } else { "not refused" }
        ));
    }
    let went_wrong: Vec<String> = cells
        .iter()
        .filter(|c| c.cell.result != CellResult::Blocked)
        .map(|c| {
            let what = match c.role {
                Role::Hole => "the hole",
                Role::Refusal => "a call the guard refused as configured",
                Role::SealGone => "with the seal binary missing,",
            };
            let how = match &c.cell.result {
                CellResult::Wrote(how) => format!("went through ({})", wrote_words(*how)),
                CellResult::Invalid(why) => format!("could not be told: {why}"),
                CellResult::Skipped(why) => format!("was not run: {why}"),
                CellResult::Blocked => unreachable!("filtered"),
            };
            format!("{what} {} under {} {how}", c.cell.tool, c.cell.fault.as_str())
        })
        .collect();
    let outcome = if went_wrong.is_empty() && !cells.is_empty() {
        Outcome::Proved
    } else if cells.iter().any(|c| matches!(c.cell.result, CellResult::Wrote(_))) {
        Outcome::Failed
    } else {
        Outcome::Unsettled
    };
    Recheck {
        hook: e.id.clone(),
        changes,
        hook_json: copy.raw.clone(),
        matcher: copy.matcher.clone(),
        cells,
        outcome,
        measured,
        went_wrong,
    }
}

fn wrote_words(how: super::judge::WroteHow) -> &'static str {
    use super::judge::WroteHow;
    match how {
        WroteHow::GuardFailed => "the guard broke",
        WroteHow::GuardAllowed => "the guard allowed it",
        WroteHow::GuardNotRun => "no hook ran",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::Agent;
    use std::path::PathBuf;

    fn entry(matcher: &str, command: &str) -> HookEntry {
        HookEntry {
            plugin: None,
            id: "H1".into(),
            file: PathBuf::from("s.json"),
            group: 0,
            index: 0,
            matcher: Some(matcher.into()),
            kind: HookKind::Command { command: command.into() },
            timeout: Some(5.0),
            on_failure: None,
            raw: serde_json::json!({"type": "command", "command": command, "timeout": 5}),
            project_dir: PathBuf::new(),
            managed: false,
        }
    }

    fn hole(kind: HoleKind, tool: &str, fault: Fault) -> Hole {
        Hole { hook: "H1".into(), kind, tool: tool.into(), fault }
    }

    #[test]
    fn matcher_advice_only_adds_tools() {
        let claude = Agent::ClaudeCode.driver();
        let secrets = "Read|NotebookRead|Bash|Grep|mcp__.*";
        let wide = widened(claude, Some(secrets), &["Write", "Edit"]).unwrap();
        for t in ["Read", "NotebookRead", "Bash", "Grep", "mcp__fs__read", "Write", "Edit"] {
            assert!(claude.covers(Some(&wide), t), "{wide} must cover {t}");
        }
        assert!(!claude.covers(Some(&wide), "MultiEdit"), "only the tools asked for: {wide}");
        assert_eq!(widened(claude, Some("Bash"), &["Write"]).as_deref(), Some("Bash|Write"));
        assert_eq!(widened(claude, Some("Bash|Write"), &["Write"]), None, "nothing to add");
        assert_eq!(widened(claude, None, &["Write"]), None, "no matcher covers every tool");
        let gemini = Agent::Gemini.driver();
        let g = widened(gemini, Some("^read_file$"), &["write_file"]).unwrap();
        assert!(gemini.covers(Some(&g), "read_file") && gemini.covers(Some(&g), "write_file"), "{g}");
    }

    #[test]
    fn the_recipe_is_seal_with_on_failure_where_it_is_honoured_and_never_for_a_never_ran_hole() {
        let claude = Agent::ClaudeCode.driver();
        let e = entry("Read|Bash", "/g.sh");
        let holes = [
            hole(HoleKind::FailsOpen, "Bash:git-reset-hard", Fault::Crash),
            hole(HoleKind::UncoveredTool, "Write", Fault::None),
        ];
        let mine: Vec<&Hole> = holes.iter().collect();
        let (changes, left) = recipe(&e, &mine, OnFailure::Honoured, claude, "/b/failopen");
        assert!(left.is_empty(), "{left:?}");
        assert!(
            matches!(&changes[0], Change::Seal { command } if command.starts_with("/b/failopen seal --deadline 4 -- "))
        );
        assert_eq!(changes[1], Change::OnFailure);
        assert_eq!(changes[2], Change::Matcher { matcher: "Read|Bash|Write".into(), added: vec!["Write".into()] });
        let copy = apply(&e, &changes);
        assert_eq!(copy.raw["onFailure"], "block");
        assert!(copy.on_failure_block() && command::parse(copy.raw["command"].as_str().unwrap()).sealed());
        // An unprotected guard whose only hole is a tool its matcher leaves out: widened, the next audit
        // faults it through that tool, so it is sealed too.
        let (changes, _) = recipe(&e, &mine[1..], OnFailure::Honoured, claude, "/b/failopen");
        assert!(
            matches!(changes[0], Change::Seal { .. }) && matches!(changes[2], Change::Matcher { .. }),
            "{changes:?}"
        );
        // Unknown onFailure (another agent): seal alone.
        let (changes, _) = recipe(&e, &mine[..1], OnFailure::Unknown, claude, "/b/failopen");
        assert_eq!(changes.len(), 1);
        // A never-ran hole: no change, the reason kept.
        let never = [hole(HoleKind::NeverRan, "Bash:git-reset-hard", Fault::None)];
        let (changes, left) = recipe(&e, &never.iter().collect::<Vec<_>>(), OnFailure::Honoured, claude, "/b/f");
        assert!(changes.is_empty() && left[0].why == NEVER_RAN_WHY, "{changes:?} {left:?}");
        assert!(never_ran(&never.iter().collect::<Vec<_>>()));
    }
}
