//! `failopen run`: resolve versions, expand cells, run sessions with bounded
//! concurrency, judge each one, and append its row as soon as it ends.

mod cell;
mod lacks;
mod placement;
mod route;
mod row;

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use tokio::sync::mpsc;

use crate::agent::Agent;
use crate::arms::Arm;
use crate::cells::{self, Shard};
use crate::guard_server::GuardServer;
use crate::install::{cache::Cache, spec, AgentBin, VersionSpec, PINNED_VERSION};
use crate::mode::Mode;
use crate::pool::{Interrupt, Pool, LONG_SLOTS_PER_JOB};
use crate::progress::Progress;
use crate::record::{self, Row, RowWriter};
use crate::standin::{Policy, StandIn};
use cell::{run_cell, Shared};

pub use cell::hook_identity;
pub use lacks::lacks;
pub use row::{to_row, Redactions};

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

/// Everything `run` needs, free of clap. [`RunOptions::default`] is the
/// article's arm set on the pinned Claude Code with the stand-in, one
/// session per arm, as many at once as there are CPUs.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// The arms to run.
    pub arms: Vec<Arm>,
    /// The agent under test.
    pub agent: Agent,
    /// The agent's versions (ranges are expanded against the npm registry).
    pub claude: Vec<VersionSpec>,
    /// Keep pre-releases that fall inside an `--agent-version` range.
    pub include_pre: bool,
    /// Model.
    pub model: Model,
    /// `claude -p` or an interactive session in a pseudo-terminal.
    pub mode: Mode,
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
    /// How finished sessions are shown on stderr.
    pub progress: crate::progress::View,
    /// Each finished session also as one JSON object on stdout (`run --format json`).
    pub json_lines: bool,
    /// The failopen binary (for the sealed wrapper).
    pub failopen_exe: PathBuf,
    /// Cache for Claude Code installs.
    pub cache: Cache,
    /// Managed settings found on this machine (they run in every session).
    pub managed: crate::managed::ManagedSettings,
    /// The user's home, written `~` in the rows' quoted texts.
    pub home: Option<PathBuf>,
}

impl Default for RunOptions {
    fn default() -> RunOptions {
        RunOptions {
            arms: crate::arms::load("article").unwrap_or_default(),
            agent: Agent::default(),
            claude: vec![VersionSpec::Version(PINNED_VERSION.to_string())],
            include_pre: false,
            model: Model::Scripted,
            mode: Mode::Print,
            repeats: 1,
            jobs: std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2),
            out: PathBuf::from("results.csv"),
            resume: false,
            keep: false,
            session_timeout: Duration::from_secs(120),
            shard: None,
            extra_args: Vec::new(),
            progress: crate::progress::View::Hidden,
            json_lines: false,
            failopen_exe: std::env::current_exe().unwrap_or_else(|_| PathBuf::from("failopen")),
            cache: Cache::from_env(),
            managed: crate::managed::ManagedSettings::default(),
            home: None,
        }
    }
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

/// Resolve every version spec of the cache's agent (ranges expanded),
/// installing versions as needed.
pub async fn resolve_versions(
    specs: &[VersionSpec],
    include_pre: bool,
    cache: &Cache,
) -> anyhow::Result<Vec<AgentBin>> {
    let mut bins: Vec<AgentBin> = Vec::new();
    for s in &spec::expand(specs, cache.agent(), include_pre).await? {
        let bin = spec::resolve(s, cache).await?;
        if !bins.iter().any(|b| b.version == bin.version) {
            bins.push(bin);
        }
    }
    Ok(bins)
}

/// Run the battery. Rows are appended to `opts.out` as sessions end;
/// `interrupt` stops it (see [`crate::pool`]).
pub async fn run(opts: RunOptions, interrupt: Interrupt) -> anyhow::Result<RunSummary> {
    if let Some(why) = cells::none_runs(opts.agent, &opts.arms) {
        anyhow::bail!("nothing to run on {}: {why}", opts.agent.display_name());
    }
    let versions = resolve_versions(&opts.claude, opts.include_pre, &opts.cache.for_agent(opts.agent)).await?;
    // Open first: a truncated last line (a writer killed mid-row) is cut before the rows are read.
    let mut writer = RowWriter::open(&opts.out)?;
    let prior: Vec<Row> = if opts.resume { record::read_rows(&opts.out)? } else { Vec::new() };
    let done: HashSet<cells::CellKey> = prior.iter().map(cells::CellKey::of).collect();
    // Live mode: a positive control per version, run before the rest (crate::live).
    let arms = if opts.model == Model::Live { crate::live::with_control(&opts.arms) } else { opts.arms.clone() };
    let all = cells::expand(&versions, &arms, opts.repeats);
    let owned = all.iter().filter(|c| opts.shard.is_none_or(|s| s.owns(c.index))).count();
    let planned = cells::plan(all, opts.shard, &done, opts.model.as_str(), opts.mode);
    let skipped = owned - planned.len();
    let gate = (opts.model == Model::Live).then(|| Arc::new(crate::live::ControlGate::new(&planned, &prior)));

    // Long, mostly idle cells get their own allowance beside the `jobs` slots.
    let pool = Pool::new(opts.jobs, long_slots(opts.model, opts.jobs), interrupt.clone())
        .context("creating the run's temp directory")?;
    let guards_root = pool.guards_dir();
    std::fs::create_dir_all(&guards_root).with_context(|| format!("creating {}", guards_root.display()))?;
    let standin = match opts.model {
        Model::Scripted => Some(StandIn::start(Policy::Scripted, None).await.context("starting the stand-in model")?),
        Model::Live => None,
    };

    let guard_server = if opts.arms.iter().any(|a| a.guard.is_http()) {
        Some(GuardServer::start().await.context("starting the HTTP guard server")?)
    } else {
        None
    };
    let redact = Redactions::new(pool.root(), &opts.failopen_exe, opts.home.as_deref());
    let ctx = Arc::new(Shared { opts: opts.clone(), guards_root, standin, guard_server, pool, redact });
    let progress = Progress::new(planned.len() as u64, opts.progress, opts.json_lines);
    let (tx, mut rx) = mpsc::unbounded_channel::<(usize, anyhow::Result<Option<Row>>)>();
    let mut tasks = tokio::task::JoinSet::new();
    for cell in planned {
        let (ctx, tx) = (ctx.clone(), tx.clone());
        let gate = gate.clone();
        tasks.spawn(async move {
            if let Some(gate) = gate.as_ref().filter(|g| !g.is_control_cell(cell.index)) {
                tokio::select! {
                    _ = gate.wait(&cell.bin.version) => {}
                    _ = ctx.pool.interrupt().stopped() => return,
                }
            }
            let Some(permit) = ctx.pool.slot(cell.arm.guard.long_running).await else { return };
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
                    interrupt.stop();
                }
                crate::live::abandon(gate.as_deref(), index)
            }
        };
        for (index, row) in ready {
            // A row that cannot be written (disk full) stops the run, but the
            // sessions still running are cancelled and reaped, not abandoned.
            if !append_or_stop(&mut writer, &row, &mut write_failed, &mut first_error, &interrupt) {
                continue;
            }
            progress.finished(&row);
            rows.push((index, row));
        }
    }
    while tasks.join_next().await.is_some() {}
    for (index, row) in crate::live::drain(gate.as_deref()) {
        if append_or_stop(&mut writer, &row, &mut write_failed, &mut first_error, &interrupt) {
            rows.push((index, row));
        }
    }
    progress.done();
    // Every task has ended, so this is the last reference to the pool.
    let pool = Arc::into_inner(ctx).map(|c| c.pool);
    let kept = if opts.keep { pool.map(Pool::keep) } else { None };
    if let Some(e) = first_error {
        return Err(e);
    }
    rows.sort_by_key(|(index, _)| *index);
    let rows = rows.into_iter().map(|(_, row)| row).collect();
    Ok(RunSummary { rows, interrupted: interrupt.is_stopped(), out: opts.out.clone(), kept, skipped })
}

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
    interrupt: &Interrupt,
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
            interrupt.stop();
            false
        }
    }
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
