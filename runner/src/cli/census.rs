//! `failopen census`: arguments to [`CensusOptions`], one line per guard
//! as its row lands, and the exit code (1 when a guard could not be measured).

use failopen::census::row::Row;
use failopen::census::{CensusOptions, Outcome};

use super::args::CensusArgs;
use super::output::emit_line;
use super::ExitCode;

pub async fn main(args: CensusArgs) -> anyhow::Result<ExitCode> {
    let defaults = CensusOptions::default();
    let opts = CensusOptions {
        list: args.list,
        out_dir: args.out_dir,
        csv: args.csv,
        only: args.only,
        agent_version: args.claude.unwrap_or(defaults.agent_version),
        failopen: std::env::current_exe()?,
        force: args.force,
    };
    let started = std::time::Instant::now();
    eprintln!("failopen: census on Claude Code {}, rows to {}", opts.agent_version, opts.csv.display());
    let outcomes = failopen::census::run(&opts, |o| {
        let _ = emit_line(&outcome_line(o));
    })
    .await?;
    let failed = outcomes.iter().filter(|o| matches!(o, Outcome::Failed { .. })).count();
    emit_line(&format!(
        "census: {} guards, {} measured, {} current, {failed} failed, in {} s",
        outcomes.len(),
        outcomes.iter().filter(|o| matches!(o, Outcome::Measured(_))).count(),
        outcomes.iter().filter(|o| matches!(o, Outcome::Current(_))).count(),
        started.elapsed().as_secs()
    ))?;
    Ok(if failed > 0 { ExitCode::Failure } else { ExitCode::Success })
}

fn outcome_line(o: &Outcome) -> String {
    let row = |r: &Row| {
        let faults: Vec<String> =
            failopen::census::row::FAULTS.iter().map(|f| format!("{f}={}", r.verdict(f).unwrap_or("-"))).collect();
        format!(
            "{} {}: {} (exit {}) under {}: {}",
            r.guard,
            r.version,
            r.status,
            r.exit_code,
            r.probe,
            faults.join(" ")
        )
    };
    match o {
        Outcome::Current(r) => format!("current  {}", row(r)),
        Outcome::Measured(r) => format!("measured {} in {} s", row(r), r.seconds),
        Outcome::Failed { guard, error } => format!("failed   {guard}: {error}"),
    }
}
