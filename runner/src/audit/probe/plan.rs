//! Which probes run where: every probe screened against every command hook
//! whose matcher covers its tool ([`screen_all`]); those it refused
//! confirmed in real sessions ([`confirm_plan`]); the faults
//! injected under the first one a session confirmed ([`fault_plan`]), unless
//! the hook already refused a plain write, under which they are injected.
//! The same for every agent whose driver has a stdin contract audit knows
//! ([`for_agent`]): its probes call its own tools.

use std::time::Duration;

use super::agent_hooks;
use super::screen::{self, HookScreen, Screen};
use super::state::{self, StateFile};
use super::{world, Probe};
use crate::agent::hook_contract::UNREAD_REFUSAL;
use crate::agent::AgentDriver;
use crate::audit::intake::config::{HookEntry, HookKind};
use crate::audit::probe::dynamic::{self, should_block, AuditCell, Runner};
use crate::audit::probe::faults::{self, Fault};
use crate::audit::probe::judge::CellResult;

/// The most refused probes confirmed in sessions for a hook that refused a
/// plain write already (its faults are injected under that write); a hook
/// that refused none gets every probe it refused on screen confirmed.
pub const MAX_CONFIRMED_BESIDE_A_WRITE: usize = 3;

/// The longest a screen waits for a guard's answer.
const SCREEN_TIMEOUT_SECS: f64 = 30.0;

/// Screen `probes` (already in the runner's agent's tools: [`for_agent`])
/// against each unmanaged command hook, through the stdin contract of the
/// runner's agent, in a throwaway world per hook (under the pool's temp
/// root). None when the agent has no contract audit knows. With them, the
/// files each hook wrote while it answered: its state ([`state`]).
pub async fn screen_all(
    runner: &Runner<'_>,
    hooks: &[HookEntry],
    probes: &[Probe],
) -> anyhow::Result<(Vec<HookScreen>, Vec<StateFile>)> {
    let driver = runner.bin.agent.driver();
    let Some(contract) = driver.hook_contract() else { return Ok((Vec::new(), Vec::new())) };
    let mut states = Vec::new();
    let sandboxed = crate::sandbox::policy() == crate::sandbox::Policy::On;
    let vars = driver.hook_config().map_or(&[][..], |c| c.project_dir_vars());
    let mut out = Vec::new();
    for e in hooks.iter().filter(|e| !e.managed && matches!(e.kind, HookKind::Command { .. })) {
        // The world in a copy of the project, as a session's: the hook's working directory, its
        // payload's `cwd` and the agent's project variables all name it.
        let root = runner.pool.root().join(format!("screen-{}", e.id));
        let start = runner.start(e);
        world::seed(&root, &dynamic::fill(start.project.as_deref(), runner.bin.agent))?;
        let work = root.join("work");
        let hook = faults::hook_for(e, Fault::None, runner.scripts, runner.home.is_some(), &runner.unreachable_url)?;
        // Braced as in its sessions (Gemini's `$GEMINI_PROJECT_DIR`), set below as the agent sets them.
        let command = agent_hooks::brace_vars(hook["command"].as_str().unwrap_or_default(), vars);
        // Started as the sessions start it: the user's HOME, the plugin's variables, the project's.
        let mut env = start.env;
        env.push(("HOME".to_string(), root.join("home").to_string_lossy().into_owned()));
        env.extend(super::hook_start::screen_env(&work, contract.project_vars()));
        let timeout = Duration::from_secs_f64(faults::effective_timeout(e).clamp(1.0, SCREEN_TIMEOUT_SECS));
        let skip = state::skip_in_world(&root);
        let before = state::Snapshot::take(&root, &skip);
        for (n, p) in probes.iter().enumerate() {
            if runner.pool.interrupt().is_stopped() {
                break;
            }
            // Each screen's hidden trees (HOME, /tmp) empty as a tmpfs's, kept on disk to read after.
            let backing = sandboxed.then(|| root.join(format!("{}{n}", state::BACKING_PREFIX)));
            let screen = if driver.covers(e.matcher.as_deref(), &p.tool) {
                let (refused, answer) = screen::run(
                    contract,
                    &command,
                    &screen::payload(contract, &p.tool, p, &root),
                    &env,
                    &work,
                    timeout,
                    runner.pool.interrupt().groups(),
                    backing.as_deref(),
                )
                .await;
                if let Some(b) = &backing {
                    state::merge(&mut states, state::from_backing(&e.id, b, runner.home));
                    let _ = std::fs::remove_dir_all(b);
                }
                Screen { probe: p.label(), refused, answer }
            } else {
                Screen {
                    probe: p.label(),
                    refused: false,
                    answer: format!("not matched: the matcher does not cover {}", p.tool),
                }
            };
            out.push(HookScreen { hook: e.id.clone(), screen });
        }
        let after = state::Snapshot::take(&root, &skip);
        state::merge(&mut states, state::from_world(&e.id, &root, &before, &after, runner.home.is_some()));
        let _ = std::fs::remove_dir_all(&root);
    }
    Ok((out, states))
}

/// `probes` as the agent of `driver` makes them: each with the tool of
/// that agent that makes its call (Gemini CLI's `run_shell_command` for a
/// `Bash` probe), those no tool of it makes left out; none when audit
/// cannot put a probe to its guards.
pub fn for_agent(driver: &dyn AgentDriver, probes: &[Probe]) -> Vec<Probe> {
    let Some(contract) = driver.hook_contract() else { return Vec::new() };
    probes
        .iter()
        .filter_map(|p| contract.probe_tool(&p.tool).map(|tool| Probe { tool: tool.to_string(), ..p.clone() }))
        .collect()
}

/// For each hook, the probes it refused on screen, as configured: all of
/// them, or [`MAX_CONFIRMED_BESIDE_A_WRITE`] when a plain write was refused.
/// `fault_tools`: the tools the faults are injected through.
pub fn confirm_plan<'p>(
    hooks: &[HookEntry],
    probes: &'p [Probe],
    screens: &[HookScreen],
    baseline: &[AuditCell],
    fault_tools: &[&str],
) -> Vec<(usize, &'p Probe, Fault)> {
    let mut plan = Vec::new();
    for (i, e) in hooks.iter().enumerate() {
        // A refusal the agent does not read (Cline's, answered as Claude Code's) is confirmed too: the
        // session shows the call running as configured.
        let refused = probes.iter().filter(|p| {
            let label = p.label();
            screens.iter().any(|s| {
                s.hook == e.id
                    && s.screen.probe == label
                    && (s.screen.refused || s.screen.answer.starts_with(UNREAD_REFUSAL))
            })
        });
        let max = if write_refused(e, baseline, fault_tools) { MAX_CONFIRMED_BESIDE_A_WRITE } else { usize::MAX };
        plan.extend(refused.take(max).map(|p| (i, p, Fault::None)));
    }
    plan
}

/// Whether `e` refused a plain write through `fault_tools` as configured.
fn write_refused(e: &HookEntry, baseline: &[AuditCell], fault_tools: &[&str]) -> bool {
    baseline.iter().any(|c| {
        c.hook == e.id && c.fault == Fault::None && fault_tools.contains(&c.tool.as_str()) && should_block(&c.result)
    })
}

/// The first of `probes` a session confirmed `e` refuses (`blocked` as configured).
fn first_confirmed<'p>(e: &HookEntry, probes: &'p [Probe], confirmed: &[AuditCell]) -> Option<&'p Probe> {
    probes.iter().find(|p| {
        let label = p.label();
        confirmed.iter().any(|c| c.hook == e.id && c.tool == label && c.result == CellResult::Blocked)
    })
}

/// For each hook that refused no plain write through `fault_tools` but
/// refused a probe in a session: every fault, under the first such probe.
pub fn fault_plan<'p>(
    hooks: &[HookEntry],
    probes: &'p [Probe],
    confirmed: &[AuditCell],
    baseline: &[AuditCell],
    fault_tools: &[&str],
) -> Vec<(usize, &'p Probe, Fault)> {
    let mut plan = Vec::new();
    for (i, e) in hooks.iter().enumerate() {
        if write_refused(e, baseline, fault_tools) {
            continue;
        }
        let first = first_confirmed(e, probes, confirmed);
        if let Some(p) = first {
            plan.extend(Fault::INJECTED.iter().map(|f| (i, p, *f)));
        }
    }
    plan
}

/// Sessions of a plain write: (hook index, tool, fault).
pub type WritePlan = Vec<(usize, &'static str, Fault)>;
/// Sessions of a probe's call: (hook index, probe, fault).
pub type ProbePlan<'p> = Vec<(usize, &'p Probe, Fault)>;

/// The state faults ([`Fault::STATE`]) of each hook that learned state
/// (`states`): through `fault_tools` where it refused a plain write as
/// configured, else under the first probe a session confirmed it refuses
/// (as [`fault_plan`] places the other faults). A hook with no state gets
/// none.
pub fn state_plan<'p>(
    hooks: &[HookEntry],
    states: &[StateFile],
    probes: &'p [Probe],
    confirmed: &[AuditCell],
    baseline: &[AuditCell],
    fault_tools: &[&'static str],
) -> (WritePlan, ProbePlan<'p>) {
    let (mut plain, mut probed) = (Vec::new(), Vec::new());
    for (i, e) in hooks.iter().enumerate() {
        if e.managed || !states.iter().any(|s| s.hook == e.id) {
            continue;
        }
        if write_refused(e, baseline, fault_tools) {
            for &tool in fault_tools {
                let refused = baseline.iter().any(|c| c.hook == e.id && c.tool == tool && should_block(&c.result));
                if refused {
                    plain.extend(Fault::STATE.iter().map(|f| (i, tool, *f)));
                }
            }
            continue;
        }
        let first = first_confirmed(e, probes, confirmed);
        if let Some(p) = first {
            probed.extend(Fault::STATE.iter().map(|f| (i, p, *f)));
        }
    }
    (plain, probed)
}

/// One `answer-rejected` finding per hook whose screen showed it meaning to
/// refuse in a shape Claude Code rejects: the call runs, and the fix is the
/// guard's answer, not its deadline or its wrapper. (Seal refuses such an
/// answer, so a sealed copy blocks; the guard itself still needs fixing.)
pub fn rejected_answer_findings(screens: &[HookScreen]) -> Vec<crate::audit::model::Finding> {
    let mut out: Vec<crate::audit::model::Finding> = Vec::new();
    for s in screens {
        let Some(why) = s.screen.answer.strip_prefix(screen::REJECTED_DENY) else { continue };
        if out.iter().any(|f| f.hook.as_deref() == Some(s.hook.as_str())) {
            continue;
        }
        out.push(crate::audit::model::Finding {
            hook: Some(s.hook.clone()),
            severity: crate::audit::model::Severity::Error,
            code: "answer-rejected".into(),
            message: format!(
                "its JSON deny (to {}) is one Claude Code rejects as malformed: {why}; the call runs. Answer \
                 {{\"hookSpecificOutput\": {{\"hookEventName\": \"PreToolUse\", \"permissionDecision\": \"deny\", \
                 \"permissionDecisionReason\": \"<a string>\"}}}}, or exit 2 with the reason on stderr",
                s.screen.probe
            ),
        });
    }
    out
}

/// One `refusal-not-read` finding per hook whose screen showed it meaning
/// to refuse in a way its agent (`agent`, by name) does not read (an exit 2
/// or Claude Code's JSON deny to Cline CLI): it refuses nothing even as
/// configured, whatever fault it meets.
pub fn unread_refusal_findings(screens: &[HookScreen], agent: &str) -> Vec<crate::audit::model::Finding> {
    let mut out: Vec<crate::audit::model::Finding> = Vec::new();
    for s in screens {
        let Some(what) = s.screen.answer.strip_prefix(UNREAD_REFUSAL) else { continue };
        if out.iter().any(|f| f.hook.as_deref() == Some(s.hook.as_str())) {
            continue;
        }
        out.push(crate::audit::model::Finding {
            hook: Some(s.hook.clone()),
            severity: crate::audit::model::Severity::Error,
            code: "refusal-not-read".into(),
            message: format!(
                "it means to refuse {} but answers in a way {agent} does not read ({what}): the guard refuses \
                 nothing even as configured. Answer as {agent} reads a refusal, or wrap it with failopen seal, \
                 which answers in each agent's own terms",
                s.screen.probe
            ),
        });
    }
    out
}
