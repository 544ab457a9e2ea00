//! The plugins of OpenCode and its forks (Kilo CLI) as audit reads them:
//! each `*.js`/`*.ts` in the project's `<dir>/plugins/` (or `<dir>/plugin/`;
//! `.opencode/`, `.kilo/`), and each `plugin` entry of the project's config
//! file (`opencode.json`, `kilo.json`). A plugin is a JS module in the
//! agent's own process, not a command, so each is listed as one hook of
//! type `plugin` without a matcher (its `tool.execute.before` sees every
//! tool), and what can be seen without running it is said in
//! [`HookConfig::notes`]: a plugin that fails to load is dropped silently,
//! a hook that never throws refuses nothing, a hang has no timeout, an
//! import that is not installed beside it (docs/opencode.md). With a
//! binary of the agent, audit also runs each plugin module in sessions,
//! as written and under the faults that fit a plugin
//! ([`super::audit_plugin`], `audit/probe/plugin_faults.rs`); an npm plugin
//! of the config file is not installed, so it stays `untested`.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::flavour::Flavour;
use crate::agent::hook_config::{self, kind, ConfigNote, HookConfig, HookConfigError, NoteLevel};

/// The hook type a plugin is listed as.
pub const PLUGIN: &str = "plugin";

/// The hook types these agents run that audit lists: plugins.
const PLUGIN_ONLY: [&str; 1] = [PLUGIN];

/// The plugin directories under a config directory that OpenCode loads.
const PLUGIN_DIRS: [&str; 2] = ["plugins", "plugin"];

/// The file extensions of a plugin module.
const PLUGIN_EXTENSIONS: [&str; 4] = ["js", "ts", "mjs", "mts"];

/// What marks failopen's own sealed plugin (`guards/opencode/sealed.js`),
/// which refuses a guard that fails to load, hangs or returns.
const SEALED_MARK: &str = "failopen's sealed plugin";

/// The plugin hook config of one member of the OpenCode family.
pub struct PluginHookConfig {
    /// Whose names it reads by.
    pub flavour: &'static Flavour,
    /// The letter its hook ids start with (`O1`, `K1`).
    pub id_prefix: &'static str,
    /// The flag that names its version (`--opencode`).
    pub version_flag: &'static str,
}

impl PluginHookConfig {
    fn is_config_file(&self, path: &Path) -> bool {
        let stem = self.flavour.config_file.trim_end_matches(".json");
        path.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n == format!("{stem}.json") || n == format!("{stem}.jsonc"))
    }

    fn is_plugin_file(&self, path: &Path) -> bool {
        let mut up = path.ancestors().skip(1).map(Path::file_name);
        path.extension().and_then(|e| e.to_str()).is_some_and(|e| PLUGIN_EXTENSIONS.contains(&e))
            && up.next().flatten().and_then(|d| d.to_str()).is_some_and(|d| PLUGIN_DIRS.contains(&d))
            && up.next().flatten().is_some_and(|d| d == self.flavour.project_dir)
    }
}

impl HookConfig for PluginHookConfig {
    /// A plugin module in `<dir>/plugins/`, or the config file.
    fn owns_path(&self, path: &Path) -> bool {
        self.is_plugin_file(path) || self.is_config_file(path)
    }

    /// The project's plugin modules, in name order, then its config file
    /// when it has a `plugin` key.
    fn default_paths(&self, cwd: &Path, read: &dyn Fn(&Path) -> Option<String>) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for dir in PLUGIN_DIRS {
            let Ok(entries) = std::fs::read_dir(cwd.join(self.flavour.project_dir).join(dir)) else { continue };
            let mut files: Vec<PathBuf> = entries
                .filter_map(|e| Some(e.ok()?.path()))
                .filter(|p| p.is_file() && self.is_plugin_file(p))
                .collect();
            files.sort();
            out.extend(files);
        }
        let config = cwd.join(self.flavour.config_file);
        if read(&config).is_some_and(|t| t.contains("\"plugin\"")) {
            out.push(config);
        }
        out
    }

    /// A plugin module: one hook `{type: "plugin", path}`; the config file:
    /// one per `plugin` entry, `{type: "plugin", plugin: NAME}`.
    fn read_groups(&self, path: &Path, text: &str) -> Result<Vec<Value>, HookConfigError> {
        if !self.is_config_file(path) {
            let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
            return Ok(vec![json!({"hooks": [{"type": PLUGIN, "path": abs}]})]);
        }
        let value = hook_config::parse_json(text)?;
        let hooks = match value.get("plugin") {
            None => Vec::new(),
            Some(Value::Array(names)) => names
                .iter()
                .enumerate()
                .map(|(i, n)| match n.as_str() {
                    Some(name) => Ok(json!({"type": PLUGIN, "plugin": name})),
                    None => Err(HookConfigError::Shape(format!(
                        "field plugin[{i}] is {}: it must be a string (an npm package or a file:// path)",
                        kind(n)
                    ))),
                })
                .collect::<Result<_, _>>()?,
            Some(other) => {
                return Err(HookConfigError::Shape(format!(
                    "field plugin is {}: it must be an array of plugin names",
                    kind(other)
                )))
            }
        };
        Ok(hooks.into_iter().map(|h| json!({"hooks": [h]})).collect())
    }

    fn id_prefix(&self) -> &'static str {
        self.id_prefix
    }

    fn session_layer(&self) -> &'static str {
        "(a copy of the plugin in the project's config directory, between audit's observer plugins)"
    }

    fn version_flag(&self) -> &'static str {
        self.version_flag
    }

    /// A config file's `plugin[N]`; a plugin module is the hook itself.
    fn entry_location(&self, path: &Path, group: usize, _index: usize) -> Option<String> {
        Some(match self.is_config_file(path) {
            true => format!("plugin[{group}]"),
            false => "(plugin module)".into(),
        })
    }

    fn hook_types(&self) -> &'static [&'static str] {
        &PLUGIN_ONLY
    }

    /// What can be seen of each plugin without running it.
    fn notes(&self, path: &Path, text: &str) -> Vec<ConfigNote> {
        let name = self.flavour.display_name;
        if self.is_config_file(path) {
            let value: Value = serde_json::from_str(text).unwrap_or(Value::Null);
            let names = value.get("plugin").and_then(Value::as_array).into_iter().flatten();
            return names
                .enumerate()
                .map(|(g, n)| (g, n.as_str().unwrap_or_default()))
                .map(|(g, n)| ConfigNote {
                    hook: Some((g, 0)),
                    level: NoteLevel::Warning,
                    code: "plugin-dropped-if-not-installed",
                    message: format!(
                        "{name} installs the plugin {n} at start; if that fails (offline, a typo, a registry error) or \
                         it fails to load, {name} drops it silently and runs every call unguarded"
                    ),
                })
                .collect();
        }
        plugin_file_notes(name, path, text)
    }
}

/// What can be seen of one plugin module's text.
fn plugin_file_notes(name: &str, path: &Path, text: &str) -> Vec<ConfigNote> {
    let note = |level, code, message: String| ConfigNote { hook: Some((0, 0)), level, code, message };
    if text.contains(SEALED_MARK) {
        return vec![note(
            NoteLevel::Info,
            "plugin-sealed",
            "failopen's sealed plugin: it refuses the call when the guard it loads fails to load, throws no refusal \
             in time, or returns a value"
                .into(),
        )];
    }
    if !text.contains("tool.execute.before") {
        return vec![note(
            NoteLevel::Info,
            "plugin-no-before-hook",
            "no tool.execute.before hook: it sees no tool call before it runs, so it guards none".into(),
        )];
    }
    let mut out = vec![note(
        NoteLevel::Warning,
        "plugin-dropped-on-load-failure",
        format!(
            "if this plugin fails to load (a syntax error, a missing dependency, a factory that throws, no plugin \
             export), {name} drops it silently and runs every call unguarded (measured: docs/opencode.md); wrap it \
             with failopen's sealed plugin (guards/opencode/sealed.js), which refuses instead"
        ),
    )];
    if !text.contains("throw") && !text.contains("reject") {
        out.push(note(
            NoteLevel::Warning,
            "plugin-never-throws",
            format!(
                "its tool.execute.before never throws: {name} refuses a call only when the hook throws or rejects, \
                 and ignores a returned value (a deny object included), so it refuses nothing as written"
            ),
        ));
    }
    out.push(note(
        NoteLevel::Warning,
        "plugin-no-timeout",
        format!("{name} waits on a plugin's hook for ever: a hook that hangs stalls the run with no timeout"),
    ));
    for dep in missing_dependencies(path, text) {
        out.push(note(
            NoteLevel::Warning,
            "plugin-dependency-missing",
            format!(
                "it imports {dep}, which is in no node_modules above it nor in its config directory's package.json: \
                 if {name} cannot resolve it, the plugin is dropped silently"
            ),
        ));
    }
    out
}

/// The bare package names `text` imports (`import ... from "x"`,
/// `import("x")`, `require("x")`) that no `node_modules` above `path`
/// holds and no `package.json` beside its plugin directory lists.
fn missing_dependencies(path: &Path, text: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for marker in ["from ", "import(", "require("] {
        for (i, _) in text.match_indices(marker) {
            let rest = text[i + marker.len()..].trim_start();
            let Some(quote) = rest.chars().next().filter(|c| matches!(c, '"' | '\'' | '`')) else { continue };
            let Some(end) = rest[1..].find(quote) else { continue };
            let spec = &rest[1..1 + end];
            if spec.is_empty() || spec.starts_with('.') || spec.starts_with('/') || spec.contains(':') {
                continue;
            }
            let mut parts = spec.split('/');
            let package = match (spec.starts_with('@'), parts.next(), parts.next()) {
                (true, Some(scope), Some(name)) => format!("{scope}/{name}"),
                (_, Some(first), _) => first.to_string(),
                _ => continue,
            };
            if !names.contains(&package) {
                names.push(package);
            }
        }
    }
    let listed = path
        .parent()
        .and_then(Path::parent)
        .and_then(|dir| std::fs::read_to_string(dir.join("package.json")).ok())
        .unwrap_or_default();
    names
        .into_iter()
        .filter(|n| !listed.contains(&format!("\"{n}\"")))
        .filter(|n| !path.ancestors().skip(1).any(|dir| dir.join("node_modules").join(n).exists()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::opencode::config::FLAVOUR as OPENCODE;

    const CONFIG: PluginHookConfig =
        PluginHookConfig { flavour: &OPENCODE, id_prefix: "O", version_flag: "--opencode" };

    #[test]
    fn plugins_and_the_config_file_are_found_and_listed_as_plugin_hooks() {
        let d = tempfile::tempdir().unwrap();
        let plugins = d.path().join(".opencode/plugins");
        std::fs::create_dir_all(&plugins).unwrap();
        std::fs::write(plugins.join("guard.js"), "export const G = async () => ({})").unwrap();
        std::fs::write(plugins.join("notes.md"), "x").unwrap();
        std::fs::write(d.path().join("opencode.json"), r#"{"plugin": ["opencode-guard"]}"#).unwrap();
        let read = |p: &Path| std::fs::read_to_string(p).ok();
        let found = CONFIG.default_paths(d.path(), &read);
        assert_eq!(found, [plugins.join("guard.js"), d.path().join("opencode.json")]);
        assert!(found.iter().all(|p| CONFIG.owns_path(p)));
        assert!(!CONFIG.owns_path(Path::new("/p/.kilo/plugins/guard.js")));
        let groups = CONFIG.read_groups(&found[0], "").unwrap();
        assert_eq!(groups[0]["hooks"][0]["type"], PLUGIN);
        assert!(groups[0].get("matcher").is_none());
        let groups = CONFIG.read_groups(&found[1], r#"{"plugin": ["a", "b"]}"#).unwrap();
        assert_eq!((groups.len(), groups[1]["hooks"][0]["plugin"].as_str()), (2, Some("b")));
    }

    #[test]
    fn a_malformed_plugin_list_names_the_field() {
        let p = Path::new("/p/opencode.json");
        let HookConfigError::Shape(m) = CONFIG.read_groups(p, r#"{"plugin": "x"}"#).unwrap_err() else { panic!() };
        assert!(m.contains("field plugin") && m.contains("array"), "{m}");
        let HookConfigError::Shape(m) = CONFIG.read_groups(p, r#"{"plugin": [3]}"#).unwrap_err() else { panic!() };
        assert!(m.contains("plugin[0]") && m.contains("string"), "{m}");
        assert!(matches!(CONFIG.read_groups(p, "{"), Err(HookConfigError::Parse { .. })));
    }

    #[test]
    fn what_a_plugin_shows_without_running_is_noted() {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join(".opencode/plugins/guard.js");
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        let returns = r#"import x from "left-pad"; export const G = async () => ({"tool.execute.before": async () => ({deny: true})})"#;
        let codes: Vec<&str> = plugin_file_notes("OpenCode", &file, returns).iter().map(|n| n.code).collect();
        assert_eq!(
            codes,
            ["plugin-dropped-on-load-failure", "plugin-never-throws", "plugin-no-timeout", "plugin-dependency-missing"]
        );
        std::fs::create_dir_all(d.path().join("node_modules/left-pad")).unwrap();
        let throws = returns.replace("({deny: true})", "{ throw new Error('no') }");
        let codes: Vec<&str> = plugin_file_notes("OpenCode", &file, &throws).iter().map(|n| n.code).collect();
        assert_eq!(codes, ["plugin-dropped-on-load-failure", "plugin-no-timeout"]);
        let sealed = include_str!("../../../guards/opencode/sealed.js");
        assert_eq!(plugin_file_notes("OpenCode", &file, sealed)[0].code, "plugin-sealed");
        assert_eq!(plugin_file_notes("OpenCode", &file, "export {}")[0].code, "plugin-no-before-hook");
    }
}
