//! One agent's part of an audit, built from its driver and taken through
//! the stages in order: [`Section::settings`] or [`Section::hook_files`]
//! (intake), [`Section::measure`] (what the agent honours, which lint
//! reads), [`Section::lint`], [`Section::probe`] (in the audit's one
//! [`Lab`]), [`Section::advise`]. Claude Code's section and every other
//! agent's are this one type; what differs is where its hooks were read
//! ([`Source`]) and what its driver says.

use std::path::PathBuf;

use super::checks::Checks;
use super::intake::agent_config::AgentFile;
use super::intake::claude_code::{self, ClaudeIntake};
use super::intake::config::{self, HookEntry, HookKind};
use super::lint::driver_checks;
use super::lint::{broken_config, static_checks};
use super::model::{Finding, OnFailure, Severity};
use super::options::AuditOptions;
use super::probe::census::{self, Census};
use super::probe::dynamic::{self, AuditCell};
use super::probe::faults::Fault;
use super::probe::judge::{CellResult, WroteHow};
use super::probe::stage::{self, Found, Lab};
use super::probe::{not_covered, plan, plugin_faults};
use super::report::{AgentAudit, AgentHook, AuditReport};
use super::{advice, guard_verdict};
use crate::agent::hook_config::{ConfigNote, HookConfig};
use crate::agent::{Agent, AgentBin, AgentDriver};

/// Where a section's hooks were read.
pub enum Source {
    /// Claude Code's settings scopes, managed settings, plugins and skills:
    /// audit's own intake ([`claude_code`]), as its driver has no [`HookConfig`].
    Settings(ClaudeIntake),
    /// Another agent's hook files, read through its driver's [`HookConfig`].
    HookFiles {
        /// The files read.
        paths: Vec<PathBuf>,
        /// How its driver reads them.
        config: &'static dyn HookConfig,
        /// What the agent does with each file that its hooks as read do not
        /// show ([`HookConfig::notes`]), by the file's path.
        notes: Vec<(PathBuf, ConfigNote)>,
    },
}

/// One agent's hooks, and what each stage found of them.
pub struct Section<'a> {
    agent: Agent,
    driver: &'static dyn AgentDriver,
    /// The binary the sessions run; `None`: static checks only.
    bin: Option<&'a AgentBin>,
    source: Source,
    entries: Vec<HookEntry>,
    /// Whether this agent honours `"onFailure": "block"` (measured).
    on_failure: OnFailure,
    /// The hooks the agent started in a session with the user's own
    /// configuration, against the list.
    census: Option<Census>,
    checks: Checks,
    /// What the sessions showed beyond the holes.
    probe_findings: Vec<Finding>,
    /// The lint findings of the sources rather than the hooks (listed after
    /// the sessions' findings in the report).
    source_findings: Vec<Finding>,
}

impl<'a> Section<'a> {
    /// Intake of Claude Code's hooks, wherever it loads them here
    /// (`opts.claude`: the binary its sessions run).
    pub fn settings(opts: &'a AuditOptions) -> anyhow::Result<Section<'a>> {
        let intake = claude_code::read(claude_code::Where {
            files: &opts.files,
            cwd: &opts.cwd,
            home: opts.home.as_deref(),
            managed: &opts.managed.files,
            plugin_dirs: &opts.plugin_dirs,
            read_plugins: opts.read_plugins,
            read_skills: opts.read_skills,
        })?;
        let entries = config::entries(&intake.files);
        // Claude Code: the default agent, whose settings are audit's own intake.
        let agent = opts.claude.as_ref().map_or(Agent::default(), |c| c.agent);
        Ok(Section::new(agent, opts.claude.as_ref(), Source::Settings(intake), entries))
    }

    /// Intake of `files` of `agent`, through its driver, with ids `C1`,
    /// `G1`, ...; `bin`: the binary the sessions run.
    pub fn hook_files(agent: Agent, files: Vec<AgentFile>, bin: Option<&'a AgentBin>) -> anyhow::Result<Section<'a>> {
        let driver = agent.driver();
        let Some(config) = driver.hook_config() else {
            anyhow::bail!("audit does not read {}'s hook files", driver.display_name());
        };
        let paths: Vec<PathBuf> = files.iter().map(|f| f.file.path.clone()).collect();
        let notes: Vec<(PathBuf, ConfigNote)> =
            files.iter().flat_map(|f| f.notes.iter().map(|n| (f.file.path.clone(), n.clone()))).collect();
        let settings: Vec<config::SettingsFile> = files.into_iter().map(|f| f.file).collect();
        let mut entries = config::entries(&settings);
        for (n, e) in entries.iter_mut().enumerate() {
            e.id = format!("{}{}", config.id_prefix(), n + 1);
        }
        Ok(Section::new(agent, bin, Source::HookFiles { paths, config, notes }, entries))
    }

    fn new(agent: Agent, bin: Option<&'a AgentBin>, source: Source, entries: Vec<HookEntry>) -> Self {
        Section {
            agent,
            driver: agent.driver(),
            bin,
            source,
            entries,
            on_failure: OnFailure::Unknown,
            census: None,
            checks: Checks::default(),
            probe_findings: Vec::new(),
            source_findings: Vec::new(),
        }
    }

    /// Whether it has hooks.
    pub fn has_hooks(&self) -> bool {
        !self.entries.is_empty()
    }

    /// The entries the probe stage runs: Claude Code's every entry but a
    /// managed one or one of a type it does not know; another agent's
    /// command hooks, the only ones it runs.
    fn runnable(&self) -> Vec<&HookEntry> {
        match &self.source {
            Source::Settings(_) => {
                self.entries.iter().filter(|h| !h.managed && !matches!(h.kind, HookKind::Other { .. })).collect()
            }
            Source::HookFiles { .. } => {
                self.entries.iter().filter(|e| matches!(e.kind, HookKind::Command { .. })).collect()
            }
        }
    }

    /// Whether the census runs: a session with copies of the user's own
    /// Claude Code configuration ([`census`]), when no settings file was named.
    fn runs_census(&self, opts: &AuditOptions) -> bool {
        self.bin.is_some() && matches!(self.source, Source::Settings(_)) && opts.read_plugins
    }

    /// Whether any stage of it runs sessions (so the audit needs a [`Lab`]).
    pub fn runs_sessions(&self, opts: &AuditOptions) -> bool {
        // Plugin faults (issue 47): plugin guards run in sessions too ([`plugin_faults`]).
        let plugins = plugin_faults::runs_any(self.driver, &self.entries);
        self.bin.is_some() && (!self.runnable().is_empty() || self.runs_census(opts) || plugins)
    }

    /// Whether a hook from outside the session may run beside the audited
    /// one: Claude Code's managed settings, another agent's system config.
    fn other_hooks_may_run(&self, opts: &AuditOptions) -> bool {
        match &self.source {
            Source::Settings(_) => opts.managed.has_pretooluse_hooks(),
            Source::HookFiles { .. } => !self.driver.system_hook_layers().is_empty(),
        }
    }

    /// What the agent honours, which lint reads: whether a crashing guard
    /// with `"onFailure": "block"` is refused, in one session, on an agent
    /// whose settings carry the key (before its hooks are probed).
    pub async fn measure(&mut self, lab: Option<&Lab>, opts: &AuditOptions) -> anyhow::Result<()> {
        let (Some(lab), Some(bin), Source::Settings(_)) = (lab, self.bin, &self.source) else { return Ok(()) };
        if self.runnable().is_empty() {
            return Ok(());
        }
        let runner = lab.runner(bin, opts.home.as_deref(), &opts.seal_exe, self.other_hooks_may_run(opts));
        self.on_failure = runner.probe_on_failure().await?;
        Ok(())
    }

    /// Lint: the static findings of every entry, and of the files and
    /// sources they came from; `nothing_guards`: no agent has a hook at all.
    pub fn lint(&mut self, opts: &AuditOptions, nothing_guards: bool) {
        let version = self.bin.map(|b| b.version.as_str());
        match &self.source {
            Source::Settings(intake) => {
                let env = static_checks::Env {
                    path_var: &opts.path_var,
                    home: opts.home.as_deref(),
                    claude_version: version,
                };
                let mut findings = static_checks::check_all(&self.entries, self.on_failure, &env);
                for f in &intake.files {
                    findings.extend(broken_config::check_file(f, version));
                }
                self.checks.findings = findings;
                self.source_findings = super::intake::sources::findings(&intake.event_hooks, &intake.skills, version);
                self.source_findings.extend(intake.unreadable_managed.iter().map(|message| Finding {
                    hook: None,
                    severity: Severity::Warning,
                    code: "managed-unreadable".into(),
                    message: message.clone(),
                }));
                if nothing_guards {
                    self.source_findings.push(Finding {
                        hook: None,
                        severity: Severity::Warning,
                        code: "no-hooks".into(),
                        message: "no PreToolUse hooks: nothing guards writes".into(),
                    });
                }
            }
            Source::HookFiles { notes, .. } => {
                let env =
                    static_checks::Env { path_var: &opts.path_var, home: opts.home.as_deref(), claude_version: None };
                self.checks.findings =
                    self.entries.iter().flat_map(|e| driver_checks::static_findings(self.driver, e, &env)).collect();
                self.checks
                    .findings
                    .extend(notes.iter().map(|(path, note)| driver_checks::note_finding(&self.entries, path, note)));
            }
        }
    }

    /// Probe: the runnable entries in real sessions of the agent, in `lab`
    /// (none, or no binary: static checks only); then, for Claude Code's
    /// settings, the census.
    pub async fn probe(&mut self, lab: Option<&Lab>, opts: &AuditOptions) -> anyhow::Result<()> {
        let (Some(lab), Some(bin)) = (lab, self.bin) else { return Ok(()) };
        let runner = lab.runner(bin, opts.home.as_deref(), &opts.seal_exe, self.other_hooks_may_run(opts));
        let runnable: Vec<HookEntry> = self.runnable().into_iter().cloned().collect();
        if !runnable.is_empty() {
            // Claude Code: every write tool and route for a plain write, the faults through two of
            // them (to keep the sessions few); another agent: each of its few write tools for both.
            let tools = match &self.source {
                Source::Settings(_) => stage::Tools { writes: &dynamic::TOOLS, faults: &dynamic::FAULT_TOOLS },
                Source::HookFiles { config, .. } => {
                    let writes = config.session_write_tools().unwrap_or(self.driver.write_tools());
                    stage::Tools { writes, faults: writes }
                }
            };
            // A settings section probes every entry (the plan skips the rest); another agent's only those it runs.
            let entries = match &self.source {
                Source::Settings(_) => &self.entries,
                Source::HookFiles { .. } => &runnable,
            };
            let found =
                stage::run(&runner, entries, tools, &opts.all_probes(), &opts.seal_exe, self.on_failure).await?;
            self.after_sessions(found, opts, tools);
        }
        // Plugin faults (issue 47): each plugin guard in sessions, as written and under the faults
        // that fit a plugin ([`plugin_faults`]); after the command hooks' cells.
        if plugin_faults::runs_any(self.driver, &self.entries) {
            let found = plugin_faults::run(&runner, &self.entries).await?;
            self.checks.cells.extend(found.cells);
            self.checks.holes.extend(found.holes);
        }
        if self.runs_census(opts) {
            let loaded: Vec<&HookEntry> =
                self.entries.iter().filter(|h| h.file.extension().is_none_or(|e| e != "md")).collect();
            let c =
                census::run(bin, &lab.standin, &lab.pool, opts.home.as_deref(), &opts.cwd, &opts.plugin_dirs, &loaded)
                    .await?;
            self.probe_findings.extend(c.findings());
            self.census = Some(c);
        }
        match &self.source {
            // After the census's, as the report has listed them.
            Source::Settings(_) => self.probe_findings.extend(plan::rejected_answer_findings(&self.checks.screens)),
            Source::HookFiles { .. } => self
                .probe_findings
                .extend(plan::unread_refusal_findings(&self.checks.screens, self.driver.display_name())),
        }
        Ok(())
    }

    fn after_sessions(&mut self, found: Found, opts: &AuditOptions, tools: stage::Tools) {
        self.checks.not_covered = match &self.source {
            Source::Settings(_) => not_covered::settings(opts.probes.len(), &self.entries, !opts.managed.is_empty()),
            Source::HookFiles { config, .. } => {
                not_covered::hook_files(self.driver, *config, &found.probes, tools.faults)
            }
        };
        if let Source::Settings(_) = &self.source {
            self.probe_findings.extend(mcp_uncovered(&found.cells));
        }
        self.checks.cells = found.cells;
        self.checks.screens = found.screens;
        self.checks.holes = found.holes;
        self.checks.rechecks = found.rechecks;
        self.checks.unchecked = found.unchecked;
    }

    /// Advice, and each guard's verdict: the last stage before the report.
    pub fn advise(&mut self, opts: &AuditOptions) {
        let dynamic = self.bin.is_some();
        let c = &mut self.checks;
        c.findings.append(&mut self.probe_findings);
        c.findings.append(&mut self.source_findings);
        c.guards = guard_verdict::verdicts(&self.entries, &c.cells, &c.holes, &c.screens, dynamic);
        let plugins = match &self.source {
            Source::Settings(intake) => intake.plugins.as_slice(),
            Source::HookFiles { .. } => &[],
        };
        let ctx = advice::Context {
            driver: self.driver,
            on_failure: self.on_failure,
            seal_exe: &opts.seal_exe,
            version: self.bin.map(|b| b.version.as_str()),
            plugins,
        };
        c.advice = advice::advise(&ctx, &self.entries, &c.holes, &c.findings, &c.rechecks, &c.unchecked);
    }

    /// Another agent's part of the report (`agents[]`), its hooks located
    /// in their files by its own event's name.
    pub fn into_agent_audit(self) -> AgentAudit {
        let version = self.bin.map(|b| b.version.clone());
        let driver = self.driver;
        let hooks = self
            .entries
            .into_iter()
            .map(|e| AgentHook {
                agent: self.agent.as_str(),
                agent_version: version.clone(),
                location: format!(
                    "{} {}",
                    e.file.display(),
                    driver
                        .hook_config()
                        .and_then(|c| c.entry_location(&e.file, e.group, e.index))
                        .unwrap_or_else(|| format!("{}[{}].hooks[{}]", driver.hook_event(), e.group, e.index))
                ),
                entry: e,
            })
            .collect();
        let files = match self.source {
            Source::HookFiles { paths, .. } => paths,
            Source::Settings(intake) => intake.files.into_iter().map(|f| f.path).collect(),
        };
        AgentAudit {
            agent: self.agent.as_str(),
            agent_name: self.agent.display_name(),
            version,
            files,
            hooks,
            checks: self.checks,
        }
    }

    /// The report, this section (Claude Code's settings) at its top level
    /// and the other agents' in `agents`.
    pub fn into_report(self, opts: &AuditOptions, agents: Vec<AgentAudit>) -> AuditReport {
        let (other_sources, plugins, event_hooks) = match self.source {
            Source::Settings(intake) => (intake.other_sources, intake.plugins, intake.event_hooks),
            Source::HookFiles { .. } => Default::default(),
        };
        AuditReport {
            schema: super::report::SCHEMA,
            claude_version: self.bin.map(|b| b.version.clone()),
            on_failure: self.on_failure,
            files: opts.files.clone(),
            managed_files: opts.managed.files.clone(),
            other_sources,
            plugins,
            event_hooks,
            hooks: self.entries,
            checks: self.checks,
            loaded_hooks: self.census,
            agents,
        }
    }
}

/// An info finding per hook whose MCP route session wrote with no hook run:
/// its matcher leaves MCP tools (`mcp__<server>__<tool>`) unguarded.
fn mcp_uncovered(cells: &[AuditCell]) -> Vec<Finding> {
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
