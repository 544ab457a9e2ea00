//! What a Gemini CLI session starts from: the user settings file
//! (`$HOME/.gemini/settings.json`: API-key auth, nothing that reaches for
//! the network, and the arm's hook), the environment that points the CLI at
//! the stand-in, and the headless command line. Measured on 0.45.2 and
//! 0.61.0 (docs/gemini.md).
//!
//! The hooks go in the user scope on purpose: `--skip-trust` trusts the
//! working directory only after settings are loaded, so a project
//! `.gemini/settings.json` would be silently ignored (measured, both
//! versions), while user hooks run.

use serde_json::{json, Map, Value};

/// The model named with `-m`: any explicit model makes the CLI skip its
/// router (a classifier call before every turn when the model is `auto`).
pub const MODEL: &str = "gemini-2.5-flash";

/// The value of `GEMINI_API_KEY`: any value will do (it is sent to the
/// stand-in as `x-goog-api-key`), but without one the CLI exits 41.
pub const API_KEY: &str = "failopen-standin";

/// The matcher that covers the tools Gemini CLI writes a file with, by the
/// names its hooks see. Gemini tests a matcher as an unanchored regex
/// (`new RegExp(matcher).test(toolName)`), so it is anchored here.
pub const WRITE_MATCHER: &str = "^(run_shell_command|write_file|replace)$";

/// The tools Gemini CLI writes a file with, by the names its hooks see.
pub const WRITE_TOOLS: [&str; 3] = ["run_shell_command", "write_file", "replace"];

/// The event under which Gemini CLI's guards veto a tool call.
pub const EVENT: &str = "BeforeTool";

/// Claude Code's hook events and the Gemini CLI events that fire at the same
/// point; a hook under any other event is not carried over.
pub const EVENTS: [(&str, &str); 2] = [("PreToolUse", "BeforeTool"), ("PostToolUse", "AfterTool")];

/// The keys of one hook that Gemini CLI's settings schema knows and that are
/// carried over as they are (`timeout` is carried too, in milliseconds).
/// Anything else (Claude Code's `onFailure`, `async`, `statusMessage`) has
/// no Gemini meaning and is dropped.
const HOOK_KEYS: [&str; 4] = ["type", "command", "name", "description"];

/// The user `settings.json` for an arm whose Claude Code settings are
/// `settings`: API-key auth (headless mode exits 41 without it), usage
/// statistics off (no Clearcut lookups of play.googleapis.com), no
/// auto-update, the next-speaker check off (its default, made explicit), and
/// the arm's hooks in Gemini's shape ([`hooks`]).
pub fn settings_json(settings: &Value) -> Value {
    json!({
        "security": {"auth": {"selectedType": "gemini-api-key"}},
        "privacy": {"usageStatisticsEnabled": false},
        "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false},
        "model": {"skipNextSpeakerCheck": true},
        "hooks": hooks(settings),
    })
}

/// The `hooks` object of Gemini's settings for Claude Code `settings`:
/// each event of [`EVENTS`] under its Gemini name, with the battery's
/// matcher (Claude Code's write tools) replaced by [`WRITE_MATCHER`] (any
/// other matcher is kept as written), command hooks only, and each
/// `timeout` converted from Claude Code's seconds to Gemini's milliseconds.
pub fn hooks(settings: &Value) -> Value {
    let mut out = Map::new();
    for (claude, gemini) in EVENTS {
        let Some(groups) = settings.pointer(&format!("/hooks/{claude}")).and_then(Value::as_array) else { continue };
        out.insert(gemini.to_string(), Value::Array(command_groups(groups, WRITE_MATCHER, hook_entry)));
    }
    Value::Object(out)
}

/// Claude Code's matcher `groups` in the shape of an agent that reads them
/// alike (Gemini CLI, Qwen Code, Droid CLI): the battery's matcher (Claude
/// Code's write tools) replaced by `write_matcher` (any other kept as
/// written), command hooks only, each as `entry` writes it.
pub fn command_groups(groups: &[Value], write_matcher: &str, entry: fn(&Value) -> Value) -> Vec<Value> {
    let battery = crate::task::matcher();
    groups
        .iter()
        .map(|group| {
            let matcher = group.get("matcher").and_then(Value::as_str).unwrap_or("");
            let matcher = if matcher == battery { write_matcher } else { matcher };
            let hooks: Vec<Value> = group
                .get("hooks")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter(|h| h.get("type").and_then(Value::as_str) == Some("command"))
                .map(entry)
                .collect();
            json!({"matcher": matcher, "hooks": hooks})
        })
        .collect()
}

/// One command hook in Gemini's shape.
fn hook_entry(hook: &Value) -> Value {
    hook_entry_keeping(hook, &HOOK_KEYS)
}

/// One command hook of a Claude Code arm in the shape of Gemini CLI and its
/// forks (Qwen Code): the keys of `keep` as they are, and `timeout` in ms.
pub fn hook_entry_keeping(hook: &Value, keep: &[&str]) -> Value {
    let mut entry = Map::new();
    for key in keep {
        if let Some(v) = hook.get(key) {
            entry.insert(key.to_string(), v.clone());
        }
    }
    if let Some(secs) = hook.get("timeout").and_then(Value::as_f64) {
        entry.insert("timeout".to_string(), json!((secs * 1000.0).round() as u64));
    }
    Value::Object(entry)
}

/// What of an arm's Claude Code settings a Gemini session does not honour,
/// one phrase each: keys other than `hooks`, events outside [`EVENTS`],
/// hooks that are not commands, hook keys that are dropped, a matcher that
/// is not a string and a timeout that is not a number (neither can be
/// written as the arm has it). Empty when the Gemini session runs the arm's
/// hook as written.
pub fn not_carried(settings: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for key in settings.as_object().into_iter().flat_map(|o| o.keys()).filter(|k| *k != "hooks") {
        out.push(format!("setting {key}"));
    }
    let events = settings.get("hooks").and_then(Value::as_object).into_iter().flatten();
    for (event, groups) in events {
        if !EVENTS.iter().any(|(claude, _)| claude == event) {
            out.push(format!("event {event}"));
            continue;
        }
        // command_groups writes a matcher that is not a string as "" (every tool): not the arm's.
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
                    // hook_entry_keeping converts a number of seconds to ms and drops anything else.
                    if hook.get("timeout").is_some_and(|t| !t.is_number()) {
                        out.push(format!("{event} hook timeout not a number"));
                    }
                }
                other => out.push(format!("{event} hook of type {}", other.unwrap_or("(none)"))),
            }
        }
    }
    out.dedup();
    out
}

/// Gemini CLI's system-wide settings files (`/etc/gemini-cli/settings.json`
/// and `system-defaults.json`, or the file `GEMINI_CLI_SYSTEM_SETTINGS_PATH`
/// names) that exist on this machine and mention hooks: a hook from one of
/// them may run beside the hook under test.
pub fn system_settings_with_hooks() -> Vec<std::path::PathBuf> {
    let mut paths: Vec<std::path::PathBuf> =
        ["/etc/gemini-cli/settings.json", "/etc/gemini-cli/system-defaults.json"].map(Into::into).to_vec();
    paths.extend(std::env::var_os("GEMINI_CLI_SYSTEM_SETTINGS_PATH").map(Into::into));
    paths.retain(|p| std::fs::read_to_string(p).is_ok_and(|text| text.contains("hooks")));
    paths
}

/// The environment a session adds for the stand-in at `base_url`
/// (`http://127.0.0.1:PORT/s/<session>`; the SDK appends
/// `/v1beta/models/<model>:<method>`): the base URL, an API key, and
/// `GEMINI_CLI_NO_RELAUNCH`, which keeps the CLI in one process (otherwise
/// it respawns itself with a larger heap, and the parent ignores SIGINT,
/// SIGTERM and SIGHUP while the child runs). `GEMINI_CLI_TRUST_WORKSPACE`
/// is not needed: `--skip-trust` sets it, and the hooks are the user's.
pub fn env(base_url: &str) -> Vec<(String, String)> {
    [("GOOGLE_GEMINI_BASE_URL", base_url), ("GEMINI_API_KEY", API_KEY), ("GEMINI_CLI_NO_RELAUNCH", "true")]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// The headless command line after the binary, before `-p PROMPT` (which
/// the caller adds): one JSON event a line, every tool call approved (without
/// `--yolo` the shell tool is not even registered), the working directory
/// trusted (else exit 55), and [`MODEL`]. Both measured versions take them.
pub fn args() -> Vec<&'static str> {
    vec!["--output-format", "stream-json", "--yolo", "--skip-trust", "-m", MODEL]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_battery_hook_becomes_a_before_tool_hook_in_milliseconds() {
        let settings = json!({"hooks": {"PreToolUse": [
            {"matcher": crate::task::matcher(), "hooks": [{"type": "command", "command": "/g/deny.sh", "timeout": 5, "onFailure": "block"}]},
            {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": "/g/other.sh", "timeout": 0.5}]}
        ]}});
        let s = settings_json(&settings);
        let groups = &s["hooks"]["BeforeTool"];
        assert_eq!(groups[0]["matcher"], WRITE_MATCHER);
        assert_eq!(groups[0]["hooks"][0], json!({"type": "command", "command": "/g/deny.sh", "timeout": 5000}));
        assert_eq!(groups[1]["matcher"], "run_shell_command");
        assert_eq!(groups[1]["hooks"][0]["timeout"], 500);
        assert!(s["hooks"].get("PreToolUse").is_none());
        assert_eq!(s["security"]["auth"]["selectedType"], "gemini-api-key");
        assert_eq!(s["privacy"]["usageStatisticsEnabled"], false);
        assert_eq!(not_carried(&settings), ["PreToolUse hook key onFailure"]);
    }

    #[test]
    fn the_write_matcher_covers_geminis_write_tools_only() {
        let re = regex::Regex::new(WRITE_MATCHER).unwrap();
        for tool in ["run_shell_command", "write_file", "replace"] {
            assert!(re.is_match(tool), "{tool}");
        }
        for tool in ["read_file", "mcp_x_write_file", "replace_all", "list_directory"] {
            assert!(!re.is_match(tool), "{tool}");
        }
    }

    #[test]
    fn what_gemini_cannot_honour_is_named() {
        let settings = json!({"permissions": {"deny": ["Bash"]}, "hooks": {
            "Stop": [{"hooks": [{"type": "command", "command": "x"}]}],
            "PreToolUse": [{"matcher": "*", "hooks": [{"type": "prompt", "prompt": "ok?"}]}]}});
        let mut got = not_carried(&settings);
        got.sort();
        assert_eq!(got, ["PreToolUse hook of type prompt", "event Stop", "setting permissions"]);
        assert_eq!(hooks(&settings), json!({"BeforeTool": [{"matcher": "*", "hooks": []}]}));
        assert!(not_carried(&json!({"hooks": {"PreToolUse": []}})).is_empty());
        let number_matcher =
            json!({"hooks": {"PostToolUse": [{"matcher": 42, "hooks": [{"type": "command", "command": "x"}]}]}});
        assert_eq!(not_carried(&number_matcher), ["PostToolUse matcher not a string"]);
        let text_timeout = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x", "timeout": "5"}]}]}});
        assert_eq!(not_carried(&text_timeout), ["PreToolUse hook timeout not a number"]);
    }

    #[test]
    fn env_and_args_point_at_the_stand_in_headless() {
        let env = env("http://127.0.0.1:9/s/x");
        assert!(env.contains(&("GOOGLE_GEMINI_BASE_URL".into(), "http://127.0.0.1:9/s/x".into())));
        assert!(env.iter().any(|(k, v)| k == "GEMINI_API_KEY" && !v.is_empty()));
        let args = args();
        assert!(args.windows(2).any(|w| w == ["--output-format", "stream-json"]));
        assert!(args.windows(2).any(|w| w == ["-m", MODEL]));
        assert!(args.contains(&"--yolo") && args.contains(&"--skip-trust"));
        assert!(!args.contains(&"-p"), "the caller adds the prompt");
    }
}
