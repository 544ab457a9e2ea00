//! `failopen audit`: does *my* guard fail closed?
//!
//! Every agent's hooks, Claude Code's and each other agent's, go through the
//! same stages, in order ([`audit`]), as one [`section::Section`] per agent
//! built from its driver. No stage imports a later one.
//! 1. [`intake`]: find and read the hooks wherever the agent loads them:
//!    its hook files through its driver ([`intake::agent_config`]), then
//!    what its driver's reach names ([`intake::read`]: Claude Code's
//!    managed settings, `--plugin-dir` and installed plugins, skills);
//! 2. [`lint`]: the static checks, with no session: script present and
//!    executable, interpreter installed, timeout, failure policy (an
//!    `onFailure` key is measured first, in one session), matcher
//!    coverage, and the mistakes that make the agent skip a settings file
//!    or ignore an entry;
//! 3. [`probe`]: in one [`probe::stage::Lab`] (one pool, one stand-in, one
//!    set of fault scripts for the whole audit, the census included), each
//!    hook entry, exactly as configured, runs real sessions of its agent: a
//!    write through each write tool, then the injected faults (missing,
//!    crash, hang, signal, a launcher or dependency gone, ...), and the probes
//!    (calls guards commonly refuse) screened against the hook through its
//!    stdin contract, confirmed in sessions, with the faults injected under
//!    one it refuses; judged by what changed on disk, the holes that proves,
//!    and each hook's recipe applied to a copy and re-run, proved only when
//!    its holes close and every refusal holds ([`probe::recheck`]);
//! 4. [`advice`]: the re-checked recipe for each hook, and each guard's verdict
//!    ([`guard_verdict`]): held, open, or untested with the reason;
//! 5. [`render`]: text, JSON and Markdown of the [`report`], called by the
//!    command line.
//!
//! The types every stage shares are a leaf ([`model`]); what an audit runs
//! with is [`options`]; a test (`layers.rs`) checks the order on the source.
//!
//! The user's files are only read.

pub mod advice;
pub mod checks;
pub mod guard_verdict;
pub mod intake;
#[cfg(test)]
mod layers;
pub mod lint;
pub mod model;
pub mod options;
pub mod probe;
pub mod render;
pub mod report;
pub mod section;

use std::path::Path;

use intake::agent_config;
pub use options::AuditOptions;
use probe::stage::Lab;
use report::AuditReport;
use section::Section;

/// Run the audit: every agent's hooks through the same stages, in order.
/// Intake (each agent's hook files and what else its driver says it loads,
/// through its driver), lint, probe (real sessions in one [`Lab`] for the
/// whole audit), advice; the caller renders the report ([`render`]).
/// Errors: a hook file that cannot be read or parsed, or the sessions
/// cannot start.
pub async fn audit(opts: &AuditOptions) -> anyhow::Result<AuditReport> {
    // Intake.
    let mut sections = Vec::new();
    for (agent, files) in load_agent_files(opts)? {
        let bin = opts.agent_bins.iter().find(|b| b.agent == agent);
        sections.push(Section::read(agent, files, bin, opts)?);
    }
    // A section that read nothing is left out, unless none read anything: then the first says so.
    let first = sections.iter().position(Section::read_anything).unwrap_or(0);
    let mut sections: Vec<Section> =
        sections.into_iter().enumerate().filter(|(i, s)| *i == first || s.read_anything()).map(|(_, s)| s).collect();
    // One lab (pool, stand-in, fault scripts) for every session of the audit, of every agent.
    let lab = match sections.iter().any(|s| s.runs_sessions(opts)) {
        true => Some(Lab::start(opts.jobs, opts.interrupt.clone(), opts.plugin_timeout).await?),
        false => None,
    };
    // What each agent honours, which lint reads (an onFailure key), in one session.
    for s in &mut sections {
        s.measure(lab.as_ref(), opts).await?;
    }
    // Lint; that nothing guards at all is said once, by the first agent.
    let nothing_guards = sections.iter().all(|s| !s.has_hooks());
    for (i, s) in sections.iter_mut().enumerate() {
        s.lint(opts, nothing_guards && i == 0);
    }
    // Probe.
    for s in &mut sections {
        s.probe(lab.as_ref(), opts).await?;
    }
    drop(lab);
    // Advice.
    for s in &mut sections {
        s.advise(opts);
    }
    Ok(AuditReport { schema: report::SCHEMA, agents: sections.into_iter().map(Section::into_report).collect() })
}

/// Each agent's hook files of `opts`, read through its driver, grouped by
/// agent (in the order of [`crate::agent::Agent`]); an agent whose driver
/// reads sources beyond named files (managed settings, plugins, skills) gets
/// a group even with no file. Each file's project is where its driver says
/// ([`crate::agent::hook_config::HookConfig::project_dir`]).
pub fn load_agent_files(
    opts: &AuditOptions,
) -> anyhow::Result<Vec<(crate::agent::Agent, Vec<agent_config::AgentFile>)>> {
    let mut out: Vec<(crate::agent::Agent, Vec<agent_config::AgentFile>)> = Vec::new();
    for (_, agent) in crate::agent::Agent::ALL {
        let reach = agent.driver().hook_config().map(|c| c.reach()).unwrap_or_default();
        if reach.managed_settings || reach.plugins_and_skills {
            out.push((agent, Vec::new()));
        }
    }
    for (agent, path) in &opts.agent_files {
        let abs = if path.is_absolute() { path.clone() } else { opts.cwd.join(path) };
        let project = match agent.driver().hook_config() {
            Some(c) => c.project_dir(&abs, &opts.cwd, opts.home.as_deref()),
            None => opts.cwd.clone(),
        };
        let file = agent_config::load(*agent, path, project)?;
        match out.iter_mut().find(|(a, _)| a == agent) {
            Some((_, files)) => files.push(file),
            None => out.push((*agent, vec![file])),
        }
    }
    out.sort_by_key(|(a, _)| *a);
    Ok(out)
}

/// Every agent's hook files that exist where it looks from `cwd` (and
/// `home`), by agent ([`agent_config::default_paths`]).
pub fn default_files(cwd: &Path, home: Option<&Path>) -> Vec<(crate::agent::Agent, std::path::PathBuf)> {
    agent_config::default_paths(cwd, home)
}
