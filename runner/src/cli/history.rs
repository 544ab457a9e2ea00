//! `failopen history`: arguments to [`HistoryOptions`], one line per
//! version as it is recorded, and where the time and disk went.

use std::path::PathBuf;

use anyhow::Context;
use failopen::agent::Agent;
use failopen::history::{CachePolicy, Entry, HistoryOptions, HistorySummary};
use failopen::install::{spec, VersionSpec};
use failopen::pool::Interrupt;
use failopen::run::{Model, RunOptions};

use super::args::HistoryArgs;
use super::output::{check_out, emit_line};
use super::run::{check_repeats_and_timeout, load_arms, parse_shard};
use super::{Env, ExitCode};

pub async fn main(args: HistoryArgs, env: &Env) -> anyhow::Result<ExitCode> {
    failopen::sandbox::choose(failopen::sandbox::for_sessions(args.no_sandbox).map_err(anyhow::Error::msg)?);
    let opts = options(&args, env).await?;
    let interrupt = Interrupt::new();
    super::signals::spawn_handler(
        interrupt.clone(),
        false,
        Some("the same command resumes where it stopped".to_string()),
    );
    if let Some(warning) = opts.run.managed.warning() {
        eprintln!("failopen: {warning}");
    }
    eprintln!(
        "failopen: history of {} {} versions ({} to {}), {} arms each, rows to {}",
        opts.versions.len(),
        opts.run.agent.display_name(),
        opts.versions.first().map_or("", String::as_str),
        opts.versions.last().map_or("", String::as_str),
        opts.run.arms.len(),
        opts.run.out.display()
    );
    let summary = failopen::history::run(opts, interrupt, |e| {
        let _ = emit_line(&version_line(e));
    })
    .await?;
    for line in summary_lines(&summary) {
        emit_line(&line)?;
    }
    if summary.interrupted {
        eprintln!("failopen: interrupted; the rows and ledger above are on disk, and the same command resumes");
        return Ok(ExitCode::Interrupted);
    }
    Ok(ExitCode::Success)
}

/// The history's options from its arguments; every error names its flag.
async fn options(args: &HistoryArgs, env: &Env) -> anyhow::Result<HistoryOptions> {
    let arms = load_arms(&args.arms, &args.only)?;
    check_repeats_and_timeout(args.repeats, args.session_timeout)?;
    let shard = parse_shard(args.shard.as_deref())?;
    let cache_policy = match &args.cache_max {
        None => CachePolicy::AsFound,
        Some(text) => CachePolicy::Limit(text.parse().map_err(|e| anyhow::anyhow!("--cache-max: {e}"))?),
    };
    let agent = args.agent;
    let default_range = format!("{}..latest", agent.driver().older_version());
    let range = args.agent_version.as_deref().unwrap_or(&default_range);
    let specs = VersionSpec::parse_list(range).map_err(|e| anyhow::anyhow!("--agent-version: {e}"))?;
    let mut versions = Vec::new();
    for s in
        spec::expand(&specs, agent, args.pre_releases).await.map_err(|e| anyhow::anyhow!("--agent-version: {e}"))?
    {
        match s {
            VersionSpec::Version(v) => versions.push(v),
            VersionSpec::Latest => versions.push(failopen::install::npm::latest_version(agent).await?),
            VersionSpec::Path(p) => {
                anyhow::bail!("--agent-version: history runs published versions, not a path: {}", p.display())
            }
            VersionSpec::Range(r) => anyhow::bail!("--agent-version: {r} was not expanded"),
        }
    }
    versions.sort_by(|a, b| failopen::version::compare(a, b));
    versions.dedup();
    if versions.is_empty() {
        anyhow::bail!("--agent-version {range} names no {} version", agent.display_name());
    }
    let out = args.out.clone().unwrap_or_else(|| default_out(agent));
    check_out(&out, out.parent().is_some_and(|p| p == std::path::Path::new("results")))?;
    let run = RunOptions {
        agent,
        arms,
        model: Model::Scripted,
        repeats: args.repeats,
        jobs: super::jobs(args.jobs)?,
        out,
        resume: true,
        session_timeout: std::time::Duration::from_secs_f64(args.session_timeout),
        shard,
        progress: if failopen::progress::should_show(env.stderr_is_terminal, env.is_ci) {
            failopen::progress::View::Bar
        } else {
            failopen::progress::View::Hidden
        },
        failopen_exe: std::env::current_exe().context("locating the failopen binary")?,
        managed: super::managed_settings(),
        home: env.home.clone(),
        ..RunOptions::default()
    };
    Ok(HistoryOptions { versions, run, cache_policy })
}

/// Where a history's rows go when `--out` is not given: Claude Code's own
/// file, or one per agent, so that two agents' histories never share a file.
/// (The default agent's file keeps the name it had before `--agent`.)
fn default_out(agent: Agent) -> PathBuf {
    if agent.driver().implied_when_unnamed() {
        PathBuf::from("results/history.csv")
    } else {
        PathBuf::from(format!("results/{agent}-history.csv"))
    }
}

fn version_line(e: &Entry) -> String {
    let what = if e.identical_to.is_empty() {
        format!("{} sessions in {:.1} s", e.sessions, e.run_secs)
    } else {
        format!("binary identical to {}: rows copied, no sessions", e.identical_to)
    };
    let install = if e.install_secs > 0.0 { format!(", installed in {:.1} s", e.install_secs) } else { String::new() };
    let invalid = if e.invalid > 0 { format!(", {} invalid", e.invalid) } else { String::new() };
    let runtime = if e.runtime.starts_with("node") { format!(" (on {})", e.runtime) } else { String::new() };
    format!("{}{runtime}: {what}{install}{invalid}", e.version)
}

fn summary_lines(s: &HistorySummary) -> Vec<String> {
    let sessions: usize = s.handled.iter().map(|e| e.sessions).sum();
    let identical = s.handled.iter().filter(|e| !e.identical_to.is_empty()).count();
    let invalid: usize = s.handled.iter().map(|e| e.invalid).sum();
    let wall = s.wall.as_secs_f64();
    let per_minute = if wall > 0.0 { sessions as f64 * 60.0 / wall } else { 0.0 };
    let mut lines = vec![format!(
        "{} versions: {} run now, {} identical to an earlier binary, {} already done; {sessions} sessions ({invalid} invalid) in {wall:.1} s ({per_minute:.0} sessions/min)",
        s.versions,
        s.handled.len() - identical,
        identical,
        s.already_done,
    )];
    lines.push(format!(
        "installs: {:.1} s in all, overlapped with sessions; sessions waited {:.1} s for them; cache high-water {:.1} GiB",
        s.install_secs,
        s.install_wait_secs,
        s.cache_high_water as f64 / (1u64 << 30) as f64
    ));
    if !s.removed.is_empty() {
        lines.push(format!("removed from the cache to keep it bounded: {} versions", s.removed.len()));
    }
    lines.push(format!("rows in {}; ledger in {}", s.out.display(), s.ledger.display()));
    lines
}
