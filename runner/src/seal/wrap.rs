//! The pure part of `seal --install`: rewrite settings JSON so every
//! PreToolUse command hook runs through `failopen seal`.

use std::fmt;

use serde_json::Value;

use super::deadline::MAX_DEADLINE_SECS;
use super::decision::shell_quote;
use super::invocation::{self, SealUse};

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
    /// Command hooks that run failopen in a way that does not protect them
    /// (the command around seal undoes it, or the subcommand is not `seal`):
    /// left alone, because wrapping them again would not help; `what` says
    /// what is wrong. The user must fix each by hand.
    pub unprotected: Vec<HookEntry>,
    /// Hooks seal cannot wrap (not `"type": "command"`, or no command string).
    pub skipped: Vec<HookEntry>,
    /// Wrapped hooks that got `"onFailure": "block"`.
    pub on_failure_added: usize,
    /// Wrapped hooks left without it because they already had an `onFailure`.
    pub on_failure_kept: usize,
}

impl InstallSummary {
    /// Whether the settings value was modified.
    pub fn changed(&self) -> bool {
        !self.wrapped.is_empty()
    }
}

/// Wrap every PreToolUse command hook in `value` with `seal_exe seal`.
///
/// The original command is a shell string, so it becomes
/// `SEAL_EXE seal [--deadline D] -- /bin/sh -c 'ORIGINAL'`: env assignments,
/// arguments and pipes keep their meaning, and a missing script still exits
/// non-zero (so seal refuses). When the hook has a `timeout` T, the deadline
/// is set to T − 1 s (T / 2 under 2 s) so seal always answers before Claude
/// Code gives up on the hook; without one, seal's default deadline applies.
/// Hooks already running through seal are left alone (idempotent); other
/// keys and their order are untouched.
///
/// With `add_on_failure` (the Claude Code that runs the hooks honours it),
/// each hook wrapped here also gets `"onFailure": "block"`, unless it has an
/// `onFailure` already: then a missing or broken seal binary still blocks.
pub fn wrap_settings(value: &mut Value, seal_exe: &str, add_on_failure: bool) -> InstallSummary {
    let mut summary = InstallSummary::default();
    let Some(groups) = value.pointer_mut("/hooks/PreToolUse").and_then(Value::as_array_mut) else {
        return summary;
    };
    for (group, entry) in groups.iter_mut().enumerate() {
        let matcher = entry.get("matcher").and_then(Value::as_str).map(str::to_string);
        let Some(hooks) = entry.get_mut("hooks").and_then(Value::as_array_mut) else { continue };
        for (index, hook) in hooks.iter_mut().enumerate() {
            let report = |what: String| HookEntry { group, matcher: matcher.clone(), index, what };
            let kind = hook.get("type").and_then(Value::as_str).unwrap_or("(none)").to_string();
            if kind != "command" {
                summary.skipped.push(report(format!("type {kind:?} is not a command hook")));
                continue;
            }
            let Some(command) = hook.get("command").and_then(Value::as_str).map(str::to_string) else {
                summary.skipped.push(report("command hook without a command string".into()));
                continue;
            };
            match invocation::classify_for(&command, Some(seal_exe)) {
                SealUse::Sealed(_) => {
                    summary.already_wrapped.push(report(command));
                    continue;
                }
                use_ @ (SealUse::Undone { .. } | SealUse::Mistyped { .. }) => {
                    let problem = use_.problem().unwrap_or_default();
                    summary.unprotected.push(report(format!("{command}: {problem}")));
                    continue;
                }
                SealUse::NotSealed => {}
            }
            let deadline = hook.get("timeout").and_then(Value::as_f64).and_then(deadline_for_timeout);
            hook["command"] = Value::String(wrap_command(&command, seal_exe, deadline));
            if add_on_failure {
                if hook.get("onFailure").is_some() {
                    summary.on_failure_kept += 1;
                } else {
                    hook["onFailure"] = Value::String("block".into());
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
    summary
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
    use serde_json::json;

    const EXE: &str = "/opt/fo/failopen";

    fn settings() -> Value {
        json!({
            "model": "x",
            "hooks": {
                "PreToolUse": [
                    {"matcher": "Bash|Write", "hooks": [
                        {"type": "command", "command": "/path/guard.sh --flag", "timeout": 5},
                        {"type": "http", "url": "http://127.0.0.1:1/hook"}
                    ]},
                    {"hooks": [{"type": "command", "command": "FOO=1 /g/it's.sh | cat"}]}
                ],
                "PostToolUse": [{"hooks": [{"type": "command", "command": "/post.sh"}]}]
            },
            "zlast": true
        })
    }

    #[test]
    fn wraps_command_hooks_and_skips_http() {
        let mut v = settings();
        let s = wrap_settings(&mut v, EXE, false);
        assert_eq!(s.wrapped.len(), 2, "{s:?}");
        assert_eq!(s.skipped.len(), 1);
        assert!(s.skipped[0].what.contains("\"http\""), "{:?}", s.skipped);
        assert_eq!(
            v["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
            "/opt/fo/failopen seal --deadline 4 -- /bin/sh -c '/path/guard.sh --flag'"
        );
        assert_eq!(
            v["hooks"]["PreToolUse"][1]["hooks"][0]["command"],
            r"/opt/fo/failopen seal -- /bin/sh -c 'FOO=1 /g/it'\''s.sh | cat'"
        );
        assert_eq!(v["hooks"]["PreToolUse"][0]["hooks"][0]["timeout"], 5);
        assert_eq!(v["hooks"]["PreToolUse"][0]["hooks"][1], json!({"type": "http", "url": "http://127.0.0.1:1/hook"}));
        assert_eq!(v["hooks"]["PostToolUse"][0]["hooks"][0]["command"], "/post.sh");
    }

    #[test]
    fn keeps_other_keys_and_their_order() {
        let mut v = settings();
        wrap_settings(&mut v, EXE, false);
        let keys: Vec<_> = v.as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["model", "hooks", "zlast"]);
        let hook_keys: Vec<_> = v["hooks"]["PreToolUse"][0]["hooks"][0].as_object().unwrap().keys().cloned().collect();
        assert_eq!(hook_keys, ["type", "command", "timeout"]);
    }

    #[test]
    fn idempotent() {
        let mut v = settings();
        wrap_settings(&mut v, EXE, false);
        let once = v.clone();
        let s = wrap_settings(&mut v, EXE, false);
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
        let s = wrap_settings(&mut v, "/opt/fo/fo-renamed", false);
        assert_eq!(s.already_wrapped.len(), 3, "{s:?}");
        assert_eq!(s.unprotected.len(), 4, "{s:?}");
        assert!(s.unprotected[0].what.contains("undoes it: `||` after seal"), "{:?}", s.unprotected[0]);
        assert!(s.unprotected[3].what.contains("\"sael\" where `seal` should be"), "{:?}", s.unprotected[3]);
        assert_eq!(s.wrapped.len(), 1, "only the plain guard is wrapped");
        let hooks = &v["hooks"]["PreToolUse"][0]["hooks"];
        for i in 0..7 {
            assert_eq!(hooks[i], before["hooks"]["PreToolUse"][0]["hooks"][i], "hook {i} left alone");
        }
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
            proptest::prop_assert!(invocation::classify_for(&wrapped, None).is_sealed());
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
        let s = wrap_settings(&mut v, EXE, false);
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
        let s = wrap_settings(&mut v, EXE, true);
        let hooks = &v["hooks"]["PreToolUse"][0]["hooks"];
        assert_eq!(hooks[0]["onFailure"], "block");
        let keys: Vec<_> = hooks[0].as_object().unwrap().keys().cloned().collect();
        assert_eq!(keys, ["type", "command", "timeout", "onFailure"]);
        assert_eq!(hooks[1]["onFailure"], "allow", "an existing onFailure is the user's choice");
        assert_eq!(hooks[2].get("onFailure"), None, "already wrapped: left alone");
        assert_eq!(hooks[3].get("onFailure"), None, "not wrapped");
        assert_eq!((s.on_failure_added, s.on_failure_kept), (1, 1));

        let mut v = settings();
        let s = wrap_settings(&mut v, EXE, false);
        assert_eq!(v["hooks"]["PreToolUse"][0]["hooks"][0].get("onFailure"), None);
        assert_eq!((s.on_failure_added, s.on_failure_kept), (0, 0));
    }

    #[test]
    fn no_hooks_no_change() {
        let mut v = json!({"a": 1});
        assert_eq!(wrap_settings(&mut v, EXE, false), InstallSummary::default());
        assert_eq!(v, json!({"a": 1}));
    }
}
