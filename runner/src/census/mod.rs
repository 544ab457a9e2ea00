//! `failopen census`: the public guards of `guards/census.json`, each
//! installed from its registry pinned by version and integrity, set up as
//! its README says in a temp root of its own (a project, a HOME, a clean
//! download cache), then audited by `failopen audit --format json` run as
//! a separate process in that project: the census reads audit's JSON, its
//! public output, and nothing of its internals. Each guard's evidence goes
//! to `results/census/<guard>-<version>.json`, its row to
//! `results/census.csv`. A guard whose version and agent version already
//! have a row and evidence is not run again (resumable, like `history`).

pub mod fetch;
pub mod list;
pub mod row;
pub mod step;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use serde_json::{json, Value};
use tokio::process::Command;

use crate::agent::Agent;
use crate::install::cache::Cache;
use list::{CensusGuard, CensusList};
use row::Row;

/// How long one guard's audit may take.
const AUDIT_TIMEOUT: Duration = Duration::from_secs(1800);

/// What a census does.
#[derive(Debug, Clone)]
pub struct CensusOptions {
    /// `guards/census.json`.
    pub list: PathBuf,
    /// Where each guard's evidence goes (`results/census/`).
    pub out_dir: PathBuf,
    /// The rows (`results/census.csv`).
    pub csv: PathBuf,
    /// Only these guards (all when empty).
    pub only: Vec<String>,
    /// The Claude Code version audit runs on.
    pub agent_version: String,
    /// The failopen binary whose `audit` measures each guard.
    pub failopen: PathBuf,
    /// Measure again even when the row is current.
    pub force: bool,
}

impl Default for CensusOptions {
    fn default() -> Self {
        CensusOptions {
            list: PathBuf::from("guards/census.json"),
            out_dir: PathBuf::from("results/census"),
            csv: PathBuf::from("results/census.csv"),
            only: Vec::new(),
            agent_version: Agent::ClaudeCode.driver().pinned_version().to_string(),
            failopen: PathBuf::from("failopen"),
            force: false,
        }
    }
}

/// What became of one guard.
#[derive(Debug, Clone)]
pub enum Outcome {
    /// Its row is current: same version, same agent version, evidence on disk.
    Current(Row),
    /// Measured now; the row and evidence are on disk.
    Measured(Row),
    /// Could not be installed or audited: why (no row written).
    Failed { guard: String, error: String },
}

/// The census: every selected guard, one after another, each row on disk before the next starts.
pub async fn run(opts: &CensusOptions, mut report: impl FnMut(&Outcome)) -> anyhow::Result<Vec<Outcome>> {
    let list = CensusList::load(&opts.list)?;
    let guards = list.select(&opts.only)?;
    std::fs::create_dir_all(&opts.out_dir).with_context(|| opts.out_dir.display().to_string())?;
    let cache = Cache::from_env().for_agent(Agent::ClaudeCode);
    let claude = crate::install::npm::ensure(&cache, &opts.agent_version).await?.path;
    let mut outcomes = Vec::new();
    for guard in guards {
        let rows = row::read_rows(&opts.csv)?;
        let current = rows.iter().find(|r| {
            r.guard == guard.name
                && r.version == guard.package.version
                && r.agent_version == opts.agent_version
                && evidence_path(opts, guard).is_file()
        });
        let outcome = match current {
            Some(r) if !opts.force => Outcome::Current(r.clone()),
            _ => match measure(opts, guard, &claude, cache.root()).await {
                Ok(row) => {
                    let mut rows: Vec<Row> = rows.into_iter().filter(|r| r.guard != guard.name).collect();
                    rows.push(row.clone());
                    let order = |r: &Row| list.guards.iter().position(|g| g.name == r.guard).unwrap_or(usize::MAX);
                    rows.sort_by_key(order);
                    row::write_rows(&opts.csv, &rows)?;
                    Outcome::Measured(row)
                }
                Err(e) => Outcome::Failed { guard: guard.name.clone(), error: format!("{e:#}") },
            },
        };
        report(&outcome);
        outcomes.push(outcome);
    }
    Ok(outcomes)
}

/// `results/census/<guard>-<version>.json`.
pub fn evidence_path(opts: &CensusOptions, guard: &CensusGuard) -> PathBuf {
    opts.out_dir.join(format!("{}-{}.json", guard.name, guard.package.version))
}

/// Install `guard` in a temp root of its own, audit it there, write its evidence: its row.
async fn measure(opts: &CensusOptions, guard: &CensusGuard, claude: &Path, cache: &Path) -> anyhow::Result<Row> {
    let started = Instant::now();
    let tmp = tempfile::Builder::new().prefix("failopen-census-").tempdir()?;
    let root = tmp.path();
    let package = fetch::fetch(&guard.package, root).await?;
    let mut installed = step::fresh(root)?;
    for s in &guard.steps {
        installed.apply(s, &package, root, claude).await?;
    }
    let mut cmd = Command::new(&opts.failopen);
    cmd.current_dir(&installed.project)
        .env("HOME", &installed.home)
        .env("PATH", &installed.path)
        .env("FAILOPEN_CACHE", cache)
        .args(["audit", "--claude", &opts.agent_version, "--format", "json", "-j", "2", "--probe"])
        .arg(guard.probe.to_string());
    let out = tokio::time::timeout(AUDIT_TIMEOUT, crate::agent::ask::output_in_own_group(cmd))
        .await
        .map_err(|_| anyhow::anyhow!("failopen audit: no answer in {} s", AUDIT_TIMEOUT.as_secs()))?
        .context("failopen audit")?;
    let exit_code = out.status.code().unwrap_or(-1);
    let text = String::from_utf8_lossy(&out.stdout);
    let text = redact(&text, root, &opts.failopen);
    let audit: Value = serde_json::from_str(&text).map_err(|e| {
        anyhow::anyhow!(
            "failopen audit exited {exit_code} with no JSON ({e}): {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )
    })?;
    let mut row = Row::from_audit(&guard.name, &guard.package.version, &audit, exit_code);
    row.measured = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    row.seconds = started.elapsed().as_secs();
    let evidence = json!({
        "guard": guard.name,
        "url": guard.url,
        "package": {"registry": guard.package.registry_name(), "name": guard.package.name,
                    "version": guard.package.version, "integrity": guard.package.integrity},
        "readme": guard.readme,
        "documented_limit": guard.documented_limit,
        "steps": serde_json::to_value(&guard.steps)?,
        "probe": guard.probe,
        "rerun": format!("failopen census --only {} --force", guard.name),
        "measured": row.measured,
        "seconds": row.seconds,
        "row": serde_json::to_value(&row)?,
        "audit": audit,
    });
    let path = evidence_path(opts, guard);
    std::fs::write(&path, serde_json::to_string_pretty(&evidence)? + "\n")
        .with_context(|| path.display().to_string())?;
    Ok(row)
}

/// The report with the temp root and failopen's own path replaced by names
/// (`$CENSUS_ROOT`, `failopen`): the evidence is the same wherever it ran.
fn redact(text: &str, root: &Path, failopen: &Path) -> String {
    let mut t = text.replace(&root.display().to_string(), "$CENSUS_ROOT");
    if failopen.is_absolute() {
        t = t.replace(&failopen.display().to_string(), "failopen");
    }
    t
}
