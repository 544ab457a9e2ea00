//! What a Droid session starts from: the isolated HOME's
//! `.factory/settings.json` (one `customModels` entry, the stand-in as an
//! Anthropic provider) and `.factory/hooks.json` (the arm's hook in Claude
//! Code's shape, timeouts in seconds), the environment that keeps it off
//! the network, and the headless command line. Facts from
//! ../shared/agent-notes.md, checked on 0.215.0 and 0.225.2 (docs/droid.md).

use serde_json::{json, Value};

/// The event under which Droid's guards veto a tool call: Claude Code's.
pub const EVENT: &str = "PreToolUse";

/// The tools Droid writes a file with, by the names its hooks see (the
/// `droid exec` tool set offered to a custom model: `ApplyPatch` is not).
pub const WRITE_TOOLS: [&str; 3] = ["Execute", "Create", "Edit"];

/// The matcher that covers [`WRITE_TOOLS`], in Claude Code's `|` form.
pub const WRITE_MATCHER: &str = "Execute|Create|Edit";

/// How long Droid waits for a hook with no `timeout`: 60 s (its hooks
/// screen: "default (60s)").
pub const DEFAULT_TIMEOUT_SECS: f64 = 60.0;

/// The custom model's display name; Droid names it `custom:<name>-<index>`.
pub const MODEL_NAME: &str = "Mock";

/// The model `-m` selects: the first custom model.
pub const MODEL_ID: &str = "custom:Mock-0";

/// The keys of one command hook that are carried over as they are
/// (`timeout` in seconds, as Claude Code's). `onFailure` has no Droid
/// meaning and is dropped, which makes a `native` arm a bare one.
const HOOK_KEYS: [&str; 3] = ["type", "command", "timeout"];

/// The user `settings.json`: the stand-in at `base_url` as the one custom
/// model (Droid appends `/v1/messages`).
pub fn settings_json(base_url: &str) -> Value {
    json!({"customModels": [{
        "model": "claude-sonnet-4",
        "displayName": MODEL_NAME,
        "baseUrl": base_url,
        "apiKey": crate::agent::driver::STAND_IN_API_KEY,
        "provider": "anthropic",
        "maxOutputTokens": 4096,
    }]})
}

/// `hooks.json` for Claude Code `settings`: PreToolUse groups as they are
/// (Droid reads Claude Code's shape, with the events at the top level), the
/// battery's matcher (Claude Code's write tools) replaced by
/// [`WRITE_MATCHER`] (any other matcher kept as written), command hooks
/// only, each with the keys Droid reads.
pub fn hooks_json(settings: &Value) -> Value {
    let Some(groups) = settings.pointer("/hooks/PreToolUse").and_then(Value::as_array) else { return json!({}) };
    json!({ EVENT: crate::agent::gemini::config::command_groups(groups, WRITE_MATCHER, hook_entry) })
}

/// One command hook in Droid's shape: the keys Droid reads, as they are.
fn hook_entry(hook: &Value) -> Value {
    let kept = hook.as_object().into_iter().flatten().filter(|(k, _)| HOOK_KEYS.contains(&k.as_str()));
    Value::Object(kept.map(|(k, v)| (k.clone(), v.clone())).collect())
}

/// What of an arm's Claude Code settings a Droid session does not honour,
/// one phrase each: keys other than `hooks`, events other than PreToolUse,
/// hooks that are not commands, and hook keys that are dropped. Empty when
/// the session runs the arm's hook as written.
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
        let hooks = groups.as_array().into_iter().flatten().filter_map(|g| g.get("hooks")?.as_array()).flatten();
        for hook in hooks {
            if hook.get("type").and_then(Value::as_str) != Some("command") {
                let t = hook.get("type").and_then(Value::as_str).unwrap_or("(none)");
                out.push(format!("{event} hook of type {t}"));
                continue;
            }
            let keys = hook.as_object().into_iter().flat_map(|o| o.keys());
            for key in keys.filter(|k| !HOOK_KEYS.contains(&k.as_str())) {
                out.push(format!("{event} hook key {key}"));
            }
        }
    }
    out.dedup();
    out
}

/// Whether a phrase of [`not_carried`] still lets the session run the arm's
/// hook as written: only a dropped `onFailure`.
pub fn is_dropped_key(what: &str) -> bool {
    what.ends_with(" hook key onFailure")
}

/// The environment a session adds: no network but the model's
/// (`FACTORY_AIRGAP_ENABLED`; without it Droid still runs, but retries its
/// vendor's API for seconds first).
pub fn env() -> Vec<(String, String)> {
    vec![("FACTORY_AIRGAP_ENABLED".to_string(), "true".to_string())]
}

/// The headless command line after the binary, before the prompt: every
/// tool call approved (`--auto high`: Droid asks for no permission for a
/// file write or a medium-risk command), the stand-in's custom model, one
/// JSON event a line.
pub fn args() -> Vec<&'static str> {
    vec!["exec", "--auto", "high", "-m", MODEL_ID, "--output-format", "stream-json"]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_battery_hook_is_droids_in_claude_codes_shape() {
        let settings = json!({"hooks": {"PreToolUse": [
            {"matcher": crate::task::matcher(), "hooks": [{"type": "command", "command": "/g/deny.sh", "timeout": 5, "onFailure": "block"}]},
            {"matcher": "Execute", "hooks": [{"type": "command", "command": "/g/other.sh"}]}
        ]}});
        let hooks = hooks_json(&settings);
        assert_eq!(hooks[EVENT][0]["matcher"], WRITE_MATCHER);
        assert_eq!(hooks[EVENT][0]["hooks"][0], json!({"type": "command", "command": "/g/deny.sh", "timeout": 5}));
        assert_eq!(hooks[EVENT][1]["matcher"], "Execute");
        assert!(hooks.get("hooks").is_none(), "events at the top level");
        let lost = not_carried(&settings);
        assert_eq!(lost, ["PreToolUse hook key onFailure"]);
        assert!(lost.iter().all(|w| is_dropped_key(w)));
    }

    #[test]
    fn what_droid_cannot_honour_is_named() {
        let settings = json!({"permissions": {"deny": ["Bash"]}, "hooks": {
            "Stop": [{"hooks": [{"type": "command", "command": "x"}]}],
            "PreToolUse": [{"matcher": "*", "hooks": [{"type": "http", "url": "http://x"}]}]}});
        let mut got = not_carried(&settings);
        got.sort();
        assert_eq!(got, ["PreToolUse hook of type http", "event Stop", "setting permissions"]);
        assert!(got.iter().all(|w| !is_dropped_key(w)));
    }

    #[test]
    fn the_session_is_offline_headless_and_on_the_stand_in() {
        let s = settings_json("http://127.0.0.1:9/s/x");
        assert_eq!(s["customModels"][0]["baseUrl"], "http://127.0.0.1:9/s/x");
        assert_eq!(s["customModels"][0]["provider"], "anthropic");
        assert_eq!(format!("custom:{}-0", s["customModels"][0]["displayName"].as_str().unwrap()), MODEL_ID);
        assert!(env().contains(&("FACTORY_AIRGAP_ENABLED".into(), "true".into())));
        let args = args();
        assert_eq!(args[0], "exec");
        assert!(args.windows(2).any(|w| w == ["--auto", "high"]) && args.windows(2).any(|w| w == ["-m", MODEL_ID]));
    }
}
