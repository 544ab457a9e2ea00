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
//! 5. [`render`]: text, JSON and Markdown, called by the command line.
//!
//! The user's files are only read.

pub mod advice;
pub mod agent_audit;
pub mod checks;
pub mod guard_verdict;
pub mod intake;
pub mod lint;
pub mod probe;
pub mod render;
pub mod section;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::install::AgentBin;
use checks::Checks;
use config::HookEntry;
use guard_verdict::GuardStatus;
use intake::{agent_config, config, plugins, sources};
use probe::census;
use probe::stage::Lab;
use section::Section;

pub use probe::recheck::{Recheck, Unchecked};

/// How bad a finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing.
    Info,
    /// A likely hole.
    Warning,
    /// The hook cannot work as written.
    Error,
}

impl Severity {
    /// Its name.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// One static finding.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Finding {
    /// Hook id, when about one hook.
    pub hook: Option<String>,
    /// Severity.
    pub severity: Severity,
    /// Stable kebab-case code, e.g. `script-missing`.
    pub code: String,
    /// What is wrong, in words.
    pub message: String,
}

/// Whether the audited Claude Code honours `"onFailure": "block"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OnFailure {
    /// Measured: a crashing guard with it set was refused.
    Honoured,
    /// Measured: a crashing guard with it set let the write through.
    Ignored,
    /// Not measured (static only, or the probe was inconclusive).
    Unknown,
}

/// What to audit and with what (environment facts passed in).
#[derive(Debug, Clone)]
pub struct AuditOptions {
    /// Settings files.
    pub files: Vec<PathBuf>,
    /// The directory the audit runs from (`$CLAUDE_PROJECT_DIR` for files outside a `.claude/`).
    pub cwd: PathBuf,
    /// `$HOME`.
    pub home: Option<PathBuf>,
    /// `$PATH`.
    pub path_var: String,
    /// Claude Code for the dynamic checks; `None`: static checks only.
    pub claude: Option<AgentBin>,
    /// Sessions at once.
    pub jobs: usize,
    /// The `failopen` executable seal advice and the sealed re-check use.
    pub seal_exe: String,
    /// Managed settings on this machine: Claude Code reads them in every
    /// session, so their hooks are listed (and statically checked) as a source.
    pub managed: crate::managed::ManagedSettings,
    /// What stops the dynamic checks (a first signal) and what a hard stop kills.
    pub interrupt: crate::pool::Interrupt,
    /// Plugin directories (`--plugin-dir`): their `hooks/hooks.json` is read as a source.
    pub plugin_dirs: Vec<PathBuf>,
    /// Read the skills of the project and of HOME (`.claude/skills/*/SKILL.md`)
    /// for frontmatter hooks (when no settings file was named).
    pub read_skills: bool,
    /// Read the plugins the settings enable (`enabledPlugins`, resolved
    /// through `~/.claude/plugins/installed_plugins.json`: [`plugins`]), as
    /// Claude Code loads them (when no settings file was named).
    pub read_plugins: bool,
    /// Other agents' hook configs (Codex CLI's `.codex/hooks.json`, Gemini
    /// CLI's `.gemini/settings.json`: [`agent_config`]), audited in sessions
    /// of that agent.
    pub agent_files: Vec<(crate::agent::Agent, PathBuf)>,
    /// The binaries of those agents for the dynamic checks; an agent without
    /// one gets the static checks only.
    pub agent_bins: Vec<AgentBin>,
    /// The user's probes (`--probe`, the project's `.failopen/probes.json`),
    /// tried before the built-in catalogue.
    pub probes: Vec<probe::Probe>,
}

impl AuditOptions {
    /// The user's probes, then the built-in catalogue, in the order they are tried.
    pub fn all_probes(&self) -> Vec<probe::Probe> {
        self.probes.iter().cloned().chain(probe::catalogue::all()).collect()
    }
}

/// The whole audit.
#[derive(Debug, Clone, Serialize)]
pub struct AuditReport {
    /// Claude Code version of the dynamic checks.
    pub claude_version: Option<String>,
    /// onFailure support (measured or unknown).
    pub on_failure: OnFailure,
    /// Settings files audited.
    pub files: Vec<PathBuf>,
    /// Managed settings files: read by Claude Code in every session, listed as a source.
    pub managed_files: Vec<PathBuf>,
    /// Plugins' hooks files (`--plugin-dir`, installed plugins) and skills whose frontmatter declares hooks.
    pub other_sources: Vec<PathBuf>,
    /// The plugins the settings enable, each loaded or not, with the reason.
    pub plugins: Vec<plugins::PluginStatus>,
    /// PermissionRequest and UserPromptSubmit hooks: listed and checked statically.
    pub event_hooks: Vec<sources::EventHook>,
    /// Hook entries.
    pub hooks: Vec<HookEntry>,
    /// What the checks found.
    #[serde(flatten)]
    pub checks: Checks,
    /// The hooks Claude Code started in a session with copies of the user's
    /// own configuration, against the list ([`census`]); `None` when settings
    /// files were named, or with no Claude Code to run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loaded_hooks: Option<census::Census>,
    /// The other agents' hooks (Codex CLI, Gemini CLI), audited on that agent.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub agents: Vec<agent_audit::AgentAudit>,
}

impl AuditReport {
    /// The audit's result: `open` when a guard fails open, else `untested`
    /// when some guard (of any agent) is untested or there is no guard at
    /// all, else `held`: every guard was exercised with a call it refuses and
    /// refused it under every fault.
    pub fn outcome(&self) -> GuardStatus {
        if self.fails_open() {
            return GuardStatus::Open;
        }
        let claude = self.checks.status(self.claude_version.is_some());
        let agents = self.agents.iter().map(|a| a.checks.status(a.version.is_some()));
        std::iter::once(claude).chain(agents).flatten().max().unwrap_or(GuardStatus::Untested)
    }

    /// The guards that are not held, with the reason, of every agent.
    pub fn untested(&self) -> Vec<&guard_verdict::GuardVerdict> {
        let agents = self.agents.iter().flat_map(|a| a.checks.guards.iter());
        self.checks.guards.iter().chain(agents).filter(|g| g.status == GuardStatus::Untested).collect()
    }

    /// Whether the audit found a guard that fails open: a proven hole or an
    /// error finding (static only: any warning or error finding).
    pub fn fails_open(&self) -> bool {
        self.agents.iter().any(agent_audit::AgentAudit::fails_open)
            || self.checks.fails_open(self.claude_version.is_some())
    }
}

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
