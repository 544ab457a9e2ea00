//! What a Qwen Code session starts from: the user settings file
//! (`$HOME/.qwen/settings.json`: statistics and telemetry off, and the
//! arm's hook in Claude Code's shape), the environment that points the CLI
//! at the stand-in's Gemini API face, and the headless command line.
//! Measured on 0.15.6 and 0.24.4 (docs/qwen.md).
//!
//! The hooks go in the user scope: a project's `.qwen/settings.json` hooks
//! load only in a trusted folder (docs/qwen.md), while the user's always do.

use serde_json::{json, Value};

/// The model named with `-m` (any name: the stand-in answers every model).
pub const MODEL: &str = "gemini-2.5-flash";

/// The value of `GEMINI_API_KEY`: any value will do, the stand-in takes any.
pub const API_KEY: &str = crate::agent::driver::STAND_IN_API_KEY;

/// The matcher that covers the tools Qwen Code writes a file with, by the
/// names its hooks see. Qwen tests a matcher as an unanchored regex
/// (`new RegExp(matcher).test(toolName)`, as Gemini CLI), so it is anchored.
pub const WRITE_MATCHER: &str = "^(run_shell_command|write_file|edit)$";

/// The tools Qwen Code writes a file with, by the names its hooks see.
pub const WRITE_TOOLS: [&str; 3] = ["run_shell_command", "write_file", "edit"];

/// The event under which Qwen Code's guards veto a tool call: Claude Code's.
pub const EVENT: &str = "PreToolUse";

/// How long Qwen Code waits for a command hook with no `timeout`: 60 s on
/// both measured versions (0.15.6: `DEFAULT_HOOK_TIMEOUT = 6e4` ms; 0.24.4:
/// `DEFAULT_COMMAND_HOOK_TIMEOUT_SECONDS = 60`).
pub const DEFAULT_TIMEOUT_SECS: f64 = 60.0;

/// The keys of one command hook that are carried over as they are
/// (`timeout` is carried too, in milliseconds). Claude Code's `onFailure`
/// has no Qwen meaning and is dropped.
const HOOK_KEYS: [&str; 3] = ["type", "command", "name"];

/// The user `settings.json` for an arm whose Claude Code settings are
/// `settings`: usage statistics and telemetry off, and the arm's hooks
/// ([`hooks`]).
pub fn settings_json(settings: &Value) -> Value {
    json!({
        "privacy": {"usageStatisticsEnabled": false},
        "telemetry": {"enabled": false},
        "hooks": hooks(settings),
    })
}

/// The `hooks` object for Claude Code `settings`: PreToolUse groups as they
/// are (Qwen reads Claude Code's shape), with the battery's matcher (Claude
/// Code's write tools) replaced by [`WRITE_MATCHER`] (any other matcher is
/// kept as written), command hooks only, and each `timeout` converted from
/// Claude Code's seconds to milliseconds: 0.15.6 reads every value as
/// milliseconds, 0.24.4 reads a value of 1000 or more as milliseconds, so a
/// timeout of a second or more means the same on both.
pub fn hooks(settings: &Value) -> Value {
    hooks_matching(settings, WRITE_MATCHER)
}

/// [`hooks`] for another agent that reads Claude Code's shape with
/// timeouts in milliseconds (Auggie CLI): the battery's matcher replaced by
/// `write_matcher`, the agent's own names for its write tools.
pub fn hooks_matching(settings: &Value, write_matcher: &str) -> Value {
    let Some(groups) = settings.pointer("/hooks/PreToolUse").and_then(Value::as_array) else { return json!({}) };
    json!({ EVENT: crate::agent::gemini::config::command_groups(groups, write_matcher, hook_entry) })
}

/// One command hook in Qwen's shape: Gemini CLI's, without `description`.
fn hook_entry(hook: &Value) -> Value {
    crate::agent::gemini::config::hook_entry_keeping(hook, &HOOK_KEYS)
}

/// What of an arm's Claude Code settings a Qwen session does not honour,
/// one phrase each: keys other than `hooks`, events other than PreToolUse,
/// hooks that are not commands, a `timeout` that is not a number of a second
/// or more (0.15.6 and 0.24.4 read it differently), and hook keys that are
/// dropped. Empty when the session runs the arm's hook as written.
pub fn not_carried(settings: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for key in settings.as_object().into_iter().flat_map(|o| o.keys()).filter(|k| *k != "hooks") {
        out.push(format!("setting {key}"));
    }
    let events = settings.get("hooks").and_then(Value::as_object).into_iter().flatten();
    for (event, groups) in events {
        if event != EVENT {
            out.push(format!("event {event}"));
            continue;
        }
        // Gemini's command_groups writes a matcher that is not a string as "" (every tool): not the arm's.
        if groups.as_array().into_iter().flatten().any(|g| g.get("matcher").is_some_and(|m| !m.is_string())) {
            out.push(format!("{event} matcher not a string"));
        }
        let hooks = groups.as_array().into_iter().flatten().filter_map(|g| g.get("hooks")?.as_array()).flatten();
        for hook in hooks {
            match hook.get("type").and_then(Value::as_str) {
                Some("command") => {
                    let keys = hook.as_object().into_iter().flat_map(|o| o.keys());
                    for key in keys.filter(|k| !HOOK_KEYS.contains(&k.as_str()) && *k != "timeout") {
                        out.push(format!("{event} hook key {key}"));
                    }
                    match hook.get("timeout") {
                        None => {}
                        Some(t) if t.as_f64().is_some_and(|s| s >= 1.0) => {}
                        Some(_) => out.push(format!("{event} hook timeout")),
                    }
                }
                other => out.push(format!("{event} hook of type {}", other.unwrap_or("(none)"))),
            }
        }
    }
    out.dedup();
    out
}

/// Whether a phrase of [`not_carried`] still lets the session run the arm's
/// hook as written: only a dropped `onFailure`, which makes a `native` arm
/// a bare one (Qwen has no such option).
pub fn is_dropped_key(what: &str) -> bool {
    what.ends_with(" hook key onFailure")
}

/// Qwen Code's system-wide settings files (`/etc/qwen-code/settings.json`,
/// or the files `QWEN_CODE_SYSTEM_SETTINGS_PATH` and
/// `QWEN_CODE_SYSTEM_DEFAULTS_PATH` name) that exist on this machine and
/// mention hooks: a hook from one of them may run beside the hook under test.
pub fn system_settings_with_hooks() -> Vec<std::path::PathBuf> {
    let mut paths: Vec<std::path::PathBuf> = vec!["/etc/qwen-code/settings.json".into()];
    for var in ["QWEN_CODE_SYSTEM_SETTINGS_PATH", "QWEN_CODE_SYSTEM_DEFAULTS_PATH"] {
        paths.extend(std::env::var_os(var).map(Into::into));
    }
    paths.retain(|p| std::fs::read_to_string(p).is_ok_and(|text| text.contains("hooks")));
    paths
}

/// The environment a session adds for the stand-in at `base_url`
/// (`http://127.0.0.1:PORT/s/<session>`; the SDK appends
/// `/v1beta/models/<model>:<method>`): the base URL, an API key, and the
/// `--yolo` warning silenced (it goes to stderr on every run).
pub fn env(base_url: &str) -> Vec<(String, String)> {
    [("GOOGLE_GEMINI_BASE_URL", base_url), ("GEMINI_API_KEY", API_KEY), ("QWEN_CODE_SUPPRESS_YOLO_WARNING", "1")]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The headless command line after the binary, before the prompt (which
/// the caller adds as the positional query): the Gemini API as the model's
/// protocol, [`MODEL`], one JSON event a line, every tool call approved.
/// Both measured versions take them.
pub fn args() -> Vec<&'static str> {
    vec!["--auth-type", "gemini", "-m", MODEL, "--output-format", "stream-json", "--yolo"]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_battery_hook_stays_a_pre_tool_use_hook_in_milliseconds() {
        let settings = json!({"hooks": {"PreToolUse": [
            {"matcher": crate::task::matcher(), "hooks": [{"type": "command", "command": "/g/deny.sh", "timeout": 5, "onFailure": "block"}]},
            {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "/g/other.sh"}]}
        ]}});
        let s = settings_json(&settings);
        let groups = &s["hooks"]["PreToolUse"];
        assert_eq!(groups[0]["matcher"], WRITE_MATCHER);
        assert_eq!(groups[0]["hooks"][0], json!({"type": "command", "command": "/g/deny.sh", "timeout": 5000}));
        assert_eq!(groups[1]["matcher"], "run_shell_command");
        assert!(groups[1]["hooks"][0].get("timeout").is_none());
        assert_eq!(s["privacy"]["usageStatisticsEnabled"], false);
        let lost = not_carried(&settings);
        assert_eq!(lost, ["PreToolUse hook key onFailure"]);
        assert!(lost.iter().all(|w| is_dropped_key(w)));
    }

    #[test]
    fn the_write_matcher_covers_qwens_write_tools_only() {
        let re = regex::Regex::new(WRITE_MATCHER).unwrap();
        for tool in WRITE_TOOLS {
            assert!(re.is_match(tool), "{tool}");
        }
        for tool in ["read_file", "mcp_x_write_file", "edit_all", "notebook_edit"] {
            assert!(!re.is_match(tool), "{tool}");
        }
    }

    #[test]
    fn what_qwen_cannot_honour_is_named() {
        let settings = json!({"permissions": {"deny": ["Bash"]}, "hooks": {
            "Stop": [{"hooks": [{"type": "command", "command": "x"}]}],
            "PreToolUse": [{"matcher": "*", "hooks": [{"type": "prompt", "prompt": "ok?"},
                {"type": "command", "command": "y", "timeout": "5"}]}]}});
        let mut got = not_carried(&settings);
        got.sort();
        assert_eq!(
            got,
            ["PreToolUse hook of type prompt", "PreToolUse hook timeout", "event Stop", "setting permissions"]
        );
        assert!(got.iter().all(|w| !is_dropped_key(w)));
    }

    #[test]
    fn env_and_args_point_at_the_stand_in_headless() {
        let env = env("http://127.0.0.1:9/s/x");
        assert!(env.contains(&("GOOGLE_GEMINI_BASE_URL".into(), "http://127.0.0.1:9/s/x".into())));
        assert!(env.iter().any(|(k, v)| k == "GEMINI_API_KEY" && !v.is_empty()));
        let args = args();
        assert!(args.windows(2).any(|w| w == ["--auth-type", "gemini"]));
        assert!(args.windows(2).any(|w| w == ["--output-format", "stream-json"]));
        assert!(args.contains(&"--yolo") && !args.contains(&"-p"));
    }
}
