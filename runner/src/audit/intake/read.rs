//! One agent's intake, whatever the agent: its hook files (named, or found
//! where it loads them), read through its driver ([`super::agent_config`]),
//! then what its driver's [`AuditReach`] says it loads besides: managed
//! settings ([`config`]), `--plugin-dir` plugins and the plugins its
//! settings enable (resolved through `installed_plugins.json`: [`plugins`]),
//! and skills' frontmatter hooks ([`sources`]).

use std::path::{Path, PathBuf};

use super::agent_config::AgentFile;
use super::{config, plugins, sources};
use crate::agent::hook_config::{AuditReach, ConfigNote};
use crate::agent::AgentDriver;

/// Where an intake looks besides the agent's files (the audit's options it reads).
#[derive(Debug, Clone, Copy)]
pub struct Where<'a> {
    /// The directory the audit runs from.
    pub cwd: &'a Path,
    /// `$HOME`.
    pub home: Option<&'a Path>,
    /// Managed settings on this machine.
    pub managed: &'a crate::managed::ManagedSettings,
    /// `--plugin-dir` directories.
    pub plugin_dirs: &'a [PathBuf],
    /// Read the plugins the settings enable.
    pub read_plugins: bool,
    /// Read the skills' frontmatter hooks.
    pub read_skills: bool,
}

/// What one agent's intake found.
#[derive(Debug, Default)]
pub struct Intake {
    /// Its hook files named (or found in their default places), as given.
    pub files: Vec<PathBuf>,
    /// Every file read, in order, Claude-shaped: its hook files, managed
    /// settings, `--plugin-dir` plugins' hooks, installed plugins' hooks, skills.
    pub settings: Vec<config::SettingsFile>,
    /// What the agent does with each hook file that its hooks as read do
    /// not show ([`crate::agent::hook_config::HookConfig::notes`]), by the file's path.
    pub notes: Vec<(PathBuf, ConfigNote)>,
    /// Managed settings files on this machine, when the agent reads them.
    pub managed_files: Vec<PathBuf>,
    /// Plugins' hooks files and skills whose frontmatter declares hooks.
    pub other_sources: Vec<PathBuf>,
    /// The plugins the settings enable, each loaded or not, with the reason.
    pub plugins: Vec<plugins::PluginStatus>,
    /// The skills whose frontmatter declares hooks.
    pub skills: Vec<sources::SkillHooks>,
    /// The PermissionRequest and UserPromptSubmit hooks of every file (when
    /// the agent's settings schema is known).
    pub event_hooks: Vec<sources::EventHook>,
    /// Why each unreadable managed settings file could not be read.
    pub unreadable_managed: Vec<String>,
    /// Whether a hook from outside the session may run beside the audited
    /// one: managed settings with PreToolUse hooks, a system config layer.
    pub other_hooks_may_run: bool,
    /// What the audit reads and measures of this agent.
    pub reach: AuditReach,
}

impl Intake {
    /// Whether anything was read: files, sources, managed settings, hooks.
    pub fn read_anything(&self) -> bool {
        !(self.files.is_empty()
            && self.settings.is_empty()
            && self.other_sources.is_empty()
            && self.managed_files.is_empty()
            && self.event_hooks.is_empty())
    }
}

/// Read the agent's `files` and every source its driver's reach names `at`.
/// Errors: a plugin's hooks file that cannot be read or parsed (an
/// unreadable managed file is a finding, not an error).
pub fn read(driver: &dyn AgentDriver, files: Vec<AgentFile>, at: Where<'_>) -> anyhow::Result<Intake> {
    let reach = driver.hook_config().map(|c| c.reach()).unwrap_or_default();
    let mut out = Intake { reach, ..Intake::default() };
    for f in files {
        out.files.push(f.file.path.clone());
        out.notes.extend(f.notes.iter().map(|n| (f.file.path.clone(), n.clone())));
        out.settings.push(f.file);
    }
    out.other_hooks_may_run = !driver.system_hook_layers().is_empty();
    if reach.managed_settings {
        out.managed_files = at.managed.files.clone();
        out.other_hooks_may_run = at.managed.has_pretooluse_hooks();
        for p in &at.managed.files {
            match config::load(p, at.cwd.to_path_buf()) {
                Ok(mut f) => {
                    f.managed = true;
                    out.settings.push(f);
                }
                Err(e) => out.unreadable_managed.push(e.to_string()),
            }
        }
    }
    if reach.plugins_and_skills {
        for dir in at.plugin_dirs {
            for f in plugins::plugin_dir_hooks(dir, at.cwd.to_path_buf(), at.home)? {
                out.other_sources.push(f.path.clone());
                out.settings.push(f);
            }
        }
        if at.read_plugins {
            out.plugins = plugins::find(&scopes_in_order(&out.settings, at.home), at.home, at.cwd);
        }
        for p in out.plugins.iter().filter(|p| p.loaded) {
            let root = p.runs_from.clone().or_else(|| p.install_path.clone()).unwrap_or_default();
            let data = at.home.map(|h| plugins::data_dir(h, &p.name));
            for hooks in &p.hooks_files {
                let f = plugins::hooks_settings(&root, hooks, at.cwd.to_path_buf(), data.clone())?;
                out.other_sources.push(f.path.clone());
                out.settings.push(f);
            }
        }
        if at.read_skills {
            out.skills = sources::skills_with_hooks(at.cwd, at.home);
        }
        for skill in &out.skills {
            out.other_sources.push(skill.path.clone());
            out.settings.extend(sources::skill_settings(skill, at.cwd.to_path_buf()));
        }
    }
    if reach.settings_schema {
        out.event_hooks = sources::event_hooks(&out.settings);
    }
    Ok(out)
}

/// The settings scopes in the order Claude Code lets a later one override
/// an earlier one's `enabledPlugins`: user, project, local, then managed.
fn scopes_in_order(files: &[config::SettingsFile], home: Option<&Path>) -> Vec<config::SettingsFile> {
    let user = home.map(|h| h.join(".claude/settings.json"));
    let rank = |f: &config::SettingsFile| {
        if f.managed {
            3
        } else if Some(&f.path) == user.as_ref() {
            0
        } else if f.path.ends_with(".claude/settings.local.json") {
            2
        } else {
            1
        }
    };
    let mut out: Vec<config::SettingsFile> = files.to_vec();
    out.sort_by_key(rank);
    out
}
