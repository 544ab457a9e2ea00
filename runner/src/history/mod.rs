//! `failopen history`: one arm set over every version of a range, built for
//! hundreds of versions on one machine.
//!
//! - Versions go oldest first, each through [`crate::run::run`] into one
//!   rows file; the next version installs (and is hashed) while the current
//!   one's sessions run.
//! - Resumable: a version whose cells the rows file already holds is
//!   skipped without installing it; a half-run version runs only what it
//!   lacks.
//! - A version whose binary is byte-identical to one this history already
//!   ran gets that version's rows, copied and flagged
//!   ([`identical::FLAG`]), and no sessions.
//! - The cache stays bounded ([`CachePolicy`]); the pinned versions stay.
//! - A [`Ledger`] beside the rows says, per version, which binary it was and
//!   where the time and disk went.

pub mod identical;
pub mod ledger;

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;

use crate::cells::{self, CellKey};
use crate::install::prune::{self, CacheLimit};
use crate::install::{cache::Cache, npm, AgentBin, VersionSpec};
use crate::pool::Interrupt;
use crate::record::{self, RowWriter};
use crate::run::RunOptions;
use crate::verdict::VerdictKind;
pub use ledger::{Entry, Ledger};

/// What the history may leave in failopen's cache of the agent's versions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CachePolicy {
    /// Leave the cache as it was found: a version this history installed is
    /// removed once its sessions are done (unless pinned). At most two
    /// installs (the current and the next) are on disk at once.
    AsFound,
    /// Keep at most this much, least recently used removed first, pinned
    /// versions and the next version never.
    Limit(CacheLimit),
}

/// Everything `history` needs.
#[derive(Debug, Clone)]
pub struct HistoryOptions {
    /// The versions, oldest first (ranges already resolved).
    pub versions: Vec<String>,
    /// The run of one version: arms, repeats, jobs, shard, rows file, cache,
    /// and the rest; its `claude`, `resume` and `model` are set per version.
    pub run: RunOptions,
    /// What may stay in the cache.
    pub cache_policy: CachePolicy,
}

/// What a history did.
#[derive(Debug, Default)]
pub struct HistorySummary {
    /// Versions in the range.
    pub versions: usize,
    /// Versions whose cells were all in the rows file already.
    pub already_done: usize,
    /// The ledger entries written now, one per version handled.
    pub handled: Vec<Entry>,
    /// Sum of the install times (each overlapped the previous version's sessions).
    pub install_secs: f64,
    /// Time the sessions waited for an install to finish.
    pub install_wait_secs: f64,
    /// The cache's largest size seen, in bytes.
    pub cache_high_water: u64,
    /// Versions removed from the cache to keep it bounded.
    pub removed: Vec<String>,
    /// Wall time.
    pub wall: Duration,
    /// Stopped by a signal before the end.
    pub interrupted: bool,
    /// The rows file and the ledger.
    pub out: PathBuf,
    /// The ledger file.
    pub ledger: PathBuf,
}

/// An installed, hashed version, ready to run.
struct Fetched {
    bin: AgentBin,
    install_secs: f64,
    sha256: String,
    bytes: u64,
    runtime: String,
}

/// A spawned task that is aborted when dropped, so that an error or an
/// interrupt never leaves an install running behind the history.
struct AbortOnDrop<T>(tokio::task::JoinHandle<T>);

impl<T> Drop for AbortOnDrop<T> {
    fn drop(&mut self) {
        self.0.abort();
    }
}

fn spawn_fetch(cache: Cache, version: String) -> AbortOnDrop<anyhow::Result<Fetched>> {
    AbortOnDrop(tokio::spawn(async move {
        let was_there = cache.binary(&version).exists();
        let started = Instant::now();
        let bin = npm::ensure(&cache, &version).await?;
        let install_secs = if was_there { 0.0 } else { started.elapsed().as_secs_f64() };
        let name = cache.agent().display_name();
        let root = cache.version_dir(&version);
        let files = cache.agent().driver().build_files(&root);
        let hashed = tokio::task::spawn_blocking(move || identical::hash_build(&root, &files))
            .await?
            .with_context(|| format!("hashing {name} {version}'s build"))?;
        let Some((sha256, bytes)) = hashed else {
            anyhow::bail!("{name} {version}: no file of its build in {}", cache.version_dir(&version).display())
        };
        // What runs the build (Claude Code's `native` or `node vX`); an agent whose driver
        // asks its binary nothing records none. Asking also readies a first run (Copilot
        // unpacks its package once per version).
        let runtime = bin.agent.driver().capabilities(&bin).await.map(|c| c.runtime()).unwrap_or_default();
        Ok(Fetched { bin, install_secs, sha256, bytes, runtime })
    }))
}

/// The cells of `version` this history still has to fill, as keys.
fn missing_cells(opts: &RunOptions, version: &str, done: &HashSet<CellKey>) -> HashSet<CellKey> {
    let bin = AgentBin { agent: opts.agent, path: PathBuf::new(), version: version.to_string() };
    let all = cells::expand(&[bin], &opts.arms, opts.repeats);
    let model = opts.model.as_str();
    cells::plan(all, opts.shard, done, model, crate::mode::Mode::Print)
        .iter()
        .map(|c| c.key(model, crate::mode::Mode::Print))
        .collect()
}

/// Run the history. `on_version` hears of each version as it is recorded.
pub async fn run(
    opts: HistoryOptions,
    interrupt: Interrupt,
    mut on_version: impl FnMut(&Entry),
) -> anyhow::Result<HistorySummary> {
    let started = Instant::now();
    if let Some(why) = cells::none_runs(opts.run.agent, &opts.run.arms) {
        anyhow::bail!("no history of {}: {why}", opts.run.agent.display_name());
    }
    let out = opts.run.out.clone();
    let cache = opts.run.cache.for_agent(opts.run.agent);
    // Opening first cuts a truncated last line before the rows are read.
    drop(RowWriter::open(&out)?);
    let done: HashSet<CellKey> = record::read_rows(&out)?.iter().map(CellKey::of).collect();
    let mut ledger = Ledger::open(&Ledger::path_for(&out))?;
    let work: Vec<(String, HashSet<CellKey>)> = opts
        .versions
        .iter()
        .map(|v| (v.clone(), missing_cells(&opts.run, v, &done)))
        .filter(|(_, missing)| !missing.is_empty())
        .collect();
    let found: HashSet<String> = cache.installed().into_iter().collect();
    let mut summary = HistorySummary {
        versions: opts.versions.len(),
        already_done: opts.versions.len() - work.len(),
        out: out.clone(),
        ledger: ledger.path().to_path_buf(),
        ..HistorySummary::default()
    };
    let mut next = work.first().map(|(v, _)| spawn_fetch(cache.clone(), v.clone()));
    for (i, (version, missing)) in work.iter().enumerate() {
        let Some(mut fetch) = next.take() else { break };
        let waited = Instant::now();
        let fetched = tokio::select! {
            r = &mut fetch.0 => r.context("the install task failed")?,
            _ = interrupt.stopped() => { summary.interrupted = true; break }
        }
        .with_context(|| format!("installing {} {version}", cache.agent().display_name()))?;
        summary.install_wait_secs += waited.elapsed().as_secs_f64();
        summary.install_secs += fetched.install_secs;
        let mut cache_bytes = cache_size(&cache);
        let following = work.get(i + 1).map(|(v, _)| v.clone());
        next = following.clone().map(|v| spawn_fetch(cache.clone(), v));

        let began = Instant::now();
        let identical = ledger.same_binary(&fetched.sha256, version).map(|e| e.version.clone());
        let copied = match &identical {
            Some(from) => identical::copy_rows(&record::read_rows(&out)?, from, version, missing),
            None => None,
        };
        let (sessions, invalid, identical_to) = match copied {
            Some(rows) => {
                let mut writer = RowWriter::open(&out)?;
                for row in &rows {
                    writer.append(row)?;
                }
                (0, rows.iter().filter(|r| r.verdict == VerdictKind::Invalid).count(), identical.unwrap_or_default())
            }
            None => {
                let run_opts = RunOptions {
                    claude: vec![VersionSpec::Path(fetched.bin.path.clone())],
                    resume: true,
                    ..opts.run.clone()
                };
                let ran = crate::run::run(run_opts, interrupt.clone()).await?;
                if ran.interrupted {
                    summary.interrupted = true;
                    break;
                }
                (ran.rows.len(), ran.rows.iter().filter(|r| r.verdict == VerdictKind::Invalid).count(), String::new())
            }
        };
        let run_secs = began.elapsed().as_secs_f64();
        cache_bytes = cache_bytes.max(cache_size(&cache));
        summary.cache_high_water = summary.cache_high_water.max(cache_bytes);
        let entry = Entry {
            version: version.clone(),
            binary_sha256: fetched.sha256,
            binary_bytes: fetched.bytes,
            identical_to,
            install_secs: round2(fetched.install_secs),
            sessions,
            invalid,
            run_secs: round2(run_secs),
            cache_bytes,
            runtime: fetched.runtime,
        };
        ledger.record(entry.clone())?;
        on_version(&entry);
        summary.handled.push(entry);
        summary.removed.extend(bound_cache(&cache, opts.cache_policy, version, &found, following.as_deref())?);
    }
    drop(next); // aborts an install still in flight (interrupt or error)
    summary.wall = started.elapsed();
    Ok(summary)
}

/// Apply the cache policy after `version` is done; `next` is installing.
fn bound_cache(
    cache: &Cache,
    policy: CachePolicy,
    version: &str,
    found: &HashSet<String>,
    next: Option<&str>,
) -> anyhow::Result<Vec<String>> {
    let removed = match policy {
        CachePolicy::AsFound => {
            if found.contains(version) || cache.pinned().contains(&version) {
                return Ok(Vec::new());
            }
            let name = cache.agent().display_name();
            cache.remove(version).with_context(|| format!("removing {name} {version} from the cache"))?;
            vec![version.to_string()]
        }
        CachePolicy::Limit(limit) => {
            let keep: Vec<String> = next.into_iter().map(String::from).collect();
            prune::enforce(cache, limit, &keep).context("bounding the cache")?.into_iter().map(|(v, _)| v).collect()
        }
    };
    Ok(removed)
}

fn cache_size(cache: &Cache) -> u64 {
    cache.total_bytes()
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}
