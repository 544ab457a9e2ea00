//! One cell of a run: the hook entry its arm puts in the settings, the
//! session in the pool, and the row.

use std::path::{Path, PathBuf};

use anyhow::Context;

use super::placement;
use super::route;
use super::row::{to_row, Redactions};
use super::RunOptions;
use crate::arms::Arm;
use crate::attribution::HookIdentity;
use crate::cells::Cell;
use crate::evidence::SessionExit;
use crate::guard_server::{GuardServer, HttpBases};
use crate::guards::{Guard, GuardDir, GuardKind};
use crate::pool::Pool;
use crate::record::Row;
use crate::session::{self, Backend, SessionFile, SessionSpec};
use crate::settings::{self, HookSpec};
use crate::standin::StandIn;
use crate::surface::{HookEvent, HookSource, Route};
use crate::wrappers::{self, HookContext, HookTarget, Wrapper};

/// What every cell of a run shares.
pub(super) struct Shared {
    pub(super) opts: RunOptions,
    /// Where each cell writes its own copy of the guard scripts
    /// ([`cell_guards`]); plugin-source arms' plugin roots live here too.
    pub(super) guards_root: PathBuf,
    pub(super) standin: Option<StandIn>,
    pub(super) guard_server: Option<GuardServer>,
    pub(super) pool: Pool,
    pub(super) redact: Redactions,
}

/// A cell's own copy of the guard scripts and wrappers, in `cell-INDEX`
/// under `root`. No cell runs a script another cell's agent could have
/// changed: Copilot CLI makes a hook's script executable (0644 to 0755)
/// when it runs it, which turned a later cell's `no-exec` guard into one
/// that runs. Rows quote the path as `$RUN/guards/` ([`Redactions::apply`]).
pub(super) fn cell_guards(root: &Path, index: usize) -> std::io::Result<GuardDir> {
    GuardDir::create(&root.join(format!("cell-{index}")))
}

/// What an arm puts in a session, whatever the agent: where its hook entry
/// is placed, the route's files and the session's MCP config.
pub(super) struct ArmParts {
    pub(super) placed: placement::Placement,
    pub(super) route_files: Vec<SessionFile>,
    pub(super) mcp_config: Option<serde_json::Value>,
}

/// Build `arm`'s [`ArmParts`] with its guards in `guard_dir`, its plugin
/// (if any) in `plugin_dir`, and `http` the session's guard server URLs.
pub(super) fn arm_parts(
    arm: &Arm,
    guard_dir: &GuardDir,
    failopen_exe: &Path,
    http: Option<&HttpBases>,
    plugin_dir: &Path,
) -> anyhow::Result<ArmParts> {
    let hook_ctx =
        HookContext { guards: guard_dir, failopen_exe, guard_server: http, deadline_secs: arm.deadline_secs };
    let target = wrappers::hook_target(arm.guard, arm.wrapper, &hook_ctx)
        .with_context(|| format!("arm {}: building the hook command", arm.name))?;
    let hook = HookSpec {
        target,
        timeout_secs: arm.hook_timeout_secs,
        on_failure_block: arm.wrapper == Wrapper::Native,
        event: arm.event,
        matcher: arm.matcher.clone(),
        extra: arm.hook_extra.clone(),
        group_extra: arm.group_extra.clone(),
    };
    let placed = placement::place(arm, &hook, guard_dir, plugin_dir)
        .with_context(|| format!("arm {}: placing the hook (source {})", arm.name, arm.source))?;
    let route_files = route::files(arm, &settings::hooks_json(&hook));
    let guard_mcp = match arm.guard.kind {
        GuardKind::McpTool { policy } => Some(crate::mcp_guard::mcp_config(failopen_exe, policy)),
        _ => None,
    };
    let mcp_config = route::mcp_config(arm, guard_mcp, failopen_exe);
    Ok(ArmParts { placed, route_files, mcp_config })
}

/// Run one cell's session; `None` when the run was stopped before it ended.
pub(super) async fn run_cell(ctx: &Shared, cell: &Cell) -> anyhow::Result<Option<Row>> {
    let arm = &cell.arm;
    let id = crate::pool::session_id(&cell.index.to_string());
    let guard_dir = cell_guards(&ctx.guards_root, cell.index)
        .with_context(|| format!("arm {}: writing the guard scripts", arm.name))?;
    let http = ctx.guard_server.as_ref().filter(|_| arm.guard.is_http()).map(|g| g.session(&id));
    if let (Some(policy), Some(standin)) = (arm.guard.model_policy(), &ctx.standin) {
        let policy = policy.parse().map_err(|e: String| anyhow::anyhow!("guard {}: {e}", arm.guard.name))?;
        standin.set_hook_policy(&id, policy);
    }
    let plugin_dir = ctx.guards_root.join("plugins").join(cell.index.to_string());
    let ArmParts { placed, route_files, mcp_config } =
        arm_parts(arm, &guard_dir, &ctx.opts.failopen_exe, http.as_ref(), &plugin_dir)?;
    let mut identity = hook_identity(arm.guard, &placed.target);
    identity.aliases = placed.aliases;
    identity.matcher = arm.matcher.clone();
    if let (Some(skill), Some(standin)) = (placed.skill, &ctx.standin) {
        standin.set_skill(&id, skill);
    }
    let mut extra_args = ctx.opts.extra_args.clone();
    extra_args.extend(placed.args);
    let no_route_files = route_files.is_empty();
    // PreToolUse hooks in the files the source placed (Claude Code's settings shape).
    let placed_hooks: usize = placed
        .files
        .iter()
        .filter_map(|f| serde_json::from_slice::<serde_json::Value>(&f.contents).ok())
        .map(|v| settings::pretooluse_hook_count(&v))
        .sum();
    // Every hook entry failopen wrote for the session, the hook under test's among them.
    let written_hooks: Vec<serde_json::Value> = std::iter::once(settings::hook_entries(&placed.settings))
        .chain(placed.files.iter().map(|f| match serde_json::from_slice::<serde_json::Value>(&f.contents) {
            Ok(v) => settings::hook_entries(&v),
            Err(_) => vec![serde_json::Value::Null],
        }))
        .flatten()
        .collect();
    let mut spec = SessionSpec {
        id,
        bin: &cell.bin,
        settings: placed.settings,
        hook: identity,
        env: Vec::new(),
        mcp_config,
        backend: match &ctx.standin {
            Some(s) => Backend::StandIn(s),
            None => Backend::Live,
        },
        wall_timeout: ctx.opts.session_timeout,
        extra_args,
        pool: &ctx.pool,
        keep: ctx.opts.keep,
        project: None,
        files: placed.files.into_iter().chain(route_files).collect(),
        seed: arm.state.map(crate::guard_state::GuardState::seed_script),
        route: arm.route,
        setting_sources: placed.setting_sources,
        permission_mode: permission_mode(arm.event),
        skills: placed.skill.is_some(),
        mode: ctx.opts.mode,
        trust: arm.trust,
        source: arm.source,
        planted: None,
    };
    // Hooks from outside the session may run beside the hook under test:
    // Claude Code's managed settings, Codex's system config layers.
    // The battery's matcher is Claude Code's; a write counts as matched on
    // another agent when its own full matcher covers the tool.
    let driver = cell.bin.agent.driver();
    // The battery's matcher stands for the agent's write tools: its full
    // matcher, a list of their names read by Claude Code's rule (a Copilot
    // entry runs for every tool, but its `task` call is a route's step, not a
    // write). An arm's own matcher is read as the agent reads it.
    match spec.hook.matcher {
        None => spec.hook.matcher = Some(driver.full_matcher()),
        Some(_) => spec.hook.matching = driver.hook_vocabulary().matching,
    }
    let outside_hooks: Vec<String> = driver.system_hook_layers().iter().map(|p| p.display().to_string()).collect();
    // Every hook the session loads is one failopen wrote: no managed settings, no system layer, no
    // other place the agent reads beside the arm's, no route's files.
    let every_hook_written = ctx.opts.managed.is_empty()
        && outside_hooks.is_empty()
        && driver.hook_alone_at(arm.source)
        && arm.event == HookEvent::PreToolUse
        && no_route_files;
    spec.hook.sole_pretooluse_hook =
        every_hook_written && settings::pretooluse_hook_count(&spec.settings) + placed_hooks == 1;
    // The guard's exit-2 reasons count where its refusal names no hook, unless another hook may give them.
    let others = every_hook_written.then(|| other_hooks(written_hooks, &spec.hook.label)).flatten();
    spec.hook.exit_reasons = crate::attribution::unshared_reasons(exit_reasons(arm.guard), others.as_deref());
    spec.hook.exit_reasons.extend(crate::attribution::unshared_endings(driver.wording(), others.as_deref()));
    if let Some(standin) = &ctx.standin {
        if arm.route != Route::Article || arm.source == HookSource::Subagent {
            standin.set_route(&spec.id, route::plan(arm));
        }
    }
    let mut outcome = session::run(&spec).await.with_context(|| format!("arm {}: session", arm.name))?;
    if let (Some(server), Some(_)) = (&ctx.guard_server, &http) {
        outcome.evidence.hook_invocations += server.end_session(&spec.id);
    }
    if outcome.evidence.exit == SessionExit::Interrupted {
        return Ok(None);
    }
    let mut row = to_row(cell, ctx.opts.model, ctx.opts.mode, &outcome, &ctx.redact);
    let outside_flag = (!outside_hooks.is_empty()).then(|| format!("system-hooks:{}", outside_hooks.join(",")));
    for flag in ctx.opts.managed.flag().into_iter().chain(outside_flag) {
        row.flags = if row.flags.is_empty() { flag } else { format!("{};{flag}", row.flags) };
    }
    Ok(Some(row))
}

/// The reasons the guard's script gives with its exit 2 (none for any other guard).
fn exit_reasons(guard: &Guard) -> Vec<String> {
    match guard.kind {
        GuardKind::Script { body, .. } => crate::attribution::exit_reasons_in_script(body),
        _ => Vec::new(),
    }
}

/// The hook entries of `written` but the hook under test's own (the first
/// whose command is `label`); `None` when it is not among them, as then
/// failopen does not see every file the session loads hooks from.
fn other_hooks(mut written: Vec<serde_json::Value>, label: &str) -> Option<Vec<serde_json::Value>> {
    let own = written.iter().position(|e| e.get("command").and_then(serde_json::Value::as_str) == Some(label))?;
    written.remove(own);
    Some(written)
}

/// The permission mode a session runs in: `default` for a PermissionRequest
/// guard, since in `bypassPermissions` (the battery's) nothing asks for
/// permission and the hook never runs; measured in docs/sources-and-events.md.
pub(super) fn permission_mode(event: HookEvent) -> Option<&'static str> {
    match event {
        HookEvent::PermissionRequest => Some(PERMISSION_REQUEST_MODE),
        HookEvent::PreToolUse | HookEvent::UserPromptSubmit => None,
    }
}

/// The mode in which `claude -p` raises a permission request for the battery's writes.
pub const PERMISSION_REQUEST_MODE: &str = "default";

/// What the session's refusals must show to be this arm's: the hook entry's
/// command line or URL, and the reasons the guard's JSON decisions carry.
pub fn hook_identity(guard: &Guard, target: &HookTarget) -> HookIdentity {
    let reasons = match guard.kind {
        GuardKind::Script { body, .. } => crate::attribution::reasons_in_script(body),
        GuardKind::Http { endpoint } => vec![crate::guard_server::deny_reason(endpoint)],
        GuardKind::ModelHook { .. } => vec![crate::standin::hook_model::DENY_REASON.to_string()],
        GuardKind::ModelCommand { .. } => vec![crate::standin::hook_model::DENY_REASON.to_string()],
        GuardKind::McpTool { .. } => vec![crate::mcp_guard::DENY_REASON.to_string()],
        GuardKind::Callback { .. } => {
            vec![crate::agent::agent_sdk::DENY_REASON.to_string(), crate::agent::agent_sdk::SEALED_REASON.to_string()]
        }
        GuardKind::MissingScript | GuardKind::MissingThroughInterpreter { .. } => Vec::new(),
    };
    HookIdentity::new(target.label(), reasons)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The settings of `deny/bare+...`: the guard's entry first, then the arm's sibling.
    fn arm_settings(sibling: &str) -> serde_json::Value {
        json!({"hooks": {"PreToolUse": [
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "/g/deny.sh", "timeout": 5}]},
            {"matcher": "Bash", "hooks": [{"type": "command", "command": sibling, "timeout": 5}]}]}})
    }

    #[test]
    fn the_guards_exit_2_reason_is_kept_beside_a_sibling_that_cannot_say_it_and_only_then() {
        let deny = crate::guards::find("deny").expect("the deny guard");
        let kept = |sibling: &str| {
            let others = other_hooks(settings::hook_entries(&arm_settings(sibling)), "/g/deny.sh");
            crate::attribution::unshared_reasons(exit_reasons(deny), others.as_deref())
        };
        assert_eq!(kept("cat >/dev/null; exit 0"), ["this session may not write files (failopen deny guard)"]);
        // A second copy of the deny guard is the other entry: it may say the same.
        assert!(kept("/g/deny.sh").is_empty());
        assert!(kept("/elsewhere/deny.sh").is_empty());
        // The hook under test is not among the entries read: failopen cannot tell the others apart.
        let others = other_hooks(settings::hook_entries(&arm_settings("cat >/dev/null; exit 0")), "/g/other.sh");
        assert!(others.is_none());
        assert!(crate::attribution::unshared_reasons(exit_reasons(deny), others.as_deref()).is_empty());
    }
}
