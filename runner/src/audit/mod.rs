//! `failopen audit`: does *my* guard fail closed?
//!
//! Every agent's hooks, Claude Code's and each other agent's, go through the
//! same stages, in order ([`audit`]), as one [`section::Section`] per agent
//! built from its driver. No stage imports a later one.
//! 1. [`intake`]: find and read the hooks wherever the agent loads them
//!    (Claude Code: settings scopes, managed settings, `--plugin-dir` and
//!    installed plugins, skills: [`intake::claude_code`]; another agent: its
//!    hook files, through its driver: [`intake::agent_config`]);
//! 2. [`lint`]: the static checks, with no session: script present and
//!    executable, interpreter installed, timeout, failure policy (Claude
//!    Code's `onFailure` is measured first, in one session), matcher
//!    coverage, and the mistakes that make Claude Code skip a settings file
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

use std::path::{Path, PathBuf};

use intake::{agent_config, config};
pub use options::AuditOptions;
use probe::stage::Lab;
use report::AuditReport;
use section::Section;

/// Run the audit: every agent's hooks through the same stages, in order.
/// Intake (Claude Code's hooks wherever it loads them, then each other
/// agent's hook files through its driver), lint, probe (real sessions in one
/// [`Lab`] for the whole audit), advice; the caller renders the report
/// ([`render`]). Errors: a settings file that cannot be read or parsed, or
/// the sessions cannot start.
pub async fn audit(opts: &AuditOptions) -> anyhow::Result<AuditReport> {
    // Intake.
    let mut sections = vec![Section::settings(opts)?];
    for (agent, files) in load_agent_files(opts)? {
        let bin = opts.agent_bins.iter().find(|b| b.agent == agent);
        sections.push(Section::hook_files(agent, files, bin)?);
    }
    // One lab (pool, stand-in, fault scripts) for every session of the audit, of every agent.
    let lab = match sections.iter().any(|s| s.runs_sessions(opts)) {
        true => Some(Lab::start(opts.jobs, opts.interrupt.clone()).await?),
        false => None,
    };
    // What each agent honours, which lint reads (Claude Code's onFailure), in one session.
    for s in &mut sections {
        s.measure(lab.as_ref(), opts).await?;
    }
    // Lint.
    let nothing_guards = sections.iter().all(|s| !s.has_hooks());
    for s in &mut sections {
        s.lint(opts, nothing_guards);
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
    let mut sections = sections.into_iter();
    let claude = sections.next().expect("Claude Code's section is the first");
    Ok(claude.into_report(opts, sections.map(Section::into_agent_audit).collect()))
}

/// The other agents' hook configs of `opts`, read, grouped by agent (Codex
/// CLI first). Each file's project is the directory above its `.codex` or
/// `.gemini`, else the audit's.
pub fn load_agent_files(
    opts: &AuditOptions,
) -> anyhow::Result<Vec<(crate::agent::Agent, Vec<agent_config::AgentFile>)>> {
    let mut out: Vec<(crate::agent::Agent, Vec<agent_config::AgentFile>)> = Vec::new();
    for (agent, path) in &opts.agent_files {
        let abs = if path.is_absolute() { path.clone() } else { opts.cwd.join(path) };
        let in_dot_dir =
            abs.parent().and_then(Path::file_name).is_some_and(|n| n == ".codex" || n == ".gemini" || n == ".qwen");
        let project = match abs.parent().and_then(Path::parent) {
            Some(p) if in_dot_dir => p.to_path_buf(),
            _ => opts.cwd.clone(),
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

/// The settings files Claude Code would read from `cwd` (see [`config::default_paths`]).
pub fn default_files(cwd: &Path, home: Option<&Path>) -> Vec<PathBuf> {
    config::default_paths(cwd, home)
}
