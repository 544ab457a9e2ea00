//! The pure part of `seal --install`: rewrite a settings file's text so every
//! PreToolUse command hook runs through `failopen seal`.
//!
//! The text is edited in place: each wrapped hook's `command` string is
//! replaced at its exact span (and `"onFailure": "block"` inserted after the
//! hook's last member, in the object's own layout); every other byte stays
//! as written, numbers (`1e2`, integers beyond 64 bits) and key order
//! included. [`document`] reads the text with spans and refuses repeated
//! keys; [`protection`] decides, from each command's shell structure,
//! whether it is already sealed, can be wrapped, or runs seal in a way that
//! does not protect it.

pub mod document;
pub mod protection;

use std::fmt;

use jsonc_parser::ast::{Object, Value};
use jsonc_parser::common::Ranged;

use super::deadline::MAX_DEADLINE_SECS;
use super::decision::shell_quote;
use document::{member, DocumentError};
use protection::Protection;

/// One hook entry of the settings file, as named in reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookEntry {
    /// Index of the matcher group in `hooks.PreToolUse`.
    pub group: usize,
    /// The group's `matcher`, if it has one.
    pub matcher: Option<String>,
    /// Index of the hook in the group's `hooks`.
    pub index: usize,
    /// The command (as it was before wrapping), or why it was skipped.
    pub what: String,
}

impl fmt::Display for HookEntry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PreToolUse[{}]", self.group)?;
        if let Some(m) = &self.matcher {
            write!(f, " matcher {m:?}")?;
        }
        write!(f, " hook {}: {}", self.index, self.what)
    }
}

/// What [`wrap_settings`] did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct InstallSummary {
    /// Command hooks now wrapped with seal.
    pub wrapped: Vec<HookEntry>,
    /// Command hooks that already ran through seal (left alone).
    pub already_wrapped: Vec<HookEntry>,
    /// Command hooks whose shell command can turn a refusal into another exit
    /// code (seal inside `|| true`, behind `timeout`, a plain `g || true`, a
    /// subcommand that is not `seal`, ...): left alone, because wrapping
    /// them would not help; `what` says what is wrong. The user must fix
    /// each by hand.
    pub unprotected: Vec<HookEntry>,
    /// Hooks seal cannot wrap (not `"type": "command"`, or no command string).
    pub skipped: Vec<HookEntry>,
    /// Wrapped hooks that got `"onFailure": "block"`.
    pub on_failure_added: usize,
    /// Wrapped hooks left without it because they already had an `onFailure`.
    pub on_failure_kept: usize,
    /// Hooks in another agent's shape, which `--install` does not wrap
    /// (`hooks.BeforeTool`, `hooks.preToolUse`, a top-level `PreToolUse`).
    pub other_shape: Option<String>,
}

impl InstallSummary {
    /// Whether the settings text was modified.
    pub fn changed(&self) -> bool {
        !self.wrapped.is_empty()
    }
}

/// The settings text after [`wrap_settings`], and what it did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wrapped {
    /// The new text (the input, unchanged, when nothing was wrapped).
    pub text: String,
    /// What was wrapped, left alone or skipped.
    pub summary: InstallSummary,
}

/// One replacement: bytes `start..end` of the text become `with`.
struct Edit {
    start: usize,
    end: usize,
    with: String,
}

/// Wrap every PreToolUse command hook in the settings `text` with `seal_exe seal`.
///
/// The original command is a shell string, so it becomes
/// `SEAL_EXE seal [--deadline D] -- /bin/sh -c 'ORIGINAL'`: env assignments,
/// arguments and pipes keep their meaning, and a missing script still exits
/// non-zero (so seal refuses). When the hook has a `timeout` T, the deadline
/// is set to T − 1 s (T / 2 under 2 s) so seal always answers before Claude
/// Code gives up on the hook; without one, seal's default deadline applies.
/// Hooks already running through seal are left alone (idempotent), and so
/// are hooks whose command undoes seal or would undo it ([`protection`]);
/// every other byte of the text is kept.
///
/// With `add_on_failure` (the Claude Code that runs the hooks honours it),
/// each hook wrapped here also gets `"onFailure": "block"`, unless it has an
/// `onFailure` already: then a missing or broken seal binary still blocks.
pub fn wrap_settings(text: &str, seal_exe: &str, add_on_failure: bool) -> Result<Wrapped, DocumentError> {
    let root = document::parse(text)?;
    let mut summary = InstallSummary::default();
    let mut edits = Vec::new();
    let groups = root.as_object().and_then(|o| member(o, "hooks")).and_then(Value::as_object);
    let Some(groups) = groups.and_then(|h| member(h, "PreToolUse")).and_then(Value::as_array) else {
        summary.other_shape = other_shape(&root);
        return Ok(Wrapped { text: text.to_string(), summary });
    };
    for (group, entry) in groups.elements.iter().enumerate() {
        let Some(entry) = entry.as_object() else { continue };
        let matcher = member(entry, "matcher").and_then(Value::as_string_lit).map(|s| s.value.to_string());
        let Some(hooks) = member(entry, "hooks").and_then(Value::as_array) else { continue };
        for (index, hook) in hooks.elements.iter().enumerate() {
            let report = |what: String| HookEntry { group, matcher: matcher.clone(), index, what };
            let Some(hook) = hook.as_object() else {
                summary.skipped.push(report("not a JSON object".into()));
                continue;
            };
            let kind = member(hook, "type").and_then(Value::as_string_lit).map(|s| s.value.to_string());
            let kind = kind.unwrap_or_else(|| "(none)".into());
            if kind != "command" {
                summary.skipped.push(report(format!("type {kind:?} is not a command hook")));
                continue;
            }
            let Some(lit) = member(hook, "command").and_then(Value::as_string_lit) else {
                summary.skipped.push(report("command hook without a command string".into()));
                continue;
            };
            let command = lit.value.to_string();
            match protection::judge(&command, Some(seal_exe)) {
                Protection::Sealed => {
                    summary.already_wrapped.push(report(command));
                    continue;
                }
                Protection::NotProtected(why) => {
                    summary.unprotected.push(report(format!("{command}: {why}")));
                    continue;
                }
                Protection::Wrappable => {}
            }
            let timeout =
                member(hook, "timeout").and_then(Value::as_number_lit).and_then(|n| n.value.parse::<f64>().ok());
            let deadline = timeout.and_then(deadline_for_timeout);
            let wrapped = wrap_command(&command, seal_exe, deadline);
            edits.push(Edit { start: lit.range.start, end: lit.range.end, with: json_string(&wrapped) });
            if add_on_failure {
                if member(hook, "onFailure").is_some() {
                    summary.on_failure_kept += 1;
                } else {
                    edits.push(on_failure_edit(text, hook));
                    summary.on_failure_added += 1;
                }
            }
            let what = match deadline {
                Some(d) => format!("{command} (deadline {}s)", fmt_secs(d)),
                None => command,
            };
            summary.wrapped.push(report(what));
        }
    }
    let mut out = text.to_string();
    edits.sort_by_key(|e| e.start);
    for e in edits.iter().rev() {
        out.replace_range(e.start..e.end, &e.with);
    }
    Ok(Wrapped { text: out, summary })
}

/// Where `root` holds hooks in a shape `--install` does not wrap, named.
fn other_shape(root: &Value) -> Option<String> {
    let root = root.as_object()?;
    let hooks = member(root, "hooks").and_then(Value::as_object);
    if hooks.is_some_and(|h| member(h, "BeforeTool").is_some()) {
        Some("hooks.BeforeTool (Gemini CLI's shape)".into())
    } else if hooks.is_some_and(|h| member(h, "preToolUse").is_some()) {
        Some("hooks.preToolUse (Copilot CLI's shape)".into())
    } else if member(root, "PreToolUse").is_some() {
        Some("a top-level PreToolUse (Factory's hooks.json shape)".into())
    } else {
        None
    }
}

/// `s` as a JSON string literal.
fn json_string(s: &str) -> String {
    serde_json::to_string(s).expect("a string always serialises")
}

/// Insert `"onFailure": "block"` after the last member of `hook`, laid out
/// as its other members are: on a line of its own, indented like the last
/// member, when the object spans lines; else after the same separator.
fn on_failure_edit(text: &str, hook: &Object) -> Edit {
    let props = &hook.properties;
    let last = props.last().expect("a command hook has members");
    let colon = &text[last.name.range().end..last.value.range().start];
    let colon = if colon.trim() == ":" { colon } else { ": " };
    let separator = if text[hook.range.start..last.range.start].contains('\n') {
        let line_start = text[..last.range.start].rfind('\n').map_or(0, |i| i + 1);
        let indent = &text[line_start..last.range.start];
        let indent = if indent.trim().is_empty() { indent } else { "  " };
        format!(",\n{indent}")
    } else if props.len() >= 2 {
        let between = &text[props[props.len() - 2].range.end..last.range.start];
        if between.trim() == "," {
            between.to_string()
        } else {
            ", ".into()
        }
    } else {
        ", ".into()
    };
    Edit { start: last.range.end, end: last.range.end, with: format!("{separator}\"onFailure\"{colon}\"block\"") }
}

/// The seal command line for an original shell command string.
pub fn wrap_command(original: &str, seal_exe: &str, deadline: Option<f64>) -> String {
    let deadline = deadline.map(|d| format!("--deadline {} ", fmt_secs(d))).unwrap_or_default();
    // Always quote the original: it is one argument to `sh -c`.
    let quoted = format!("'{}'", original.replace('\'', r"'\''"));
    format!("{} seal {deadline}-- /bin/sh -c {quoted}", shell_quote(seal_exe))
}

/// Seal's deadline for a hook `timeout` in seconds: one second under it
/// (half of it below 2 s), rounded to the millisecond, at least 1 ms, and at
/// most seal's limit ([`MAX_DEADLINE_SECS`], one day: a hook that may run
/// longer still gets an answer from seal well before Claude Code gives up).
/// `None` for a timeout that is not a positive number. Whatever it returns
/// is a valid `--deadline`.
pub fn deadline_for_timeout(timeout: f64) -> Option<f64> {
    if !timeout.is_finite() || timeout <= 0.0 {
        return None;
    }
    let d = if timeout >= 2.0 { timeout - 1.0 } else { timeout / 2.0 };
    Some(((d * 1000.0).round() / 1000.0).clamp(0.001, MAX_DEADLINE_SECS))
}

fn fmt_secs(secs: f64) -> String {
    format!("{secs}")
}

/// The first `max` words of a POSIX shell command (quotes and backslashes
/// removed; no expansions), for the tests' round trip.
#[cfg(test)]
fn shell_words(s: &str, max: usize) -> Vec<String> {
    let mut words = Vec::new();
    let mut chars = s.chars().peekable();
    while words.len() < max {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            break;
        }
        let mut word = String::new();
        while let Some(c) = chars.next() {
            match c {
                c if c.is_whitespace() => break,
                '\'' => word.extend(chars.by_ref().take_while(|&c| c != '\'')),
                '"' => {
                    while let Some(c) = chars.next() {
                        match c {
                            '"' => break,
                            '\\' if chars.peek().is_some_and(|n| "\"\\$`".contains(*n)) => word.extend(chars.next()),
                            c => word.push(c),
                        }
                    }
                }
                '\\' => word.extend(chars.next()),
                c => word.push(c),
            }
        }
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    const EXE: &str = "/opt/fo/failopen";

    /// [`wrap_settings`] on `v` written out as pretty JSON; `v` becomes the result.
    fn wrap_value(v: &mut Value, seal_exe: &str, add_on_failure: bool) -> InstallSummary {
        let text = serde_json::to_string_pretty(v).unwrap();
        let out = wrap_settings(&text, seal_exe, add_on_failure).unwrap();
        *v = serde_json::from_str(&out.text).unwrap();
        out.summary
    }

    fn settings() -> Value {
        json!({
            "model": "x",
            "hooks": {
                "PreToolUse": [
                    {"matcher": "Bash|Write", "hooks": [
                        {"type": "command", "command": "/path/guard.sh --flag", "timeout": 5},
                        {"type": "http", "url": "http://127.0.0.1:1/hook"}
                    ]},
                    {"hooks": [{"type": "command", "command": "FOO=1 \"/g/it's.sh\" && cat x"}]}
                ],
                "PostToolUse": [{"hooks": [{"type": "command", "command": "/post.sh"}]}]
            },
            "zlast": true
        })
    }

    #[test]
    fn wraps_command_hooks_and_skips_http() {
        let mut v = settings();
        let s = wrap_value(&mut v, EXE, false);
        assert_eq!(s.wrapped.len(), 2, "{s:?}");
        assert_eq!(s.skipped.len(), 1);
        assert!(s.skipped[0].what.contains("\"http\""), "{:?}", s.skipped);
        assert_eq!(
            v["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
            "/opt/fo/failopen seal --deadline 4 -- /bin/sh -c '/path/guard.sh --flag'"
        );
        assert_eq!(
            v["hooks"]["PreToolUse"][1]["hooks"][0]["command"],
            r#"/opt/fo/failopen seal -- /bin/sh -c 'FOO=1 "/g/it'\''s.sh" && cat x'"#
        );
        assert_eq!(v["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"], 5);
        assert_eq!(v["hooks"]["PreToolUse"][0]["hooks"][1], json!({"type": "http", "url": "http://127.0.0.1:1/hook"}));
        assert_eq!(v["hooks"]["PostToolUse"][0]["hooks"][0]["command"], "/post.sh");
    }

    #[test]
    fn keeps_other_keys_and_their_order() {
        let mut v = settings();
        wrap_value(&mut v, EXE, false);
        let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["model", "hooks", "zlast"]);
        let hook_keys: Vec<_> = v["hooks"]["PreToolUse"][0]["hooks"][0].as_object().unwrap().keys().cloned().collect();
        assert_eq!(hook_keys, ["type", "command", "timeout"]);
    }

    #[test]
    fn idempotent() {
        let mut v = settings();
        wrap_value(&mut v, EXE, false);
        let once = v.clone();
        let s = wrap_value(&mut v, EXE, false);
        assert!(!s.changed());
        assert_eq!(s.already_wrapped.len(), 2);
        assert_eq!(v, once);
    }

    #[test]
    fn recognises_seal_by_hand_or_elsewhere_and_leaves_undone_seals_to_the_user() {
        let mut v = json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": "failopen seal -- /x.sh"},
            {"type": "command", "command": "'/other dir/failopen' seal --deadline 2 -- /x.sh"},
            {"type": "command", "command": "/opt/fo/fo-renamed seal -- /x.sh"},
            {"type": "command", "command": "failopen seal -- /x.sh || true"},
            {"type": "command", "command": "failopen seal -- /x.sh; echo done"},
            {"type": "command", "command": "failopen seal -- /x.sh | tee log"},
            {"type": "command", "command": "failopen sael -- /x.sh"},
            {"type": "command", "command": "/x/guard.sh seal"}
        ]}]}});
        let before = v.clone();
        let s = wrap_value(&mut v, "/opt/fo/fo-renamed", false);
        assert_eq!(s.already_wrapped.len(), 3, "{s:?}");
        assert_eq!(s.unprotected.len(), 4, "{s:?}");
        assert!(
            s.unprotected[0].what.ends_with(
                "/x.sh || true: `||` after seal turns its refusal (exit 2) into the exit code of what follows"
            ),
            "{:?}",
            s.unprotected[0]
        );
        assert!(s.unprotected[3].what.contains("\"sael\" where `seal` should be"), "{:?}", s.unprotected[3]);
        assert_eq!(s.wrapped.len(), 1, "only the plain guard is wrapped");
        let hooks = &v["hooks"]["PreToolUse"][0]["hooks"];
        for i in 0..7 {
            assert_eq!(hooks[i], before["hooks"]["PreToolUse"][0]["hooks"][i], "hook {i} left alone");
        }
    }

    /// A settings file as people write them: big and odd numbers, tabs,
    /// escapes, one-line and multi-line hooks, keys in no order.
    const HAND_WRITTEN: &str = "{\n\t\"zeta\": 123456789012345678901234567890,\n\t\"hooks\": {\"PreToolUse\": [\n\t\t{\"matcher\": \"Bash\",\n\t\t \"hooks\": [\n\t\t\t{\n\t\t\t\t\"type\": \"command\",\n\t\t\t\t\"command\": \"/g.sh \\\"x\\\" \\u00e9\",\n\t\t\t\t\"timeout\": 1e1\n\t\t\t},\n\t\t\t{ \"type\" : \"command\" , \"command\" : \"/h.sh\" },\n\t\t\t{\"type\":\"command\",\"command\":\"/i.sh\"}\n\t\t]}\n\t]},\n\t\"a\": 1.0, \"b\": 1e2, \"c\": -0, \"d\": \"\\u2028\\/\"\n}";

    #[test]
    fn keeps_every_byte_outside_the_wrapped_commands() {
        let out = wrap_settings(HAND_WRITTEN, EXE, true).unwrap();
        assert_eq!(out.summary.wrapped.len(), 3, "{:?}", out.summary);
        let expected = HAND_WRITTEN
            .replace(
                r#""/g.sh \"x\" \u00e9",
				"timeout": 1e1"#,
                r#""/opt/fo/failopen seal --deadline 9 -- /bin/sh -c '/g.sh \"x\" é'",
				"timeout": 1e1,
				"onFailure": "block""#,
            )
            .replace(r#""/h.sh" }"#, r#""/opt/fo/failopen seal -- /bin/sh -c '/h.sh'" , "onFailure" : "block" }"#)
            .replace(r#""/i.sh"}"#, r#""/opt/fo/failopen seal -- /bin/sh -c '/i.sh'","onFailure":"block"}"#);
        assert_eq!(out.text, expected);
        // And nothing else moved: a second run changes nothing.
        let again = wrap_settings(&out.text, EXE, true).unwrap();
        assert_eq!((again.text.as_str(), again.summary.already_wrapped.len()), (out.text.as_str(), 3));
    }

    #[test]
    fn a_file_with_repeated_keys_is_refused() {
        let text = "{\"hooks\": {\"PreToolUse\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"/first.sh\"}]}]},\n \"hooks\": {}}";
        let Err(DocumentError::Duplicates(d)) = wrap_settings(text, EXE, false) else { panic!() };
        assert_eq!((d[0].key.as_str(), d[0].lines.as_slice()), ("hooks", [1, 2].as_slice()));
    }

    #[test]
    fn wrapped_command_round_trips_through_the_shell_parser() {
        let original = r#"X="a b" /g/it's.sh 'q' "$HOME""#;
        let wrapped = wrap_command(original, "/p q/failopen", None);
        assert_eq!(shell_words(&wrapped, 8), ["/p q/failopen", "seal", "--", "/bin/sh", "-c", original]);
    }

    proptest::proptest! {
        #[test]
        fn any_command_survives_the_quoting(original in "[^\\x00]{0,40}") {
            let wrapped = wrap_command(&original, EXE, Some(1.5));
            let words = shell_words(&wrapped, 8);
            proptest::prop_assert_eq!(words, [EXE, "seal", "--deadline", "1.5", "--", "/bin/sh", "-c", original.as_str()]);
            // What --install writes (it wraps only a wrappable command) reads back as sealed.
            if protection::judge(&original, Some(EXE)) == Protection::Wrappable {
                proptest::prop_assert_eq!(protection::judge(&wrapped, None), Protection::Sealed);
            }
        }
    }

    #[test]
    fn deadlines() {
        assert_eq!(deadline_for_timeout(5.0), Some(4.0));
        assert_eq!(deadline_for_timeout(1.0), Some(0.5));
        assert_eq!(deadline_for_timeout(2.5), Some(1.5));
        assert_eq!(deadline_for_timeout(0.0), None);
    }

    #[test]
    fn deadlines_from_extreme_timeouts_are_valid() {
        // A huge timeout is capped at seal's limit instead of producing a
        // deadline seal would refuse (every wrapped call denied).
        assert_eq!(deadline_for_timeout(1e20), Some(86_400.0));
        assert_eq!(deadline_for_timeout(f64::MAX), Some(86_400.0));
        assert_eq!(deadline_for_timeout(86_401.0), Some(86_400.0));
        // A tiny one would round to 0, which seal refuses too.
        assert_eq!(deadline_for_timeout(0.0001), Some(0.001));
        assert_eq!(deadline_for_timeout(f64::INFINITY), None);
        assert_eq!(deadline_for_timeout(f64::NAN), None);
        for t in [1e-9, 0.0001, 0.5, 1.0, 2.0, 5.0, 59.9, 600.0, 86_400.0, 1e9, 1e20, f64::MAX] {
            let d = deadline_for_timeout(t).unwrap();
            let flag = fmt_secs(d);
            assert!(crate::seal::deadline::parse(&flag).is_ok(), "timeout {t} gave --deadline {flag}");
        }
    }

    #[test]
    fn huge_timeout_is_wrapped_with_the_capped_deadline() {
        let mut v =
            json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "/g.sh", "timeout": 1e20}]}]}});
        let s = wrap_value(&mut v, EXE, false);
        assert_eq!(
            v["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
            "/opt/fo/failopen seal --deadline 86400 -- /bin/sh -c '/g.sh'"
        );
        assert!(s.wrapped[0].what.ends_with("(deadline 86400s)"), "{:?}", s.wrapped);
    }

    #[test]
    fn on_failure_block_is_added_to_wrapped_hooks_without_one() {
        let mut v = json!({"hooks": {"PreToolUse": [{"hooks": [
            {"type": "command", "command": "/a.sh", "timeout": 5},
            {"type": "command", "command": "/b.sh", "onFailure": "allow"},
            {"type": "command", "command": "/opt/fo/failopen seal -- /c.sh"},
            {"type": "http", "url": "http://127.0.0.1:1/"}
        ]}]}});
        let s = wrap_value(&mut v, EXE, true);
        let hooks = &v["hooks"]["PreToolUse"][0]["hooks"];
        assert_eq!(hooks[0]["onFailure"], "block");
        let keys: Vec<_> = hooks[0].as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["type", "command", "timeout", "onFailure"]);
        assert_eq!(hooks[1]["onFailure"], "allow", "an existing onFailure is the user's choice");
        assert_eq!(hooks[2].get("onFailure"), None, "already wrapped: left alone");
        assert_eq!(hooks[3].get("onFailure"), None, "not wrapped");
        assert_eq!((s.on_failure_added, s.on_failure_kept), (1, 1));

        let mut v = settings();
        let s = wrap_value(&mut v, EXE, false);
        assert_eq!(v["hooks"]["PreToolUse"][0]["hooks"][0].get("onFailure"), None);
        assert_eq!((s.on_failure_added, s.on_failure_kept), (0, 0));
    }

    #[test]
    fn no_hooks_no_change() {
        let mut v = json!({"a": 1});
        assert_eq!(wrap_value(&mut v, EXE, false), InstallSummary::default());
        assert_eq!(v, json!({"a": 1}));
    }
}
