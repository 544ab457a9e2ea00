//! `failopen merge A.csv B.csv... --out FILE`: join shards.

use super::args::MergeArgs;
use super::ExitCode;

/// Concatenate result files into `--out`, refusing foreign headers and
/// repeated cells.
pub fn main(args: MergeArgs) -> anyhow::Result<ExitCode> {
    let m = failopen::merge::merge(&args.files, &args.out)
        .map_err(|e| anyhow::anyhow!("--out {}: {e:#}", args.out.display()))?;
    eprintln!("merged {} rows from {} files into {}", m.rows, m.files, m.out.display());
    Ok(ExitCode::Success)
}
