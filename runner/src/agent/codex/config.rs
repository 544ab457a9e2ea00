//! The files a Codex session starts from, in its own `CODEX_HOME`:
//! `config.toml` (the stand-in as a custom model provider speaking the
//! Responses API, and nothing that reaches for the network) and
//! `hooks.json` (the arm's hook). Measured on 0.149.0 and 0.171.0
//! (docs/codex.md).

use serde_json::{json, Value};

/// The model named on the command line: a slug both measured releases know,
/// so that Codex offers its real tool set (an unknown slug drops the
/// `apply_patch` tool).
pub const MODEL: &str = "gpt-5.5";

/// The environment variable that carries the stand-in's key (`env_key`).
pub const KEY_ENV: &str = "FAILOPEN_STANDIN_KEY";

/// The matcher that covers the two tools Codex writes a file with, by the
/// names its hooks see: `Bash` (its `exec_command` tool) and `apply_patch`.
pub const WRITE_MATCHER: &str = "Bash|apply_patch";

/// The tools Codex writes a file with, by the names its hooks see.
pub const WRITE_TOOLS: [&str; 2] = ["Bash", "apply_patch"];

/// `config.toml` for a session whose model is the stand-in at `base_url`
/// (`http://127.0.0.1:PORT/s/<session>/v1`): no retries (a stand-in error
/// is final), no update check, analytics, plugins or apps.
pub fn config_toml(base_url: &str) -> String {
    format!(
        r#"model = "{MODEL}"
model_provider = "failopen"
check_for_update_on_startup = false

[model_providers.failopen]
name = "failopen stand-in"
base_url = "{base_url}"
wire_api = "responses"
env_key = "{KEY_ENV}"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false

[features]
plugins = false
apps = false
remote_plugin = false
"#
    )
}

/// Codex's `hooks.json` for an arm whose Claude Code settings are
/// `settings`: the same `hooks` object (Codex reads Claude Code's shape:
/// event, `matcher`, `hooks` of `{type, command, timeout}`, and ignores keys it
/// does not know, such as `onFailure`), with the battery's matcher (Claude
/// Code's write tools) replaced by [`WRITE_MATCHER`].
pub fn hooks_json(settings: &Value) -> Value {
    let mut hooks = settings.get("hooks").cloned().unwrap_or_else(|| json!({}));
    let battery = crate::task::matcher();
    if let Some(events) = hooks.as_object_mut() {
        for groups in events.values_mut().filter_map(Value::as_array_mut) {
            for group in groups.iter_mut() {
                if group.get("matcher").and_then(Value::as_str) == Some(battery.as_str()) {
                    group["matcher"] = json!(WRITE_MATCHER);
                }
            }
        }
    }
    json!({ "hooks": hooks })
}

/// The system config layers Codex reads (`/etc/codex/config.toml`,
/// `requirements.toml`, `managed_config.toml`: their paths are in the
/// 0.171.0 binary) that exist on this machine and mention hooks. A hook
/// from one of them may run beside the hook under test, so a refusal that
/// names no hook can no longer be tied to it.
pub fn system_layers_with_hooks() -> Vec<std::path::PathBuf> {
    SYSTEM_LAYERS
        .iter()
        .map(std::path::PathBuf::from)
        .filter(|p| std::fs::read_to_string(p).is_ok_and(|text| text.contains("hooks")))
        .collect()
}

/// Where Codex looks for system-wide config.
const SYSTEM_LAYERS: [&str; 3] =
    ["/etc/codex/config.toml", "/etc/codex/requirements.toml", "/etc/codex/managed_config.toml"];

/// Whether every hook in the settings is a `command` hook, the only type
/// Codex runs (it skips `prompt` and `agent` hooks with a warning, and has
/// no `http` or `mcp_tool` hooks).
pub fn only_command_hooks(settings: &Value) -> bool {
    let handlers = settings["hooks"]
        .as_object()
        .into_iter()
        .flat_map(|events| events.values())
        .filter_map(Value::as_array)
        .flatten()
        .filter_map(|group| group["hooks"].as_array())
        .flatten();
    handlers.into_iter().all(|h| h["type"].as_str().is_none_or(|t| t == "command"))
}

/// Whether an arm's Claude Code settings hold anything but hooks, which a
/// Codex session could not honour (permission rules, say).
pub fn has_more_than_hooks(settings: &Value) -> bool {
    settings.as_object().is_some_and(|o| o.keys().any(|k| k != "hooks"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_battery_matcher_becomes_codexs_and_the_rest_is_kept() {
        let settings = json!({"hooks": {"PreToolUse": [
            {"matcher": crate::task::matcher(), "hooks": [{"type": "command", "command": "/g/deny.sh", "timeout": 5, "onFailure": "block"}]},
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "/g/other.sh"}]}
        ]}});
        let h = hooks_json(&settings);
        assert_eq!(h["hooks"]["PreToolUse"][0]["matcher"], WRITE_MATCHER);
        assert_eq!(h["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "/g/deny.sh");
        assert_eq!(h["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"], 5);
        assert_eq!(h["hooks"]["PreToolUse"][1]["matcher"], "Bash");
        assert!(!has_more_than_hooks(&settings));
        assert!(only_command_hooks(&settings));
        assert!(!only_command_hooks(&json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "http", "url": "u"}]}]}})));
        assert!(has_more_than_hooks(&json!({"hooks": {}, "permissions": {"deny": ["Bash"]}})));
    }

    #[test]
    fn the_config_points_at_the_stand_in() {
        let c = config_toml("http://127.0.0.1:9/s/x/v1");
        let parsed: toml::Value = toml::from_str(&c).unwrap();
        assert_eq!(parsed["model_providers"]["failopen"]["base_url"].as_str(), Some("http://127.0.0.1:9/s/x/v1"));
        assert_eq!(parsed["model_providers"]["failopen"]["wire_api"].as_str(), Some("responses"));
    }
}
