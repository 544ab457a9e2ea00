//! The report of an audit, what render reads: one [`AgentReport`] per agent
//! whose hooks were read, Claude Code's as every other's.

use std::path::PathBuf;

use serde::Serialize;

use super::checks::Checks;
use super::guard_verdict::{self, GuardStatus};
use super::intake::config::HookEntry;
use super::intake::{plugins, sources};
use super::model::OnFailure;
use super::probe::census;

/// The version of the report's JSON shape (`schema`): raised when a field
/// is renamed, removed or changes meaning, not when one is added. 2: every
/// agent's part in `agents[]`, Claude Code's included (1 had Claude Code's
/// at the top level).
pub const SCHEMA: u32 = 2;

/// The whole audit.
#[derive(Debug, Clone, Serialize)]
pub struct AuditReport {
    /// The version of this shape ([`SCHEMA`]), for readers of the JSON.
    pub schema: u32,
    /// Each agent's part, in the order of `failopen agents list`.
    pub agents: Vec<AgentReport>,
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
        self.agents.iter().filter_map(|a| a.checks.status(a.version.is_some())).max().unwrap_or(GuardStatus::Untested)
    }

    /// The guards that are not held, with the reason, of every agent.
    pub fn untested(&self) -> Vec<&guard_verdict::GuardVerdict> {
        self.agents.iter().flat_map(|a| a.checks.guards.iter()).filter(|g| g.status == GuardStatus::Untested).collect()
    }

    /// Whether the audit found a guard that fails open: a proven hole or an
    /// error finding (static only: any warning or error finding).
    pub fn fails_open(&self) -> bool {
        self.agents.iter().any(AgentReport::fails_open)
    }

    /// Whether any agent's dynamic checks ran.
    pub fn dynamic(&self) -> bool {
        self.agents.iter().any(|a| a.version.is_some())
    }
}

/// One hook entry, as the report names it.
#[derive(Debug, Clone, Serialize)]
pub struct ReportHook {
    /// Where it is, in its agent's words, e.g. `.gemini/settings.json BeforeTool[0].hooks[0]`.
    pub location: String,
    /// The entry (its `timeout` in seconds, whatever the agent's unit).
    #[serde(flatten)]
    pub entry: HookEntry,
}

/// The audit of one agent's hooks.
#[derive(Debug, Clone, Serialize)]
pub struct AgentReport {
    /// The agent (`claude-code`, `codex`, `gemini`).
    pub agent: &'static str,
    /// Its name in words (`Codex CLI`).
    pub agent_name: &'static str,
    /// The version the dynamic checks ran; `None`: static checks only.
    pub version: Option<String>,
    /// Whether it honours `"onFailure": "block"` (measured, or unknown);
    /// absent for an agent with no such key.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_failure: Option<OnFailure>,
    /// Its hook files read (settings files, hook configs), as named or found.
    pub files: Vec<PathBuf>,
    /// Managed settings files: read by the agent in every session, listed as a source.
    pub managed_files: Vec<PathBuf>,
    /// Plugins' hooks files (`--plugin-dir`, installed plugins) and skills whose frontmatter declares hooks.
    pub other_sources: Vec<PathBuf>,
    /// The plugins the settings enable, each loaded or not, with the reason.
    pub plugins: Vec<plugins::PluginStatus>,
    /// Hooks of other events that can refuse (PermissionRequest,
    /// UserPromptSubmit): listed and checked statically.
    pub event_hooks: Vec<sources::EventHook>,
    /// Its hook entries that run before a tool (PreToolUse, Gemini's
    /// BeforeTool...), ids `H1`, `C1`, `G1`, ...
    pub hooks: Vec<ReportHook>,
    /// What the checks found.
    #[serde(flatten)]
    pub checks: Checks,
    /// The hooks the agent started in a session with copies of the user's
    /// own configuration, against the list ([`census`]); absent when files
    /// were named, with no binary to run, or for an agent without a census.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loaded_hooks: Option<census::Census>,
}

impl AgentReport {
    /// Whether a guard fails open: a proven hole or an error finding (static
    /// only: any warning or error finding).
    pub fn fails_open(&self) -> bool {
        self.checks.fails_open(self.version.is_some())
    }
}
