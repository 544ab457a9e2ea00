//! Advice, the fourth stage of an audit, the same for every agent: for each
//! hook, the one recipe the probe stage applied to a copy and re-ran
//! ([`recheck`]), printed as a fix only when that re-check proved it (every
//! hole closed, every refusal kept, the seal binary gone refused), else as a
//! change that failed its re-check, with what went wrong. Holes no change can
//! close, and advice from the static checks alone, say they were not
//! re-checked and why.

use serde::Serialize;

use super::intake::command;
use super::intake::config::{HookEntry, HookKind};
use super::intake::plugins::PluginStatus;
use super::model::{Finding, OnFailure, Severity};
use super::probe::holes::group_by;
use super::probe::holes::Hole;
use super::probe::recheck::{self, Change, Outcome, Recheck, Unchecked};
use crate::agent::AgentDriver;

/// One piece of advice.
#[derive(Debug, Clone, Serialize)]
pub struct Advice {
    /// Hook id.
    pub hook: String,
    /// What to change, in words.
    pub change: String,
    /// The exact replacement (the hook as changed, a JSON key/value or a command), if any.
    pub snippet: Option<String>,
    /// Whether sessions re-checked it, and what they measured.
    pub recheck: Rechecked,
}

/// What a piece of advice rests on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RecheckStatus {
    /// Applied to a copy and re-run: every hole closed and every refusal kept. A fix.
    Proved,
    /// Applied to a copy and re-run: a call went through. Not a fix.
    Failed,
    /// Applied to a copy and re-run: a cell could not be told. Not proved.
    Unsettled,
    /// Not re-run (a static finding, or no change audit can re-check).
    NotRechecked,
}

impl RecheckStatus {
    /// Its words in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            RecheckStatus::Proved => "fix, re-checked",
            RecheckStatus::Failed => "NOT a fix: failed its re-check",
            RecheckStatus::Unsettled => "not proved: its re-check could not be told",
            RecheckStatus::NotRechecked => "not re-checked",
        }
    }
}

/// Whether and how a piece of advice was re-checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rechecked {
    /// Proved, failed, unsettled, or not re-checked.
    pub status: RecheckStatus,
    /// What the re-check measured and what went wrong, or why it was not re-checked.
    pub what: String,
}

impl Rechecked {
    fn not(why: impl Into<String>) -> Self {
        Rechecked { status: RecheckStatus::NotRechecked, what: why.into() }
    }
}

/// What the advice of one agent's hooks is built from.
pub struct Context<'a> {
    /// The agent's driver (its name, matcher reading, write tools, config snippets).
    pub driver: &'static dyn AgentDriver,
    /// Whether it honours `"onFailure": "block"` (measured).
    pub on_failure: OnFailure,
    /// The failopen the advice names.
    pub seal_exe: &'a str,
    /// The version the sessions ran; `None`: static checks only.
    pub version: Option<&'a str>,
    /// The installed plugins (a hook in one's hooks file is the plugin's).
    pub plugins: &'a [PluginStatus],
}

/// The advice for every hook with a hole, a re-check or a warning-or-worse finding.
pub fn advise(
    ctx: &Context<'_>,
    entries: &[HookEntry],
    holes: &[Hole],
    findings: &[Finding],
    rechecks: &[Recheck],
    unchecked: &[Unchecked],
) -> Vec<Advice> {
    let mut out = Vec::new();
    let holes_of = group_by(holes, |h| h.hook.as_str());
    let serious: Vec<&Finding> = findings.iter().filter(|f| f.severity >= Severity::Warning).collect();
    let findings_of = group_by(&serious, |f| f.hook.as_deref().unwrap_or(""));
    for e in entries {
        let mine: Vec<&Hole> = holes_of.get(e.id.as_str()).map(|v| v.to_vec()).unwrap_or_default();
        let finds: Vec<&Finding> = findings_of.get(e.id.as_str()).into_iter().flatten().map(|f| **f).collect();
        let plugin = ctx.plugins.iter().find(|p| p.hooks_files.iter().any(|f| f == &e.file));
        let mut add = |change: String, snippet: Option<String>, recheck: Rechecked| {
            out.push(Advice { hook: e.id.clone(), change, snippet, recheck })
        };
        for f in finds.iter().filter(|f| f.severity == Severity::Error && f.code != "bad-matcher") {
            add(format!("fix the guard: {}", f.message), None, Rechecked::not("a static error: fix it by hand"));
        }
        if let Some(re) = rechecks.iter().find(|r| r.hook == e.id) {
            let (change, snippet) = recipe_words(ctx, e, re, plugin);
            let what = match re.went_wrong.is_empty() {
                true => re.measured.clone(),
                false => format!("{}; {}", re.measured, re.went_wrong.join("; ")),
            };
            let status = match re.outcome {
                Outcome::Proved => RecheckStatus::Proved,
                Outcome::Failed => RecheckStatus::Failed,
                Outcome::Unsettled => RecheckStatus::Unsettled,
            };
            add(change, Some(snippet), Rechecked { status, what });
        }
        let mut whys: Vec<&str> = Vec::new();
        for u in unchecked.iter().filter(|u| u.hook == e.id) {
            if !whys.contains(&u.why.as_str()) {
                whys.push(&u.why);
            }
        }
        for why in whys {
            add(guidance(ctx, e, why), None, Rechecked::not(why));
        }
        if mine.is_empty() && !rechecks.iter().any(|r| r.hook == e.id) {
            static_advice(ctx, e, &finds, plugin, &mut add);
        }
    }
    out
}

/// The recipe of `re` in words, and the hook as changed.
fn recipe_words(ctx: &Context<'_>, e: &HookEntry, re: &Recheck, plugin: Option<&PluginStatus>) -> (String, String) {
    let name = ctx.driver.display_name();
    let file = e.file.display();
    let mut parts: Vec<String> = Vec::new();
    let sealed = re.changes.iter().any(|c| matches!(c, Change::Seal { .. }));
    let on_failure = re.changes.contains(&Change::OnFailure);
    if sealed && seal_installs(ctx) {
        // Settings `seal --install` rewrites (Claude Code's): what it writes, onFailure included.
        parts.push(format!(
            "run `failopen seal --install {file}` (it wraps the guard with failopen seal{})",
            if on_failure { " and adds \"onFailure\": \"block\"" } else { "" }
        ));
    } else if sealed {
        parts.push(format!(
            "wrap the guard with failopen seal ({name} has no fail-closed option: seal turns a crash, a missing \
             script, a hang or a signal into a refusal it honours)"
        ));
    } else if on_failure {
        parts.push("add \"onFailure\": \"block\" to this hook".into());
    }
    for c in &re.changes {
        if let Change::Matcher { matcher, added } = c {
            parts.push(format!(
                "widen the matcher to {matcher:?}: it adds {} and keeps every tool it had",
                added.join(", ")
            ));
        }
    }
    let mut words = parts.join("; ");
    if let Some(p) = plugin {
        words = format!(
            "this hook is plugin {}'s; in its hooks file, where the plugin runs it (with its own \
             CLAUDE_PLUGIN_ROOT): {words}. The plugin's next update overwrites that file: do it again after each \
             update, or ask its authors to ship the hook with \"onFailure\": \"block\"",
            p.name
        );
    }
    let hook = re.hook_json.clone();
    let snippet = match (re.changes.iter().any(|c| matches!(c, Change::Matcher { .. })), &re.matcher) {
        (true, Some(m)) => serde_json::json!({"matcher": m, "hooks": [hook]}).to_string(),
        _ => match (&e.kind, own_config(ctx), sealed) {
            (HookKind::Command { command }, Some(c), true) => {
                c.sealed_snippet(command, hook["command"].as_str().unwrap_or_default())
            }
            _ => hook.to_string(),
        },
    };
    (words, snippet)
}

/// Whether `failopen seal --install` rewrites the agent's hook files
/// (its driver's reach says so): the advice names it.
fn seal_installs(ctx: &Context<'_>) -> bool {
    ctx.driver.hook_config().is_some_and(|c| c.reach().seal_install)
}

/// The agent's own hook config, when `seal --install` does not rewrite it:
/// the advice gives its snippet for the sealed hook.
fn own_config(ctx: &Context<'_>) -> Option<&'static dyn crate::agent::hook_config::HookConfig> {
    ctx.driver.hook_config().filter(|_| !seal_installs(ctx))
}

/// What to do about holes no change closes, by why.
fn guidance(ctx: &Context<'_>, e: &HookEntry, why: &str) -> String {
    let name = ctx.driver.display_name();
    if why == recheck::NEVER_RAN_WHY {
        return format!(
            "{name} ran calls this guard refuses without running it, so no wrapper (seal included) can make it \
             refuse: keep the agent from those calls by its own permission settings"
        );
    }
    match &e.kind {
        HookKind::Model { model_kind, .. } => format!(
            "a {model_kind} hook fails open when its model fails, and neither seal nor onFailure can close it: make \
             the guard a command hook that calls the model itself, under failopen seal (see guards/model-command.sh \
             and docs/model-hooks.md)"
        ),
        _ => why.to_string(),
    }
}

/// Advice from the static findings of a hook with no hole: not re-checked.
fn static_advice(
    ctx: &Context<'_>,
    e: &HookEntry,
    finds: &[&Finding],
    plugin: Option<&PluginStatus>,
    add: &mut impl FnMut(String, Option<String>, Rechecked),
) {
    let has = |code: &str| finds.iter().any(|f| f.code == code);
    let why = match ctx.version {
        Some(_) => "no hole of this hook was proven in a session, so no change was re-run",
        None => "static checks only: no session re-ran it",
    };
    let name = ctx.driver.display_name();
    if let HookKind::Command { command } = &e.kind {
        if has("seal-missing") {
            add(
                "point the hook at a failopen that stays put (the one on PATH, not a build directory)".into(),
                None,
                Rechecked::not(why),
            );
        } else if has("unprotected") && !command::parse(command).sealed() {
            let wrapped = recheck::sealed_command(e, command, ctx.driver, ctx.seal_exe);
            let (change, snippet) = match (own_config(ctx), plugin) {
                (Some(c), _) => (
                    format!("wrap the guard with failopen seal ({name} has no fail-closed option)"),
                    c.sealed_snippet(command, &wrapped),
                ),
                (None, Some(p)) => (
                    format!(
                        "this hook is plugin {}'s: in its hooks file, run `failopen seal --install {}` (again after \
                         each update of the plugin)",
                        p.name,
                        e.file.display()
                    ),
                    format!("\"command\": {}", serde_json::Value::String(wrapped)),
                ),
                (None, None) => (
                    format!(
                        "run `failopen seal --install {}` (it wraps the guard with failopen seal and adds \
                         \"onFailure\": \"block\")",
                        e.file.display()
                    ),
                    format!("\"command\": {}", serde_json::Value::String(wrapped)),
                ),
            };
            add(change, Some(snippet), Rechecked::not(why));
        }
    }
    match &e.kind {
        HookKind::McpTool { .. } if has("mcp-fails-open") => add(
            format!(
                "an mcp_tool hook fails open when its server fails: add onFailure (honoured from Claude Code {})",
                super::lint::static_checks::MCP_ON_FAILURE_SINCE
            ),
            Some("\"onFailure\": \"block\"".into()),
            Rechecked::not(why),
        ),
        HookKind::Http { .. } if has("http-no-failure-policy") => add(
            "make the HTTP hook fail closed: add onFailure where the agent honours it".into(),
            Some("\"onFailure\": \"block\"".into()),
            Rechecked::not(why),
        ),
        HookKind::Model { .. } if has("model-fails-open") => {
            add(guidance(ctx, e, ""), None, Rechecked::not(why));
        }
        _ => {}
    }
    // After sessions, only a plain write the guard refused makes an uncovered tool a hole: a guard that
    // inspects Bash commands is not told to cover Write and Edit.
    if has("uncovered-tools") && ctx.version.is_none() {
        let add_tools: Vec<&str> = ctx.driver.write_tools().to_vec();
        if let Some(m) = recheck::widened(ctx.driver, e.matcher.as_deref(), &add_tools) {
            add(
                "cover the write tools the matcher leaves out, keeping every tool it has".into(),
                Some(format!("\"matcher\": {}", serde_json::Value::String(m))),
                Rechecked::not(why),
            );
        }
    }
    if has("no-timeout") || has("long-timeout") {
        add(
            "set a short timeout (seal's deadline goes 1 s under it)".into(),
            Some("\"timeout\": 10".into()),
            Rechecked::not(why),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::Agent;
    use crate::audit::probe::faults::Fault;
    use crate::audit::probe::holes::HoleKind;
    use std::path::PathBuf;

    fn entry() -> HookEntry {
        HookEntry {
            plugin: None,
            id: "H1".into(),
            file: PathBuf::from("/p/.claude/settings.json"),
            group: 0,
            index: 0,
            matcher: Some("Bash".into()),
            kind: HookKind::Command { command: "/g.sh".into() },
            timeout: Some(5.0),
            on_failure: None,
            raw: serde_json::json!({"type": "command", "command": "/g.sh", "timeout": 5}),
            project_dir: PathBuf::from("/p"),
            managed: false,
        }
    }

    fn unprotected() -> Finding {
        Finding {
            hook: Some("H1".into()),
            severity: Severity::Warning,
            code: "unprotected".into(),
            message: "x".into(),
        }
    }

    fn ctx(agent: Agent) -> Context<'static> {
        Context {
            driver: agent.driver(),
            on_failure: OnFailure::Honoured,
            seal_exe: "/b/failopen",
            version: Some("2.1.328"),
            plugins: &[],
        }
    }

    #[test]
    fn a_never_ran_hole_gets_no_seal_on_any_agent() {
        let hole = Hole {
            hook: "H1".into(),
            kind: HoleKind::NeverRan,
            tool: "Bash:git-reset-hard".into(),
            fault: Fault::None,
        };
        for agent in [Agent::ClaudeCode, Agent::Continue] {
            let (_, unchecked) =
                recheck::recipe(&entry(), &[&hole], OnFailure::Honoured, agent.driver(), "/b/failopen");
            let advice =
                advise(&ctx(agent), &[entry()], std::slice::from_ref(&hole), &[unprotected()], &[], &unchecked);
            assert!(advice.iter().all(|a| a.snippet.as_deref().is_none_or(|s| !s.contains("seal"))), "{advice:?}");
            assert!(advice.iter().any(|a| a.change.contains("permission settings")), "{advice:?}");
            assert!(advice.iter().all(|a| a.recheck.status == RecheckStatus::NotRechecked), "{advice:?}");
        }
    }

    #[test]
    fn only_a_proved_recheck_is_printed_as_a_fix() {
        let hole = Hole { hook: "H1".into(), kind: HoleKind::FailsOpen, tool: "Bash".into(), fault: Fault::Crash };
        let (changes, _) =
            recheck::recipe(&entry(), &[&hole], OnFailure::Honoured, Agent::ClaudeCode.driver(), "/b/failopen");
        let copy = recheck::apply(&entry(), &changes);
        let mut re = Recheck {
            hook: "H1".into(),
            changes,
            hook_json: copy.raw.clone(),
            matcher: copy.matcher.clone(),
            cells: vec![],
            outcome: Outcome::Proved,
            measured: "1 of 1 hole refused".into(),
            went_wrong: vec![],
        };
        let advise_with = |re: &Recheck| {
            advise(
                &ctx(Agent::ClaudeCode),
                &[entry()],
                std::slice::from_ref(&hole),
                &[unprotected()],
                std::slice::from_ref(re),
                &[],
            )
        };
        let advice = advise_with(&re);
        assert_eq!(advice.len(), 1, "one recipe: {advice:?}");
        assert_eq!(advice[0].recheck.status, RecheckStatus::Proved);
        assert!(
            advice[0].change.contains("failopen seal --install /p/.claude/settings.json")
                && !advice[0].change.contains(" or ")
        );
        assert!(advice[0].snippet.as_deref().unwrap().contains("\"onFailure\":\"block\""), "{advice:?}");
        re.outcome = Outcome::Failed;
        re.went_wrong = vec!["the hole Bash under crash went through (the guard broke)".into()];
        let advice = advise_with(&re);
        assert_eq!(advice[0].recheck.status, RecheckStatus::Failed);
        assert!(advice[0].recheck.what.contains("went through"), "{advice:?}");
    }
}
