//! `failopen bisect`: probe published Claude Code versions with one arm.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use failopen::bisect;
use failopen::claude::{cache::Cache, ClaudeSpec};
use failopen::run::{Model, RunOptions};
use tokio_util::sync::CancellationToken;

use crate::cli::BisectArgs;

pub async fn run(args: BisectArgs) -> anyhow::Result<i32> {
    let cache = Cache::from_env();
    let Some(arm) = failopen::arms::load(&args.arms)?.into_iter().find(|a| a.name == args.arm) else {
        anyhow::bail!("--arm {:?} is not an arm of {}; arm names look like crash/native", args.arm, args.arms);
    };
    if args.repeats == 0 {
        anyhow::bail!("--repeats must be at least 1");
    }
    let good = bisect::exact_version(&args.good).await?;
    let bad = bisect::exact_version(&args.bad).await?;
    let published = failopen::claude::install::published_versions().await?;
    let versions = bisect::candidates(&published, &good, &bad).map_err(anyhow::Error::msg)?;
    println!("bisect {}: {} published versions from {good} to {bad}", arm.name, versions.len());
    let failopen_exe = std::env::current_exe()?;
    let work = tempfile::tempdir()?;
    let mut step = 0;
    let result = bisect::search(&versions, |version| {
        step += 1;
        let n = step;
        let out = work.path().join(format!("{version}.csv"));
        let opts = RunOptions {
            arms: vec![arm.clone()],
            claude: vec![ClaudeSpec::Version(version.clone())],
            model: Model::Scripted,
            repeats: args.repeats,
            jobs: 2,
            out,
            resume: false,
            keep: false,
            session_timeout: Duration::from_secs(120),
            shard: None,
            extra_args: Vec::new(),
            show_progress: false,
            failopen_exe: failopen_exe.clone(),
            cache: cache.clone(),
            managed: crate::run_cmd::managed_settings(),
        };
        async move {
            let summary =
                failopen::run::run(opts, CancellationToken::new(), Arc::new(Mutex::new(HashSet::new()))).await?;
            let verdict = bisect::summary(&summary.rows);
            let detail: Vec<String> =
                summary.rows.iter().map(|r| format!("{}{}", r.verdict, if r.reason.is_empty() { String::new() } else { format!(" ({})", r.reason) })).collect();
            println!("step {n}: {version}: {verdict} [{}]", detail.join(", "));
            Ok(verdict)
        }
    })
    .await?;
    println!();
    println!("good {} gives {}; bad {} gives {}", result.good.version, result.good.verdict, result.bad.version, result.bad.verdict);
    if !result.skipped.is_empty() {
        println!("skipped (invalid or mixed): {}", result.skipped.join(", "));
    }
    match (&result.first_different, &result.last_same) {
        (Some(first), Some(last)) => {
            println!("first version whose {} verdict differs from {}: {first} (last with the good verdict: {last})", arm.name, result.good.version);
            Ok(0)
        }
        _ => {
            println!("undecided: the change lies between {} and {}", result.last_same.unwrap_or_default(), result.bad.version);
            Ok(1)
        }
    }
}
