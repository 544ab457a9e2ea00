//! Claude Code's intake: every settings file it would read here, as it
//! reads them: the named (or default) settings scopes, managed settings,
//! `--plugin-dir` plugins, the plugins the settings enable (resolved through
//! `installed_plugins.json`: [`plugins`]), and skills' frontmatter hooks
//! ([`sources`]). The other agents' hook files are read through their
//! driver ([`super::agent_config`]).

use std::path::{Path, PathBuf};

use super::{config, plugins, sources};

/// Where Claude Code's intake looks (the audit's options it reads).
#[derive(Debug, Clone, Copy)]
pub struct Where<'a> {
    /// The settings files named (or found in their default places).
    pub files: &'a [PathBuf],
    /// The directory the audit runs from.
    pub cwd: &'a Path,
    /// `$HOME`.
    pub home: Option<&'a Path>,
    /// Managed settings files on this machine.
    pub managed: &'a [PathBuf],
    /// `--plugin-dir` directories.
    pub plugin_dirs: &'a [PathBuf],
    /// Read the plugins the settings enable.
    pub read_plugins: bool,
    /// Read the skills' frontmatter hooks.
    pub read_skills: bool,
}

/// What Claude Code's intake found.
#[derive(Debug, Default)]
pub struct ClaudeIntake {
    /// Every settings file read, in order: the named scopes, managed, `--plugin-dir`
    /// plugins' hooks, installed plugins' hooks, skills.
    pub files: Vec<config::SettingsFile>,
    /// Plugins' hooks files and skills whose frontmatter declares hooks.
    pub other_sources: Vec<PathBuf>,
    /// The plugins the settings enable, each loaded or not, with the reason.
    pub plugins: Vec<plugins::PluginStatus>,
    /// The skills whose frontmatter declares hooks.
    pub skills: Vec<sources::SkillHooks>,
    /// The PermissionRequest and UserPromptSubmit hooks of every file.
    pub event_hooks: Vec<sources::EventHook>,
    /// Why each unreadable managed settings file could not be read.
    pub unreadable_managed: Vec<String>,
}

/// Read every source `at` names. Errors: a named settings file or a
/// plugin's hooks file that cannot be read or parsed (an unreadable managed
/// file is a finding, not an error).
pub fn read(at: Where<'_>) -> anyhow::Result<ClaudeIntake> {
    let mut files = Vec::new();
    for p in at.files {
        let project = config::project_dir_for(p, at.cwd, at.home);
        files.push(config::load(p, project)?);
    }
    let mut unreadable_managed = Vec::new();
    for p in at.managed {
        match config::load(p, at.cwd.to_path_buf()) {
            Ok(mut f) => {
                f.managed = true;
                files.push(f);
            }
            Err(e) => unreadable_managed.push(e.to_string()),
        }
    }
    let mut other_sources = Vec::new();
    for dir in at.plugin_dirs {
        for f in plugins::plugin_dir_hooks(dir, at.cwd.to_path_buf(), at.home)? {
            other_sources.push(f.path.clone());
            files.push(f);
        }
    }
    let plugins =
        if at.read_plugins { plugins::find(&scopes_in_order(&files, at.home), at.home, at.cwd) } else { vec![] };
    for p in plugins.iter().filter(|p| p.loaded) {
        let root = p.runs_from.clone().or_else(|| p.install_path.clone()).unwrap_or_default();
        let data = at.home.map(|h| plugins::data_dir(h, &p.name));
        for hooks in &p.hooks_files {
            let f = plugins::hooks_settings(&root, hooks, at.cwd.to_path_buf(), data.clone())?;
            other_sources.push(f.path.clone());
            files.push(f);
        }
    }
    let skills = if at.read_skills { sources::skills_with_hooks(at.cwd, at.home) } else { vec![] };
    for skill in &skills {
        other_sources.push(skill.path.clone());
        files.extend(sources::skill_settings(skill, at.cwd.to_path_buf()));
    }
    let event_hooks = sources::event_hooks(&files);
    Ok(ClaudeIntake { files, other_sources, plugins, skills, event_hooks, unreadable_managed })
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
