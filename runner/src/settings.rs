//! The per-session Claude Code settings file: one hook entry, by default
//! under `PreToolUse` with the battery's matcher ([`crate::task::matcher`]).

use serde_json::{json, Value};

use crate::surface::HookEvent;
use crate::task::matcher;
use crate::wrappers::HookTarget;

/// What goes into the hook entry.
#[derive(Debug, Clone, PartialEq)]
pub struct HookSpec {
    /// Command or URL.
    pub target: HookTarget,
    /// The hook's `timeout`, in seconds.
    pub timeout_secs: f64,
    /// Add `"onFailure": "block"` (the `native` wrapper).
    pub on_failure_block: bool,
    /// The event it is registered under.
    pub event: HookEvent,
    /// The matcher, when not the battery's (events without tools take none).
    pub matcher: Option<String>,
    /// Keys merged into the entry (an arm's `hook_extra`).
    pub extra: Option<Value>,
    /// Keys merged into the entry's matcher group (an arm's `group_extra`):
    /// sibling entries appended after it, or a replaced matcher.
    pub group_extra: Option<Value>,
}

impl HookSpec {
    /// A `PreToolUse` entry under the battery's matcher, nothing extra.
    pub fn pre_tool_use(target: HookTarget, timeout_secs: f64, on_failure_block: bool) -> HookSpec {
        HookSpec {
            target,
            timeout_secs,
            on_failure_block,
            event: HookEvent::PreToolUse,
            matcher: None,
            extra: None,
            group_extra: None,
        }
    }
}

/// The settings JSON for one session.
pub fn settings_json(hook: &HookSpec) -> Value {
    json!({ "hooks": hooks_json(hook) })
}

/// The `hooks` object holding the one entry (also the shape of a plugin's
/// `hooks/hooks.json` under its `hooks` key).
pub fn hooks_json(hook: &HookSpec) -> Value {
    let mut entry = match &hook.target {
        HookTarget::Command(command) => json!({"type": "command", "command": command}),
        HookTarget::Http(url) => json!({"type": "http", "url": url}),
        HookTarget::Prompt(prompt) => json!({"type": "prompt", "prompt": prompt}),
        HookTarget::Agent(prompt) => json!({"type": "agent", "prompt": prompt}),
        HookTarget::McpTool { server, tool } => json!({"type": "mcp_tool", "server": server, "tool": tool}),
        HookTarget::Callback { kind, behaviour, sealed_deadline_ms: None } => {
            json!({"type": kind.as_str(), "callback": behaviour})
        }
        HookTarget::Callback { kind, behaviour, sealed_deadline_ms: Some(ms) } => {
            json!({"type": kind.as_str(), "callback": behaviour, "sealed": *ms as f64 / 1000.0})
        }
    };
    entry["timeout"] = timeout_value(hook.timeout_secs);
    if hook.on_failure_block {
        entry["onFailure"] = json!("block");
    }
    if let Some(extra) = &hook.extra {
        merge(&mut entry, extra);
    }
    let mut group = match (hook.event, &hook.matcher) {
        (_, Some(m)) => json!({"matcher": m, "hooks": [entry]}),
        (HookEvent::UserPromptSubmit, None) => json!({"hooks": [entry]}),
        (HookEvent::PermissionRequest | HookEvent::PreToolUse, None) => json!({"matcher": matcher(), "hooks": [entry]}),
    };
    if let Some(extra) = &hook.group_extra {
        merge(&mut group, extra);
    }
    let mut hooks = serde_json::Map::new();
    hooks.insert(hook.event.as_str().to_string(), json!([group]));
    Value::Object(hooks)
}

/// Merge `extra` into `settings`: objects key by key, arrays appended after
/// what `settings` already holds (so failopen's own hook entry stays first),
/// anything else replaced.
pub fn merge(settings: &mut Value, extra: &Value) {
    match (settings, extra) {
        (Value::Object(base), Value::Object(more)) => {
            for (k, v) in more {
                match base.get_mut(k) {
                    Some(slot) => merge(slot, v),
                    None => {
                        base.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (Value::Array(base), Value::Array(more)) => base.extend(more.iter().cloned()),
        (slot, v) => *slot = v.clone(),
    }
}

/// How many hooks a settings object registers under `PreToolUse`, over all
/// its matcher groups (a malformed entry counts as one, so that it is never
/// taken for "no other hook").
pub fn pretooluse_hook_count(settings: &Value) -> usize {
    match settings.pointer("/hooks/PreToolUse") {
        None => 0,
        Some(Value::Array(groups)) => {
            groups.iter().map(|g| g.get("hooks").and_then(Value::as_array).map_or(1, Vec::len)).sum()
        }
        Some(_) => 1,
    }
}

/// Every hook entry a settings object registers, under any event and in
/// any matcher group, in order; a malformed part (an event that is not an
/// array, a group without a `hooks` array) stands as one `null` entry, so
/// that it is never taken for "no hook".
pub fn hook_entries(settings: &Value) -> Vec<Value> {
    let Some(hooks) = settings.get("hooks") else { return Vec::new() };
    let Some(events) = hooks.as_object() else { return vec![Value::Null] };
    let mut out = Vec::new();
    for groups in events.values() {
        let Some(groups) = groups.as_array() else {
            out.push(Value::Null);
            continue;
        };
        for group in groups {
            match group.get("hooks").and_then(Value::as_array) {
                Some(entries) => out.extend(entries.iter().cloned()),
                None => out.push(Value::Null),
            }
        }
    }
    out
}

/// Whole seconds are written as integers, as people write them.
fn timeout_value(secs: f64) -> Value {
    if secs.fract() == 0.0 && secs < u32::MAX as f64 {
        json!(secs as u64)
    } else {
        json!(secs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hook_entries_are_every_event_and_group_with_malformed_parts_as_null() {
        assert!(hook_entries(&json!({})).is_empty());
        let s = json!({"hooks": {
            "PreToolUse": [{"matcher": "Bash", "hooks": [{"command": "a"}, {"command": "b"}]}, {"matcher": "x"}],
            "PostToolUse": [{"hooks": [{"command": "c"}]}],
            "Stop": "oops"}});
        let entries = hook_entries(&s);
        assert_eq!(entries.len(), 5);
        assert_eq!(entries.iter().filter(|e| e.is_null()).count(), 2);
        assert_eq!(hook_entries(&json!({"hooks": []})), vec![Value::Null]);
    }

    #[test]
    fn pretooluse_hooks_are_counted_over_groups() {
        assert_eq!(pretooluse_hook_count(&json!({})), 0);
        let one =
            json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "a"}]}]}});
        assert_eq!(pretooluse_hook_count(&one), 1);
        let mut two = one.clone();
        merge(&mut two, &json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "b"}]}]}}));
        assert_eq!(pretooluse_hook_count(&two), 2);
        assert_eq!(pretooluse_hook_count(&json!({"hooks": {"PreToolUse": [{"matcher": "x"}]}})), 1);
        assert_eq!(pretooluse_hook_count(&json!({"hooks": {"PreToolUse": "odd"}})), 1);
        assert_eq!(pretooluse_hook_count(&json!({"hooks": {"PostToolUse": [{"hooks": [{}]}]}})), 0);
    }

    #[test]
    fn command_hook_matches_the_article_shape() {
        let v = settings_json(&HookSpec::pre_tool_use(HookTarget::Command("/g/deny.sh".into()), 5.0, false));
        assert_eq!(
            v.to_string(),
            r#"{"hooks":{"PreToolUse":[{"matcher":"Bash|Write|Edit|MultiEdit|NotebookEdit","hooks":[{"type":"command","command":"/g/deny.sh","timeout":5}]}]}}"#
        );
    }

    #[test]
    fn extra_settings_go_beside_the_hook_under_test() {
        let mut v = settings_json(&HookSpec::pre_tool_use(HookTarget::Command("/g/crash.sh".into()), 5.0, false));
        let extra = json!({"permissions": {"deny": ["Write(*)"]},
            "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "exit 2"}]}]}});
        merge(&mut v, &extra);
        let groups = v["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0]["hooks"][0]["command"], "/g/crash.sh", "ours stays first");
        assert_eq!(groups[1]["hooks"][0]["command"], "exit 2");
        assert_eq!(v["permissions"]["deny"][0], "Write(*)");
    }

    #[test]
    fn other_events_matchers_and_entry_keys() {
        let mut spec = HookSpec::pre_tool_use(HookTarget::Command("/g/deny.sh".into()), 5.0, false);
        spec.event = HookEvent::UserPromptSubmit;
        spec.extra = Some(json!({"statusMessage": "checking", "timeout": 7}));
        let v = settings_json(&spec);
        let group = &v["hooks"]["UserPromptSubmit"][0];
        assert!(group.get("matcher").is_none(), "{v}");
        assert_eq!(group["hooks"][0]["statusMessage"], "checking");
        assert_eq!(group["hooks"][0]["timeout"], 7, "the arm's keys win");
        spec.event = HookEvent::PermissionRequest;
        spec.matcher = Some("mcp__fs".into());
        let v = settings_json(&spec);
        assert_eq!(v["hooks"]["PermissionRequest"][0]["matcher"], "mcp__fs");
        assert!(v["hooks"].get("PreToolUse").is_none());
    }

    #[test]
    fn group_extra_appends_siblings_in_the_same_group_and_can_replace_the_matcher() {
        let mut spec = HookSpec::pre_tool_use(HookTarget::Command("/g/deny.sh".into()), 5.0, false);
        spec.group_extra = Some(json!({"hooks": [{"type": "command", "command": "exit 1"}]}));
        let v = settings_json(&spec);
        let groups = v["hooks"]["PreToolUse"].as_array().unwrap();
        assert_eq!(groups.len(), 1, "{v}");
        assert_eq!(groups[0]["hooks"][0]["command"], "/g/deny.sh", "ours stays first");
        assert_eq!(groups[0]["hooks"][1]["command"], "exit 1");
        spec.group_extra = Some(json!({"matcher": 42}));
        assert_eq!(settings_json(&spec)["hooks"]["PreToolUse"][0]["matcher"], 42);
    }

    #[test]
    fn native_adds_on_failure_block_and_http_uses_url() {
        let v = settings_json(&HookSpec::pre_tool_use(HookTarget::Http("http://127.0.0.1:9/deny".into()), 2.5, true));
        let entry = &v["hooks"]["PreToolUse"][0]["hooks"][0];
        assert_eq!(entry["type"], "http");
        assert_eq!(entry["url"], "http://127.0.0.1:9/deny");
        assert_eq!(entry["onFailure"], "block");
        assert_eq!(entry["timeout"], 2.5);
        assert!(entry.get("command").is_none());
    }
}
