//! `failopen standin serve`.

use crate::cli::StandinCommand;

pub async fn run(_command: StandinCommand) -> anyhow::Result<i32> {
    anyhow::bail!("not implemented yet")
}
