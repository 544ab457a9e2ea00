//! The callback an arm puts under test, read off the session's settings
//! (the battery's lingua franca, Claude Code's shape): a hook entry of type
//! `callback` (a PreToolUse hook callback) or `can-use-tool`, whose
//! `callback` key names its behaviour (`throw`, `hang`, ...), with the
//! entry's `timeout`, `onFailure` and `sealed` (the sealed callback's
//! deadline) and its group's `matcher`.

use serde_json::Value;

use crate::hook_type::HookType;

/// What the arm asks of the SDK session's callback.
#[derive(Debug, Clone, PartialEq)]
pub struct CallbackAsk {
    /// [`HookType::Callback`] or [`HookType::CanUseTool`].
    pub kind: HookType,
    /// What the callback does (`allow`, `deny`, `throw`, `reject`, `hang`, ...).
    pub behaviour: String,
    /// The matcher's `timeout` in seconds (none: the SDK's default).
    pub timeout_secs: Option<f64>,
    /// `onFailure: 'block'` on the matcher.
    pub on_failure_block: bool,
    /// The matcher.
    pub matcher: String,
    /// Inside failopen's sealed callback with this deadline in seconds
    /// (the entry's `sealed`; the `sealed` wrapper).
    pub sealed_deadline_secs: Option<f64>,
}

/// Whether a hook entry's `type` is a callback's.
pub fn is_callback_type(t: &str) -> bool {
    HookType::parse(t).is_some_and(HookType::is_callback)
}

/// Whether `settings` hold any callback entry, under any event.
pub fn has_callback(settings: &Value) -> bool {
    entries(settings).any(|(_, _, entry)| entry["type"].as_str().is_some_and(is_callback_type))
}

/// The one callback of `settings`, when its only hook is a PreToolUse
/// callback entry (anything else the SDK driver does not run: `Err` names it).
pub fn read(settings: &Value) -> Result<CallbackAsk, &'static str> {
    if settings.as_object().is_some_and(|o| o.keys().any(|k| k != "hooks")) {
        return Err("agent-sdk-settings");
    }
    let all: Vec<_> = entries(settings).collect();
    let [(event, matcher, entry)] = all.as_slice() else { return Err("agent-sdk-hooks") };
    let Some(kind) = entry["type"].as_str().and_then(HookType::parse).filter(|t| t.is_callback()) else {
        return Err("agent-sdk-command-hook");
    };
    if *event != "PreToolUse" {
        return Err("agent-sdk-event");
    }
    let known = ["type", "callback", "timeout", "onFailure", "sealed"];
    if entry.as_object().is_some_and(|o| o.keys().any(|k| !known.contains(&k.as_str()))) {
        return Err("agent-sdk-hook-key");
    }
    let behaviour = entry["callback"].as_str().ok_or("agent-sdk-hook-key")?.to_string();
    Ok(CallbackAsk {
        kind,
        behaviour,
        timeout_secs: entry["timeout"].as_f64(),
        on_failure_block: entry["onFailure"].as_str() == Some("block"),
        matcher: matcher.as_str().ok_or("agent-sdk-matcher")?.to_string(),
        sealed_deadline_secs: entry["sealed"].as_f64(),
    })
}

/// Every (event, group matcher, entry) of `settings`' hooks.
fn entries(settings: &Value) -> impl Iterator<Item = (&str, &Value, &Value)> {
    settings.get("hooks").and_then(Value::as_object).into_iter().flatten().flat_map(|(event, groups)| {
        groups.as_array().into_iter().flatten().flat_map(move |group| {
            let matcher = &group["matcher"];
            group["hooks"].as_array().into_iter().flatten().map(move |entry| (event.as_str(), matcher, entry))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_one_callback_and_names_what_it_cannot_run() {
        let s = json!({"hooks": {"PreToolUse": [{"matcher": "Bash|Write",
            "hooks": [{"type": "callback", "callback": "throw", "timeout": 3, "onFailure": "block"}]}]}});
        let ask = read(&s).unwrap();
        assert_eq!((ask.kind, ask.behaviour.as_str(), ask.timeout_secs), (HookType::Callback, "throw", Some(3.0)));
        assert!(ask.on_failure_block && has_callback(&s));
        assert_eq!(ask.matcher, "Bash|Write");
        let command = json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
            "hooks": [{"type": "command", "command": "/g/deny.sh"}]}]}});
        assert_eq!(read(&command), Err("agent-sdk-command-hook"));
        assert!(!has_callback(&command));
        let mut two = s.clone();
        crate::settings::merge(&mut two, &command);
        assert_eq!(read(&two), Err("agent-sdk-hooks"));
        assert_eq!(read(&json!({"hooks": {}, "permissions": {}})), Err("agent-sdk-settings"));
    }
}
