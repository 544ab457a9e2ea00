//! Installed plugins, found the way Claude Code finds them: `enabledPlugins`
//! in each settings scope (user, project, local, managed: a later scope
//! overrides an earlier one), resolved through
//! `~/.claude/plugins/installed_plugins.json` to the install path, whose
//! `hooks/hooks.json` and the `hooks` of `.claude-plugin/plugin.json` hold
//! its hooks (`${CLAUDE_PLUGIN_ROOT}` is the install path). A plugin set to
//! `false`, not installed, or whose install path is missing is listed as not
//! loaded, with the reason.
//!
//! A plugin of a `directory` marketplace (`claude plugin marketplace add
//! ./dir`) is run from its source directory, not from the cache copy the
//! registry names: measured on Claude Code 2.1.328, its hook's
//! `CLAUDE_PLUGIN_ROOT` is `<marketplace dir>/<plugin source>`
//! ([`runs_from`]).

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
    /// The directory Claude Code runs it from (its `CLAUDE_PLUGIN_ROOT`):
    /// the install path, or a directory marketplace's source directory.
    pub runs_from: Option<PathBuf>,
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
        runs_from: None,
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
    let path = home.and_then(|h| runs_from(h, &s.name)).unwrap_or(path);
    s.runs_from = Some(path.clone());
    if !path.is_dir() {
        s.reason = format!("enabled, but its install path {} is missing", path.display());
        return s;
    }
    s.loaded = true;
    s.hooks_files = hooks_files(&path);
    s.reason = if s.hooks_files.is_empty() { "loaded; no hooks".into() } else { "loaded".into() };
    s
}

/// The source directory of `name@marketplace` when its marketplace is a
/// `directory` one (`known_marketplaces.json` under `home`), as its
/// `marketplace.json` names it: Claude Code runs the plugin from there.
pub fn runs_from(home: &Path, name: &str) -> Option<PathBuf> {
    let (plugin, market) = name.rsplit_once('@')?;
    let known: Value =
        serde_json::from_slice(&std::fs::read(home.join(".claude/plugins/known_marketplaces.json")).ok()?).ok()?;
    let m = known.get(market)?;
    if m.pointer("/source/source").and_then(Value::as_str) != Some("directory") {
        return None;
    }
    let dir = m.get("installLocation").or_else(|| m.pointer("/source/path")).and_then(Value::as_str)?;
    let dir = PathBuf::from(dir);
    let listing: Value =
        serde_json::from_slice(&std::fs::read(dir.join(".claude-plugin/marketplace.json")).ok()?).ok()?;
    let entry =
        listing.get("plugins")?.as_array()?.iter().find(|p| p.get("name").and_then(Value::as_str) == Some(plugin))?;
    let source = entry.get("source")?.as_str()?;
    let root = listing.pointer("/metadata/pluginRoot").and_then(Value::as_str).filter(|_| !source.starts_with("./"));
    let at = match root {
        Some(r) => dir.join(r).join(source),
        None => dir.join(source),
    };
    at.is_dir().then(|| at.canonicalize().unwrap_or(at))
}

/// `CLAUDE_PLUGIN_DATA` for the plugin `name@marketplace` (or a
/// `--plugin-dir` plugin's manifest name, whose marketplace is `inline`).
pub fn data_dir(home: &Path, name: &str) -> PathBuf {
    let id = match name.rsplit_once('@') {
        Some((plugin, market)) => format!("{plugin}-{market}"),
        None => format!("{name}-inline"),
    };
    home.join(".claude/plugins/data").join(id)
}

/// The hooks files of the plugin at `root`: `hooks/hooks.json`, and what
/// the `hooks` of its `.claude-plugin/plugin.json` names: a path (from the
/// plugin root; `${CLAUDE_PLUGIN_ROOT}` is it), inline hooks (the manifest
/// itself), or an array of either, which Claude Code 2.1.328 loads too.
pub fn hooks_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    if root.join("hooks/hooks.json").is_file() {
        out.push(root.join("hooks/hooks.json"));
    }
    let manifest = root.join(".claude-plugin/plugin.json");
    let inline: Option<Value> = std::fs::read(&manifest).ok().and_then(|b| serde_json::from_slice(&b).ok());
    let items: Vec<&Value> = match inline.as_ref().and_then(|m| m.get("hooks")) {
        Some(Value::Array(items)) => items.iter().collect(),
        Some(item) => vec![item],
        None => vec![],
    };
    for item in items {
        let p = match item {
            Value::String(rel) => {
                let rel = rel.replace(super::sources::PLUGIN_ROOT_VAR, &root.to_string_lossy());
                root.join(rel.trim_start_matches("./"))
            }
            Value::Object(_) => manifest.clone(),
            _ => continue,
        };
        if !out.contains(&p) {
            out.push(p);
        }
    }
    out
}

/// The hooks of a plugin directory given with `--plugin-dir`, one settings
/// file per hooks file ([`hooks_files`]), with its root put in.
pub fn plugin_dir_hooks(dir: &Path, project_dir: PathBuf, home: Option<&Path>) -> anyhow::Result<Vec<SettingsFile>> {
    let name = manifest_name(dir).unwrap_or_else(|| dir.file_name().unwrap_or_default().to_string_lossy().into_owned());
    let data = home.map(|h| data_dir(h, &name));
    hooks_files(dir).iter().map(|f| hooks_settings(dir, f, project_dir.clone(), data.clone())).collect()
}

/// The `name` in a plugin's `.claude-plugin/plugin.json`.
fn manifest_name(dir: &Path) -> Option<String> {
    let m: Value = serde_json::from_slice(&std::fs::read(dir.join(".claude-plugin/plugin.json")).ok()?).ok()?;
    m.get("name").and_then(Value::as_str).map(str::to_string)
}

/// A loaded plugin's hooks file as a settings file: `${CLAUDE_PLUGIN_ROOT}`
/// is its install path; inline `hooks` of a `plugin.json` are read as
/// `{"hooks": ...}`.
pub fn hooks_settings(
    root: &Path,
    file: &Path,
    project_dir: PathBuf,
    data: Option<PathBuf>,
) -> anyhow::Result<SettingsFile> {
    let mut f = super::config::load(file, project_dir)?;
    if file.ends_with(".claude-plugin/plugin.json") {
        f.value = serde_json::json!({"hooks": inline_hooks(f.value.get("hooks"))});
    }
    let root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
    super::sources::put_in(&mut f.value, &root.to_string_lossy());
    f.plugin = Some(super::config::PluginRun { root, data });
    Ok(f)
}

/// A manifest's inline hooks as one event map: an object is one; in an
/// array, the objects' events are joined in order (paths are their own files).
fn inline_hooks(hooks: Option<&Value>) -> Value {
    match hooks {
        Some(Value::Array(items)) => {
            let mut events = serde_json::Map::new();
            for (event, groups) in items.iter().filter_map(Value::as_object).flatten() {
                let joined = events.entry(event.clone()).or_insert_with(|| Value::Array(vec![]));
                match (joined, groups) {
                    (Value::Array(all), Value::Array(more)) => all.extend(more.iter().cloned()),
                    (slot, other) => *slot = other.clone(),
                }
            }
            Value::Object(events)
        }
        Some(Value::String(_)) | None => Value::Null,
        Some(other) => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn scope(path: &str, value: Value) -> SettingsFile {
        SettingsFile { path: path.into(), project_dir: "/p".into(), value, managed: false, plugin: None }
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
    #[test]
    fn a_directory_marketplaces_plugin_runs_from_its_source_not_the_cache() {
        let d = tempfile::tempdir().unwrap();
        let (home, market) = (d.path().join("home"), d.path().join("mkt"));
        let (source, cache) = (market.join("plugins/plug"), home.join(".claude/plugins/cache/mkt/plug/0.0.1"));
        for dir in [source.join("hooks"), cache.join("hooks"), market.join(".claude-plugin")] {
            std::fs::create_dir_all(dir).unwrap();
        }
        std::fs::write(source.join("hooks/hooks.json"), "{}").unwrap();
        std::fs::write(cache.join("hooks/hooks.json"), "{}").unwrap();
        std::fs::write(
            market.join(".claude-plugin/marketplace.json"),
            json!({"name": "mkt", "plugins": [{"name": "plug", "source": "./plugins/plug"}]}).to_string(),
        )
        .unwrap();
        // As `claude plugin marketplace add DIR; claude plugin install plug@mkt` wrote them (2.1.328).
        std::fs::write(
            home.join(".claude/plugins/known_marketplaces.json"),
            json!({"mkt": {"source": {"source": "directory", "path": market}, "installLocation": market}}).to_string(),
        )
        .unwrap();
        std::fs::write(
            registry_path(&home),
            json!({"version": 2, "plugins": {"plug@mkt": [{"scope": "user", "installPath": cache}]}}).to_string(),
        )
        .unwrap();
        let found =
            find(&[scope("user.json", json!({"enabledPlugins": {"plug@mkt": true}}))], Some(&home), Path::new("/p"));
        let source = source.canonicalize().unwrap();
        assert_eq!(found[0].runs_from.as_deref(), Some(source.as_path()));
        assert_eq!(found[0].hooks_files, [source.join("hooks/hooks.json")]);
        assert_eq!(
            found[0].install_path.as_deref(),
            Some(cache.as_path()),
            "the registry's path is kept, for the report"
        );
        assert_eq!(data_dir(&home, "plug@mkt"), home.join(".claude/plugins/data/plug-mkt"));
        assert_eq!(data_dir(&home, "plugd"), home.join(".claude/plugins/data/plugd-inline"));
        // A marketplace that is no directory one (GitHub): the install path.
        std::fs::write(
            home.join(".claude/plugins/known_marketplaces.json"),
            json!({"mkt": {"source": {"source": "github", "repo": "o/r"}, "installLocation": market}}).to_string(),
        )
        .unwrap();
        assert_eq!(runs_from(&home, "plug@mkt"), None);
    }

    #[test]
    fn a_plugins_root_is_put_in() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join("hooks")).unwrap();
        let hooks = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "command", "command": "\"${CLAUDE_PLUGIN_ROOT}\"/hooks/g.sh --x", "timeout": 5}]}]}});
        std::fs::write(d.path().join("hooks/hooks.json"), hooks.to_string()).unwrap();
        let f = plugin_dir_hooks(d.path(), "/p".into(), None).unwrap().remove(0);
        let root = d.path().canonicalize().unwrap();
        let cmd = f.value.pointer("/hooks/PreToolUse/0/hooks/0/command").unwrap().as_str().unwrap();
        assert_eq!(cmd, format!("\"{}\"/hooks/g.sh --x", root.display()));
        assert!(plugin_dir_hooks(&d.path().join("none"), "/p".into(), None).unwrap().is_empty());
    }

    #[test]
    fn a_manifest_may_list_its_hooks_files_and_inline_hooks_in_an_array() {
        let d = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(d.path().join(".claude-plugin")).unwrap();
        std::fs::create_dir_all(d.path().join("extra")).unwrap();
        let group = |c: &str| json!([{"matcher": "Bash", "hooks": [{"type": "command", "command": c}]}]);
        std::fs::write(d.path().join("extra/a.json"), json!({"hooks": {"PreToolUse": group("a")}}).to_string())
            .unwrap();
        let manifest =
            json!({"name": "g", "hooks": ["./extra/a.json", {"PreToolUse": group("b")}, {"PreToolUse": group("c")}]});
        std::fs::write(d.path().join(".claude-plugin/plugin.json"), manifest.to_string()).unwrap();
        let files = plugin_dir_hooks(d.path(), "/p".into(), None).unwrap();
        assert_eq!(files.len(), 2, "{files:?}");
        let commands: Vec<String> = super::super::config::entries(&files)
            .into_iter()
            .map(|e| e.raw["command"].as_str().unwrap().to_string())
            .collect();
        assert_eq!(commands, ["a", "b", "c"]);
    }
}
