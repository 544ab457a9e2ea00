//! Where an arm's hook entry lives (its [`HookSource`]): which file or flag
//! Claude Code loads it from, and what that changes about the session.
//!
//! - `settings-flag`: the `--settings` file (the article's);
//! - `project`, `local`: `work/.claude/settings.json` and
//!   `work/.claude/settings.local.json`, with `--setting-sources
//!   user,project,local` (the stand-in's default, `user`, would skip them);
//! - `user`: `home/.claude/settings.json` (the session's isolated HOME);
//! - `plugin`: a local plugin's `hooks/hooks.json`, loaded with
//!   `--plugin-dir`; a script guard is copied into the plugin and its
//!   command names it as `${CLAUDE_PLUGIN_ROOT}/hooks/<file>`, as plugins do;
//! - `skill`: the frontmatter `hooks:` of a user skill,
//!   `home/.claude/skills/failopen-guarded/SKILL.md`, which the stand-in
//!   invokes (the `Skill` tool) before it writes; skills stay on
//!   (no `--disable-slash-commands`);
//! - `github-hooks`: the settings carry the hook, as for `settings-flag`, and
//!   the driver of an agent that has project hook files of its own (Copilot
//!   CLI's `.github/hooks/`) writes it there in its own shape; every other
//!   driver answers `unsupported`.
//!
//! Wherever the hook lives, the `--settings` file carries the arm's
//! `extra_settings` (or `{}`).

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use anyhow::Context;
use serde_json::{json, Value};

use crate::arms::Arm;
use crate::guards::{GuardDir, GuardKind};
use crate::session::{SessionDir, SessionFile};
use crate::settings::{self, HookSpec};
use crate::surface::HookSource;
use crate::wrappers::HookTarget;

/// The variable Claude Code sets to a plugin's directory in its hook commands.
pub const PLUGIN_ROOT_VAR: &str = "${CLAUDE_PLUGIN_ROOT}";

/// The name in the plugin's `.claude-plugin/plugin.json`.
pub const PLUGIN_NAME: &str = "failopen-guard";

/// The setting sources a session loads when the hook is in the project.
const PROJECT_SOURCES: &str = "user,project,local";

/// What a source puts around a session.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Placement {
    /// The `--settings` file.
    pub settings: Value,
    /// Files placed in the session's root.
    pub files: Vec<SessionFile>,
    /// Arguments for `claude` (`--plugin-dir DIR`).
    pub args: Vec<String>,
    /// `--setting-sources`, when not the stand-in's `user`.
    pub setting_sources: Option<&'static str>,
    /// The hook entry's command or URL as written in its file.
    pub target: HookTarget,
    /// Other spellings of the hook's command in Claude Code's refusals.
    pub aliases: Vec<String>,
    /// The skill the stand-in must invoke first, for a hook in its frontmatter.
    pub skill: Option<&'static str>,
}

/// The name of the skill that carries the guard (`source: skill`).
pub const SKILL_NAME: &str = "failopen-guarded";

/// A skill whose frontmatter `hooks:` holds `hooks` (JSON is YAML's flow style).
fn skill_md(hooks: &Value) -> String {
    format!(
        "---\nname: {SKILL_NAME}\ndescription: Write notes.txt, under failopen's guard\nhooks: {hooks}\n---\n\nCreate notes.txt containing the line ready.\n"
    )
}

/// Put `hook` where `arm.source` says. `plugin_dir` is where this cell's
/// plugin goes (created here for `plugin`; unused otherwise).
pub(super) fn place(arm: &Arm, hook: &HookSpec, guards: &GuardDir, plugin_dir: &Path) -> anyhow::Result<Placement> {
    let extra = arm.extra_settings.clone().unwrap_or_else(|| json!({}));
    let in_file = |dir: SessionDir, path: &str| -> anyhow::Result<Vec<SessionFile>> {
        Ok(vec![SessionFile {
            dir,
            path: PathBuf::from(path),
            contents: serde_json::to_vec_pretty(&settings::settings_json(hook))?,
        }])
    };
    let mut p = Placement {
        settings: extra.clone(),
        files: Vec::new(),
        args: Vec::new(),
        setting_sources: None,
        target: hook.target.clone(),
        aliases: Vec::new(),
        skill: None,
    };
    match arm.source {
        HookSource::SettingsFlag | HookSource::GithubHooks | HookSource::AugmentUnflagged => {
            p.settings = settings::settings_json(hook);
            settings::merge(&mut p.settings, &extra);
        }
        HookSource::Project => {
            p.files = in_file(SessionDir::Work, ".claude/settings.json")?;
            p.setting_sources = Some(PROJECT_SOURCES);
        }
        HookSource::Local => {
            p.files = in_file(SessionDir::Work, ".claude/settings.local.json")?;
            p.setting_sources = Some(PROJECT_SOURCES);
        }
        HookSource::User => p.files = in_file(SessionDir::Home, ".claude/settings.json")?,
        HookSource::Plugin => {
            let target = write_plugin(arm, hook, guards, plugin_dir)
                .with_context(|| format!("writing the plugin in {}", plugin_dir.display()))?;
            let root = plugin_dir.to_string_lossy();
            p.aliases = vec![target.label().replace(PLUGIN_ROOT_VAR, &root)];
            p.target = target;
            p.args = vec!["--plugin-dir".into(), root.into_owned()];
        }
        HookSource::Skill => {
            p.files = vec![SessionFile {
                dir: SessionDir::Home,
                path: PathBuf::from(format!(".claude/skills/{SKILL_NAME}/SKILL.md")),
                contents: skill_md(&settings::hooks_json(hook)).into_bytes(),
            }];
            p.skill = Some(SKILL_NAME);
        }
        // The hook goes in the subagent's frontmatter (`route::files`); the settings hold none.
        HookSource::Subagent => {}
    }
    Ok(p)
}

/// Write a plugin whose `hooks/hooks.json` holds `hook`; a script guard is
/// copied into `hooks/` and named through `${CLAUDE_PLUGIN_ROOT}`. Returns
/// the hook's target as written.
fn write_plugin(arm: &Arm, hook: &HookSpec, guards: &GuardDir, dir: &Path) -> anyhow::Result<HookTarget> {
    let hooks_dir = dir.join("hooks");
    std::fs::create_dir_all(&hooks_dir)?;
    std::fs::create_dir_all(dir.join(".claude-plugin"))?;
    let manifest = json!({"name": PLUGIN_NAME, "version": "0.0.0",
        "description": "failopen: the guard under test, loaded as a plugin's hook"});
    std::fs::write(dir.join(".claude-plugin/plugin.json"), serde_json::to_vec_pretty(&manifest)?)?;
    let mut target = hook.target.clone();
    if let (GuardKind::Script { file, body, executable }, HookTarget::Command(command)) = (arm.guard.kind, &target) {
        let copy = hooks_dir.join(file);
        std::fs::write(&copy, body)?;
        std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(if executable { 0o755 } else { 0o644 }))?;
        let original = guards.root().join(file).to_string_lossy().into_owned();
        target = HookTarget::Command(command.replace(&original, &format!("{PLUGIN_ROOT_VAR}/hooks/{file}")));
    }
    let spec = HookSpec { target: target.clone(), ..hook.clone() };
    std::fs::write(
        dir.join("hooks/hooks.json"),
        serde_json::to_vec_pretty(&json!({"hooks": settings::hooks_json(&spec)}))?,
    )?;
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arm(source: &str, guard: &str) -> Arm {
        let text = format!(r#"{{"arms": [{{"guard": "{guard}", "wrapper": "bare", "source": "{source}"}}]}}"#);
        crate::arms::parse(&text, "t.json").unwrap().remove(0)
    }

    fn setup() -> (tempfile::TempDir, GuardDir, HookSpec) {
        let tmp = tempfile::tempdir().unwrap();
        let guards = GuardDir::create(&tmp.path().join("guards")).unwrap();
        let cmd = guards.root().join("deny.sh").to_string_lossy().into_owned();
        let hook = HookSpec::pre_tool_use(HookTarget::Command(cmd), 5.0, false);
        (tmp, guards, hook)
    }

    #[test]
    fn settings_flag_keeps_todays_layout() {
        let (tmp, guards, hook) = setup();
        let p = place(&arm("settings-flag", "deny"), &hook, &guards, &tmp.path().join("p")).unwrap();
        assert_eq!(p.settings, settings::settings_json(&hook));
        assert!(p.files.is_empty() && p.args.is_empty() && p.setting_sources.is_none() && p.aliases.is_empty());
        assert!(!tmp.path().join("p").exists());
    }

    #[test]
    fn project_local_and_user_files_hold_the_hook_and_settings_hold_none() {
        let (tmp, guards, hook) = setup();
        for (source, dir, path, sources) in [
            ("project", SessionDir::Work, ".claude/settings.json", Some("user,project,local")),
            ("local", SessionDir::Work, ".claude/settings.local.json", Some("user,project,local")),
            ("user", SessionDir::Home, ".claude/settings.json", None),
        ] {
            let p = place(&arm(source, "deny"), &hook, &guards, &tmp.path().join("p")).unwrap();
            assert_eq!(p.settings, json!({}), "{source}");
            assert_eq!(p.setting_sources, sources, "{source}");
            assert_eq!(p.files.len(), 1);
            assert_eq!((p.files[0].dir, p.files[0].path.to_str().unwrap()), (dir, path));
            let written: Value = serde_json::from_slice(&p.files[0].contents).unwrap();
            assert_eq!(written, settings::settings_json(&hook));
        }
    }

    #[test]
    fn a_plugin_carries_its_own_copy_of_the_guard() {
        let (tmp, guards, hook) = setup();
        let dir = tmp.path().join("plugin");
        let p = place(&arm("plugin", "deny"), &hook, &guards, &dir).unwrap();
        assert_eq!(p.target, HookTarget::Command("${CLAUDE_PLUGIN_ROOT}/hooks/deny.sh".into()));
        assert_eq!(p.aliases, [format!("{}/hooks/deny.sh", dir.display())]);
        assert_eq!(p.args, ["--plugin-dir".to_string(), dir.to_string_lossy().into_owned()]);
        let hooks: Value = serde_json::from_slice(&std::fs::read(dir.join("hooks/hooks.json")).unwrap()).unwrap();
        assert_eq!(hooks["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "${CLAUDE_PLUGIN_ROOT}/hooks/deny.sh");
        let mode = std::fs::metadata(dir.join("hooks/deny.sh")).unwrap().permissions().mode();
        assert_eq!(mode & 0o111, 0o111);
        assert!(dir.join(".claude-plugin/plugin.json").exists());
    }

    #[test]
    fn a_skill_carries_the_hook_in_its_frontmatter() {
        let (tmp, guards, hook) = setup();
        let p = place(&arm("skill", "deny"), &hook, &guards, &tmp.path().join("p")).unwrap();
        assert_eq!(p.skill, Some(SKILL_NAME));
        let md = String::from_utf8(p.files[0].contents.clone()).unwrap();
        let hooks_line = md.lines().find_map(|l| l.strip_prefix("hooks: ")).unwrap();
        let hooks: Value = serde_json::from_str(hooks_line).unwrap();
        assert_eq!(hooks, settings::hooks_json(&hook));
        assert!(md.starts_with("---\nname: failopen-guarded\n"), "{md}");
        assert_eq!(p.files[0].dir, SessionDir::Home);
    }

    #[test]
    fn a_subagent_source_leaves_the_hook_out_of_the_settings() {
        let (tmp, guards, hook) = setup();
        let p = place(&arm("subagent", "deny"), &hook, &guards, &tmp.path().join("p")).unwrap();
        assert_eq!(p.settings, json!({}), "the frontmatter holds it (run::route::files)");
        assert!(p.files.is_empty() && p.args.is_empty() && p.skill.is_none());
    }
}
