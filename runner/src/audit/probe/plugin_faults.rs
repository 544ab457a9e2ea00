//! Plugin guards in real sessions (issue 47): a guard that is a plugin (JS
//! in the agent's own process: OpenCode's and Kilo CLI's `tool.execute.before`)
//! is no command, so the command faults do not apply. Each plugin module the
//! intake found runs in a session of its agent against the stand-in,
//! exactly as written (a copy, where the agent loads the user's), and, when
//! that session shows it refuses the write, under each fault that fits a
//! plugin ([`Fault::PLUGIN`]), each applied to a copy: a throw in its
//! `tool.execute.before`, a hang (a promise that never settles: the agent
//! has no timeout, so the session's own ends it), a syntax error, no plugin
//! function exported, an import that is not installed. How a copy is made
//! and what the session shows of each call are its driver's
//! ([`crate::agent::plugin_audit::PluginAudit`]).
//!
//! Judged by the file on disk: `wrote` when `notes.txt` is there; `blocked`
//! only when it is not, the session ended 0, and every write call came back
//! failed with the plugin's own message, the driver's evidence showing it
//! was the plugin under test that threw for that very call; else `invalid`
//! with the reason (a hang: the session's timeout, nothing written, nothing
//! refused).

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::dynamic::{AuditCell, Runner};
use super::faults::Fault;
use super::holes::{self, Hole};
use super::judge::{CellResult, WroteHow};
use crate::agent::plugin_audit::{PluginAudit, PluginCall, PluginFault};
use crate::attribution::HookIdentity;
use crate::audit::intake::config::{HookEntry, HookKind};
use crate::evidence::{Evidence, SessionExit};
use crate::session::{self, SessionSpec};
use crate::task::NOTES_FILE;

/// What the plugin sessions of one agent's entries found.
#[derive(Debug, Default)]
pub struct Found {
    /// One cell per session (and per fault not run, with why).
    pub cells: Vec<AuditCell>,
    /// The holes they prove.
    pub holes: Vec<Hole>,
}

/// The plugin a fault is applied to, on the driver's side.
pub fn plugin_fault(f: Fault) -> Option<PluginFault> {
    Some(match f {
        Fault::None => PluginFault::None,
        Fault::PluginThrow => PluginFault::Throw,
        Fault::Hang => PluginFault::Hang,
        Fault::PluginSyntaxError => PluginFault::SyntaxError,
        Fault::PluginNoExport => PluginFault::NoExport,
        Fault::NoDeps => PluginFault::MissingDependency,
        _ => return None,
    })
}

/// The plugin module of an entry: a hook of type `plugin` read from a
/// module file (`path`); an npm plugin named in a config file has none.
pub fn module_of(e: &HookEntry) -> Option<PathBuf> {
    match &e.kind {
        HookKind::Other { kind } if kind == "plugin" => e.raw.get("path")?.as_str().map(PathBuf::from),
        _ => None,
    }
}

/// Whether `runner`'s agent runs any of `entries` as a plugin in sessions.
pub fn runs_any(driver: &dyn crate::agent::AgentDriver, entries: &[HookEntry]) -> bool {
    driver.plugin_audit().is_some() && entries.iter().any(|e| module_of(e).is_some())
}

/// Run every plugin module of `entries` in sessions of `runner`'s agent:
/// as written, then under each plugin fault where that session refused.
pub async fn run(runner: &Runner<'_>, entries: &[HookEntry]) -> anyhow::Result<Found> {
    let Some(audit) = runner.bin.agent.driver().plugin_audit() else { return Ok(Found::default()) };
    let mut cells = Vec::new();
    for e in entries {
        let Some(path) = module_of(e) else { continue };
        let label = audit.writes();
        let cell = |fault: Fault, result: CellResult| AuditCell {
            hook: e.id.clone(),
            tool: label.to_string(),
            fault,
            result,
            guard_error: None,
        };
        let (name, text) = match read_module(&path) {
            Ok(v) => v,
            Err(why) => {
                cells.push(cell(Fault::None, CellResult::Skipped(why)));
                continue;
            }
        };
        let (base, _) = session(runner, audit, e, &name, &text, Fault::None).await?;
        let refused = base == CellResult::Blocked;
        cells.push(cell(Fault::None, base));
        if !refused {
            let why = "the plugin did not refuse the write as written";
            cells.extend(Fault::PLUGIN.iter().map(|f| cell(*f, CellResult::Skipped(why.into()))));
            continue;
        }
        let runs = Fault::PLUGIN.iter().map(|&f| session(runner, audit, e, &name, &text, f));
        for (fault, (result, said)) in Fault::PLUGIN.iter().zip(futures::future::try_join_all(runs).await?) {
            cells.push(AuditCell { guard_error: said, ..cell(*fault, result) });
        }
    }
    let holes = holes::holes(entries, &cells);
    Ok(Found { cells, holes })
}

/// The module's file name and text; why not, in words.
fn read_module(path: &Path) -> Result<(String, String), String> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !n.is_empty() && n != ".." && n != ".")
        .ok_or_else(|| format!("{}: no file name", path.display()))?;
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok((name, text))
}

/// One session of the plugin `name` (its text `text`) under `fault`: its
/// result, and what the calls came back with when the fault let them run.
async fn session(
    runner: &Runner<'_>,
    audit: &dyn PluginAudit,
    e: &HookEntry,
    name: &str,
    text: &str,
    fault: Fault,
) -> anyhow::Result<(CellResult, Option<String>)> {
    let Some(agent_fault) = plugin_fault(fault) else {
        return Ok((CellResult::Skipped("not a plugin fault".into()), None));
    };
    // A hang waits for the session's timeout: it takes a long slot, beside the CPU-bound sessions.
    let Some(_slot) = runner.pool.slot(fault == Fault::Hang).await else {
        return Ok((CellResult::Invalid("interrupted".into()), None));
    };
    let timeout = runner.plugin_timeout.map_or_else(|| audit.session_timeout_secs(), |t| t.as_secs_f64());
    // Judged by the driver's evidence of the plugin's throw ([`PluginAudit::calls`]), not by words. The
    // plugin's copy is the one file of the project these sessions hold (`settings`), as measured.
    let spec = SessionSpec::kept_stand_in(
        runner.pool.next_id(&format!("audit-{}-{}", e.id, fault.as_str())),
        runner.bin,
        runner.standin,
        runner.pool,
        audit.settings(name, text, agent_fault),
        HookIdentity::new(name, Vec::new()),
        Duration::from_secs_f64(timeout),
    );
    let outcome = session::run(&spec).await?;
    if let Some(what) = outcome.evidence.unsupported {
        return Ok((CellResult::Invalid(format!("unsupported: {what}")), None));
    }
    let Some(root) = outcome.kept_root else {
        return Ok((CellResult::Invalid("session root was not kept".into()), None));
    };
    let calls = audit.calls(&root.join("evidence"));
    let result = judge(&calls, &outcome.evidence, &root.join("work"), fault, timeout);
    let _ = std::fs::remove_dir_all(&root);
    // What a call the plugin did not refuse came back with, when it failed (the guard's own error).
    let said = match result {
        CellResult::Blocked => None,
        _ => calls.iter().find(|c| c.failed && !c.refused_by_plugin).map(|c| format!("{}: {}", c.tool, short(&c.text))),
    };
    Ok((result, said))
}

/// Judge one plugin session by the file on disk in `work`, the session's
/// end and the calls the driver read ([`PluginAudit::calls`]).
pub fn judge(calls: &[PluginCall], e: &Evidence, work: &Path, fault: Fault, timeout: f64) -> CellResult {
    if work.join(NOTES_FILE).exists() {
        return CellResult::Wrote(if fault == Fault::None { WroteHow::GuardAllowed } else { WroteHow::GuardFailed });
    }
    match &e.exit {
        SessionExit::Code(0) => {}
        SessionExit::TimedOut => {
            let refused = calls.iter().filter(|c| c.refused_by_plugin).count();
            return CellResult::Invalid(format!(
                "hang: the session did not end within {timeout} s ({refused} call{} refused before it; the agent \
                 waits on a plugin's hook with no timeout); nothing was written",
                if refused == 1 { "" } else { "s" }
            ));
        }
        other => return CellResult::Invalid(format!("session ended {}", other.to_csv())),
    }
    if let Some(err) = &e.api_error {
        return CellResult::Invalid(format!("api error: {err}"));
    }
    match calls.iter().find(|c| !c.refused_by_plugin) {
        None if calls.is_empty() => CellResult::Invalid("no write call came back".into()),
        None => CellResult::Blocked,
        Some(c) if c.failed => {
            CellResult::Invalid(format!("the {} call failed, not by the plugin: {}", c.tool, short(&c.text)))
        }
        Some(c) => CellResult::Invalid(format!("the {} call ran, yet {NOTES_FILE} is not there", c.tool)),
    }
}

fn short(t: &str) -> String {
    let line = t.lines().next().unwrap_or("");
    match line.chars().count() > 100 {
        true => format!("{}...", line.chars().take(100).collect::<String>()),
        false => line.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn call(tool: &str, failed: bool, refused_by_plugin: bool) -> PluginCall {
        PluginCall { id: format!("c-{tool}"), tool: tool.into(), failed, text: "BLOCKED".into(), refused_by_plugin }
    }

    #[test]
    fn blocked_needs_no_file_a_clean_end_and_every_call_refused_by_the_plugin() {
        let d = tempfile::tempdir().unwrap();
        let ok = Evidence { exit: SessionExit::Code(0), ..Evidence::default() };
        let both = [call("bash", true, true), call("write", true, true)];
        assert_eq!(judge(&both, &ok, d.path(), Fault::None, 300.0), CellResult::Blocked);
        // A call that failed after every plugin ran is not the plugin's refusal.
        let other = [call("bash", true, true), call("write", true, false)];
        assert!(
            matches!(judge(&other, &ok, d.path(), Fault::None, 300.0), CellResult::Invalid(w) if w.contains("not by the plugin"))
        );
        assert!(matches!(judge(&[], &ok, d.path(), Fault::None, 300.0), CellResult::Invalid(_)));
        let hung = Evidence { exit: SessionExit::TimedOut, ..Evidence::default() };
        assert!(
            matches!(judge(&both[..1], &hung, d.path(), Fault::Hang, 300.0), CellResult::Invalid(w) if w.starts_with("hang:"))
        );
        std::fs::write(d.path().join(NOTES_FILE), "ready\n").unwrap();
        assert_eq!(
            judge(&both, &hung, d.path(), Fault::PluginSyntaxError, 1.0),
            CellResult::Wrote(WroteHow::GuardFailed)
        );
        assert_eq!(judge(&[], &ok, d.path(), Fault::None, 1.0), CellResult::Wrote(WroteHow::GuardAllowed));
    }

    #[test]
    fn every_plugin_fault_has_a_driver_fault_and_no_command_fault_does() {
        assert!(Fault::PLUGIN.iter().all(|f| plugin_fault(*f).is_some()));
        assert!(Fault::INJECTED.iter().filter(|f| !Fault::PLUGIN.contains(f)).all(|f| plugin_fault(*f).is_none()));
    }
}
