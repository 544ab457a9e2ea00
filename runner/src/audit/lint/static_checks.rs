//! Static checks of each PreToolUse hook entry: no Claude Code run needed.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use super::matcher;
use crate::audit::intake::command::{self, ParsedCommand};
use crate::audit::intake::config::{HookEntry, HookKind};
use crate::audit::intake::file_read::shebang_interpreter;
use crate::audit::model::{Finding, OnFailure, Severity};
use crate::hook_type::HookType;

/// Claude Code's hook timeout when none is set, in seconds.
pub const DEFAULT_TIMEOUT_SECS: f64 = 600.0;
/// The first Claude Code release that applies `"onFailure": "block"` to an
/// `mcp_tool` hook whose server failed (`failopen bisect --arm
/// mcp-error/native`: results/bisect-mcp-error-native.txt).
pub const MCP_ON_FAILURE_SINCE: &str = "2.1.328";

/// A timeout above this many seconds earns a warning.
pub const SENSIBLE_TIMEOUT_SECS: f64 = 60.0;

/// Facts about the machine the checks need (passed in, not read here).
#[derive(Debug, Clone)]
pub struct Env<'a> {
    /// `$PATH`.
    pub path_var: &'a str,
    /// `$HOME`.
    pub home: Option<&'a Path>,
    /// The Claude Code version the dynamic checks ran on, if they did.
    pub agent_version: Option<&'a str>,
}

/// Every static finding for `entries`. `on_failure` says whether the Claude
/// Code being audited honours `"onFailure": "block"`.
pub fn check_all(entries: &[HookEntry], on_failure: OnFailure, env: &Env) -> Vec<Finding> {
    let coverage = write_tool_coverage(entries);
    let mut out = Vec::new();
    for e in entries {
        out.extend(check_entry(e, on_failure, env));
        out.extend(check_matcher(e, &coverage));
    }
    out
}

/// How many guarding entries (not `Other`) cover each write tool.
pub fn write_tool_coverage(entries: &[HookEntry]) -> matcher::Coverage {
    let guarding = entries.iter().filter(|e| !matches!(e.kind, HookKind::Other { .. }));
    matcher::Coverage::of(guarding.map(|e| e.matcher.as_deref()), &crate::task::WRITE_TOOLS)
}

fn finding(e: &HookEntry, severity: Severity, code: &'static str, message: String) -> Finding {
    Finding { hook: Some(e.id.clone()), severity, code: code.to_string(), message }
}

/// The checks that depend on this entry alone.
pub fn check_entry(e: &HookEntry, on_failure: OnFailure, env: &Env) -> Vec<Finding> {
    let mut out = Vec::new();
    match &e.kind {
        HookKind::Command { command } => {
            let parsed = command::parse(command);
            if let Some((code, problem)) = &parsed.seal_problem {
                out.push(finding(e, Severity::Error, code, problem.clone()));
            }
            out.extend(check_script(e, &parsed, env));
            out.extend(check_timeout(e));
            match &parsed.seal_prefix {
                Some(prefix) => out.extend(check_seal_binary(e, prefix, on_failure, env)),
                None => out.extend(check_protection(e, on_failure, HookType::Command)),
            }
        }
        HookKind::Http { .. } => {
            out.extend(check_timeout(e));
            out.extend(check_protection(e, on_failure, HookType::Http));
        }
        HookKind::Model { model_kind, .. } => {
            out.push(finding(
                e,
                Severity::Warning,
                "model-fails-open",
                format!(
                    "a {model_kind} hook lets the call through when its model fails (an HTTP error, a timeout, an answer \
                     that is not a verdict: measured on Claude Code 2.1.240 and 2.1.328); seal cannot wrap it: call the \
                     model from a command hook under failopen seal (guards/model-command.sh is an example)"
                ),
            ));
            if e.on_failure.is_some() {
                out.push(finding(
                    e,
                    Severity::Info,
                    "on-failure-ignored",
                    format!(
                        "onFailure has no effect on a {model_kind} hook (accepted and ignored on 2.1.240 and 2.1.328)"
                    ),
                ));
            }
        }
        HookKind::McpTool { server, tool } => {
            out.extend(check_timeout(e));
            let honoured = env
                .agent_version
                .and_then(|v| v.parse::<crate::version::Version>().ok())
                .map(|v| v >= MCP_ON_FAILURE_SINCE.parse::<crate::version::Version>().expect("a version"));
            match (e.on_failure_block(), honoured) {
                (true, Some(true)) => {}
                (true, None) => out.push(finding(
                    e,
                    Severity::Info,
                    "on-failure-unverified",
                    format!(
                        "relies on \"onFailure\": \"block\", which an mcp_tool hook honours from Claude Code \
                         {MCP_ON_FAILURE_SINCE} on (measured); the version is unknown here (--static-only)"
                    ),
                )),
                (on_failure, _) => out.push(finding(
                    e,
                    Severity::Warning,
                    "mcp-fails-open",
                    format!(
                        "the call goes through when {server}/{tool} fails (an isError result, a hang, garbage, a \
                         server that crashes or is missing: measured on 2.1.240 and 2.1.328){}",
                        if on_failure {
                            format!("; this Claude Code ignores onFailure here (honoured from {MCP_ON_FAILURE_SINCE})")
                        } else {
                            format!("; add \"onFailure\": \"block\" (honoured from Claude Code {MCP_ON_FAILURE_SINCE})")
                        }
                    ),
                )),
            }
        }
        HookKind::Other { kind } => out.push(finding(
            e,
            Severity::Info,
            "not-audited",
            format!("hook type {kind:?} is not audited (only command and http hooks are)"),
        )),
    }
    out
}

pub(in crate::audit) fn check_script(e: &HookEntry, parsed: &ParsedCommand, env: &Env) -> Vec<Finding> {
    let g = &parsed.guard;
    let mut out = Vec::new();
    if g.words.is_none() {
        out.push(finding(
            e,
            Severity::Info,
            "complex-command",
            "the command uses shell operators; its script was not checked".into(),
        ));
        return out;
    }
    if let Some(interp) = g.interpreter.as_ref().filter(|i| !command::resolved_at_run_time(i)) {
        if command::resolve(interp, &e.project_dir, env.path_var).is_none_or(|p| !p.exists()) {
            out.push(finding(
                e,
                Severity::Error,
                "interpreter-missing",
                format!("interpreter {interp:?} is not installed (not on PATH)"),
            ));
        }
    }
    if g.inline {
        return out;
    }
    let Some(word) = &g.script else { return out };
    if command::resolved_at_run_time(word) {
        out.push(finding(
            e,
            Severity::Info,
            "resolved-at-run-time",
            format!(
                "script {word:?} is resolved when the hook runs (a command substitution or a variable audit does not \
                 know): not checked statically; the sessions decide"
            ),
        ));
        return out;
    }
    let expanded = command::expand(word, &e.project_dir, env.home);
    let Some(path) = command::resolve(&expanded, &e.project_dir, env.path_var) else {
        out.push(finding(e, Severity::Error, "script-missing", format!("program {word:?} is not on PATH")));
        return out;
    };
    let Ok(meta) = path.metadata() else {
        out.push(finding(e, Severity::Error, "script-missing", format!("script {} does not exist", path.display())));
        return out;
    };
    if g.interpreter.is_none() {
        if meta.permissions().mode() & 0o111 == 0 {
            out.push(finding(
                e,
                Severity::Error,
                "not-executable",
                format!("script {} has no execute bit (chmod +x it)", path.display()),
            ));
        }
        if let Some(interp) = shebang_interpreter(&path) {
            let found = if interp.contains('/') {
                Path::new(&interp).exists()
            } else {
                command::which(&interp, env.path_var).is_some()
            };
            if !found {
                out.push(finding(
                    e,
                    Severity::Error,
                    "interpreter-missing",
                    format!("the shebang of {} names {interp:?}, which is not installed", path.display()),
                ));
            }
        }
    }
    out
}

/// A sealed hook whose `failopen` binary is missing or not executable
/// exits 126 or 127 before seal can refuse: it fails open, unless
/// `onFailure: "block"` is set and honoured.
pub(in crate::audit) fn check_seal_binary(
    e: &HookEntry,
    prefix: &[String],
    on_failure: OnFailure,
    env: &Env,
) -> Option<Finding> {
    let program = prefix.iter().find(|w| !command::is_assignment(w))?;
    let expanded = command::expand(program, &e.project_dir, env.home);
    let runnable = command::resolve(&expanded, &e.project_dir, env.path_var)
        .and_then(|p| p.metadata().ok())
        .is_some_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0);
    if runnable {
        return None;
    }
    let held = e.on_failure_block() && on_failure == OnFailure::Honoured;
    let (severity, tail) = if held {
        (Severity::Warning, "onFailure \"block\" holds it on this Claude Code, but fix the path")
    } else {
        (Severity::Error, "the hook exits 127 before seal runs, and the tool call goes through")
    };
    Some(finding(e, severity, "seal-missing", format!("seal binary {program:?} is missing or not executable: {tail}")))
}

fn check_timeout(e: &HookEntry) -> Option<Finding> {
    match e.timeout {
        None => Some(finding(
            e,
            Severity::Warning,
            "no-timeout",
            format!("no timeout: Claude Code waits {DEFAULT_TIMEOUT_SECS:.0} s for a hung guard, then lets the call through"),
        )),
        Some(t) if t > SENSIBLE_TIMEOUT_SECS => Some(finding(
            e,
            Severity::Warning,
            "long-timeout",
            format!("timeout {t} s is longer than {SENSIBLE_TIMEOUT_SECS:.0} s: a hung guard stalls every tool call that long"),
        )),
        Some(t) if t <= 0.0 => Some(finding(e, Severity::Warning, "bad-timeout", format!("timeout {t} is not a positive number of seconds"))),
        Some(_) => None,
    }
}

fn check_protection(e: &HookEntry, on_failure: OnFailure, kind: HookType) -> Option<Finding> {
    let unprotected = |what: &str| {
        let code = if kind == HookType::Http { "http-no-failure-policy" } else { "unprotected" };
        let fix = if kind == HookType::Http { "" } else { " and not wrapped by failopen seal" };
        finding(e, Severity::Warning, code, format!("{what}{fix}: when the guard breaks, the tool call goes through"))
    };
    match (e.on_failure_block(), on_failure) {
        (false, _) => Some(unprotected("no \"onFailure\": \"block\"")),
        (true, OnFailure::Honoured) => None,
        (true, OnFailure::Ignored) => Some(unprotected("\"onFailure\": \"block\" is ignored by this Claude Code version")),
        (true, OnFailure::Unknown) => Some(finding(
            e,
            Severity::Info,
            "on-failure-unverified",
            "relies on \"onFailure\": \"block\"; whether this Claude Code version honours it is unknown (--static-only)".into(),
        )),
    }
}

/// Write tools this entry leaves uncovered: a warning for a tool no
/// PreToolUse entry in the audited files covers, else informational.
fn check_matcher(e: &HookEntry, coverage: &matcher::Coverage) -> Vec<Finding> {
    if matches!(e.kind, HookKind::Other { .. }) {
        return vec![];
    }
    if let Some(err) = matcher::invalid_regex(e.matcher.as_deref()) {
        return vec![finding(
            e,
            Severity::Error,
            "bad-matcher",
            format!("matcher {:?} is not a valid regular expression: {err}", e.matcher.as_deref().unwrap_or("")),
        )];
    }
    let uncovered = matcher::uncovered_write_tools(e.matcher.as_deref());
    if uncovered.is_empty() {
        return vec![];
    }
    // `e` does not cover these tools, so every entry that does is another one.
    let (nobody, elsewhere): (Vec<&str>, Vec<&str>) =
        uncovered.into_iter().partition(|t| coverage.others(t, false) == 0);
    let m = e.matcher.as_deref().unwrap_or("");
    let mut out = Vec::new();
    if !nobody.is_empty() {
        out.push(finding(
            e,
            Severity::Warning,
            "uncovered-tools",
            format!("matcher {m:?} leaves {} uncovered, and no other PreToolUse hook covers them", nobody.join(", ")),
        ));
    }
    if !elsewhere.is_empty() {
        out.push(finding(
            e,
            Severity::Info,
            "uncovered-tools-elsewhere",
            format!("matcher {m:?} leaves {} to other hooks", elsewhere.join(", ")),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::intake::config::{entries, SettingsFile};
    use serde_json::json;

    fn audit(value: serde_json::Value, on_failure: OnFailure) -> Vec<(String, Severity)> {
        let f = SettingsFile {
            path: "s.json".into(),
            project_dir: "/nonexistent-project".into(),
            value,
            managed: false,
            plugin: None,
        };
        let env = Env { path_var: "/usr/bin:/bin", home: None, agent_version: None };
        check_all(&entries(&[f]), on_failure, &env).into_iter().map(|f| (f.code, f.severity)).collect()
    }

    fn codes(v: &[(String, Severity)]) -> Vec<&str> {
        v.iter().map(|(c, _)| c.as_str()).collect()
    }

    #[test]
    fn missing_script_no_timeout_unprotected_and_matcher() {
        let v = json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "/nope/g.sh"}]}]}});
        let f = audit(v, OnFailure::Honoured);
        assert_eq!(codes(&f), ["script-missing", "no-timeout", "unprotected", "uncovered-tools"]);
        assert_eq!(f[0].1, Severity::Error);
    }

    #[test]
    fn on_failure_counts_only_where_honoured() {
        let v = json!({"hooks": {"PreToolUse": [{"hooks": [{"type": "command", "command": "/bin/true", "timeout": 5, "onFailure": "block"}]}]}});
        assert!(audit(v.clone(), OnFailure::Honoured).is_empty());
        assert_eq!(codes(&audit(v.clone(), OnFailure::Ignored)), ["unprotected"]);
        assert_eq!(codes(&audit(v, OnFailure::Unknown)), ["on-failure-unverified"]);
    }

    #[test]
    fn sealed_inline_guard_with_full_matcher_is_clean() {
        let d = tempfile::tempdir().unwrap();
        let exe = d.path().join("failopen");
        std::fs::write(&exe, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        let v = json!({"hooks": {"PreToolUse": [{"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit", "hooks": [
            {"type": "command", "command": format!("{} seal -- /bin/sh -c 'exit 2'", exe.display()), "timeout": 10}]}]}});
        assert!(audit(v, OnFailure::Ignored).is_empty());
    }

    /// Audit and `seal --install` say the same thing of a seal the command
    /// around it undoes, or of failopen run without `seal`: an error, and
    /// the hook is unprotected.
    #[test]
    fn a_seal_undone_by_its_command_or_mistyped_is_an_error_and_unprotected() {
        for (command, code) in [
            ("failopen seal -- /bin/true || true", "seal-undone"),
            ("failopen seal -- /bin/true; echo done", "seal-undone"),
            ("failopen seal -- /bin/true | tee log", "seal-undone"),
            ("failopen sael -- /bin/true", "seal-mistyped"),
            ("failopen -- seal -- /bin/true", "seal-mistyped"),
        ] {
            let v = json!({"hooks": {"PreToolUse": [{"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit", "hooks": [
                {"type": "command", "command": command, "timeout": 5}]}]}});
            let f = audit(v, OnFailure::Ignored);
            assert_eq!(f[0], (code.to_string(), Severity::Error), "{command}: {f:?}");
            assert!(codes(&f).contains(&"unprotected"), "{command}: {f:?}");
        }
    }

    #[test]
    fn http_without_policy_and_missing_interpreter() {
        let v = json!({"hooks": {"PreToolUse": [
            {"hooks": [{"type": "http", "url": "http://127.0.0.1:9/", "timeout": 5}]},
            {"hooks": [{"type": "command", "command": "no-such-interpreter-xyz /g.sh", "timeout": 5}]}
        ]}});
        let f = audit(v, OnFailure::Ignored);
        assert_eq!(codes(&f), ["http-no-failure-policy", "script-missing", "unprotected"]);
    }

    #[test]
    fn a_sealed_hook_whose_seal_binary_is_gone_is_a_hole() {
        let gone = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit", "hooks": [
            {"type": "command", "command": "/nonexistent/target/release/failopen seal -- /bin/sh -c 'exit 2'", "timeout": 5}]}]}});
        let f = audit(gone.clone(), OnFailure::Unknown);
        assert!(f.contains(&("seal-missing".to_string(), Severity::Error)), "{f:?}");
        // With onFailure honoured, it still holds: a warning to fix the path.
        let mut held = gone;
        held["hooks"]["PreToolUse"][0]["hooks"][0]["onFailure"] = "block".into();
        let f = audit(held, OnFailure::Honoured);
        assert!(f.contains(&("seal-missing".to_string(), Severity::Warning)), "{f:?}");
        // An existing, executable seal is fine; one without its execute bit is not.
        let d = tempfile::tempdir().unwrap();
        let exe = d.path().join("failopen");
        std::fs::write(&exe, "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        let sealed = |exe: &Path| {
            json!({"hooks": {"PreToolUse": [{"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit", "hooks": [
                {"type": "command", "command": format!("{} seal -- /bin/sh -c 'exit 2'", exe.display()), "timeout": 5}]}]}})
        };
        assert!(!codes(&audit(sealed(&exe), OnFailure::Unknown)).contains(&"seal-missing"));
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o644)).unwrap();
        assert!(codes(&audit(sealed(&exe), OnFailure::Unknown)).contains(&"seal-missing"));
    }

    #[test]
    fn an_mcp_tool_hook_fails_open_unless_on_failure_is_honoured() {
        let hook = |on_failure: bool| {
            let mut h = json!({"type": "mcp_tool", "server": "policy", "tool": "check", "timeout": 5});
            if on_failure {
                h["onFailure"] = "block".into();
            }
            json!({"hooks": {"PreToolUse": [{"matcher": "Bash|Write|Edit|MultiEdit|NotebookEdit", "hooks": [h]}]}})
        };
        let on = |value: serde_json::Value, version: Option<&str>| {
            let f =
                SettingsFile { path: "s.json".into(), project_dir: "/p".into(), value, managed: false, plugin: None };
            let env = Env { path_var: "/usr/bin:/bin", home: None, agent_version: version };
            check_all(&entries(&[f]), OnFailure::Unknown, &env)
                .into_iter()
                .map(|f| (f.code, f.severity))
                .collect::<Vec<_>>()
        };
        assert_eq!(codes(&on(hook(false), Some("2.1.328"))), ["mcp-fails-open"]);
        assert_eq!(codes(&on(hook(true), Some("2.1.327"))), ["mcp-fails-open"], "ignored before 2.1.328");
        assert!(on(hook(true), Some("2.1.328")).is_empty());
        assert_eq!(codes(&on(hook(true), None)), ["on-failure-unverified"]);
    }

    #[test]
    fn shebang_is_read() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("g");
        std::fs::write(&p, "#!/usr/bin/env -S python9 -u\n").unwrap();
        assert_eq!(shebang_interpreter(&p).as_deref(), Some("python9"));
        std::fs::write(&p, "#!/bin/bash\n").unwrap();
        assert_eq!(shebang_interpreter(&p).as_deref(), Some("/bin/bash"));
    }
}
