//! Installed plugins, found the way Claude Code finds them: `enabledPlugins`
//! in each settings scope (user, project, local, managed: a later scope
//! overrides an earlier one), resolved through
//! `~/.claude/plugins/installed_plugins.json` to the install path, whose
//! `hooks/hooks.json` and the `hooks` of `.claude-plugin/plugin.json` hold
//! its hooks (`${CLAUDE_PLUGIN_ROOT}` is the install path). A plugin set to
//! `false`, not installed, or whose install path is missing is listed as not
//! loaded, with the reason.

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::Value;

use super::config::SettingsFile;

/// One plugin named in `enabledPlugins`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PluginStatus {
    /// `name@marketplace`.
    pub name: String,
    /// The settings file whose `enabledPlugins` decided (the last scope naming it).
    pub enabled_in: PathBuf,
    /// Where it is installed, per `installed_plugins.json`.
    pub install_path: Option<PathBuf>,
    /// Whether Claude Code loads it.
    pub loaded: bool,
    /// Why not, or which hooks files it brings.
    pub reason: String,
    /// Its hooks files, when loaded (`hooks/hooks.json`, or `plugin.json` for inline hooks).
    pub hooks_files: Vec<PathBuf>,
}

/// The registry of installed plugins under `home`.
pub fn registry_path(home: &Path) -> PathBuf {
    home.join(".claude/plugins/installed_plugins.json")
}

/// The plugins `scopes` enable (in order: user, project, local, managed),
/// resolved under `home`, for the project `cwd`.
pub fn find(scopes: &[SettingsFile], home: Option<&Path>, cwd: &Path) -> Vec<PluginStatus> {
    let mut named: Vec<(String, bool, PathBuf)> = Vec::new();
    for f in scopes {
        let Some(map) = f.value.get("enabledPlugins").and_then(Value::as_object) else { continue };
        for (name, on) in map {
            let on = on.as_bool().unwrap_or(false);
            match named.iter_mut().find(|n| n.0 == *name) {
                Some(n) => *n = (name.clone(), on, f.path.clone()),
                None => named.push((name.clone(), on, f.path.clone())),
            }
        }
    }
    let registry: Option<Value> =
        home.map(registry_path).and_then(|p| std::fs::read(p).ok()).and_then(|b| serde_json::from_slice(&b).ok());
    named.into_iter().map(|(name, on, file)| status(name, on, file, registry.as_ref(), home, cwd)).collect()
}

fn status(
    name: String,
    on: bool,
    file: PathBuf,
    registry: Option<&Value>,
    home: Option<&Path>,
    cwd: &Path,
) -> PluginStatus {
    let mut s = PluginStatus {
        name,
        enabled_in: file,
        install_path: None,
        loaded: false,
        reason: String::new(),
        hooks_files: vec![],
    };
    if !on {
        s.reason = format!("set to false in {}", s.enabled_in.display());
        return s;
    }
    let entries = registry.and_then(|r| r.pointer("/plugins").and_then(|p| p.get(&s.name))).and_then(Value::as_array);
    let Some(entries) = entries else {
        let at = home.map(|h| registry_path(h).display().to_string()).unwrap_or_else(|| "(no HOME)".into());
        s.reason = format!("enabled, but not installed: not in {at}");
        return s;
    };
    // A project-scoped install names its project; the user-scoped one applies everywhere.
    let entry = entries
        .iter()
        .find(|e| e.get("projectPath").and_then(Value::as_str).is_some_and(|p| Path::new(p) == cwd))
        .or_else(|| entries.iter().find(|e| e.get("projectPath").is_none()))
        .or(entries.first());
    let Some(path) = entry.and_then(|e| e.get("installPath")).and_then(Value::as_str).map(PathBuf::from) else {
        s.reason = "enabled, but its installed_plugins.json entry has no installPath".into();
        return s;
    };
    s.install_path = Some(path.clone());
    if !path.is_dir() {
        s.reason = format!("enabled, but its install path {} is missing", path.display());
        return s;
    }
    s.loaded = true;
    if path.join("hooks/hooks.json").is_file() {
        s.hooks_files.push(path.join("hooks/hooks.json"));
    }
    let manifest = path.join(".claude-plugin/plugin.json");
    let inline: Option<Value> = std::fs::read(&manifest).ok().and_then(|b| serde_json::from_slice(&b).ok());
    match inline.as_ref().and_then(|m| m.get("hooks")) {
        Some(Value::String(rel)) => {
            let rel = rel.replace(super::sources::PLUGIN_ROOT_VAR, &path.to_string_lossy());
            let p = path.join(rel.trim_start_matches("./"));
            if !s.hooks_files.contains(&p) {
                s.hooks_files.push(p);
            }
        }
        Some(Value::Object(_)) => s.hooks_files.push(manifest),
        _ => {}
    }
    s.reason = if s.hooks_files.is_empty() { "loaded; no hooks".into() } else { "loaded".into() };
    s
}

/// A loaded plugin's hooks file as a settings file: `${CLAUDE_PLUGIN_ROOT}`
/// is its install path; inline `hooks` of a `plugin.json` are read as
/// `{"hooks": ...}`.
pub fn hooks_settings(root: &Path, file: &Path, project_dir: PathBuf) -> anyhow::Result<SettingsFile> {
    let mut f = super::config::load(file, project_dir)?;
    if file.ends_with(".claude-plugin/plugin.json") {
        f.value = serde_json::json!({"hooks": f.value.get("hooks").cloned().unwrap_or(Value::Null)});
    }
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    super::sources::put_in(&mut f.value, &root.to_string_lossy());
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn scope(path: &str, value: Value) -> SettingsFile {
        SettingsFile { path: path.into(), project_dir: "/p".into(), value, managed: false }
    }

    #[test]
    fn enabled_plugins_resolve_through_the_registry_or_say_why_not() {
        let d = tempfile::tempdir().unwrap();
        let home = d.path();
        let install = home.join(".claude/plugins/cache/m/guard/1.0.0");
        std::fs::create_dir_all(install.join("hooks")).unwrap();
        std::fs::write(install.join("hooks/hooks.json"), "{}").unwrap();
        let registry = json!({"version": 2, "plugins": {
            "guard@m": [{"scope": "user", "installPath": install}],
            "gone@m": [{"scope": "user", "installPath": home.join("nope")}]}});
        std::fs::create_dir_all(home.join(".claude/plugins")).unwrap();
        std::fs::write(registry_path(home), registry.to_string()).unwrap();
        let scopes = [
            scope(
                "user.json",
                json!({"enabledPlugins": {"guard@m": true, "off@m": true, "gone@m": true, "absent@m": true}}),
            ),
            scope("project.json", json!({"enabledPlugins": {"off@m": false}})),
        ];
        let found = find(&scopes, Some(home), Path::new("/p"));
        let by = |n: &str| found.iter().find(|p| p.name == n).unwrap();
        assert!(by("guard@m").loaded);
        assert_eq!(by("guard@m").hooks_files, [install.join("hooks/hooks.json")]);
        assert!(!by("off@m").loaded && by("off@m").reason == "set to false in project.json", "{:?}", by("off@m"));
        assert!(by("gone@m").reason.contains("install path") && by("gone@m").reason.ends_with("is missing"));
        assert!(by("absent@m").reason.contains("not installed"));
    }
}
