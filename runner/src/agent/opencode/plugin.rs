//! The guard an OpenCode arm puts under test: a JS plugin from
//! `guards/opencode/` (embedded), named in the session's settings (the
//! battery's lingua franca) as a hook entry of type `plugin` whose
//! `callback` is `opencode-<plugin>` (a plugin's `tool.execute.before` is a
//! callback in OpenCode's own process), with `sealed` (the seal's deadline
//! in seconds) under the `sealed` wrapper. Bare, the plugin goes into
//! `.opencode/plugins/`; sealed, failopen's sealed plugin goes there and the
//! guard beside it in `.opencode/failopen-guard/`, where only the seal loads it.
//! A fork's config directory (Kilo's `.kilo/`) takes `.opencode/`'s place
//! ([`Flavour::project_dir`]).

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::flavour::Flavour;

/// The prefix of an OpenCode plugin's behaviour name (`opencode-deny`).
pub const PREFIX: &str = "opencode-";

/// Every guard plugin by its file's stem: the arms' `opencode-<stem>`.
pub const PLUGINS: [(&str, &str); 11] = [
    ("allow", include_str!("../../../guards/opencode/allow.js")),
    ("deny", include_str!("../../../guards/opencode/deny.js")),
    ("reject", include_str!("../../../guards/opencode/reject.js")),
    ("throw-string", include_str!("../../../guards/opencode/throw-string.js")),
    ("crash", include_str!("../../../guards/opencode/crash.js")),
    ("hang", include_str!("../../../guards/opencode/hang.js")),
    ("wrong-shape", include_str!("../../../guards/opencode/wrong-shape.js")),
    ("syntax-error", include_str!("../../../guards/opencode/syntax-error.js")),
    ("missing-dependency", include_str!("../../../guards/opencode/missing-dependency.js")),
    ("factory-throws", include_str!("../../../guards/opencode/factory-throws.js")),
    ("not-a-plugin", include_str!("../../../guards/opencode/not-a-plugin.js")),
];

/// failopen's sealed plugin: the file users copy (its deadline is 3000 ms).
pub const SEALED: &str = include_str!("../../../guards/opencode/sealed.js");

/// The line of [`SEALED`] that holds its deadline.
const SEALED_DEADLINE_LINE: &str = "const DEADLINE_MS = 3000;";

/// Where the guard goes bare, in the project's config directory (a plugin
/// OpenCode loads).
pub const BARE_PATH: &str = "plugins/guard.js";
/// Where the sealed plugin goes (a plugin OpenCode loads).
pub const SEAL_PATH: &str = "plugins/failopen-seal.js";
/// Where the guard goes sealed (outside `plugins/`: only the seal loads it,
/// from `../failopen-guard/guard.js` beside itself).
pub const SEALED_GUARD_PATH: &str = "failopen-guard/guard.js";

/// What the arm asks: which plugin, and whether (with what deadline) sealed.
#[derive(Debug, Clone, PartialEq)]
pub struct PluginAsk {
    /// The plugin's stem (`deny`).
    pub stem: &'static str,
    /// Its text.
    pub body: &'static str,
    /// Inside the sealed plugin with this deadline, in milliseconds.
    pub sealed_deadline_ms: Option<u64>,
}

/// The hook entry keys an OpenCode session honours or drops: `timeout` has
/// no OpenCode meaning (a plugin has none) and is dropped.
const KNOWN_KEYS: [&str; 4] = ["type", "callback", "timeout", "sealed"];

/// The one plugin of `settings`, when its only hook is a PreToolUse entry of
/// type `plugin` naming an OpenCode plugin; else the row's
/// `unsupported:<reason>`, in the flavour's words.
pub fn read(flavour: &Flavour, settings: &Value) -> Result<PluginAsk, &'static str> {
    let why = &flavour.reasons;
    if settings.as_object().is_some_and(|o| o.keys().any(|k| k != "hooks")) {
        return Err(why.settings);
    }
    let events = settings.get("hooks").and_then(Value::as_object);
    let entries: Vec<(&String, &Value)> = events
        .into_iter()
        .flatten()
        .flat_map(|(event, groups)| {
            let hooks = groups.as_array().into_iter().flatten().filter_map(|g| g.get("hooks")?.as_array());
            hooks.flatten().map(move |entry| (event, entry))
        })
        .collect();
    let [(event, entry)] = entries.as_slice() else { return Err(why.hooks) };
    if *event != "PreToolUse" {
        return Err(why.event);
    }
    let behaviour = match (entry["type"].as_str(), entry["callback"].as_str()) {
        (Some("plugin"), Some(b)) => b,
        _ => return Err(why.not_a_plugin),
    };
    let Some((stem, body)) = behaviour.strip_prefix(PREFIX).and_then(|s| PLUGINS.iter().find(|(n, _)| *n == s)) else {
        return Err(why.not_a_plugin);
    };
    if entry.as_object().is_some_and(|o| o.keys().any(|k| !KNOWN_KEYS.contains(&k.as_str()))) {
        return Err(why.hook_key);
    }
    let sealed_deadline_ms = entry["sealed"].as_f64().map(|s| (s * 1000.0).round() as u64);
    Ok(PluginAsk { stem, body, sealed_deadline_ms })
}

/// The sealed plugin with a deadline of `ms`.
pub fn sealed_plugin(ms: u64) -> String {
    SEALED.replacen(SEALED_DEADLINE_LINE, &format!("const DEADLINE_MS = {ms};"), 1)
}

/// The files the arm's plugin becomes, relative to the work directory (in
/// the flavour's project config directory, `.opencode/`).
pub fn files(flavour: &Flavour, ask: &PluginAsk) -> Vec<(PathBuf, String)> {
    let dir = Path::new(flavour.project_dir);
    match ask.sealed_deadline_ms {
        None => vec![(dir.join(BARE_PATH), ask.body.to_string())],
        Some(ms) => vec![(dir.join(SEAL_PATH), sealed_plugin(ms)), (dir.join(SEALED_GUARD_PATH), ask.body.to_string())],
    }
}

/// Write the arm's plugin files under `work`, and a copy of each in
/// `evidence` (`<flavour id>-<file name>`, `opencode-guard.js`) for the record.
pub fn place(flavour: &Flavour, ask: &PluginAsk, work: &Path, evidence: &Path) -> std::io::Result<()> {
    for (path, text) in files(flavour, ask) {
        let at = work.join(&path);
        std::fs::create_dir_all(at.parent().unwrap_or(work))?;
        std::fs::write(&at, &text)?;
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        std::fs::write(evidence.join(format!("{}-{name}", flavour.id)), &text)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::opencode::config::FLAVOUR;
    use serde_json::json;

    fn read(settings: &Value) -> Result<PluginAsk, &'static str> {
        super::read(&FLAVOUR, settings)
    }

    fn files(ask: &PluginAsk) -> Vec<(PathBuf, String)> {
        super::files(&FLAVOUR, ask)
    }

    fn settings(entry: Value) -> Value {
        json!({"hooks": {"PreToolUse": [{"matcher": "Bash|Write", "hooks": [entry]}]}})
    }

    #[test]
    fn reads_the_plugin_bare_and_sealed_and_names_what_it_cannot_run() {
        let bare = read(&settings(json!({"type": "plugin", "callback": "opencode-deny", "timeout": 5}))).unwrap();
        assert_eq!((bare.stem, bare.sealed_deadline_ms), ("deny", None));
        assert_eq!(files(&bare), [(PathBuf::from(".opencode/plugins/guard.js"), PLUGINS[1].1.to_string())]);
        let sealed = read(&settings(json!({"type": "plugin", "callback": "opencode-hang", "sealed": 2.5}))).unwrap();
        assert_eq!(sealed.sealed_deadline_ms, Some(2500));
        let placed = files(&sealed);
        assert_eq!(placed[0].0, PathBuf::from(".opencode/plugins/failopen-seal.js"));
        assert!(placed[0].1.contains("const DEADLINE_MS = 2500;") && !placed[0].1.contains("= 3000;"));
        assert_eq!(placed[1], (PathBuf::from(".opencode/failopen-guard/guard.js"), PLUGINS[5].1.to_string()));
        let sdk = settings(json!({"type": "callback", "callback": "throw"}));
        assert_eq!(read(&sdk), Err("opencode-not-a-plugin-guard"));
        let command = settings(json!({"type": "command", "command": "/g/deny.sh"}));
        assert_eq!(read(&command), Err("opencode-not-a-plugin-guard"));
        let native = settings(json!({"type": "plugin", "callback": "opencode-deny", "onFailure": "block"}));
        assert_eq!(read(&native), Err("opencode-hook-key"));
        assert_eq!(read(&json!({"hooks": {}, "env": {}})), Err("opencode-settings"));
        assert_eq!(read(&json!({"hooks": {}})), Err("opencode-hooks"));
    }

    #[test]
    fn every_plugin_traces_and_the_seal_keeps_its_deadline_line() {
        for (stem, body) in PLUGINS {
            assert!(body.contains("FAILOPEN_TRACE"), "{stem}");
        }
        assert!(SEALED.contains(SEALED_DEADLINE_LINE) && SEALED.contains("FAILOPEN_TRACE"));
    }
}
