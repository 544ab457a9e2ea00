//! What a Continue CLI session starts from: its config (`local.yaml`, one
//! `openai` chat model whose `apiBase` is the stand-in), the arm's hooks in
//! Continue's own user settings file (`$HOME/.continue/settings.json`, in
//! Claude Code's shape, which Continue reads as it is), the environment
//! (telemetry off) and the headless command line. Read off the published
//! 1.5.45 and 1.5.47 (`src/hooks/hookConfig.ts`, `hookRunner.ts`,
//! `permissions/defaultPolicies.ts`, `telemetry/telemetryService.ts`) and
//! checked in sessions: docs/continue.md.
//!
//! Continue loads hooks from six files, merged, all running:
//! `~/.claude/settings.json`, `$CONTINUE_GLOBAL_DIR/settings.json` (default
//! `~/.continue/`), then the project's `.claude/settings.json`,
//! `.continue/settings.json`, `.claude/settings.local.json` and
//! `.continue/settings.local.json`. The battery's source (`settings-flag`)
//! is Continue's own user file; `user`, `project` and `local` are Claude
//! Code's files, which the run has placed already.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::surface::HookSource;

/// The model id in the config (any name: the stand-in answers every model).
pub const MODEL: &str = "failopen-stand-in";

/// The event under which Continue's guards would veto a tool call: Claude Code's.
pub const EVENT: &str = "PreToolUse";

/// Continue's tools that write a file, by the names its hooks would see:
/// Claude Code's names (`src/tools/builtInToolNames.ts`).
pub const WRITE_TOOLS: [&str; 4] = ["Bash", "Write", "Edit", "MultiEdit"];

/// How long Continue waits for a command hook with no `timeout`:
/// `DEFAULT_COMMAND_TIMEOUT_SECONDS = 600` (`hookRunner.ts`).
pub const DEFAULT_TIMEOUT_SECS: f64 = 600.0;

/// The keys of a Claude Code settings file Continue reads: `hooks`, and
/// `disableAllHooks`.
const READ_KEYS: [&str; 2] = ["hooks", "disableAllHooks"];

/// The config file's name in the session's HOME.
pub const CONFIG_FILE: &str = "failopen-continue.yaml";

/// The config (`--config`): one chat model through Continue's `openai`
/// provider at the stand-in (`base_url`: `http://127.0.0.1:PORT/s/<session>`;
/// Continue posts to `<apiBase>chat/completions`).
pub fn config_yaml(base_url: &str) -> String {
    let api_base = format!("{}/v1/", base_url.trim_end_matches('/'));
    format!(
        "name: failopen\nversion: 1.0.0\nschema: v1\nmodels:\n  - name: stand-in\n    provider: openai\n    model: {MODEL}\n    apiBase: {api_base}\n    apiKey: {}\n    roles:\n      - chat\n",
        crate::agent::driver::STAND_IN_API_KEY
    )
}

/// The settings file for an arm's Claude Code `settings`: its `hooks` as
/// they are (Continue reads Claude Code's shape, `timeout` in seconds; a
/// `prompt` or `agent` hook it skips, `onFailure` it has no key for).
pub fn settings_json(settings: &Value) -> Value {
    let mut out = json!({});
    for key in READ_KEYS {
        if let Some(v) = settings.get(key) {
            out[key] = v.clone();
        }
    }
    out
}

/// Where the session writes the arm's settings for `source`, under `home`:
/// Continue's own user file for the battery's source; `None` for Claude
/// Code's files (the run placed them) and for sources Continue does not read.
pub fn settings_path(source: HookSource, home: &Path) -> Option<PathBuf> {
    (source == HookSource::SettingsFlag).then(|| home.join(".continue/settings.json"))
}

/// The sources a Continue session reads the hook from.
pub fn reads(source: HookSource) -> bool {
    matches!(source, HookSource::SettingsFlag | HookSource::User | HookSource::Project | HookSource::Local)
}

/// What of an arm's Claude Code settings a Continue session does not
/// honour: every key but those it reads (a permission rule, an `env`).
pub fn not_carried(settings: &Value) -> Vec<String> {
    let keys = settings.as_object().into_iter().flat_map(|o| o.keys());
    keys.filter(|k| !READ_KEYS.contains(&k.as_str())).map(|k| format!("setting {k}")).collect()
}

/// The environment a session adds: Continue's user directory in the
/// session's HOME, and its metrics and telemetry off.
pub fn env(home: &Path) -> Vec<(String, String)> {
    vec![
        ("CONTINUE_GLOBAL_DIR".into(), home.join(".continue").to_string_lossy().into_owned()),
        ("CONTINUE_METRICS_ENABLED".into(), "0".into()),
        ("CONTINUE_CLI_ENABLE_TELEMETRY".into(), "0".into()),
    ]
}

/// The headless command line after the binary: print mode, every tool
/// allowed (`--auto`: in `-p` Continue's default policy asks before
/// `Write`, `Edit` and `MultiEdit`, and no one answers, so a refusal of its
/// own would stand in the hook's way), debug logging to
/// `~/.continue/logs/cn.log` (which says `Hooks loaded: N handler(s)`), the
/// config, then the prompt.
pub fn args(config: &Path, prompt: &str) -> Vec<String> {
    vec![
        "-p".into(),
        "--auto".into(),
        "--verbose".into(),
        "--config".into(),
        config.to_string_lossy().into_owned(),
        prompt.into(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_keep_claude_codes_hooks_as_they_are() {
        let settings = json!({"hooks": {"PreToolUse": [{"matcher": crate::task::matcher(),
            "hooks": [{"type": "command", "command": "/g/deny.sh", "timeout": 5, "onFailure": "block"}]}]}});
        assert_eq!(settings_json(&settings), settings);
        assert!(not_carried(&settings).is_empty());
        let with_rule = json!({"permissions": {"deny": ["Bash"]}, "hooks": {}});
        assert_eq!(not_carried(&with_rule), ["setting permissions"]);
        assert_eq!(settings_json(&with_rule), json!({"hooks": {}}));
    }

    #[test]
    fn the_battery_source_is_continues_own_user_file_and_claude_codes_are_placed() {
        let home = Path::new("/h");
        assert_eq!(settings_path(HookSource::SettingsFlag, home), Some(PathBuf::from("/h/.continue/settings.json")));
        assert_eq!(settings_path(HookSource::Project, home), None);
        assert!(reads(HookSource::User) && reads(HookSource::Local));
        assert!(!reads(HookSource::Plugin) && !reads(HookSource::GithubHooks));
    }

    #[test]
    fn the_config_points_an_openai_model_at_the_stand_in() {
        let yaml = config_yaml("http://127.0.0.1:9/s/x/");
        assert!(yaml.contains("provider: openai"), "{yaml}");
        assert!(yaml.contains("apiBase: http://127.0.0.1:9/s/x/v1/"), "{yaml}");
        let args = args(Path::new("/h/c.yaml"), "go");
        assert!(args.windows(2).any(|w| w == ["--config", "/h/c.yaml"]));
        assert!(args.contains(&"--auto".to_string()) && args.last().map(String::as_str) == Some("go"));
    }
}
