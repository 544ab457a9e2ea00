//! The static checks of a hook read through its agent's driver, whatever
//! the agent ([`static_findings`]), and the findings of what the agent does
//! with a file that its hooks as read do not show ([`note_finding`]).

use std::path::Path;

use super::static_checks::{self, Env, SENSIBLE_TIMEOUT_SECS};
use crate::agent::hook_config::{ConfigNote, NoteLevel};
use crate::agent::AgentDriver;
use crate::audit::intake::command;
use crate::audit::intake::config::{kind_words, HookEntry, HookKind};
use crate::audit::model::{Finding, OnFailure, Severity};

fn finding(e: &HookEntry, severity: Severity, code: &str, message: String) -> Finding {
    Finding { hook: Some(e.id.clone()), severity, code: code.into(), message }
}

/// A finding of what the agent does with the file `path` that its hooks as
/// read do not show ([`ConfigNote`]), about the entry it names, if any.
pub fn note_finding(entries: &[HookEntry], path: &Path, note: &ConfigNote) -> Finding {
    let hook = note.hook.and_then(|(group, index)| {
        entries.iter().find(|e| e.file == path && e.group == group && e.index == index).map(|e| e.id.clone())
    });
    let severity = match note.level {
        NoteLevel::Info => Severity::Info,
        NoteLevel::Warning => Severity::Warning,
    };
    Finding { hook, severity, code: note.code.into(), message: note.message.clone() }
}

/// The static findings of one entry on the agent of `driver`.
pub fn static_findings(driver: &dyn AgentDriver, e: &HookEntry, env: &Env) -> Vec<Finding> {
    let name = driver.display_name();
    let config = driver.hook_config();
    let mut out = Vec::new();
    if let HookKind::Other { kind } = &e.kind {
        // A type the agent runs that audit does not (OpenCode's plugins): its file's notes say what is seen.
        if config.is_some_and(|c| c.hook_types().contains(&kind.as_str())) {
            return Vec::new();
        }
    }
    let HookKind::Command { command } = &e.kind else {
        let kind = kind_words(&e.kind);
        let message = format!("{name} runs command hooks only: this hook ({kind}) is not run, so it guards nothing");
        return vec![finding(e, Severity::Warning, "not-run-by-agent", message)];
    };
    // The agent's project variables (Gemini's) name the same directory Claude Code's does.
    let vars = config.map_or(&[][..], |c| c.project_dir_vars());
    let for_checks = vars
        .iter()
        .flat_map(|var| [format!("${{{var}}}"), format!("${var}")])
        .fold(command.clone(), |c, var| c.replace(&var, "$CLAUDE_PROJECT_DIR"));
    let parsed = command::parse(&for_checks);
    out.extend(static_checks::check_script(e, &parsed, env));
    let integer = e.raw.get("timeout").is_none_or(|t| t.is_u64());
    if config.is_some_and(|c| c.timeout_must_be_whole_seconds()) && !integer {
        out.push(finding(
            e,
            Severity::Error,
            "codex-timeout-not-integer",
            format!(
                "timeout {} is not a whole number of seconds: Codex CLI fails to parse the whole hooks file (\"expected \
                 u64\"), and none of its hooks runs (measured on 0.171.0)",
                e.raw["timeout"]
            ),
        ));
    }
    let default = driver.default_hook_timeout_secs();
    match e.timeout {
        None if !config.is_none_or(|c| c.timeout_is_settable()) => {}
        None => out.push(finding(
            e,
            Severity::Warning,
            "no-timeout",
            format!("no timeout: {name} waits {default:.0} s for a hung guard, then lets the call through"),
        )),
        Some(t) if t <= 0.0 => out.push(finding(e, Severity::Warning, "bad-timeout", format!("timeout {t} is not positive"))),
        Some(t) if t > SENSIBLE_TIMEOUT_SECS => out.push(finding(
            e,
            Severity::Warning,
            "long-timeout",
            format!("timeout {t} s is longer than {SENSIBLE_TIMEOUT_SECS:.0} s: a hung guard stalls every tool call that long"),
        )),
        Some(_) => {}
    }
    match &parsed.seal_prefix {
        Some(prefix) => out.extend(static_checks::check_seal_binary(e, prefix, OnFailure::Ignored, env)),
        None => {
            let ignored = if e.on_failure.is_some() { " (its onFailure is a Claude Code key it ignores)" } else { "" };
            out.push(finding(
                e,
                Severity::Warning,
                "unprotected",
                format!(
                    "not wrapped by failopen seal: when the guard crashes, is missing, hangs or is killed, {name} lets \
                     the tool call through; it has no fail-closed option{ignored}"
                ),
            ));
        }
    }
    let uncovered: Vec<&str> =
        driver.write_tools().iter().copied().filter(|t| !driver.covers(e.matcher.as_deref(), t)).collect();
    if !uncovered.is_empty() {
        out.push(finding(
            e,
            Severity::Warning,
            "uncovered-tools",
            format!(
                "the matcher leaves {} uncovered: a write through {} runs no guard (all of {name}'s write tools: {:?})",
                uncovered.join(", "),
                if uncovered.len() == 1 { "it" } else { "them" },
                driver.full_matcher()
            ),
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::Agent;
    use crate::audit::intake::config;
    use serde_json::json;

    fn entry(hook: serde_json::Value, matcher: &str) -> HookEntry {
        let value = json!({"hooks": {"PreToolUse": [{"matcher": matcher, "hooks": [hook]}]}});
        let f = config::SettingsFile {
            path: "h.json".into(),
            project_dir: "/p".into(),
            value,
            managed: false,
            plugin: None,
        };
        config::entries(&[f]).remove(0)
    }

    #[test]
    fn matchers_are_read_the_way_each_agent_reads_them() {
        let (codex, gemini) = (Agent::Codex.driver(), Agent::Gemini.driver());
        assert!(codex.covers(Some("Write"), "apply_patch"), "apply_patch answers to Edit and Write");
        assert!(!codex.covers(Some("apply_patch"), "Bash"));
        assert!(codex.covers(None, "Bash"));
        assert!(gemini.covers(Some("write"), "write_file"), "unanchored");
        assert!(!gemini.covers(Some("^write_file$"), "replace"));
        assert!(gemini.covers(Some("*"), "replace"));
        for d in [codex, gemini] {
            assert!(d.write_tools().iter().all(|t| d.covers(Some(&d.full_matcher()), t)), "{}", d.display_name());
        }
    }

    #[test]
    fn static_findings_advise_seal_and_know_each_agents_defaults() {
        let env = Env { path_var: "/usr/bin:/bin", home: None, agent_version: None };
        let e = entry(json!({"type": "command", "command": "/bin/true", "onFailure": "block"}), "write_file");
        let f = static_findings(Agent::Gemini.driver(), &e, &env);
        let codes: Vec<&str> = f.iter().map(|f| f.code.as_str()).collect();
        assert_eq!(codes, ["no-timeout", "unprotected", "uncovered-tools"]);
        assert!(f[0].message.contains("60 s") && f[1].message.contains("ignores"), "{f:?}");
        assert!(f[2].message.contains("run_shell_command, replace"), "{}", f[2].message);
        let ctx = crate::audit::advice::Context {
            driver: Agent::Gemini.driver(),
            on_failure: OnFailure::Unknown,
            seal_exe: "/b/failopen",
            version: None,
            plugins: &[],
        };
        let advice = crate::audit::advice::advise(&ctx, &[e], &[], &f, &[], &[]);
        assert!(
            advice[0].snippet.as_deref().unwrap().contains("/b/failopen seal -- /bin/sh -c '/bin/true'"),
            "{advice:?}"
        );
        // The matcher only gains the write tools it left out.
        assert_eq!(advice[1].snippet.as_deref(), Some("\"matcher\": \"write_file|run_shell_command|replace\""));
        assert!(advice.iter().all(|a| a.recheck.status == crate::audit::advice::RecheckStatus::NotRechecked));
        let missing =
            entry(json!({"type": "command", "command": "/nonexistent/g.sh", "timeout": 5}), "Bash|apply_patch");
        let codes: Vec<String> =
            static_findings(Agent::Codex.driver(), &missing, &env).into_iter().map(|f| f.code).collect();
        assert_eq!(codes, ["script-missing", "unprotected"]);
        let float = entry(json!({"type": "command", "command": "/bin/true", "timeout": 5.0}), "Bash|apply_patch");
        assert_eq!(static_findings(Agent::Codex.driver(), &float, &env)[0].code, "codex-timeout-not-integer");
        assert!(static_findings(Agent::Gemini.driver(), &float, &env).iter().all(|f| f.severity < Severity::Error));
        let cline_file = entry(json!({"type": "command", "command": "/bin/true"}), "");
        let codes: Vec<String> =
            static_findings(Agent::Cline.driver(), &cline_file, &env).into_iter().map(|f| f.code).collect();
        assert!(!codes.contains(&"no-timeout".to_string()), "Cline's timeout is fixed: {codes:?}");
        let http = entry(json!({"type": "http", "url": "http://x"}), "Bash");
        assert_eq!(static_findings(Agent::Codex.driver(), &http, &env)[0].code, "not-run-by-agent");
    }

    #[test]
    fn gemini_variables_are_braced_for_seal() {
        assert_eq!(
            crate::audit::probe::agent_hooks::brace_vars(
                "$GEMINI_PROJECT_DIR/g.sh $CLAUDE_PROJECT_DIR",
                Agent::Gemini.driver().hook_config().unwrap().project_dir_vars()
            ),
            "${GEMINI_PROJECT_DIR}/g.sh ${CLAUDE_PROJECT_DIR}"
        );
    }
}
