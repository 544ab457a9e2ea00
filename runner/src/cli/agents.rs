//! `failopen agents list|install|versions|prune`: an agent's releases in
//! failopen's own cache, and the ones its registry (npm or PyPI) publishes.

use std::time::SystemTime;

use failopen::agent::Agent;
use failopen::install::prune::{self, Installed};
use failopen::install::{cache::Cache, range, spec, VersionSpec};

use super::args::AgentsCommand;
use super::output::emit_line;
use super::ExitCode;

pub async fn main(agent: Agent, command: AgentsCommand) -> anyhow::Result<ExitCode> {
    let cache = Cache::from_env().for_agent(agent);
    match command {
        AgentsCommand::List => list(&cache)?,
        AgentsCommand::Install { versions, pre_releases } => {
            let mut specs = Vec::new();
            for v in &versions {
                let spec = VersionSpec::parse(v).map_err(|e| anyhow::anyhow!("install {v}: {e}"))?;
                if matches!(spec, VersionSpec::Path(_)) {
                    anyhow::bail!("install takes versions, ranges or `latest`, not a path: {v}");
                }
                specs.push(spec);
            }
            for spec in spec::expand(&specs, agent, pre_releases).await? {
                let bin = spec::resolve(&spec, &cache).await?;
                emit_line(&format!("{}\t{}", bin.version, bin.path.display()))?;
            }
        }
        AgentsCommand::Versions { spec, split, pre_releases } => {
            let versions = published(agent, &spec, pre_releases).await?;
            let lines = match split {
                Some(0) => anyhow::bail!("--split must be at least 1"),
                Some(n) => range::split(&versions, n),
                None => versions,
            };
            for line in lines {
                emit_line(&line)?;
            }
        }
        AgentsCommand::Prune { keep, dry_run } => {
            let keep = match keep {
                Some(spec) => published(agent, &spec, true).await.map_err(|e| anyhow::anyhow!("--keep: {e}"))?,
                None => Vec::new(),
            };
            let installed = prune::inventory(&cache);
            let gone = prune::plan(&installed, prune::CacheLimit::Versions(0), &cache.pinned(), &keep);
            let mut freed = 0;
            for v in &gone {
                let bytes = installed.iter().find(|i| &i.version == v).map_or(0, |i| i.bytes);
                if !dry_run {
                    cache.remove(v).map_err(|e| anyhow::anyhow!("removing {}: {e}", cache.version_dir(v).display()))?;
                }
                freed += bytes;
                emit_line(&format!("{}{v}\t{}", if dry_run { "would remove " } else { "removed " }, size(bytes)))?;
            }
            emit_line(&format!(
                "{} {} versions, {}; kept {} (pinned: {})",
                if dry_run { "would remove" } else { "removed" },
                gone.len(),
                size(freed),
                installed.len() - gone.len(),
                cache.pinned().join(", ")
            ))?;
        }
    }
    Ok(ExitCode::Success)
}

/// The published versions `text` names, oldest first (`latest` looked up).
async fn published(agent: Agent, text: &str, pre_releases: bool) -> anyhow::Result<Vec<String>> {
    let specs = VersionSpec::parse_list(text)?;
    let mut out = Vec::new();
    for s in spec::expand(&specs, agent, pre_releases).await? {
        match s {
            VersionSpec::Version(v) => out.push(v),
            VersionSpec::Latest => out.push(failopen::install::npm::latest_version(agent).await?),
            VersionSpec::Path(p) => anyhow::bail!("{}: a path names no published version", p.display()),
            VersionSpec::Range(r) => anyhow::bail!("{r} was not expanded"),
        }
    }
    out.sort_by(|a, b| failopen::version::compare(a, b));
    out.dedup();
    Ok(out)
}

fn list(cache: &Cache) -> anyhow::Result<()> {
    let installed = prune::inventory(cache);
    if installed.is_empty() {
        emit_line(&format!(
            "no {} version installed in {}",
            cache.agent().display_name(),
            cache.versions_dir().display()
        ))?;
        return Ok(());
    }
    emit_line("version\tsize\tlast used\tpinned\tpath")?;
    let now = SystemTime::now();
    for Installed { version, bytes, last_used } in &installed {
        let used = last_used.and_then(|t| now.duration_since(t).ok()).map_or("unknown".into(), ago);
        let pinned = if cache.pinned().contains(&version.as_str()) { "pinned" } else { "" };
        emit_line(&format!("{version}\t{}\t{used}\t{pinned}\t{}", size(*bytes), cache.binary(version).display()))?;
    }
    let total: u64 = installed.iter().map(|i| i.bytes).sum();
    emit_line(&format!("{} versions, {} in {}", installed.len(), size(total), cache.versions_dir().display()))?;
    Ok(())
}

fn size(bytes: u64) -> String {
    if bytes >= 10_000_000_000 {
        format!("{:.1} GB", bytes as f64 / 1e9)
    } else {
        format!("{:.0} MB", bytes as f64 / 1e6)
    }
}

fn ago(d: std::time::Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=89 => format!("{s} s ago"),
        90..=5399 => format!("{} min ago", s / 60),
        5400..=129_599 => format!("{} h ago", s / 3600),
        _ => format!("{} days ago", s / 86_400),
    }
}
