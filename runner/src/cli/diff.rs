//! `failopen diff OLD.csv NEW.csv`: which cells' verdicts changed; the exit
//! code gates CI on a guard that opened.

use failopen::diff::DiffOutcome;

use super::args::DiffArgs;
use super::output::emit;
use super::report::flat;
use super::ExitCode;

/// Exit 0 unchanged, 3 a guard opened, 4 another change; errors exit 1.
pub fn main(args: DiffArgs) -> anyhow::Result<ExitCode> {
    let d = failopen::diff::diff_files(&args.old, &args.new).map_err(flat)?;
    emit(&d.to_string())?;
    Ok(match d.outcome() {
        DiffOutcome::Unchanged => ExitCode::Success,
        DiffOutcome::Opened => ExitCode::GuardOpen,
        DiffOutcome::Changed => ExitCode::Changed,
    })
}
