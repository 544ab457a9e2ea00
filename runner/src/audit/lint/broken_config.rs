//! Static checks of a settings file's shape: the mistakes that make Claude
//! Code skip the whole file, or ignore an entry, silently in `claude -p`.
//!
//! Measured (arms `deny/bare+*` of `arms/surface.json`, notes in
//! `docs/guard-io-and-broken-config.md`), each beside a healthy deny guard:
//! - an entry that breaks the hooks schema (a matcher that is not a string,
//!   an unknown `type`, a `timeout` that is not a number, ...) under
//!   `PreToolUse` or `PermissionRequest`, or a top-level key of the wrong
//!   type (`"permissions": {"allow": "Bash"}`), makes Claude Code skip the
//!   whole file on 2.1.240 and 2.1.328: none of its hooks runs;
//! - the same mistake under another event skips the whole file up to
//!   [`OTHER_EVENT_STRIPPED_SINCE`], and from that release on only the entry;
//! - matchers are case-sensitive: `write` never matches `Write`;
//! - an unknown key on a hook entry is ignored (the entry still loads), so a
//!   misspelt `onFailure` protects nothing.

use serde_json::Value;

use super::hook_schema::{known_keys, required_strings, HOOK_EVENTS, TOOLS};
use crate::audit::intake::config::SettingsFile;
use crate::audit::model::{Finding, Severity};
use crate::hook_type::HookType;
use crate::version::Version;

/// The first Claude Code release that ignores only the broken entry of an
/// event other than PreToolUse/PermissionRequest, instead of the whole file
/// (`failopen bisect --arm deny/bare+other-event-matcher-not-string`:
/// results/bisect-deny-bare+other-event-matcher-not-string.txt).
pub const OTHER_EVENT_STRIPPED_SINCE: &str = "2.1.257";

/// Events whose broken entry makes every version measured skip the whole file.
const GUARD_EVENTS: &[&str] = &["PreToolUse", "PermissionRequest"];

/// Every broken-configuration finding for one settings file. `agent_version`
/// is the Claude Code the audit ran (None: static only, both behaviours named).
pub fn check_file(file: &SettingsFile, agent_version: Option<&str>) -> Vec<Finding> {
    let mut c = Checker { file: file.path.display().to_string(), version: agent_version, out: Vec::new() };
    c.top_level(&file.value);
    if let Some(hooks) = file.value.get("hooks") {
        c.hooks(hooks);
    }
    c.out
}

struct Checker<'a> {
    file: String,
    version: Option<&'a str>,
    out: Vec<Finding>,
}

impl Checker<'_> {
    fn push(&mut self, severity: Severity, code: &'static str, message: String) {
        self.out.push(Finding { hook: None, severity, code: code.into(), message });
    }

    /// A schema error: what it does depends on the event and the version.
    fn invalid(&mut self, event: Option<&str>, path: &str, problem: &str) {
        let file = self.file.clone();
        let whole_file = "Claude Code skips this whole file, silently: none of its hooks or permissions apply";
        match event {
            Some(e) if !GUARD_EVENTS.contains(&e) => {
                let stripped = self.version.and_then(|v| v.parse::<Version>().ok()).map(|v| {
                    v >= OTHER_EVENT_STRIPPED_SINCE.parse::<Version>().expect("OTHER_EVENT_STRIPPED_SINCE is a version")
                });
                let (severity, effect) = match stripped {
                    Some(true) => (
                        Severity::Warning,
                        format!(
                            "this Claude Code ignores the entry (from {OTHER_EVENT_STRIPPED_SINCE} on; earlier \
                             releases skip the whole file)"
                        ),
                    ),
                    Some(false) => (
                        Severity::Error,
                        format!(
                            "{whole_file} on this Claude Code (measured on 2.1.240; from {OTHER_EVENT_STRIPPED_SINCE} \
                             only the entry is ignored)"
                        ),
                    ),
                    None => (
                        Severity::Error,
                        format!(
                            "before Claude Code {OTHER_EVENT_STRIPPED_SINCE}, {} (measured on 2.1.240); from \
                             {OTHER_EVENT_STRIPPED_SINCE} on, only the entry is ignored",
                            whole_file.replacen("Claude Code skips", "it skips", 1)
                        ),
                    ),
                };
                self.push(severity, "invalid-hook-entry", format!("{file} {path}: {problem}: {effect}"));
            }
            _ => self.push(
                Severity::Error,
                if event.is_some() { "invalid-hook-entry" } else { "settings-rejected" },
                format!("{file} {path}: {problem}: {whole_file} (measured on 2.1.240 and 2.1.328)"),
            ),
        }
    }

    fn top_level(&mut self, v: &Value) {
        if let Some(p) = v.get("permissions") {
            let Some(p) = p.as_object() else {
                self.invalid(None, "permissions", &format!("must be an object, not {}", kind(p)));
                return;
            };
            for key in ["allow", "deny", "ask"] {
                match p.get(key) {
                    None => {}
                    Some(Value::Array(items)) => {
                        if let Some(i) = items.iter().position(|r| !r.is_string()) {
                            self.invalid(None, &format!("permissions.{key}[{i}]"), "a rule must be a string");
                        }
                    }
                    Some(other) => self.invalid(
                        None,
                        &format!("permissions.{key}"),
                        &format!("must be an array of rules, not {}", kind(other)),
                    ),
                }
            }
        }
    }

    fn hooks(&mut self, hooks: &Value) {
        let Some(events) = hooks.as_object() else {
            self.invalid(None, "hooks", &format!("must be an object of events, not {}", kind(hooks)));
            return;
        };
        for (event, groups) in events {
            if !HOOK_EVENTS.contains(&event.as_str()) {
                let near = HOOK_EVENTS.iter().find(|e| e.eq_ignore_ascii_case(event) || close(e, event));
                let file = self.file.clone();
                self.push(
                    Severity::Warning,
                    "unknown-hook-event",
                    format!(
                        "{file} hooks.{event}: not a hook event{}: its hooks never run (ignored on 2.1.240 and 2.1.328)",
                        near.map(|n| format!(" (did you mean {n}?)")).unwrap_or_default()
                    ),
                );
                continue;
            }
            let Some(groups) = groups.as_array() else {
                self.invalid(
                    Some(event),
                    &format!("hooks.{event}"),
                    &format!("must be an array, not {}", kind(groups)),
                );
                continue;
            };
            for (g, group) in groups.iter().enumerate() {
                self.group(event, &format!("hooks.{event}[{g}]"), group);
            }
        }
    }

    fn group(&mut self, event: &str, path: &str, group: &Value) {
        let Some(obj) = group.as_object() else {
            self.invalid(Some(event), path, &format!("a matcher group must be an object, not {}", kind(group)));
            return;
        };
        match obj.get("matcher") {
            None | Some(Value::Null) => {}
            Some(Value::String(m)) => self.matcher_case(path, m),
            Some(other) => self.invalid(
                Some(event),
                &format!("{path}.matcher"),
                &format!("the matcher must be a string, not {}", kind(other)),
            ),
        }
        let Some(hooks) = obj.get("hooks").and_then(Value::as_array) else {
            let what = obj.get("hooks").map(kind).unwrap_or("missing");
            self.invalid(Some(event), &format!("{path}.hooks"), &format!("must be an array of hooks, not {what}"));
            return;
        };
        for (i, hook) in hooks.iter().enumerate() {
            self.hook(event, &format!("{path}.hooks[{i}]"), hook);
        }
    }

    fn hook(&mut self, event: &str, path: &str, hook: &Value) {
        let Some(obj) = hook.as_object() else {
            self.invalid(Some(event), path, &format!("a hook must be an object, not {}", kind(hook)));
            return;
        };
        let ty = obj.get("type").and_then(Value::as_str).and_then(HookType::parse);
        let Some((ty, keys)) = ty.and_then(|t| Some((t, known_keys(t)?))) else {
            let shown = obj.get("type").map(|t| t.to_string()).unwrap_or_else(|| "missing".into());
            self.invalid(
                Some(event),
                &format!("{path}.type"),
                &format!("type {shown} is not a hook type (command, http, prompt, agent, mcp_tool)"),
            );
            return;
        };
        for field in required_strings(ty) {
            if !obj.get(*field).is_some_and(Value::is_string) {
                self.invalid(Some(event), &format!("{path}.{field}"), &format!("a {ty} hook needs a string {field:?}"));
            }
        }
        if let Some(t) = obj.get("timeout") {
            if !t.as_f64().is_some_and(|t| t > 0.0) {
                self.invalid(
                    Some(event),
                    &format!("{path}.timeout"),
                    &format!("the timeout must be a positive number of seconds, not {t}"),
                );
            }
        }
        for key in obj.keys().filter(|k| !keys.contains(&k.as_str())) {
            let near = keys.iter().find(|k| close(k, key));
            let file = self.file.clone();
            let (severity, hint) = match near {
                Some(n) => (Severity::Warning, format!(" (did you mean {n:?}? as written it does nothing)")),
                None => (Severity::Info, String::new()),
            };
            self.push(
                severity,
                "unknown-hook-key",
                format!(
                    "{file} {path}.{key}: not a key of a {ty} hook{hint}; Claude Code ignores it and loads the entry \
                     (measured on 2.1.240 and 2.1.328)"
                ),
            );
        }
    }

    fn matcher_case(&mut self, path: &str, matcher: &str) {
        for word in matcher.split(|c: char| !c.is_ascii_alphanumeric() && c != '_') {
            if TOOLS.contains(&word) {
                continue;
            }
            if let Some(tool) = TOOLS.iter().find(|t| t.eq_ignore_ascii_case(word)) {
                let file = self.file.clone();
                self.push(
                    Severity::Warning,
                    "matcher-case",
                    format!(
                        "{file} {path}.matcher: {word:?} is not {tool:?}: matchers are case-sensitive (measured on \
                         2.1.240 and 2.1.328), so this entry never runs for {tool}"
                    ),
                );
            }
        }
    }
}

/// A JSON value's kind, for messages.
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Whether `b` is a likely misspelling of `a`: a different word within two
/// edits (insert, delete, substitute, or swap two neighbours).
fn close(a: &str, b: &str) -> bool {
    if a == b {
        return false;
    }
    let (a, b): (Vec<char>, Vec<char>) = (a.to_lowercase().chars().collect(), b.to_lowercase().chars().collect());
    if a.len().abs_diff(b.len()) > 2 {
        return false;
    }
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()] <= 2
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(value: Value, version: Option<&str>) -> Vec<(String, Severity, String)> {
        let f = SettingsFile { path: "s.json".into(), project_dir: "/p".into(), value, managed: false, plugin: None };
        check_file(&f, version).into_iter().map(|f| (f.code, f.severity, f.message)).collect()
    }

    fn deny() -> Value {
        json!({"type": "command", "command": "/g/deny.sh", "timeout": 5})
    }

    #[test]
    fn a_healthy_file_has_no_finding() {
        let v = json!({"permissions": {"deny": ["Bash(rm:*)"]}, "hooks": {
            "PreToolUse": [{"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit", "hooks": [deny()]}],
            "UserPromptSubmit": [{"hooks": [{"type": "prompt", "prompt": "p", "timeout": 5}]}]}});
        assert!(check(v, None).is_empty());
    }

    #[test]
    fn a_non_string_matcher_under_pretooluse_skips_the_file_on_every_version() {
        let v = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [deny()]}, {"matcher": 42, "hooks": [deny()]}]}});
        for version in [None, Some("2.1.240"), Some("2.1.328")] {
            let f = check(v.clone(), version);
            assert_eq!(f.len(), 1, "{f:?}");
            assert_eq!((f[0].0.as_str(), f[0].1), ("invalid-hook-entry", Severity::Error));
            assert!(f[0]
                .2
                .starts_with("s.json hooks.PreToolUse[1].matcher: the matcher must be a string, not a number"));
            assert!(f[0].2.contains("skips this whole file"), "{}", f[0].2);
        }
    }

    #[test]
    fn a_broken_entry_elsewhere_depends_on_the_version() {
        let v = json!({"hooks": {"PostToolUse": [{"matcher": 42, "hooks": [deny()]}]}});
        let on = |version| check(v.clone(), version).into_iter().map(|f| f.1).collect::<Vec<_>>();
        assert_eq!(on(Some("2.1.240")), [Severity::Error]);
        assert_eq!(on(Some(OTHER_EVENT_STRIPPED_SINCE)), [Severity::Warning]);
        assert_eq!(on(Some("2.1.328")), [Severity::Warning]);
        let unknown = check(v, None);
        assert_eq!(unknown[0].1, Severity::Error);
        assert!(unknown[0].2.contains(&format!("before Claude Code {OTHER_EVENT_STRIPPED_SINCE}")), "{}", unknown[0].2);
    }

    #[test]
    fn entries_that_break_the_schema() {
        let v = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
            {"type": "shell", "command": "x"},
            {"type": "command"},
            {"type": "command", "command": "x", "timeout": "5"},
            "not an object"
        ]}, {"matcher": "Write"}]}});
        let f = check(v, Some("2.1.328"));
        let paths: Vec<&str> = f.iter().map(|f| f.2.split(':').next().unwrap()).collect();
        assert_eq!(
            paths,
            [
                "s.json hooks.PreToolUse[0].hooks[0].type",
                "s.json hooks.PreToolUse[0].hooks[1].command",
                "s.json hooks.PreToolUse[0].hooks[2].timeout",
                "s.json hooks.PreToolUse[0].hooks[3]",
                "s.json hooks.PreToolUse[1].hooks",
            ]
        );
        assert!(f.iter().all(|f| f.1 == Severity::Error));
    }

    #[test]
    fn top_level_keys_of_the_wrong_type_reject_the_file() {
        let f = check(json!({"permissions": {"allow": "Bash"}}), None);
        assert_eq!(f.len(), 1);
        assert_eq!((f[0].0.as_str(), f[0].1), ("settings-rejected", Severity::Error));
        assert!(f[0].2.starts_with("s.json permissions.allow: must be an array of rules, not a string"), "{}", f[0].2);
        assert_eq!(check(json!({"hooks": []}), None)[0].0, "settings-rejected");
        assert_eq!(check(json!({"permissions": {"deny": [3]}}), None)[0].0, "settings-rejected");
    }

    #[test]
    fn matcher_case_and_unknown_keys() {
        let mut own = deny();
        own["onFaliure"] = json!("block");
        own["description"] = json!("the project guard");
        let v = json!({"hooks": {"PreToolUse": [{"matcher": "bash|Write|^edit$", "hooks": [own]}]}});
        let f = check(v, None);
        let got: Vec<(&str, Severity)> = f.iter().map(|f| (f.0.as_str(), f.1)).collect();
        assert_eq!(
            got,
            [
                ("matcher-case", Severity::Warning),
                ("matcher-case", Severity::Warning),
                ("unknown-hook-key", Severity::Warning),
                ("unknown-hook-key", Severity::Info),
            ],
            "{f:?}"
        );
        assert!(f[0].2.contains("\"bash\" is not \"Bash\""), "{}", f[0].2);
        assert!(f[1].2.contains("\"edit\" is not \"Edit\""), "{}", f[1].2);
        assert!(f[2].2.contains("onFaliure") && f[2].2.contains("did you mean \"onFailure\""), "{}", f[2].2);
    }

    #[test]
    fn unknown_events_are_named() {
        let f = check(json!({"hooks": {"PreToolUser": [{"matcher": "Bash", "hooks": [deny()]}]}}), None);
        assert_eq!(f[0].0, "unknown-hook-event");
        assert!(f[0].2.contains("did you mean PreToolUse?"), "{}", f[0].2);
    }

    #[test]
    fn misspellings_are_close_words() {
        assert!(close("onFailure", "onFaliure"));
        assert!(close("onFailure", "onfailure"));
        assert!(close("timeout", "timout"));
        assert!(!close("timeout", "timeout"));
        assert!(!close("onFailure", "description"));
    }
}
