//! What an OpenCode session starts from: XDG directories of its own under
//! the session's HOME, the variables that keep it offline, `opencode.json`
//! in the work directory with the stand-in as an `@ai-sdk/openai-compatible`
//! provider, both config directories seeded so that OpenCode does not start
//! an npm install of `@opencode-ai/plugin` (and wait for it) before loading
//! a plugin, and `opencode run --format json PROMPT`. Facts measured on
//! 1.17.18 and 1.18.33 (docs/opencode.md). The names a fork spells its own
//! way are a [`Flavour`]'s ([`FLAVOUR`] is OpenCode's).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::flavour::{Flavour, PluginReasons};
use crate::agent::not_yet_run::NotYetRun;

/// The hook point a guard plugin uses.
pub const EVENT: &str = "tool.execute.before";

/// OpenCode's tools that write a file, by the names its plugins see.
pub const WRITE_TOOLS: [&str; 3] = ["bash", "write", "edit"];

/// A matcher that covers [`WRITE_TOOLS`] (a plugin takes none: its hook
/// runs for every tool).
pub const WRITE_MATCHER: &str = "bash|write|edit";

/// The provider's id and the model's, in `opencode.json`.
pub const MODEL: &str = "standin/standin-model";

/// The variables that keep a session offline and to itself: no update
/// check, no models.dev fetch, no built-in plugins (its auth plugins would be
/// installed from npm), no sharing, no LSP downloads, no Claude Code files.
pub const OFFLINE_ENV: [(&str, &str); 6] = [
    ("OPENCODE_DISABLE_AUTOUPDATE", "1"),
    ("OPENCODE_DISABLE_MODELS_FETCH", "1"),
    ("OPENCODE_DISABLE_DEFAULT_PLUGINS", "1"),
    ("OPENCODE_DISABLE_SHARE", "1"),
    ("OPENCODE_DISABLE_LSP_DOWNLOAD", "1"),
    ("OPENCODE_DISABLE_CLAUDE_CODE", "1"),
];

/// OpenCode's names: `.opencode/`, `~/.config/opencode/`, `opencode.json`,
/// [`OFFLINE_ENV`], `@opencode-ai/plugin`, `opencode-linux-x64/bin/opencode`.
pub const FLAVOUR: Flavour = Flavour {
    display_name: "OpenCode",
    id: "opencode",
    project_dir: ".opencode",
    user_dir: "opencode",
    config_file: "opencode.json",
    schema: "https://opencode.ai/config.json",
    config_content_env: "OPENCODE_CONFIG_CONTENT",
    offline_env: &OFFLINE_ENV,
    plugin_package: "@opencode-ai/plugin",
    native_binary: "opencode-{platform}/bin/opencode",
    not_yet_run: NotYetRun {
        live_model: "opencode-live-model",
        interactive: "opencode-interactive",
        hook_source: "opencode-hook-source",
        route: "opencode-route",
    },
    reasons: PluginReasons {
        settings: "opencode-settings",
        hooks: "opencode-hooks",
        event: "opencode-event",
        not_a_plugin: "opencode-not-a-plugin-guard",
        hook_key: "opencode-hook-key",
    },
};

/// The session's XDG directories, under its HOME.
pub fn xdg_dirs(home: &Path) -> [(&'static str, PathBuf); 4] {
    [
        ("XDG_CONFIG_HOME", home.join(".config")),
        ("XDG_DATA_HOME", home.join(".local/share")),
        ("XDG_CACHE_HOME", home.join(".cache")),
        ("XDG_STATE_HOME", home.join(".local/state")),
    ]
}

/// The environment a session adds: its XDG directories and the flavour's
/// offline variables ([`OFFLINE_ENV`] for OpenCode).
pub fn env(flavour: &Flavour, home: &Path) -> Vec<(String, String)> {
    let xdg = xdg_dirs(home).into_iter().map(|(k, p)| (k.to_string(), p.to_string_lossy().into_owned()));
    xdg.chain(flavour.offline_env.iter().map(|(k, v)| (k.to_string(), v.to_string()))).collect()
}

/// The config file (`opencode.json`): the stand-in at `base_url` (the
/// session's URL; `/v1` added) as the only provider and model, edits and
/// shell allowed without asking, nothing shared or updated.
pub fn config_json(flavour: &Flavour, base_url: &str) -> Value {
    json!({
        "$schema": flavour.schema,
        "autoupdate": false,
        "share": "disabled",
        "model": MODEL,
        "permission": {"edit": "allow", "bash": "allow"},
        "provider": {"standin": {
            "npm": "@ai-sdk/openai-compatible",
            "name": "failopen stand-in",
            "options": {"baseURL": format!("{}/v1", base_url.trim_end_matches('/')),
                        "apiKey": crate::agent::driver::STAND_IN_API_KEY},
            "models": {"standin-model": {"name": "standin-model", "tool_call": true,
                                         "limit": {"context": 200000, "output": 8192}}}
        }}
    })
}

/// The config directories OpenCode installs `@opencode-ai/plugin` into at
/// start (and waits for): the project's `.opencode/` and the user's
/// (`$XDG_CONFIG_HOME/opencode`), by the flavour's names.
pub fn config_dirs(flavour: &Flavour, home: &Path, work: &Path) -> [PathBuf; 2] {
    [work.join(flavour.project_dir), home.join(".config").join(flavour.user_dir)]
}

/// Seed one config directory so that the dependency check finds it clean
/// (`node_modules/` and a lock naming every dependency of `package.json` and
/// the flavour's plugin package, `@opencode-ai/plugin`) and installs nothing.
pub fn seed_config_dir(flavour: &Flavour, dir: &Path) -> std::io::Result<()> {
    let deps = json!({flavour.plugin_package: "*"});
    std::fs::create_dir_all(dir.join("node_modules"))?;
    std::fs::write(dir.join("package.json"), serde_json::to_vec_pretty(&json!({"dependencies": deps}))?)?;
    let lock = json!({"lockfileVersion": 3, "packages": {"": {"dependencies": deps}}});
    std::fs::write(dir.join("package-lock.json"), serde_json::to_vec_pretty(&lock)?)
}

/// The headless command line after the binary.
pub fn args(prompt: &str) -> Vec<String> {
    vec!["run".into(), "--format".into(), "json".into(), prompt.into()]
}

/// The platform package's name part for this machine (`linux-x64`), as
/// `opencode-ai`'s optional dependencies spell it.
pub fn platform() -> String {
    let os = match std::env::consts::OS {
        "macos" => "darwin",
        "windows" => "windows",
        other => other,
    };
    let arch = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => other,
    };
    format!("{os}-{arch}")
}

/// The native binary of an install: `opencode-<platform>/bin/opencode` in
/// its `node_modules` (the `opencode` command of `opencode-ai` is a Node
/// launcher that finds and spawns this one).
pub fn native_binary(version_dir: &Path) -> PathBuf {
    FLAVOUR.native_binary(version_dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_points_at_the_stand_in_and_the_dirs_are_the_sessions() {
        let c = config_json(&FLAVOUR, "http://127.0.0.1:9/s/abc/");
        assert_eq!(c["provider"]["standin"]["options"]["baseURL"], "http://127.0.0.1:9/s/abc/v1");
        assert_eq!(c["model"], MODEL);
        assert_eq!(c["provider"]["standin"]["npm"], "@ai-sdk/openai-compatible");
        let e = env(&FLAVOUR, Path::new("/h"));
        assert!(e.contains(&("XDG_CONFIG_HOME".into(), "/h/.config".into())));
        assert!(e.contains(&("OPENCODE_DISABLE_DEFAULT_PLUGINS".into(), "1".into())));
        assert_eq!(config_dirs(&FLAVOUR, Path::new("/h"), Path::new("/w"))[1], Path::new("/h/.config/opencode"));
        let bin = native_binary(Path::new("/v"));
        assert_eq!(bin, Path::new("/v/node_modules").join(format!("opencode-{}/bin/opencode", platform())));
        assert_eq!(args("p"), ["run", "--format", "json", "p"]);
    }

    #[test]
    fn a_seeded_dir_holds_the_lock_opencode_checks() {
        let dir = tempfile::tempdir().unwrap();
        seed_config_dir(&FLAVOUR, dir.path()).unwrap();
        assert!(dir.path().join("node_modules").is_dir());
        let lock: Value =
            serde_json::from_slice(&std::fs::read(dir.path().join("package-lock.json")).unwrap()).unwrap();
        assert_eq!(lock["packages"][""]["dependencies"]["@opencode-ai/plugin"], "*");
    }
}
