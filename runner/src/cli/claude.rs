//! `failopen claude list` and `failopen claude install`: the Claude Code
//! versions in failopen's own cache.

use failopen::claude::{cache::Cache, ClaudeSpec};

use super::args::ClaudeCommand;
use super::output::emit_line;
use super::ExitCode;

pub async fn main(command: ClaudeCommand) -> anyhow::Result<ExitCode> {
    let cache = Cache::from_env();
    match command {
        ClaudeCommand::List => {
            let installed = cache.installed();
            if installed.is_empty() {
                emit_line(&format!("no Claude Code version installed in {}", cache.versions_dir().display()))?;
            }
            for v in installed {
                emit_line(&format!("{v}\t{}", cache.binary(&v).display()))?;
            }
        }
        ClaudeCommand::Install { versions } => {
            for v in versions {
                let spec = ClaudeSpec::parse(&v).map_err(|e| anyhow::anyhow!("install {v}: {e}"))?;
                if matches!(spec, ClaudeSpec::Path(_)) {
                    anyhow::bail!("install takes versions or `latest`, not a path: {v}");
                }
                let bin = failopen::claude::spec::resolve(&spec, &cache).await?;
                emit_line(&format!("{}\t{}", bin.version, bin.path.display()))?;
            }
        }
    }
    Ok(ExitCode::Success)
}
