//! The report of an audit, what render reads: Claude Code's part at its top
//! level and each other agent's part ([`AgentAudit`]).

use std::path::PathBuf;

use serde::Serialize;

use super::checks::Checks;
use super::guard_verdict::{self, GuardStatus};
use super::intake::config::HookEntry;
use super::intake::{plugins, sources};
use super::model::OnFailure;
use super::probe::census;

/// The version of the report's JSON shape (`schema`): raised when a field
/// is renamed, removed or changes meaning, not when one is added.
pub const SCHEMA: u32 = 1;

/// The whole audit.
#[derive(Debug, Clone, Serialize)]
pub struct AuditReport {
    /// The version of this shape ([`SCHEMA`]), for readers of the JSON.
    pub schema: u32,
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
    pub agents: Vec<AgentAudit>,
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
        self.agents.iter().any(AgentAudit::fails_open) || self.checks.fails_open(self.claude_version.is_some())
    }
}

/// One hook entry of another agent, as the report names it.
#[derive(Debug, Clone, Serialize)]
pub struct AgentHook {
    /// The agent that runs it (`codex`, `gemini`).
    pub agent: &'static str,
    /// The version of the agent the dynamic checks ran, if they did.
    pub agent_version: Option<String>,
    /// Where it is, e.g. `.gemini/settings.json BeforeTool[0].hooks[0]`.
    pub location: String,
    /// The entry (its `timeout` in seconds, whatever the agent's unit).
    #[serde(flatten)]
    pub entry: HookEntry,
}

/// The audit of one agent's hooks.
#[derive(Debug, Clone, Serialize)]
pub struct AgentAudit {
    /// The agent (`codex`, `gemini`).
    pub agent: &'static str,
    /// Its name in words (`Codex CLI`).
    pub agent_name: &'static str,
    /// The version the dynamic checks ran; `None`: static checks only.
    pub version: Option<String>,
    /// Its hook configs read.
    pub files: Vec<PathBuf>,
    /// Its PreToolUse (Gemini: BeforeTool) hook entries, ids `C1`, `G1`, ...
    pub hooks: Vec<AgentHook>,
    /// What the checks found.
    #[serde(flatten)]
    pub checks: Checks,
}

impl AgentAudit {
    /// Whether a guard fails open: a proven hole or an error finding (static
    /// only: any warning or error finding).
    pub fn fails_open(&self) -> bool {
        self.checks.fails_open(self.version.is_some())
    }
}
