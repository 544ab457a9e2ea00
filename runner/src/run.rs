//! `failopen run`: resolve versions, expand cells, run sessions with bounded
//! concurrency, judge each one, and append its row as soon as it ends.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Context;
use tokio::sync::{mpsc, Semaphore};
use tokio_util::sync::CancellationToken;

use crate::arms::Arm;
use crate::attribution::HookIdentity;
use crate::cells::{self, Cell, Shard};
use crate::claude::{cache::Cache, spec, ClaudeBin, ClaudeSpec};
use crate::evidence::SessionExit;
use crate::guard_server::GuardServer;
use crate::guards::GuardDir;
use crate::progress::Progress;
use crate::record::{self, Row, RowWriter};
use crate::session::{self, Backend, SessionOutcome, SessionSpec};
use crate::settings::{self, HookSpec};
use crate::standin::{Policy, StandIn};
use crate::verdict;
use crate::wrappers::{self, HookContext, Wrapper};

/// Which model drives the sessions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Model {
    /// The built-in stand-in.
    Scripted,
    /// A real model through the user's credentials.
    Live,
}

impl Model {
    /// The CSV spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Model::Scripted => "scripted",
            Model::Live => "live",
        }
    }
}

/// Everything `run` needs, free of clap.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// The arms to run.
    pub arms: Vec<Arm>,
    /// Claude Code versions.
    pub claude: Vec<ClaudeSpec>,
    /// Model.
    pub model: Model,
    /// Sessions per arm.
    pub repeats: u32,
    /// Sessions at once.
    pub jobs: usize,
    /// The CSV to append to.
    pub out: PathBuf,
    /// Skip cells already in `out`.
    pub resume: bool,
    /// Keep temp roots.
    pub keep: bool,
    /// Wall timeout per session.
    pub session_timeout: Duration,
    /// Shard.
    pub shard: Option<Shard>,
    /// Extra `claude` arguments (live mode limits).
    pub extra_args: Vec<String>,
    /// Show a progress bar.
    pub show_progress: bool,
    /// The failopen binary (for the sealed wrapper).
    pub failopen_exe: PathBuf,
    /// Cache for Claude Code installs.
    pub cache: Cache,
    /// Managed settings found on this machine (they run in every session).
    pub managed: crate::managed::ManagedSettings,
}

/// What a run produced.
#[derive(Debug)]
pub struct RunSummary {
    /// Rows written by this run, in completion order.
    pub rows: Vec<Row>,
    /// The run was interrupted.
    pub interrupted: bool,
    /// The CSV.
    pub out: PathBuf,
    /// Where temp roots were kept (with --keep).
    pub kept: Option<PathBuf>,
    /// Cells skipped because the CSV already had them.
    pub skipped: usize,
}

/// Process groups of the sessions running now (for a hard stop).
pub type LiveGroups = Arc<Mutex<HashSet<u32>>>;

/// The name prefix of this process's temp roots, `failopen-run-<pid>-`
/// (a hard stop removes every directory under TMPDIR that starts with it).
pub fn temp_root_prefix() -> String {
    format!("failopen-run-{}-", std::process::id())
}

/// Resolve every `--claude` spec, installing versions as needed.
pub async fn resolve_versions(specs: &[ClaudeSpec], cache: &Cache) -> anyhow::Result<Vec<ClaudeBin>> {
    let mut bins: Vec<ClaudeBin> = Vec::new();
    for s in specs {
        let bin = spec::resolve(s, cache).await?;
        if !bins.iter().any(|b| b.version == bin.version) {
            bins.push(bin);
        }
    }
    Ok(bins)
}

/// Run the battery. Rows are appended to `opts.out` as sessions end.
pub async fn run(opts: RunOptions, cancel: CancellationToken, live: LiveGroups) -> anyhow::Result<RunSummary> {
    let versions = resolve_versions(&opts.claude, &opts.cache).await?;
    // Open first: a truncated last line (a writer killed mid-row) is cut before the rows are read.
    let mut writer = RowWriter::open(&opts.out)?;
    let prior: Vec<Row> = if opts.resume { record::read_rows(&opts.out)? } else { Vec::new() };
    let done: HashSet<crate::cells::CellKey> = prior.iter().map(Row::cell_key).collect();
    // Live mode: a positive control per version, run before the rest (crate::live).
    let arms = if opts.model == Model::Live { crate::live::with_control(&opts.arms) } else { opts.arms.clone() };
    let all = cells::expand(&versions, &arms, opts.repeats);
    let owned = all.iter().filter(|c| opts.shard.is_none_or(|s| s.owns(c.index))).count();
    let planned = cells::plan(all, opts.shard, &done, opts.model.as_str());
    let skipped = owned - planned.len();
    let gate = (opts.model == Model::Live).then(|| Arc::new(crate::live::ControlGate::new(&planned, &prior)));

    let run_root = tempfile::Builder::new().prefix(&temp_root_prefix()).tempdir().context("creating the run's temp directory")?;
    let guard_dir = GuardDir::create(&run_root.path().join("guards")).context("writing the guard scripts")?;
    let sessions_dir = run_root.path().join("sessions");
    std::fs::create_dir_all(&sessions_dir)?;
    let standin = match opts.model {
        Model::Scripted => Some(StandIn::start(Policy::Scripted, None).await.context("starting the stand-in model")?),
        Model::Live => None,
    };

    let guard_server = if opts.arms.iter().any(|a| a.guard.is_http()) {
        Some(GuardServer::start().await.context("starting the HTTP guard server")?)
    } else {
        None
    };
    let ctx = Arc::new(Shared {
        opts: opts.clone(),
        guard_dir,
        sessions_dir,
        standin,
        guard_server,
        cancel: cancel.clone(),
        live,
    });
    let progress = Progress::new(planned.len() as u64, opts.show_progress);
    let semaphore = Arc::new(Semaphore::new(opts.jobs.max(1)));
    // Long, mostly idle cells get their own allowance beside the `jobs` slots.
    let long_semaphore = long_slots(opts.model, opts.jobs).map(|n| Arc::new(Semaphore::new(n)));
    let (tx, mut rx) = mpsc::unbounded_channel::<(usize, anyhow::Result<Option<Row>>)>();
    let mut tasks = tokio::task::JoinSet::new();
    for cell in planned {
        let semaphore = match &long_semaphore {
            Some(long) if cell.arm.guard.long_running => long.clone(),
            _ => semaphore.clone(),
        };
        let (ctx, tx) = (ctx.clone(), tx.clone());
        let gate = gate.clone();
        tasks.spawn(async move {
            if let Some(gate) = gate.as_ref().filter(|g| !g.is_control_cell(cell.index)) {
                tokio::select! {
                    _ = gate.wait(&cell.claude.version) => {}
                    _ = ctx.cancel.cancelled() => return,
                }
            }
            let permit = tokio::select! {
                p = semaphore.acquire_owned() => p,
                _ = ctx.cancel.cancelled() => return,
            };
            if ctx.cancel.is_cancelled() {
                return;
            }
            let result = run_cell(&ctx, &cell).await;
            drop(permit);
            let _ = tx.send((cell.index, result));
        });
    }
    drop(tx);

    let mut rows: Vec<(usize, Row)> = Vec::new();
    let mut first_error = None;
    let mut write_failed = false;
    while let Some((index, result)) = rx.recv().await {
        // Live mode: rows are marked with the control's outcome, control rows held until it is known.
        let ready = match result {
            Ok(Some(row)) => crate::live::admit(gate.as_deref(), index, row),
            Ok(None) => crate::live::abandon(gate.as_deref(), index), // interrupted: nothing to record
            Err(e) => {
                if first_error.is_none() {
                    first_error = Some(e);
                    cancel.cancel();
                }
                crate::live::abandon(gate.as_deref(), index)
            }
        };
        for (index, row) in ready {
            // A row that cannot be written (disk full) stops the run, but the
            // sessions still running are cancelled and reaped, not abandoned.
            if !append_or_stop(&mut writer, &row, &mut write_failed, &mut first_error, &cancel) {
                continue;
            }
            progress.finished(&row);
            rows.push((index, row));
        }
    }
    while tasks.join_next().await.is_some() {}
    for (index, row) in crate::live::drain(gate.as_deref()) {
        if append_or_stop(&mut writer, &row, &mut write_failed, &mut first_error, &cancel) {
            rows.push((index, row));
        }
    }
    progress.done();
    let kept = if opts.keep { Some(run_root.keep()) } else { None };
    if let Some(e) = first_error {
        return Err(e);
    }
    rows.sort_by_key(|(index, _)| *index);
    let rows = rows.into_iter().map(|(_, row)| row).collect();
    Ok(RunSummary { rows, interrupted: cancel.is_cancelled(), out: opts.out.clone(), kept, skipped })
}

/// Sessions of long-running cells (hangs, sleeps: see
/// [`crate::guards::Guard::long_running`]) allowed per `--jobs` slot.
pub const LONG_SLOTS_PER_JOB: usize = 4;

/// How many long-running cells may run beside the `jobs` ordinary sessions,
/// or `None` when they share the `jobs` slots.
///
/// Such a session spends seconds waiting on a hook timeout and almost no
/// CPU, so holding one of the `jobs` slots would leave a core idle while it
/// waits (measured in `docs/performance.md`). Live mode keeps `--jobs` as a
/// hard limit: every live session is a paid, rate-limited API client.
pub fn long_slots(model: Model, jobs: usize) -> Option<usize> {
    match model {
        Model::Scripted => Some(jobs.max(1) * LONG_SLOTS_PER_JOB),
        Model::Live => None,
    }
}

/// Append `row` unless writing already failed; on failure, record the error
/// and cancel the run. Returns whether the row is on disk.
fn append_or_stop(
    writer: &mut RowWriter,
    row: &Row,
    write_failed: &mut bool,
    first_error: &mut Option<anyhow::Error>,
    cancel: &CancellationToken,
) -> bool {
    if *write_failed {
        return false;
    }
    match writer.append(row) {
        Ok(()) => true,
        Err(e) => {
            let e = anyhow::Error::new(e).context(format!("writing a row to {}; run stopped", writer.path().display()));
            *write_failed = true;
            *first_error = Some(e);
            cancel.cancel();
            false
        }
    }
}

struct Shared {
    opts: RunOptions,
    guard_dir: GuardDir,
    sessions_dir: PathBuf,
    standin: Option<StandIn>,
    guard_server: Option<GuardServer>,
    cancel: CancellationToken,
    live: LiveGroups,
}

async fn run_cell(ctx: &Shared, cell: &Cell) -> anyhow::Result<Option<Row>> {
    let arm = &cell.arm;
    let id = format!("{}-{}", std::process::id(), cell.index);
    let http = ctx.guard_server.as_ref().filter(|_| arm.guard.is_http()).map(|g| g.session(&id));
    let hook_ctx = HookContext {
        guards: &ctx.guard_dir,
        failopen_exe: &ctx.opts.failopen_exe,
        guard_server: http.as_ref(),
        deadline_secs: arm.deadline_secs,
    };
    let target = wrappers::hook_target(arm.guard, arm.wrapper, &hook_ctx)
        .with_context(|| format!("arm {}: building the hook command", arm.name))?;
    let identity = hook_identity(arm.guard, &target);
    let hook = HookSpec { target, timeout_secs: arm.hook_timeout_secs, on_failure_block: arm.wrapper == Wrapper::Native };
    let mut session_settings = settings::settings_json(&hook);
    if let Some(extra) = &arm.extra_settings {
        settings::merge(&mut session_settings, extra);
    }
    let spec = SessionSpec {
        id,
        claude: &cell.claude,
        settings: session_settings,
        hook: identity,
        env: Vec::new(),
        backend: match &ctx.standin {
            Some(s) => Backend::StandIn(s),
            None => Backend::Live,
        },
        wall_timeout: ctx.opts.session_timeout,
        extra_args: ctx.opts.extra_args.clone(),
        temp_parent: &ctx.sessions_dir,
        keep: ctx.opts.keep,
        live_groups: Some(&ctx.live),
    };
    let mut outcome = session::run(&spec, &ctx.cancel).await.with_context(|| format!("arm {}: session", arm.name))?;
    if let (Some(server), Some(_)) = (&ctx.guard_server, &http) {
        outcome.evidence.hook_invocations += server.end_session(&spec.id);
    }
    if outcome.evidence.exit == SessionExit::Interrupted {
        return Ok(None);
    }
    let mut row = to_row(cell, ctx.opts.model, &outcome);
    if let Some(flag) = ctx.opts.managed.flag() {
        row.flags = if row.flags.is_empty() { flag } else { format!("{};{flag}", row.flags) };
    }
    Ok(Some(row))
}

/// What the session's refusals must show to be this arm's: the hook entry's
/// command line or URL, and the reasons the guard's JSON decisions carry.
pub fn hook_identity(guard: &crate::guards::Guard, target: &wrappers::HookTarget) -> HookIdentity {
    use crate::guards::GuardKind;
    let label = match target {
        wrappers::HookTarget::Command(c) => c.clone(),
        wrappers::HookTarget::Http(u) => u.clone(),
    };
    let reasons = match guard.kind {
        GuardKind::Script { body, .. } => crate::attribution::reasons_in_script(body),
        GuardKind::Http { endpoint } => vec![crate::guard_server::deny_reason(endpoint)],
        GuardKind::MissingScript | GuardKind::MissingThroughInterpreter { .. } => Vec::new(),
    };
    HookIdentity::new(label, reasons)
}

/// Build the CSV row for a finished session.
pub fn to_row(cell: &Cell, model: Model, outcome: &SessionOutcome) -> Row {
    let e = &outcome.evidence;
    let v = verdict::judge_battery(e);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_cells_get_their_own_slots_only_with_the_stand_in() {
        // Scripted: idle hang cells must not take one of the `jobs` CPU slots.
        assert_eq!(long_slots(Model::Scripted, 2), Some(2 * LONG_SLOTS_PER_JOB));
        assert_eq!(long_slots(Model::Scripted, 0), Some(LONG_SLOTS_PER_JOB), "at least one slot's worth");
        // Live: --jobs stays the limit on concurrent API clients.
        assert_eq!(long_slots(Model::Live, 8), None);
    }
}
