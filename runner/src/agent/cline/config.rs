//! What a Cline CLI session starts from: the stand-in as an
//! `openai-compatible` provider in `~/.cline/data/settings/providers.json`
//! (what `cline auth openai -k KEY -m MODEL -b URL` writes; no `cline auth`
//! per session), the arm's hook as the executable `~/.cline/hooks/PreToolUse`,
//! a hub port of its own, and the headless command line. Facts from
//! ../shared/agent-notes.md, checked on 3.0.57 and 3.0.65 (docs/cline.md).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

/// The hook file's name: Cline runs an executable named for the event.
pub const EVENT: &str = "PreToolUse";

/// Cline's tools that write a file, by the names its hooks see.
pub const WRITE_TOOLS: [&str; 2] = ["run_commands", "editor"];

/// A matcher that covers [`WRITE_TOOLS`] (a Cline hook file takes none: it
/// runs for every tool).
pub const WRITE_MATCHER: &str = "run_commands|editor";

/// The model id in the provider file: any name will do for the stand-in.
pub const MODEL: &str = "failopen-stand-in";

/// How long Cline waits for a hook, fixed (no setting changes it).
pub const HOOK_TIMEOUT_SECS: f64 = 120.0;

/// The keys of a Claude Code command hook a Cline hook file carries: only
/// the command. `timeout` (Cline's is fixed at 120 s) and `onFailure` have
/// no Cline meaning and are dropped.
const DROPPED_KEYS: [&str; 2] = ["timeout", "onFailure"];

/// The provider file (`~/.cline/data/settings/providers.json`): the stand-in
/// at `base_url` as Cline's `openai-compatible` provider. Cline rewrites a
/// file without `version`, `updatedAt` and `tokenSource` to its default
/// provider (its own cloud), so all are given.
pub fn providers_json(base_url: &str) -> Value {
    json!({"version": 1, "lastUsedProvider": "openai-compatible", "modes": {}, "providers": {
        "openai-compatible": {
            "settings": {"provider": "openai-compatible", "apiKey": crate::agent::driver::STAND_IN_API_KEY,
                "model": MODEL, "baseUrl": format!("{}/v1", base_url.trim_end_matches('/'))},
            "updatedAt": "2026-01-01T00:00:00.000Z", "tokenSource": "manual"}}})
}

/// Where the provider file goes under HOME.
pub fn providers_path(home: &Path) -> PathBuf {
    home.join(".cline/data/settings/providers.json")
}

/// Where the hook file goes under HOME (Cline's global hooks directory).
pub fn hook_path(home: &Path) -> PathBuf {
    home.join(".cline/hooks").join(EVENT)
}

/// The PreToolUse hooks of an arm's Claude Code settings, in order: each
/// one's command, if it has one.
fn commands(settings: &Value) -> Vec<Option<&str>> {
    let groups = settings.pointer("/hooks/PreToolUse").and_then(Value::as_array).into_iter().flatten();
    groups.filter_map(|g| g.get("hooks")?.as_array()).flatten().map(|h| h.get("command")?.as_str()).collect()
}

/// The hook file for an arm whose only PreToolUse hook runs `command`: a
/// shell script that runs it as Claude Code would (`sh -c`), so its exit
/// code, stdout and stderr are the command's.
pub fn hook_script(command: &str) -> String {
    format!("#!/bin/sh\n# failopen: the arm's PreToolUse command hook, as Cline's hook file\n{command}\n")
}

/// The arm's one command, when the settings hold exactly one PreToolUse
/// hook, and it is a command.
pub fn sole_command(settings: &Value) -> Option<&str> {
    match commands(settings).as_slice() {
        [one] => *one,
        _ => None,
    }
}

/// What of an arm's Claude Code settings a Cline session does not honour,
/// one phrase each: keys other than `hooks`, events other than PreToolUse,
/// a matcher other than the battery's (a hook file has none), hooks that
/// are not commands, more than one hook (Cline runs one file per event),
/// and dropped hook keys (`hook key timeout`, `hook key onFailure`).
pub fn not_carried(settings: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for key in settings.as_object().into_iter().flat_map(|o| o.keys()).filter(|k| *k != "hooks") {
        out.push(format!("setting {key}"));
    }
    let battery = crate::task::matcher();
    let events = settings.get("hooks").and_then(Value::as_object).into_iter().flatten();
    let mut hooks = 0;
    for (event, groups) in events {
        if event != "PreToolUse" {
            out.push(format!("event {event}"));
            continue;
        }
        for group in groups.as_array().into_iter().flatten() {
            if group.get("matcher").and_then(Value::as_str).is_some_and(|m| m != battery) {
                out.push("matcher".to_string());
            }
            for hook in group.get("hooks").and_then(Value::as_array).into_iter().flatten() {
                hooks += 1;
                if hook.get("type").and_then(Value::as_str) != Some("command") {
                    out.push(format!("hook of type {}", hook.get("type").and_then(Value::as_str).unwrap_or("(none)")));
                }
                let keys = hook.as_object().into_iter().flat_map(|o| o.keys());
                for key in keys.filter(|k| DROPPED_KEYS.contains(&k.as_str())) {
                    out.push(format!("hook key {key}"));
                }
            }
        }
    }
    if hooks > 1 {
        out.push("more than one hook".to_string());
    }
    out.sort();
    out.dedup();
    out
}

/// Whether a phrase of [`not_carried`] still lets the session run the arm's
/// hook as written: only the dropped keys.
pub fn is_dropped_key(what: &str) -> bool {
    DROPPED_KEYS.iter().any(|k| what == format!("hook key {k}"))
}

/// The environment a session adds: a hub port of its own (Cline starts a
/// `--cline-hub-daemon` on a fixed port, 25463, that a concurrent session
/// would otherwise share), no update check.
pub fn env(hub_port: u16) -> Vec<(String, String)> {
    vec![("CLINE_HUB_PORT".into(), hub_port.to_string()), ("CLINE_NO_AUTO_UPDATE".into(), "1".into())]
}

/// The headless command line after the binary: the prompt, JSON lines.
/// Act mode with auto-approve is Cline's default for a prompt.
pub fn args(prompt: &str) -> Vec<String> {
    vec![prompt.to_string(), "--json".to_string()]
}

/// A loopback port free now, for the session's hub (the OS picks it).
pub fn free_port() -> std::io::Result<u16> {
    Ok(std::net::TcpListener::bind(("127.0.0.1", 0))?.local_addr()?.port())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_battery_hook_becomes_the_hook_file() {
        let settings = json!({"hooks": {"PreToolUse": [
            {"matcher": crate::task::matcher(), "hooks": [{"type": "command", "command": "/g/deny.sh", "timeout": 5, "onFailure": "block"}]}
        ]}});
        assert_eq!(sole_command(&settings), Some("/g/deny.sh"));
        assert!(hook_script("/g/deny.sh").ends_with("\n/g/deny.sh\n"));
        assert!(hook_script("x").starts_with("#!/bin/sh\n"));
        let dropped = not_carried(&settings);
        assert_eq!(dropped, ["hook key onFailure", "hook key timeout"]);
        assert!(dropped.iter().all(|w| is_dropped_key(w)));
        let two = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "a"}, {"type": "http", "url": "u"}]}]}, "env": {}});
        assert_eq!(sole_command(&two), None);
        assert_eq!(not_carried(&two), ["hook of type http", "more than one hook", "setting env"]);
    }

    #[test]
    fn the_provider_file_points_at_the_stand_in() {
        let p = providers_json("http://127.0.0.1:9/s/abc/");
        assert_eq!(p["providers"]["openai-compatible"]["settings"]["baseUrl"], "http://127.0.0.1:9/s/abc/v1");
        assert_eq!((p["version"].as_u64(), p["lastUsedProvider"].as_str()), (Some(1), Some("openai-compatible")));
        assert_eq!(providers_path(Path::new("/h")), Path::new("/h/.cline/data/settings/providers.json"));
        assert_eq!(hook_path(Path::new("/h")), Path::new("/h/.cline/hooks/PreToolUse"));
    }
}
