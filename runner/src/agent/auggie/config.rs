//! What an Auggie CLI session starts from: the user settings file
//! (`$HOME/.augment/settings.json`, the arm's hook in Claude Code's shape
//! with the timeout in milliseconds), the environment that gives the CLI a
//! session on the stand-in's tenant (`AUGMENT_SESSION_AUTH`), and the
//! headless command line (`--print PROMPT`). Read off 0.36.0's bundle and
//! measured on it (docs/auggie.md).

use serde_json::{json, Value};

use crate::standin::augment::{Tenant, FILE_TOOL, SHELL_TOOL};
use crate::surface::HookSource;

/// The event under which Auggie's guards veto a tool call: Claude Code's.
pub const EVENT: &str = "PreToolUse";

/// The tools Auggie writes a file with, by the names its hooks see.
pub const WRITE_TOOLS: [&str; 4] = [SHELL_TOOL, FILE_TOOL, "str-replace-editor", "apply_patch"];

/// The matcher that covers [`WRITE_TOOLS`]. Auggie tests a matcher as an
/// unanchored JavaScript regex (`new RegExp(matcher).test(tool_name)`), so
/// it is anchored.
pub const WRITE_MATCHER: &str = "^(launch-process|save-file|str-replace-editor|apply_patch)$";

/// How long Auggie waits for a hook with no `timeout`: 60 s (the hook
/// executor's default, `6e4` milliseconds).
pub const DEFAULT_TIMEOUT_SECS: f64 = 60.0;

/// The settings file, under the session's HOME.
pub const SETTINGS_FILE: &str = ".augment/settings.json";

/// The user `settings.json` for an arm whose Claude Code settings are
/// `settings`: its PreToolUse hooks in Claude Code's shape, the battery's
/// matcher replaced by [`WRITE_MATCHER`], each `timeout` converted from
/// Claude Code's seconds to Auggie's milliseconds.
pub fn settings_json(settings: &Value) -> Value {
    json!({"hooks": crate::agent::qwen::config::hooks_matching(settings, WRITE_MATCHER)})
}

/// What of an arm's Claude Code settings an Auggie session does not
/// honour, one phrase each (as Qwen Code's, whose shape it shares, except
/// that any positive `timeout` carries: Auggie reads milliseconds, so a
/// fraction of a second is a few of them).
pub fn not_carried(settings: &Value) -> Vec<String> {
    let mut out = crate::agent::qwen::config::not_carried(settings);
    out.retain(|what| !what.ends_with(" hook timeout"));
    let hooks = settings.pointer("/hooks/PreToolUse").and_then(Value::as_array).into_iter().flatten();
    let hooks = hooks.filter_map(|g| g.get("hooks")?.as_array()).flatten();
    if hooks.filter_map(|h| h.get("timeout")).any(|t| !t.as_f64().is_some_and(|s| s > 0.0)) {
        out.push(format!("{EVENT} hook timeout"));
    }
    out
}

/// Whether a phrase of [`not_carried`] still lets the session run the arm's
/// hook as written: only a dropped `onFailure` (Auggie has no such key, and
/// its schema drops unknown keys), which makes a `native` arm a bare one.
pub fn is_dropped_key(what: &str) -> bool {
    crate::agent::qwen::config::is_dropped_key(what)
}

/// The tenant a hook source runs under: Auggie's own settings file on a
/// tenant that turns hooks on (the battery's `settings-flag`), or on one
/// whose `get-models` leaves the flag unset (`augment-unflagged`).
pub fn tenant(source: HookSource) -> Option<Tenant> {
    match source {
        HookSource::SettingsFlag => Some(Tenant::HooksEnabled),
        HookSource::AugmentUnflagged => Some(Tenant::HooksFlagUnset),
        _ => None,
    }
}

/// The environment for a session on `tenant` at the stand-in's `base_url`
/// (`http://127.0.0.1:PORT/s/<session>`): a session as `auggie login`
/// would store it, whose `tenantURL` is the stand-in's tenant path, and the
/// update check off.
pub fn env(base_url: &str, tenant: Tenant) -> Vec<(String, String)> {
    let tenant_url = format!("{}/{}/", base_url.trim_end_matches('/'), tenant.segment());
    let auth =
        json!({"accessToken": crate::agent::driver::STAND_IN_API_KEY, "tenantURL": tenant_url, "scopes": ["email"]});
    vec![
        ("AUGMENT_SESSION_AUTH".to_string(), auth.to_string()),
        ("AUGMENT_DISABLE_AUTO_UPDATE".to_string(), "1".to_string()),
    ]
}

/// The headless command line after the binary: `--print PROMPT`.
pub fn args(prompt: &str) -> Vec<String> {
    vec!["--print".to_string(), prompt.to_string()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_battery_hook_lands_in_auggies_shape_in_milliseconds() {
        let settings = json!({"hooks": {"PreToolUse": [
            {"matcher": crate::task::matcher(), "hooks": [{"type": "command", "command": "/g/deny.sh", "timeout": 5, "onFailure": "block"}]}]}});
        let s = settings_json(&settings);
        assert_eq!(s["hooks"]["PreToolUse"][0]["matcher"], WRITE_MATCHER);
        assert_eq!(
            s["hooks"]["PreToolUse"][0]["hooks"][0],
            json!({"type": "command", "command": "/g/deny.sh", "timeout": 5000})
        );
        let lost = not_carried(&settings);
        assert!(lost.iter().all(|w| is_dropped_key(w)), "{lost:?}");
    }

    #[test]
    fn a_few_milliseconds_carry_and_a_string_timeout_does_not() {
        let ms = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x", "timeout": 0.003}]}]}});
        assert!(not_carried(&ms).is_empty());
        assert_eq!(settings_json(&ms)["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"], 3);
        let text = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "x", "timeout": "3"}]}]}});
        assert_eq!(not_carried(&text), ["PreToolUse hook timeout"]);
    }

    #[test]
    fn the_write_matcher_covers_auggies_write_tools_only() {
        let re = regex::Regex::new(WRITE_MATCHER).unwrap();
        assert!(WRITE_TOOLS.iter().all(|t| re.is_match(t)));
        assert!(["view", "read-process", "save-file-2", "remove-files"].iter().all(|t| !re.is_match(t)));
    }

    #[test]
    fn the_session_names_the_stand_ins_tenant_for_its_source() {
        let env = env("http://127.0.0.1:9/s/x", tenant(HookSource::AugmentUnflagged).unwrap());
        let auth: Value = serde_json::from_str(&env[0].1).unwrap();
        assert_eq!(auth["tenantURL"], "http://127.0.0.1:9/s/x/augment-without-hooks-flag/");
        assert_eq!(tenant(HookSource::SettingsFlag), Some(Tenant::HooksEnabled));
        assert_eq!(tenant(HookSource::Project), None);
        assert_eq!(args("go"), ["--print", "go"]);
    }
}
