//! Advice, the fourth stage of an audit: the exact change that closes each
//! hole the probe stage proved ([`holes`], re-exported from there).

use serde::Serialize;

use super::intake::command;
use super::intake::config::{HookEntry, HookKind};
use super::probe::faults::Fault;
use super::probe::holes::group_by;
pub use super::probe::holes::{holes, Hole, HoleKind};
use super::{Finding, OnFailure, Severity};
use crate::seal::wrap::{deadline_for_timeout, wrap_command};
use crate::task;

/// One piece of advice.
#[derive(Debug, Clone, Serialize)]
pub struct Advice {
    /// Hook id.
    pub hook: String,
    /// What to change, in words.
    pub change: String,
    /// The exact replacement (a JSON key/value or a command), if any.
    pub snippet: Option<String>,
}

/// The advice for a plugin's hook: its hooks.json is the plugin's (the next
/// update overwrites it, so `seal --install` there is no fix); what the
/// user owns is their settings: the plugin disabled, the same hook there under
/// seal (and onFailure where it is honoured).
fn plugin_advice(
    e: &HookEntry,
    p: &super::intake::plugins::PluginStatus,
    command: &str,
    seal_exe: &str,
    on_failure: OnFailure,
    version: &str,
) -> Vec<Advice> {
    let mut hook = serde_json::json!({
        "type": "command",
        "command": wrap_command(command, seal_exe, e.timeout.and_then(deadline_for_timeout)),
    });
    if let Some(t) = e.timeout {
        hook["timeout"] = t.into();
    }
    if on_failure == OnFailure::Honoured {
        hook["onFailure"] = "block".into();
    }
    let mut group = serde_json::json!({"hooks": [hook]});
    if let Some(m) = &e.matcher {
        group["matcher"] = m.clone().into();
    }
    let settings = serde_json::json!({
        "enabledPlugins": {p.name.clone(): false},
        "hooks": {"PreToolUse": [group]},
    });
    vec![
        Advice {
            hook: e.id.clone(),
            change: format!(
                "this hook is plugin {}'s ({}): the plugin's next update overwrites that file, so `failopen seal \
                 --install` there is no fix; in settings you own (~/.claude/settings.json), disable the plugin and run \
                 the same guard under seal{} (the path is this install's: re-point it after an update)",
                p.name,
                e.file.display(),
                if on_failure == OnFailure::Honoured {
                    format!(" with onFailure (Claude Code {version} honours it)")
                } else {
                    String::new()
                }
            ),
            snippet: Some(settings.to_string()),
        },
        Advice {
            hook: e.id.clone(),
            change: "or ask the plugin's authors to ship the hook with \"onFailure\": \"block\" (Claude Code honours it on command hooks from 2.1.295, measured by bisect)".to_string(),
            snippet: None,
        },
    ]
}

/// The advice for every hook with a hole or a warning-or-worse finding.
/// `plugins`: the installed plugins (a hook in one's hooks file is the
/// plugin's, overwritten by its next update: advice names what the user owns).
pub fn advise(
    entries: &[HookEntry],
    holes: &[Hole],
    findings: &[Finding],
    on_failure: OnFailure,
    seal_exe: &str,
    version: Option<&str>,
    plugins: &[super::intake::plugins::PluginStatus],
) -> Vec<Advice> {
    let mut out = Vec::new();
    let dynamic = version.is_some();
    let version = version.unwrap_or("this version");
    let holes_of = group_by(holes, |h| h.hook.as_str());
    let serious: Vec<&Finding> = findings.iter().filter(|f| f.severity >= Severity::Warning).collect();
    let findings_of = group_by(&serious, |f| f.hook.as_deref().unwrap_or(""));
    for e in entries {
        let mine = holes_of.get(e.id.as_str()).map(Vec::as_slice).unwrap_or_default();
        let finds: Vec<&Finding> = findings_of.get(e.id.as_str()).into_iter().flatten().map(|f| **f).collect();
        let plugin = plugins.iter().find(|p| p.hooks_files.iter().any(|f| f == &e.file));
        if let (Some(p), HookKind::Command { command }) = (plugin, &e.kind) {
            let breaks = mine.iter().any(|h| matches!(h.kind, HoleKind::FailsOpen | HoleKind::BrokenAsConfigured));
            if breaks || finds.iter().any(|f| f.code == "unprotected") {
                out.extend(plugin_advice(e, p, command, seal_exe, on_failure, version));
            }
            continue;
        }
        let has = |code: &str| finds.iter().any(|f| f.code == code);
        let mut add =
            |change: String, snippet: Option<String>| out.push(Advice { hook: e.id.clone(), change, snippet });
        let breaks = mine.iter().any(|h| matches!(h.kind, HoleKind::FailsOpen | HoleKind::BrokenAsConfigured));
        for f in finds.iter().filter(|f| f.severity == Severity::Error && f.code != "bad-matcher") {
            add(format!("fix the guard: {}", f.message), None);
        }
        match &e.kind {
            HookKind::Command { command } if breaks || has("unprotected") || has("seal-missing") => {
                let parsed = command::parse(command);
                if parsed.sealed() {
                    let seal_gone = mine.iter().any(|h| h.fault == Fault::SealMissing) || has("seal-missing");
                    if seal_gone {
                        add(
                            "a missing seal binary fails open: point the hook at a failopen that stays put (the one on PATH, not a build directory)".into(),
                            None,
                        );
                        if on_failure == OnFailure::Honoured && !e.on_failure_block() {
                            add(format!("and add onFailure, so a missing seal still blocks (Claude Code {version} honours it)"), Some("\"onFailure\": \"block\"".into()));
                        }
                    }
                    if mine.iter().any(|h| {
                        h.fault != Fault::SealMissing
                            && matches!(h.kind, HoleKind::FailsOpen | HoleKind::BrokenAsConfigured)
                    }) {
                        let d = e
                            .timeout
                            .and_then(deadline_for_timeout)
                            .map(|d| format!("--deadline {d}"))
                            .unwrap_or_else(|| "a --deadline".into());
                        add(
                            format!(
                                "seal is there but the guard still fails open: give seal {d} below the hook's timeout"
                            ),
                            None,
                        );
                    }
                } else {
                    let deadline = e.timeout.and_then(deadline_for_timeout);
                    add(
                        format!(
                            "wrap the guard with failopen seal (or run `failopen seal --install {}`)",
                            e.file.display()
                        ),
                        Some(format!(
                            "\"command\": {}",
                            serde_json::Value::String(wrap_command(command, seal_exe, deadline))
                        )),
                    );
                    if on_failure == OnFailure::Honoured && !e.on_failure_block() {
                        add(
                            format!("or add onFailure (Claude Code {version} honours it)"),
                            Some("\"onFailure\": \"block\"".into()),
                        );
                    }
                }
            }
            HookKind::Model { model_kind, .. } if breaks || has("model-fails-open") => {
                add(
                    format!(
                        "a {model_kind} hook fails open when its model fails, and neither seal nor onFailure can close it: \
                         make the guard a command hook that calls the model itself, under failopen seal \
                         (see guards/model-command.sh and docs/model-hooks.md)"
                    ),
                    None,
                );
            }
            HookKind::McpTool { .. } if breaks || has("mcp-fails-open") => {
                add(
                    format!(
                        "an mcp_tool hook fails open when its server fails: add onFailure (honoured from Claude Code \
                         {}), or call the tool from a command hook under failopen seal",
                        super::lint::static_checks::MCP_ON_FAILURE_SINCE
                    ),
                    Some("\"onFailure\": \"block\"".into()),
                );
            }
            HookKind::Http { url } if breaks || has("http-no-failure-policy") => {
                if on_failure == OnFailure::Ignored {
                    let max = e.timeout.and_then(deadline_for_timeout).unwrap_or(9.0);
                    let curl = format!(
                        "curl -sS --fail --max-time {max} -H 'Content-Type: application/json' --data-binary @- {url}"
                    );
                    add(
                        format!("Claude Code {version} ignores onFailure: call the endpoint from a command hook through seal instead"),
                        Some(format!("{{\"type\": \"command\", \"command\": {}}}", serde_json::Value::String(format!("{} seal -- {curl}", crate::seal::decision::shell_quote(seal_exe))))),
                    );
                } else {
                    add("make the HTTP hook fail closed".into(), Some("\"onFailure\": \"block\"".into()));
                }
            }
            _ => {}
        }
        // After sessions, only a plain write the guard refused makes an uncovered tool a hole:
        // a guard that inspects Bash commands is not told to cover Write and Edit.
        if mine.iter().any(|h| h.kind == HoleKind::UncoveredTool) || (!dynamic && has("uncovered-tools")) {
            add("cover every write-capable tool".into(), Some(format!("\"matcher\": \"{}\"", task::matcher())));
        }
        if has("no-timeout") || has("long-timeout") {
            add("set a short timeout (seal's deadline goes 1 s under it)".into(), Some("\"timeout\": 10".into()));
        }
    }
    out
}
