//! What an audit reads and runs with ([`AuditOptions`]): the files named,
//! the environment's facts, the agents' binaries and the user's probes.

use std::path::PathBuf;

use super::probe;
use crate::install::AgentBin;

/// What to audit and with what (environment facts passed in).
#[derive(Debug, Clone)]
pub struct AuditOptions {
    /// The directory the audit runs from (`$CLAUDE_PROJECT_DIR` for files outside a `.claude/`).
    pub cwd: PathBuf,
    /// `$HOME`.
    pub home: Option<PathBuf>,
    /// `$PATH`.
    pub path_var: String,
    /// Sessions at once.
    pub jobs: usize,
    /// How long a plugin session may run before it is ended (`--plugin-timeout`);
    /// `None`: the agent's own default. A plugin `hang` lasts this long.
    pub plugin_timeout: Option<std::time::Duration>,
    /// The `failopen` executable seal advice and the sealed re-check use.
    pub seal_exe: String,
    /// Managed settings on this machine: an agent that reads them in every
    /// session (Claude Code) has their hooks listed (and statically checked)
    /// as a source.
    pub managed: crate::managed::ManagedSettings,
    /// What stops the dynamic checks (a first signal) and what a hard stop kills.
    pub interrupt: crate::pool::Interrupt,
    /// Plugin directories (`--plugin-dir`): their `hooks/hooks.json` is read as a source.
    pub plugin_dirs: Vec<PathBuf>,
    /// Read the skills of the project and of HOME (`.claude/skills/*/SKILL.md`)
    /// for frontmatter hooks (when no settings file was named).
    pub read_skills: bool,
    /// Read the plugins the settings enable (`enabledPlugins`, resolved
    /// through `~/.claude/plugins/installed_plugins.json`: [`super::intake::plugins`]), as
    /// Claude Code loads them (when no settings file was named).
    pub read_plugins: bool,
    /// Every agent's hook files (Claude Code's settings files, Codex CLI's
    /// `.codex/hooks.json`, Gemini CLI's `.gemini/settings.json`:
    /// [`super::intake::agent_config`]), audited in sessions of that agent.
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
