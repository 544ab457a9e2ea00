//! `failopen audit`.

use crate::cli::AuditArgs;

pub async fn run(_args: AuditArgs) -> anyhow::Result<i32> {
    anyhow::bail!("not implemented yet")
}
