//! `failopen bisect`: probe published versions of an agent with one arm, to
//! find the first release whose verdict differs from a good one's. The
//! versions it installs are removed again once probed, unless they were in
//! the cache before or are pinned.

use std::collections::HashSet;

use failopen::bisect;
use failopen::install::VersionSpec;
use failopen::pool::Interrupt;
use failopen::run::RunOptions;

use super::args::BisectArgs;
use super::output::emit_line;
use super::ExitCode;

pub async fn main(args: BisectArgs) -> anyhow::Result<ExitCode> {
    let Some(arm) = failopen::arms::load(&args.arms)?.into_iter().find(|a| a.name == args.arm) else {
        anyhow::bail!("--arm {:?} is not an arm of {}; arm names look like crash/native", args.arm, args.arms);
    };
    if args.repeats == 0 {
        anyhow::bail!("--repeats must be at least 1");
    }
    let agent = args.agent;
    let good = bisect::exact_version(&args.good, agent).await.map_err(|e| anyhow::anyhow!("--good: {e:#}"))?;
    let bad = bisect::exact_version(&args.bad, agent).await.map_err(|e| anyhow::anyhow!("--bad: {e:#}"))?;
    let published = failopen::install::npm::published_versions(agent).await?;
    let versions = bisect::candidates(&published, &good, &bad).map_err(|e| anyhow::anyhow!("--good/--bad: {e}"))?;
    emit_line(&format!("bisect {}: {} published versions from {good} to {bad}", arm.name, versions.len()))?;
    let interrupt = Interrupt::new();
    super::signals::spawn_handler(interrupt.clone(), false, None);
    let work = tempfile::tempdir()?;
    let base = RunOptions {
        agent,
        arms: vec![arm.clone()],
        repeats: args.repeats,
        jobs: 2,
        managed: super::managed_settings(),
        ..RunOptions::default()
    };
    let cache = base.cache.for_agent(agent);
    let found: HashSet<String> = cache.installed().into_iter().collect();
    let flag = args.flag.clone();
    let counted = args.invalid_as_verdict.clone();
    let mut step = 0;
    let result = bisect::search(&versions, |version| {
        step += 1;
        let n = step;
        let opts = RunOptions {
            claude: vec![VersionSpec::Version(version.clone())],
            out: work.path().join(format!("{version}.csv")),
            ..base.clone()
        };
        let interrupt = interrupt.clone();
        let (cache, found, flag, counted) = (cache.clone(), found.clone(), flag.clone(), counted.clone());
        async move {
            let summary = failopen::run::run(opts, interrupt.clone()).await;
            if !found.contains(&version) && !cache.pinned().contains(&version.as_str()) {
                let _ = cache.remove(&version);
            }
            let summary = summary?;
            if interrupt.is_stopped() {
                anyhow::bail!("interrupted at {version}");
            }
            let verdict = bisect::invalid_as_verdict(&summary.rows, &counted)
                .unwrap_or_else(|| bisect::summary_with_flag(&summary.rows, flag.as_deref()));
            let detail: Vec<String> = summary
                .rows
                .iter()
                .map(|r| {
                    format!(
                        "{}{}",
                        r.verdict,
                        if r.reason.is_empty() { String::new() } else { format!(" ({})", r.reason) }
                    )
                })
                .collect();
            emit_line(&format!("step {n}: {version}: {verdict} [{}]", detail.join(", ")))?;
            Ok(verdict)
        }
    })
    .await;
    let result = match result {
        Err(_) if interrupt.is_stopped() => {
            eprintln!("failopen: bisect interrupted");
            return Ok(ExitCode::Interrupted);
        }
        other => other?,
    };
    emit_line("")?;
    emit_line(&format!(
        "good {} gives {}; bad {} gives {}",
        result.good.version, result.good.verdict, result.bad.version, result.bad.verdict
    ))?;
    if !result.skipped.is_empty() {
        emit_line(&format!("skipped (invalid or mixed): {}", result.skipped.join(", ")))?;
    }
    match (&result.first_different, &result.last_same) {
        (Some(first), Some(last)) => {
            emit_line(&format!(
                "first version whose {} verdict differs from {}: {first} (last with the good verdict: {last})",
                arm.name, result.good.version
            ))?;
            Ok(ExitCode::Success)
        }
        _ => {
            emit_line(&format!(
                "undecided: the change lies between {} and {}",
                result.last_same.unwrap_or_default(),
                result.bad.version
            ))?;
            Ok(ExitCode::Undecided)
        }
    }
}
