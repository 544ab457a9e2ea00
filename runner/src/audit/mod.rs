//! `failopen audit`: does *my* guard fail closed?
//!
//! For the PreToolUse hooks in a user's Claude Code settings files:
//! 1. static checks ([`static_checks`]) — script present and executable,
//!    interpreter installed, timeout, failure policy, matcher coverage; and
//!    ([`broken_config`]) the mistakes that make Claude Code skip a whole
//!    settings file or ignore an entry: a non-string matcher, a hook entry
//!    that breaks the schema, a matcher naming a tool in the wrong case, an
//!    unknown key on a hook entry;
//! 2. dynamic checks ([`dynamic`]) — each hook entry, exactly as configured,
//!    in a throwaway settings file, runs real `claude -p` sessions against
//!    the stand-in: one write through each write-capable tool, then the same
//!    with the guard made missing, crashing, hanging, killed by a signal
//!    ([`faults`]), judged by the file on disk ([`judge`]);
//! 3. the holes that proves, the change that closes each ([`advice`]), and a
//!    re-check of the hole cells on a copy wrapped by `failopen seal`.
//!
//! The user's files are only read. [`render`] prints the report ([`markdown`] as
//! GitHub tables).

pub mod advice;
pub mod agent_audit;
pub mod checks;
pub mod guard_verdict;
pub mod intake;
pub mod lint;
pub mod probe;
pub mod render;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::claude::AgentBin;
use checks::Checks;
use config::{HookEntry, HookKind};
use dynamic::AuditCell;
use faults::Fault;
use guard_verdict::GuardStatus;
use intake::{agent_config, command, config, plugins, sources};
use lint::{broken_config, static_checks};
use probe::stage::{self, Lab};
use probe::{census, dynamic, faults, judge};

pub use probe::sealed::SealedRecheck;

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

/// Run the audit. Errors: a settings file that cannot be read or parsed,
/// or the dynamic checks cannot start.
pub async fn audit(opts: &AuditOptions) -> anyhow::Result<AuditReport> {
    let intake = intake::claude_code::read(intake::claude_code::Where {
        files: &opts.files,
        cwd: &opts.cwd,
        home: opts.home.as_deref(),
        managed: &opts.managed.files,
        plugin_dirs: &opts.plugin_dirs,
        read_plugins: opts.read_plugins,
        read_skills: opts.read_skills,
    })?;
    let agent_files = load_agent_files(opts)?;
    let files = &intake.files;
    let hooks = config::entries(files);
    let claude_version = opts.claude.as_ref().map(|c| c.version.clone());
    let env = static_checks::Env {
        path_var: &opts.path_var,
        home: opts.home.as_deref(),
        claude_version: claude_version.as_deref(),
    };
    let mut report = AuditReport {
        claude_version: opts.claude.as_ref().map(|c| c.version.clone()),
        on_failure: OnFailure::Unknown,
        files: opts.files.clone(),
        managed_files: opts.managed.files.clone(),
        other_sources: intake.other_sources.clone(),
        plugins: intake.plugins.clone(),
        event_hooks: intake.event_hooks.clone(),
        hooks,
        checks: Checks::default(),
        loaded_hooks: None,
        agents: vec![],
    };
    let claude_probes = report.hooks.iter().any(|h| !h.managed && !matches!(h.kind, HookKind::Other { .. }));
    let claude_runs = opts.claude.is_some() && (claude_probes || opts.read_plugins);
    let agents_run = agent_files.iter().any(|(agent, files)| {
        let settings: Vec<config::SettingsFile> = files.iter().map(|f| f.file.clone()).collect();
        opts.agent_bins.iter().any(|b| b.agent == *agent)
            && config::entries(&settings).iter().any(|e| matches!(e.kind, HookKind::Command { .. }))
    });
    // One lab (pool, stand-in, fault scripts) for every session of the audit, of every agent.
    let lab = match claude_runs || agents_run {
        true => Some(Lab::start(opts.jobs, opts.interrupt.clone()).await?),
        false => None,
    };
    if let (Some(claude), Some(lab)) = (&opts.claude, &lab) {
        if claude_probes {
            dynamic_checks(lab, opts, claude, &mut report).await?;
        }
        if opts.read_plugins {
            report.loaded_hooks = Some(census_check(lab, opts, claude, &report.hooks).await?);
        }
    }
    report.checks.findings = static_checks::check_all(&report.hooks, report.on_failure, &env);
    for f in files {
        report.checks.findings.extend(broken_config::check_file(f, claude_version.as_deref()));
    }
    report.checks.findings.extend(mcp_uncovered(&report.checks.cells));
    report.checks.findings.extend(report.loaded_hooks.iter().flat_map(census::Census::findings));
    report.checks.findings.extend(probe::plan::rejected_answer_findings(&report.checks.screens));
    report.checks.findings.extend(sources::findings(
        &report.event_hooks,
        &intake.skills,
        report.claude_version.as_deref(),
    ));
    for message in &intake.unreadable_managed {
        report.checks.findings.push(Finding {
            hook: None,
            severity: Severity::Warning,
            code: "managed-unreadable".into(),
            message: message.clone(),
        });
    }
    for (agent, files) in agent_files {
        let bin = opts.agent_bins.iter().find(|b| b.agent == agent);
        report.agents.push(agent_audit::audit_agent(agent, files, bin, lab.as_ref(), opts).await?);
    }
    if report.hooks.is_empty() && report.agents.iter().all(|a| a.hooks.is_empty()) {
        report.checks.findings.push(Finding {
            hook: None,
            severity: Severity::Warning,
            code: "no-hooks".into(),
            message: "no PreToolUse hooks: nothing guards writes".into(),
        });
    }
    report.checks.guards = guard_verdict::verdicts(
        &report.hooks,
        &report.checks.cells,
        &report.checks.holes,
        &report.checks.screens,
        report.claude_version.is_some(),
    );
    report.checks.advice = advice::advise(
        &report.hooks,
        &report.checks.holes,
        &report.checks.findings,
        report.on_failure,
        &opts.seal_exe,
        report.claude_version.as_deref(),
        &report.plugins,
    );
    Ok(report)
}

async fn dynamic_checks(
    lab: &Lab,
    opts: &AuditOptions,
    claude: &AgentBin,
    report: &mut AuditReport,
) -> anyhow::Result<()> {
    let runner = lab.runner(claude, opts.home.as_deref(), &opts.seal_exe, opts.managed.has_pretooluse_hooks());
    report.on_failure = runner.probe_on_failure().await?;
    // Every write tool and route for a plain write; the faults through two of them, to keep the sessions few.
    let tools = stage::Tools { writes: &dynamic::TOOLS, faults: &dynamic::FAULT_TOOLS };
    let found = stage::run(&runner, &report.hooks, tools, &opts.all_probes(), &opts.seal_exe).await?;
    report.checks.cells = found.cells;
    report.checks.screens = found.screens;
    report.checks.holes = found.holes;
    report.checks.sealed_recheck = found.sealed_recheck;
    report.checks.not_covered = vec![
        format!(
            "probes: {} of the user's, then the catalogue: {}; each screened against the hook directly, those it \
             refuses confirmed in sessions (3 when it refused a plain write), the faults injected under the first one refused there (unless a \
             write through {} was refused)",
            opts.probes.len(),
            probe::catalogue::names().join(", "),
            dynamic::FAULT_TOOLS.join(" or ")
        ),
        format!("faults are injected through {} and the probe only", dynamic::FAULT_TOOLS.join(" and ")),
        format!(
            "routes: {} is a general-purpose subagent's Bash write, {} a write through failopen mcp-fs's {}",
            dynamic::SUBAGENT,
            dynamic::MCP,
            crate::task::MCP_WRITE_TOOL
        ),
        "HTTP hooks: only the unreachable-URL fault is injected".into(),
        format!("a hang is not waited for when the hook's timeout is over {} s", faults::MAX_HANG_TIMEOUT_SECS),
        "remote-managed settings (served to Team and Enterprise accounts by Anthropic's API) are not consulted: \
         the sessions point ANTHROPIC_BASE_URL at failopen's stand-in"
            .into(),
    ];
    if report.hooks.iter().any(|h| matches!(h.kind, HookKind::McpTool { .. })) {
        report.checks.not_covered.push(
            "an mcp_tool hook's server is replaced by failopen mcp-guard: as-is it refuses the write; under a fault \
             it answers isError, does not answer in time, or cannot be started"
                .into(),
        );
    }
    if report.hooks.iter().any(|h| matches!(h.kind, HookKind::Model { .. })) {
        report.checks.not_covered.push(
            "a prompt or agent hook's model is failopen's stand-in: as-is it refuses the write, as the hook asks; \
             under a model fault it answers HTTP 500, not in time, or with garbage"
                .into(),
        );
    }
    if !opts.managed.is_empty() {
        report.checks.not_covered.push(
            "managed hooks are checked statically and run beside the audited hook in every session; a write they \
             refuse is invalid here, never blocked"
                .into(),
        );
    }
    Ok(())
}

/// The census: one session with copies of the user's configuration, its
/// hook events against the listed PreToolUse hooks that Claude Code loads by
/// itself (a skill's or subagent's frontmatter hooks run only inside it).
async fn census_check(
    lab: &Lab,
    opts: &AuditOptions,
    claude: &AgentBin,
    hooks: &[HookEntry],
) -> anyhow::Result<census::Census> {
    let loaded: Vec<&HookEntry> = hooks.iter().filter(|h| h.file.extension().is_none_or(|e| e != "md")).collect();
    census::run(claude, &lab.standin, &lab.pool, opts.home.as_deref(), &opts.cwd, &opts.plugin_dirs, &loaded).await
}

/// An info finding per hook whose MCP route session wrote with no hook run:
/// its matcher leaves MCP tools (`mcp__<server>__<tool>`) unguarded.
fn mcp_uncovered(cells: &[AuditCell]) -> Vec<Finding> {
    use judge::{CellResult, WroteHow};
    cells
        .iter()
        .filter(|c| c.tool == dynamic::MCP && c.fault == Fault::None)
        .filter(|c| c.result == CellResult::Wrote(WroteHow::GuardNotRun))
        .map(|c| Finding {
            hook: Some(c.hook.clone()),
            severity: Severity::Info,
            code: "mcp-uncovered".into(),
            message: format!(
                "a write through an MCP tool ({}) went through with no hook run: the matcher covers no MCP tool; \
                 add `mcp__.*` (or `mcp__<server>__.*`; `mcp__<server>` alone matches nothing) if your MCP servers can write",
                crate::task::MCP_WRITE_TOOL
            ),
        })
        .collect()
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
        let in_dot_dir = abs.parent().and_then(Path::file_name).is_some_and(|n| n == ".codex" || n == ".gemini");
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
