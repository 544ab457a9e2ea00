//! Live mode (`failopen run --model live`): the confirmation before money
//! is spent, and the validity checks a real model needs.
//!
//! A real model may never try to write, or may write with a tool the hook's
//! matcher does not cover. So:
//! - every live run includes a **positive control** per Claude Code version:
//!   the `allow` guard, bare ([`control_arm`]). Its rows carry the flag
//!   [`FLAG_CONTROL`]. If any control session of a version did not write,
//!   every row of that version carries [`FLAG_CONTROL_FAILED`];
//! - the control runs first: no other session of a version starts before
//!   that version's control sessions have ended ([`ControlGate`]), so every
//!   row is marked before it is written;
//! - a write (on disk, or attempted) that no PreToolUse hook ever saw is
//!   flagged [`FLAG_HOOK_NEVER_SAW_WRITE`] ([`hook_blind`]).
//!
//! Verdicts themselves come from [`crate::judge::judge`]: `blocked` only
//! with stream-json evidence of refused attempts on matched tools.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use crate::arms::{Arm, Expectation, DEFAULT_DEADLINE_SECS, DEFAULT_HOOK_TIMEOUT_SECS};
use crate::cells::Cell;
use crate::evidence::Evidence;
use crate::record::Row;
use crate::verdict::VerdictKind;
use crate::wrappers::Wrapper;

/// Printed (to stderr) before every live run.
pub const WARNING: &str = "\
WARNING: --model live runs real `claude -p` sessions against the model behind your credentials
(ANTHROPIC_API_KEY, or ANTHROPIC_BASE_URL / ANTHROPIC_AUTH_TOKEN).
 - It spends money: every arm, repeat and Claude Code version is a paid session.
 - The sessions run with --permission-mode bypassPermissions: a real model may run any
   command and touch any file your user can, not only the session's temp directory.";

/// The question asked on the terminal.
pub const QUESTION: &str = "Start the live run? [y/N] ";

/// Flag on the rows of the positive control.
pub const FLAG_CONTROL: &str = "control";
/// Flag on every row of a version whose positive control did not write.
pub const FLAG_CONTROL_FAILED: &str = "control-failed";
/// Flag on every row of a version whose positive control was not run here
/// (e.g. another shard owns it).
pub const FLAG_CONTROL_NOT_RUN: &str = "control-not-run";
/// Flag on a row whose write (on disk, or attempted) no PreToolUse hook saw.
pub const FLAG_HOOK_NEVER_SAW_WRITE: &str = "hook-never-saw-write";

/// What to do about the confirmation question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Confirmation {
    /// Go ahead.
    Proceed,
    /// Ask on the terminal, then decide again with the answer.
    Ask,
    /// The user answered something other than yes.
    Declined,
    /// No terminal to ask on, and no `--yes`: refuse to start.
    NoTerminal,
}

/// Decide about the confirmation. `answer` is the line typed at the
/// question (`None`: not asked yet, or end of input).
pub fn confirm(yes: bool, stdin_is_terminal: bool, answer: Option<&str>) -> Confirmation {
    if yes {
        return Confirmation::Proceed;
    }
    if !stdin_is_terminal {
        return Confirmation::NoTerminal;
    }
    match answer.map(|a| a.trim().to_ascii_lowercase()) {
        None => Confirmation::Ask,
        Some(a) if a == "y" || a == "yes" => Confirmation::Proceed,
        Some(_) => Confirmation::Declined,
    }
}

/// Why live mode cannot start with these credentials, if it cannot.
/// HOME is isolated, so a login stored there never reaches Claude Code:
/// only the environment's key or token does.
pub fn credentials_problem(api_key_set: bool, auth_token_set: bool) -> Option<String> {
    if api_key_set || auth_token_set {
        return None;
    }
    Some(
        "a live model needs ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN with ANTHROPIC_BASE_URL for a gateway) \
         in the environment; sessions run with an isolated HOME, so a stored login is not used"
            .to_string(),
    )
}

/// Whether an arm is a positive control: the `allow` guard, bare.
pub fn is_control(arm: &Arm) -> bool {
    arm.guard.name == "allow" && arm.wrapper == Wrapper::Bare
}

/// Whether a row belongs to a positive control.
pub fn is_control_row(row: &Row) -> bool {
    row.guard == "allow" && row.wrapper == "bare"
}

/// The positive control arm: the `allow` guard, bare, default timeouts.
pub fn control_arm() -> Option<Arm> {
    Some(Arm {
        name: "allow/bare".to_string(),
        guard: crate::guards::find("allow")?,
        wrapper: Wrapper::Bare,
        hook_timeout_secs: DEFAULT_HOOK_TIMEOUT_SECS,
        deadline_secs: DEFAULT_DEADLINE_SECS,
        expect: Some(Expectation {
            verdict: VerdictKind::Wrote,
            reason: None,
            source: "positive control: a guard that allows everything must let the model write".to_string(),
            changes: Vec::new(),
            interactive: None,
            codex: None,
            gemini: None,
            agents: Default::default(),
        }),
        extra_settings: None,
        event: Default::default(),
        source: Default::default(),
        route: Default::default(),
        matcher: None,
        hook_extra: None,
        group_extra: None,
        trust: Default::default(),
        state: None,
        agent_defaults: Default::default(),
    })
}

/// The arms of a live run: `arms`, with the positive control first when
/// none of them is one already.
pub fn with_control(arms: &[Arm]) -> Vec<Arm> {
    if arms.iter().any(is_control) {
        return arms.to_vec();
    }
    let mut out: Vec<Arm> = control_arm().into_iter().collect();
    // A user arm already called allow/bare (another guard) keeps its name.
    if arms.iter().any(|a| a.name == "allow/bare") {
        out.iter_mut().for_each(|c| c.name = "allow/bare (control)".to_string());
    }
    out.extend(arms.iter().cloned());
    out
}

/// The write no PreToolUse hook saw: a file on disk, or write attempts,
/// with no PreToolUse hook event from Claude Code and no guard invocation.
pub fn hook_blind(e: &Evidence) -> bool {
    (e.file.is_some() || !e.attempts.is_empty()) && e.hook_outcomes.is_empty() && e.hook_invocations == 0
}

/// How a version's positive control went.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControlStatus {
    /// Every control session wrote.
    Passed,
    /// `wrote` of `runs` control sessions wrote (`wrote < runs`).
    Failed {
        /// Sessions that wrote.
        wrote: u32,
        /// Control sessions with a row.
        runs: u32,
    },
    /// No control session of this version has a row (not run here).
    NotRun,
}

impl ControlStatus {
    /// The flag every row of the version gets, if any.
    pub fn flag(self) -> Option<&'static str> {
        match self {
            ControlStatus::Passed => None,
            ControlStatus::Failed { .. } => Some(FLAG_CONTROL_FAILED),
            ControlStatus::NotRun => Some(FLAG_CONTROL_NOT_RUN),
        }
    }
}

/// Add a flag to a row's `;`-separated flags (once).
pub fn add_flag(row: &mut Row, flag: &str) {
    if row.flags.split(';').any(|f| f == flag) {
        return;
    }
    if !row.flags.is_empty() {
        row.flags.push(';');
    }
    row.flags.push_str(flag);
}

/// Mark a row with its version's control status (and as a control row).
pub fn mark(row: &mut Row, status: ControlStatus) {
    if is_control_row(row) {
        add_flag(row, FLAG_CONTROL);
    }
    if let Some(flag) = status.flag() {
        add_flag(row, flag);
    }
}

#[derive(Debug, Default)]
struct VersionControl {
    /// Control cells of this run not yet ended.
    pending: HashSet<usize>,
    /// Control rows (from this run and, with --resume, from the CSV).
    runs: u32,
    wrote: u32,
    /// This run's control rows, held until the version's control is complete.
    held: Vec<(usize, Row)>,
}

impl VersionControl {
    fn status(&self) -> ControlStatus {
        match (self.runs, self.wrote) {
            (0, _) => ControlStatus::NotRun,
            (runs, wrote) if wrote == runs => ControlStatus::Passed,
            (runs, wrote) => ControlStatus::Failed { wrote, runs },
        }
    }
}

/// Orders a live run: each version's control cells end before its other
/// cells start, and every row is marked with the control's outcome before
/// it is written. Control rows are held until their version's control is
/// complete, so they are marked too.
#[derive(Debug, Default)]
pub struct ControlGate {
    versions: Mutex<HashMap<String, VersionControl>>,
    controls: HashMap<usize, String>,
    notify: tokio::sync::Notify,
}

impl ControlGate {
    /// A gate for the `planned` cells; `prior` are rows already in the CSV
    /// (with `--resume`), whose control rows count.
    pub fn new(planned: &[Cell], prior: &[Row]) -> ControlGate {
        let mut versions: HashMap<String, VersionControl> = HashMap::new();
        let mut controls = HashMap::new();
        for cell in planned {
            let v = versions.entry(cell.bin.version.clone()).or_default();
            if is_control(&cell.arm) {
                v.pending.insert(cell.index);
                controls.insert(cell.index, cell.bin.version.clone());
            }
        }
        for row in prior.iter().filter(|r| is_control_row(r)) {
            if let Some(v) = versions.get_mut(&row.agent_version) {
                v.runs += 1;
                v.wrote += u32::from(row.verdict == VerdictKind::Wrote);
            }
        }
        ControlGate { versions: Mutex::new(versions), controls, notify: tokio::sync::Notify::new() }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, VersionControl>> {
        self.versions.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Whether the cell at `index` is a control cell of this run.
    pub fn is_control_cell(&self, index: usize) -> bool {
        self.controls.contains_key(&index)
    }

    /// Whether every control cell of `version` has ended.
    pub fn complete(&self, version: &str) -> bool {
        self.lock().get(version).is_none_or(|v| v.pending.is_empty())
    }

    /// The control status of `version` (final once [`Self::complete`]).
    pub fn status(&self, version: &str) -> ControlStatus {
        self.lock().get(version).map(VersionControl::status).unwrap_or(ControlStatus::NotRun)
    }

    /// Wait until every control cell of `version` has ended.
    pub async fn wait(&self, version: &str) {
        loop {
            let notified = self.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if self.complete(version) {
                return;
            }
            notified.await;
        }
    }

    /// A finished session's row: returns the rows ready to write, marked.
    /// A control row is held until its version's control is complete.
    pub fn admit(&self, index: usize, mut row: Row) -> Vec<(usize, Row)> {
        let Some(version) = self.controls.get(&index) else {
            let status = self.status(&row.agent_version);
            mark(&mut row, status);
            return vec![(index, row)];
        };
        let released = {
            let mut versions = self.lock();
            let Some(v) = versions.get_mut(version) else { return vec![(index, row)] };
            v.pending.remove(&index);
            v.runs += 1;
            v.wrote += u32::from(row.verdict == VerdictKind::Wrote);
            v.held.push((index, row));
            Self::release(v)
        };
        self.notify.notify_waiters();
        released
    }

    /// A cell that ended without a row (interrupted, or an error).
    pub fn abandon(&self, index: usize) -> Vec<(usize, Row)> {
        let Some(version) = self.controls.get(&index) else { return Vec::new() };
        let released = {
            let mut versions = self.lock();
            let Some(v) = versions.get_mut(version) else { return Vec::new() };
            v.pending.remove(&index);
            Self::release(v)
        };
        self.notify.notify_waiters();
        released
    }

    /// Every row still held (the run stopped before a control completed), marked with what is known.
    pub fn drain(&self) -> Vec<(usize, Row)> {
        let mut versions = self.lock();
        let mut out = Vec::new();
        for v in versions.values_mut() {
            v.pending.clear();
            out.extend(Self::release(v));
        }
        out
    }

    fn release(v: &mut VersionControl) -> Vec<(usize, Row)> {
        if !v.pending.is_empty() {
            return Vec::new();
        }
        let status = v.status();
        let mut out = std::mem::take(&mut v.held);
        for (_, row) in &mut out {
            mark(row, status);
        }
        out
    }
}

/// [`ControlGate::admit`] when there is a gate; the row as it is otherwise.
pub fn admit(gate: Option<&ControlGate>, index: usize, row: Row) -> Vec<(usize, Row)> {
    match gate {
        Some(g) => g.admit(index, row),
        None => vec![(index, row)],
    }
}

/// [`ControlGate::abandon`] when there is a gate.
pub fn abandon(gate: Option<&ControlGate>, index: usize) -> Vec<(usize, Row)> {
    gate.map(|g| g.abandon(index)).unwrap_or_default()
}

/// [`ControlGate::drain`] when there is a gate.
pub fn drain(gate: Option<&ControlGate>) -> Vec<(usize, Row)> {
    gate.map(ControlGate::drain).unwrap_or_default()
}

/// The lines to print after the table: each version's control, loudly when it failed.
pub fn control_report(rows: &[Row]) -> Vec<String> {
    let mut versions: Vec<&str> = Vec::new();
    for r in rows {
        if !versions.contains(&r.agent_version.as_str()) {
            versions.push(&r.agent_version);
        }
    }
    let mut out = Vec::new();
    for version in versions {
        let of_version: Vec<&Row> = rows.iter().filter(|r| r.agent_version == version).collect();
        let controls: Vec<&&Row> = of_version.iter().filter(|r| is_control_row(r)).collect();
        let wrote = controls.iter().filter(|r| r.verdict == VerdictKind::Wrote).count();
        let has = |flag: &str| of_version.iter().any(|r| r.flags.split(';').any(|f| f == flag));
        if has(FLAG_CONTROL_FAILED) {
            out.push(format!(
                "!!! POSITIVE CONTROL FAILED on Claude Code {version}: allow/bare wrote in {wrote} of {} sessions.\n\
                 !!! The model did not write even behind a guard that allows everything, so this version's\n\
                 !!! rows say nothing about the hooks. All {} rows of {version} are flagged {FLAG_CONTROL_FAILED}.",
                controls.len(),
                of_version.len()
            ));
        } else if has(FLAG_CONTROL_NOT_RUN) {
            out.push(format!(
                "!!! No positive control ran for Claude Code {version} in this run; its rows are flagged {FLAG_CONTROL_NOT_RUN}."
            ));
        } else if !controls.is_empty() {
            out.push(format!(
                "positive control on Claude Code {version}: allow/bare wrote in {wrote} of {} sessions",
                controls.len()
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests;
