//! One agent's part of an audit, built from its driver and taken through
//! the stages in order: [`Section::read`] (intake), [`Section::measure`]
//! (what the agent honours, which lint reads), [`Section::lint`],
//! [`Section::probe`] (in the audit's one [`Lab`]), [`Section::advise`].
//! Every agent's section is this one type, read and run alike; what differs
//! is what its driver says ([`crate::agent::hook_config::HookConfig`], its
//! [`crate::agent::hook_config::AuditReach`]), asked here, never which agent
//! it is.

use super::checks::Checks;
use super::intake::agent_config::AgentFile;
use super::intake::config::{self, HookEntry, HookKind};
use super::intake::read::{self, Intake};
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
use super::report::{AgentReport, ReportHook};
use super::{advice, guard_verdict};
use crate::agent::hook_config::HookConfig;
use crate::agent::{Agent, AgentBin, AgentDriver};

/// One agent's hooks, and what each stage found of them.
pub struct Section<'a> {
    agent: Agent,
    driver: &'static dyn AgentDriver,
    /// How its driver reads its hook files.
    config: &'static dyn HookConfig,
    /// The binary the sessions run; `None`: static checks only.
    bin: Option<&'a AgentBin>,
    intake: Intake,
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
    /// Intake of `agent`'s hooks: its `files` (read through its driver) and
    /// whatever else its driver's reach says it loads here, with ids `H1`,
    /// `C1`, `G1`, ...; `bin`: the binary the sessions run.
    pub fn read(
        agent: Agent,
        files: Vec<AgentFile>,
        bin: Option<&'a AgentBin>,
        opts: &AuditOptions,
    ) -> anyhow::Result<Section<'a>> {
        let driver = agent.driver();
        let Some(config) = driver.hook_config() else {
            anyhow::bail!("audit does not read {}'s hook files", driver.display_name());
        };
        let intake = read::read(
            driver,
            files,
            read::Where {
                cwd: &opts.cwd,
                home: opts.home.as_deref(),
                managed: &opts.managed,
                plugin_dirs: &opts.plugin_dirs,
                read_plugins: opts.read_plugins,
                read_skills: opts.read_skills,
            },
        )?;
        let mut entries = config::entries(&intake.settings);
        for (n, e) in entries.iter_mut().enumerate() {
            e.id = format!("{}{}", config.id_prefix(), n + 1);
        }
        Ok(Section {
            agent,
            driver,
            config,
            bin,
            intake,
            entries,
            on_failure: OnFailure::Unknown,
            census: None,
            checks: Checks::default(),
            probe_findings: Vec::new(),
            source_findings: Vec::new(),
        })
    }

    /// Whether it has hooks.
    pub fn has_hooks(&self) -> bool {
        !self.entries.is_empty()
    }

    /// Whether its intake read anything (files, sources, managed settings):
    /// a section that read nothing is left out of the report, unless no
    /// section read anything.
    pub fn read_anything(&self) -> bool {
        self.intake.read_anything()
    }

    /// Whether the agent runs an entry of this kind: one of its hook types.
    fn runs_kind(&self, kind: &HookKind) -> bool {
        let t = match kind {
            HookKind::Command { .. } => "command",
            HookKind::Http { .. } => "http",
            HookKind::Model { model_kind, .. } => model_kind.as_str(),
            HookKind::McpTool { .. } => "mcp_tool",
            HookKind::Other { .. } => return false,
        };
        self.config.hook_types().contains(&t)
    }

    /// The entries the probe stage runs: every one of a type the agent runs
    /// but a managed one.
    fn runnable(&self) -> Vec<&HookEntry> {
        self.entries.iter().filter(|e| !e.managed && self.runs_kind(&e.kind)).collect()
    }

    /// Whether the census runs: a session with copies of the user's own
    /// configuration ([`census`]), when no settings file was named, on an
    /// agent whose driver says a session reports the hooks it started.
    fn runs_census(&self, opts: &AuditOptions) -> bool {
        self.bin.is_some() && self.intake.reach.census && opts.read_plugins
    }

    /// Whether any stage of it runs sessions (so the audit needs a [`Lab`]).
    pub fn runs_sessions(&self, opts: &AuditOptions) -> bool {
        // Plugin faults (issue 47): plugin guards run in sessions too ([`plugin_faults`]).
        let plugins = plugin_faults::runs_any(self.driver, &self.entries);
        self.bin.is_some() && (!self.runnable().is_empty() || self.runs_census(opts) || plugins)
    }

    /// What the agent honours, which lint reads: whether a crashing guard
    /// with `"onFailure": "block"` is refused, in one session, on an agent
    /// that may honour the key (before its hooks are probed).
    pub async fn measure(&mut self, lab: Option<&Lab>, opts: &AuditOptions) -> anyhow::Result<()> {
        let (Some(lab), Some(bin)) = (lab, self.bin) else { return Ok(()) };
        if !self.intake.reach.on_failure_key || self.runnable().is_empty() {
            return Ok(());
        }
        let runner = lab.runner(bin, opts.home.as_deref(), &opts.seal_exe, self.intake.other_hooks_may_run);
        self.on_failure = runner.probe_on_failure().await?;
        Ok(())
    }

    /// Lint: the static findings of every entry, and of the files and
    /// sources they came from; `nothing_guards`: no agent has a hook at all
    /// (said in this section).
    pub fn lint(&mut self, opts: &AuditOptions, nothing_guards: bool) {
        let version = self.bin.map(|b| b.version.as_str());
        let intake = &self.intake;
        if intake.reach.settings_schema {
            let env =
                static_checks::Env { path_var: &opts.path_var, home: opts.home.as_deref(), agent_version: version };
            let mut findings = static_checks::check_all(&self.entries, self.on_failure, &env);
            for f in &intake.settings {
                findings.extend(broken_config::check_file(f, version));
            }
            self.checks.findings = findings;
            self.source_findings = super::intake::sources::findings(&intake.event_hooks, &intake.skills, version);
        } else {
            let env = static_checks::Env { path_var: &opts.path_var, home: opts.home.as_deref(), agent_version: None };
            self.checks.findings =
                self.entries.iter().flat_map(|e| driver_checks::static_findings(self.driver, e, &env)).collect();
        }
        self.checks
            .findings
            .extend(intake.notes.iter().map(|(path, note)| driver_checks::note_finding(&self.entries, path, note)));
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

    /// Probe: the runnable entries in real sessions of the agent, in `lab`
    /// (none, or no binary: static checks only); then, where the driver says
    /// a session reports the hooks it started, the census.
    pub async fn probe(&mut self, lab: Option<&Lab>, opts: &AuditOptions) -> anyhow::Result<()> {
        let (Some(lab), Some(bin)) = (lab, self.bin) else { return Ok(()) };
        let reach = self.intake.reach;
        let runner = lab.runner(bin, opts.home.as_deref(), &opts.seal_exe, self.intake.other_hooks_may_run);
        if !self.runnable().is_empty() {
            // Every write tool and route for a plain write, the faults through two of them (to keep the
            // sessions few); or each of the agent's few write tools for both.
            let tools = if reach.every_write_route {
                stage::Tools { writes: &dynamic::TOOLS, faults: &dynamic::FAULT_TOOLS }
            } else {
                let writes = self.config.session_write_tools().unwrap_or(self.driver.write_tools());
                stage::Tools { writes, faults: writes }
            };
            // Every entry of a type the agent runs, managed ones too: the plan skips them, but their
            // matchers count towards the coverage of a write tool.
            let entries: Vec<HookEntry> = self.entries.iter().filter(|e| self.runs_kind(&e.kind)).cloned().collect();
            let found =
                stage::run(&runner, &entries, tools, &opts.all_probes(), &opts.seal_exe, self.on_failure).await?;
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
        // After the census's, as the report has listed them.
        if reach.rejects_malformed_answers {
            self.probe_findings.extend(plan::rejected_answer_findings(&self.checks.screens));
        } else {
            self.probe_findings.extend(plan::unread_refusal_findings(&self.checks.screens, self.driver.display_name()));
        }
        Ok(())
    }

    fn after_sessions(&mut self, found: Found, opts: &AuditOptions, tools: stage::Tools) {
        if self.intake.reach.every_write_route {
            self.checks.not_covered =
                not_covered::settings(opts.probes.len(), &self.entries, !self.intake.managed_files.is_empty());
            self.probe_findings.extend(mcp_uncovered(&found.cells));
        } else {
            self.checks.not_covered = not_covered::hook_files(self.driver, self.config, &found.probes, tools.faults);
        }
        self.checks.cells = found.cells;
        self.checks.screens = found.screens;
        self.checks.state = found.state;
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
        let ctx = advice::Context {
            driver: self.driver,
            on_failure: self.on_failure,
            seal_exe: &opts.seal_exe,
            version: self.bin.map(|b| b.version.as_str()),
            plugins: &self.intake.plugins,
        };
        c.advice = advice::advise(&ctx, &self.entries, &c.holes, &c.findings, &c.rechecks, &c.unchecked);
    }

    /// Its part of the report, its hooks located in their files by its own
    /// event's name.
    pub fn into_report(self) -> AgentReport {
        let driver = self.driver;
        let config = self.config;
        let hooks = self
            .entries
            .into_iter()
            .map(|e| ReportHook {
                location: format!(
                    "{} {}",
                    e.file.display(),
                    config.entry_location(&e.file, e.group, e.index).unwrap_or_else(|| format!(
                        "{}[{}].hooks[{}]",
                        driver.hook_event(),
                        e.group,
                        e.index
                    ))
                ),
                entry: e,
            })
            .collect();
        let intake = self.intake;
        AgentReport {
            agent: self.agent.as_str(),
            agent_name: self.agent.display_name(),
            version: self.bin.map(|b| b.version.clone()),
            on_failure: intake.reach.on_failure_key.then_some(self.on_failure),
            files: intake.files,
            managed_files: intake.managed_files,
            other_sources: intake.other_sources,
            plugins: intake.plugins,
            event_hooks: intake.event_hooks,
            hooks,
            checks: self.checks,
            loaded_hooks: self.census,
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
