//! `failopen bisect`.

use crate::cli::BisectArgs;

pub async fn run(_args: BisectArgs) -> anyhow::Result<i32> {
    anyhow::bail!("not implemented yet")
}
