//! `failopen diff OLD.csv NEW.csv`: which cells' verdicts changed; the exit
//! code gates CI on a guard that opened.

use failopen::diff::DiffOutcome;

use super::args::DiffArgs;
use super::output::emit;
use super::report::flat;
use super::ExitCode;

/// Exit 0 unchanged, 3 a guard opened, 4 another change, 7 two agents'
/// files (unless `--across-agents`); errors exit 1.
pub fn main(args: DiffArgs) -> anyhow::Result<ExitCode> {
    let d = failopen::diff::diff_files(&args.old, &args.new).map_err(flat)?;
    if let Some((old, new)) = d.across_agents() {
        let (o, n) = (args.old.display(), args.new.display());
        let what = format!("{o} holds {}'s results and {n} {}'s", old.display_name(), new.display_name());
        if !args.across_agents {
            eprintln!(
                "failopen diff: {what}: two agents, not two releases of one, so nothing was compared (exit 7); \
                 --across-agents compares them arm by arm anyway"
            );
            return Ok(ExitCode::AcrossAgents);
        }
        eprintln!("failopen diff: warning: {what}; compared arm by arm as asked (--across-agents)");
    }
    emit(&d.to_string())?;
    Ok(match d.outcome() {
        DiffOutcome::Unchanged => ExitCode::Success,
        DiffOutcome::Opened => ExitCode::GuardOpen,
        DiffOutcome::Changed => ExitCode::Changed,
    })
}
