//! What a Copilot CLI session starts from: its own `COPILOT_HOME` with the
//! arm's hook in `hooks/failopen.json`, the environment that points it at
//! the stand-in, and the headless command line. Facts from
//! ../shared/agent-notes.md, checked on 1.0.73 and 1.0.102 (docs/copilot.md).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

/// The event under which Copilot's guards veto a tool call.
pub const EVENT: &str = "preToolUse";

/// The tools Copilot writes a file with, by the names its hooks see.
pub const WRITE_TOOLS: [&str; 3] = ["bash", "create", "edit"];

/// A matcher that covers [`WRITE_TOOLS`] (Copilot's hook entries take none:
/// a hook runs for every tool).
pub const WRITE_MATCHER: &str = "bash|create|edit";

/// The model named in `COPILOT_MODEL`: any name will do for the stand-in.
pub const MODEL: &str = "claude-sonnet-4";

/// The hook file's name in `$COPILOT_HOME/hooks/`.
pub const HOOK_FILE: &str = "failopen.json";

/// The keys of a Claude Code command hook that Copilot's hook entry carries
/// (`command` as `bash`, `timeout` as `timeoutSec`); `onFailure` has no
/// Copilot meaning and is dropped, which makes a `native` arm a bare one.
const HOOK_KEYS: [&str; 3] = ["type", "command", "timeout"];

/// The keys of a Claude Code http hook that Copilot's http entry carries
/// (`url` as it is, `timeout` as `timeoutSec`; `onFailure` dropped as above).
const HTTP_HOOK_KEYS: [&str; 3] = ["type", "url", "timeout"];

/// The variable without which Copilot refuses to load a preToolUse http
/// hook whose URL is not `https://` (the guard server is plain http on
/// loopback). Named in its hook loader (the native `runtime.node` of 1.0.102,
/// `app.js` of 1.0.73): "Authorization-affecting HTTP hooks (preToolUse,
/// preMcpToolCall, permissionRequest) must use https:// ... or use
/// localhost with COPILOT_HOOK_ALLOW_LOCALHOST=1".
pub const ALLOW_LOCALHOST: (&str, &str) = ("COPILOT_HOOK_ALLOW_LOCALHOST", "1");

/// `hooks/failopen.json` for an arm whose Claude Code settings are
/// `settings`: each PreToolUse command hook as a `preToolUse` entry,
/// `{"type": "command", "bash": <command>, "timeoutSec": <timeout>}`, and
/// each http hook as `{"type": "http", "url": <url>, "timeoutSec": <timeout>}`.
pub fn hooks_json(settings: &Value) -> Value {
    let mut entries = Vec::new();
    let groups = settings.pointer("/hooks/PreToolUse").and_then(Value::as_array).into_iter().flatten();
    for hook in groups.filter_map(|g| g.get("hooks")?.as_array()).flatten() {
        let mut entry = match hook.get("type").and_then(Value::as_str) {
            Some("http") => json!({"type": "http", "url": hook.get("url").cloned().unwrap_or(Value::Null)}),
            _ => json!({"type": "command", "bash": hook.get("command").cloned().unwrap_or(Value::Null)}),
        };
        if let Some(t) = hook.get("timeout") {
            entry["timeoutSec"] = t.clone();
        }
        entries.push(entry);
    }
    json!({"version": 1, "hooks": {EVENT: entries}})
}

/// What of an arm's Claude Code settings a Copilot session does not honour,
/// one phrase each: keys other than `hooks`, events other than PreToolUse,
/// a matcher other than the battery's (Copilot's entries have none), hooks
/// that are not commands, and hook keys that are dropped. Empty when the
/// session runs the arm's hook as written (`onFailure` aside).
pub fn not_carried(settings: &Value) -> Vec<String> {
    let mut out = Vec::new();
    for key in settings.as_object().into_iter().flat_map(|o| o.keys()).filter(|k| *k != "hooks") {
        out.push(format!("setting {key}"));
    }
    let battery = crate::task::matcher();
    let events = settings.get("hooks").and_then(Value::as_object).into_iter().flatten();
    for (event, groups) in events {
        if event != "PreToolUse" {
            out.push(format!("event {event}"));
            continue;
        }
        for group in groups.as_array().into_iter().flatten() {
            // Any matcher but the battery's string, a non-string one too (Claude
            // Code skips a settings file whose matcher is the number 42): the
            // entry written has none, so it would run for every tool.
            if group.get("matcher").is_some_and(|m| m.as_str() != Some(battery.as_str())) {
                out.push("matcher".to_string());
            }
            for hook in group.get("hooks").and_then(Value::as_array).into_iter().flatten() {
                let carried: &[&str] = match hook.get("type").and_then(Value::as_str) {
                    Some("command") => &HOOK_KEYS,
                    Some("http") => &HTTP_HOOK_KEYS,
                    other => {
                        out.push(format!("hook of type {}", other.unwrap_or("(none)")));
                        continue;
                    }
                };
                let keys = hook.as_object().into_iter().flat_map(|o| o.keys());
                for key in keys.filter(|k| !carried.contains(&k.as_str())) {
                    out.push(format!("hook key {key}"));
                }
            }
        }
    }
    out.dedup();
    out
}

/// Whether a Copilot hook file (from [`hooks_json`]) holds an http hook,
/// which loads on loopback only with [`ALLOW_LOCALHOST`] set.
pub fn has_http_hook(hooks: &Value) -> bool {
    hooks
        .pointer(&format!("/hooks/{EVENT}"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .any(|h| h.get("type").and_then(Value::as_str) == Some("http"))
}

/// Where a binary's unpacked package is kept (`XDG_CACHE_HOME`): beside
/// its install in failopen's cache (`<version>/.xdg-cache`, about 235 MB,
/// unpacked once per version), or `None` for a binary elsewhere (each
/// session then unpacks it in its own HOME).
pub fn package_cache(bin: &Path) -> Option<PathBuf> {
    let bin_dir = bin.parent()?;
    let modules = bin_dir.parent()?;
    (bin_dir.file_name()? == ".bin" && modules.file_name()? == "node_modules")
        .then(|| modules.parent().map(|v| v.join(".xdg-cache")))
        .flatten()
}

/// The environment a session adds: offline, the stand-in as an Anthropic
/// provider at `base_url`, no auto-update, its own `COPILOT_HOME`, and the
/// unpacked package's cache when there is one.
pub fn env(base_url: &str, copilot_home: &Path, package_cache: Option<&Path>) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = [
        ("COPILOT_OFFLINE", "true"),
        ("COPILOT_PROVIDER_TYPE", "anthropic"),
        ("COPILOT_PROVIDER_BASE_URL", base_url),
        ("COPILOT_PROVIDER_API_KEY", crate::agent::driver::STAND_IN_API_KEY),
        ("COPILOT_MODEL", MODEL),
        ("COPILOT_AUTO_UPDATE", "false"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.to_string()))
    .collect();
    env.push(("COPILOT_HOME".into(), copilot_home.to_string_lossy().into_owned()));
    if let Some(cache) = package_cache {
        env.push(("XDG_CACHE_HOME".into(), cache.to_string_lossy().into_owned()));
    }
    env
}

/// The headless command line after the binary: the prompt, every tool
/// allowed, no questions, no update check.
pub fn args(prompt: &str) -> Vec<String> {
    ["-p", prompt, "--allow-all-tools", "--no-ask-user", "--no-auto-update"].map(String::from).to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_battery_hook_becomes_a_pre_tool_use_entry() {
        let settings = json!({"hooks": {"PreToolUse": [
            {"matcher": crate::task::matcher(), "hooks": [{"type": "command", "command": "/g/deny.sh", "timeout": 5, "onFailure": "block"}]}
        ]}});
        let h = hooks_json(&settings);
        assert_eq!(
            h,
            json!({"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": "/g/deny.sh", "timeoutSec": 5}]}})
        );
        assert_eq!(not_carried(&settings), ["hook key onFailure"]);
        let other = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "prompt", "prompt": "x"}]}]}, "permissions": {}});
        assert_eq!(not_carried(&other), ["setting permissions", "matcher", "hook of type prompt"]);
        // A matcher that is not a string (surface.json's sibling-matcher-not-string) is not carried either.
        let number =
            json!({"hooks": {"PreToolUse": [{"matcher": 42, "hooks": [{"type": "command", "command": "x"}]}]}});
        assert_eq!(not_carried(&number), ["matcher"]);
        assert!(!has_http_hook(&h));
    }

    #[test]
    fn an_http_hook_becomes_an_http_entry_that_needs_localhost_allowed() {
        let settings = json!({"hooks": {"PreToolUse": [
            {"matcher": crate::task::matcher(), "hooks": [{"type": "http", "url": "http://127.0.0.1:9/s/x/deny", "timeout": 5, "onFailure": "block"}]}
        ]}});
        let h = hooks_json(&settings);
        assert_eq!(
            h,
            json!({"version": 1, "hooks": {"preToolUse": [{"type": "http", "url": "http://127.0.0.1:9/s/x/deny", "timeoutSec": 5}]}})
        );
        assert!(has_http_hook(&h));
        assert_eq!(not_carried(&settings), ["hook key onFailure"]);
        let headers = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "http", "url": "u", "headers": {}}]}]}});
        assert_eq!(not_carried(&headers), ["hook key headers"]);
    }

    #[test]
    fn the_package_is_kept_beside_a_cached_install() {
        let bin = Path::new("/c/copilot/1.0.102/node_modules/.bin/copilot");
        assert_eq!(package_cache(bin), Some(PathBuf::from("/c/copilot/1.0.102/.xdg-cache")));
        assert_eq!(package_cache(Path::new("/usr/local/bin/copilot")), None);
    }
}
