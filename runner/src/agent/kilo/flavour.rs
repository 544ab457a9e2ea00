//! Kilo CLI's names for what OpenCode's sessions are made of: the project's
//! `.kilo/` (it also reads `.kilocode/`),
//! the user's `$XDG_CONFIG_HOME/kilo/`, `kilo.json`, the `KILO_*` variables
//! (OpenCode's `OPENCODE_*` renamed, and more: its telemetry, daemon,
//! presence and session-ingest services), `@kilocode/plugin`, which it
//! installs into each config directory at start as OpenCode does
//! `@opencode-ai/plugin`, and the platform package's binary. Read from the
//! 7.7.7 binary's strings and measured on 7.0.33 and 7.7.7 (docs/kilo.md).

use crate::agent::not_yet_run::NotYetRun;
use crate::agent::opencode::flavour::{Flavour, PluginReasons};

/// The variables that keep a session offline and to itself: no update
/// check, no models fetch, no built-in plugins, no sharing, no LSP
/// downloads, no Claude Code files (OpenCode's six, renamed), and Kilo's
/// own: no daemon (`kilo daemon`, which would outlive the session), no
/// telemetry, no presence or session-ingest service.
pub const OFFLINE_ENV: [(&str, &str); 10] = [
    ("KILO_DISABLE_AUTOUPDATE", "1"),
    ("KILO_DISABLE_MODELS_FETCH", "1"),
    ("KILO_DISABLE_DEFAULT_PLUGINS", "1"),
    ("KILO_DISABLE_SHARE", "1"),
    ("KILO_DISABLE_LSP_DOWNLOAD", "1"),
    ("KILO_DISABLE_CLAUDE_CODE", "1"),
    ("KILO_NO_DAEMON", "1"),
    ("KILO_TELEMETRY_LEVEL", "off"),
    ("KILO_DISABLE_PRESENCE", "1"),
    ("KILO_DISABLE_SESSION_INGEST", "1"),
];

/// Kilo CLI as an OpenCode [`Flavour`].
pub const FLAVOUR: Flavour = Flavour {
    display_name: "Kilo CLI",
    id: "kilo",
    project_dir: ".kilo",
    user_dir: "kilo",
    config_file: "kilo.json",
    schema: "https://app.kilo.ai/config.json",
    config_content_env: "KILO_CONFIG_CONTENT",
    offline_env: &OFFLINE_ENV,
    plugin_package: "@kilocode/plugin",
    native_binary: "@kilocode/cli-{platform}/bin/kilo",
    not_yet_run: NotYetRun {
        live_model: "kilo-live-model",
        interactive: "kilo-interactive",
        hook_source: "kilo-hook-source",
        route: "kilo-route",
    },
    reasons: PluginReasons {
        settings: "kilo-settings",
        hooks: "kilo-hooks",
        event: "kilo-event",
        not_a_plugin: "kilo-not-a-plugin-guard",
        hook_key: "kilo-hook-key",
    },
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::opencode::{config, plugin};
    use serde_json::json;
    use std::path::{Path, PathBuf};

    #[test]
    fn a_kilo_session_is_opencodes_under_kilos_names() {
        let c = config::config_json(&FLAVOUR, "http://127.0.0.1:9/s/k");
        assert_eq!(c["provider"]["standin"]["options"]["baseURL"], "http://127.0.0.1:9/s/k/v1");
        assert_eq!(c["$schema"], "https://app.kilo.ai/config.json");
        let dirs = config::config_dirs(&FLAVOUR, Path::new("/h"), Path::new("/w"));
        assert_eq!(dirs, [PathBuf::from("/w/.kilo"), PathBuf::from("/h/.config/kilo")]);
        let env = config::env(&FLAVOUR, Path::new("/h"));
        assert!(env.contains(&("KILO_NO_DAEMON".into(), "1".into())));
        assert!(!env.iter().any(|(k, _)| k.starts_with("OPENCODE_")));
        let bin = FLAVOUR.native_binary(Path::new("/v"));
        assert_eq!(bin, Path::new("/v/node_modules").join(format!("@kilocode/cli-{}/bin/kilo", config::platform())));
        let settings = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "plugin", "callback": "opencode-deny", "sealed": 2}]}]}});
        let ask = plugin::read(&FLAVOUR, &settings).unwrap();
        let files: Vec<PathBuf> = plugin::files(&FLAVOUR, &ask).into_iter().map(|(p, _)| p).collect();
        assert_eq!(
            files,
            [PathBuf::from(".kilo/plugins/failopen-seal.js"), PathBuf::from(".kilo/failopen-guard/guard.js")]
        );
        let command = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "/g.sh"}]}]}});
        assert_eq!(plugin::read(&FLAVOUR, &command), Err("kilo-not-a-plugin-guard"));
    }

    #[test]
    fn a_seeded_kilo_dir_names_kilos_plugin_package() {
        let dir = tempfile::tempdir().unwrap();
        config::seed_config_dir(&FLAVOUR, dir.path()).unwrap();
        let lock: serde_json::Value =
            serde_json::from_slice(&std::fs::read(dir.path().join("package-lock.json")).unwrap()).unwrap();
        assert_eq!(lock["packages"][""]["dependencies"]["@kilocode/plugin"], "*");
        assert!(dir.path().join("node_modules").is_dir());
    }
}
