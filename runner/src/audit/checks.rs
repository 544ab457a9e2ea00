//! What the checks found on one agent's hooks: the part of every agent's
//! report ([`super::report::AgentReport`]), read by every renderer alike.

use serde::Serialize;

use super::advice::Advice;
use super::guard_verdict::{GuardStatus, GuardVerdict};
use super::model::{Finding, Severity};
use super::probe::dynamic::AuditCell;
use super::probe::holes::Hole;
use super::probe::recheck::{Recheck, Unchecked};
use super::probe::screen::HookScreen;
use super::probe::state::StateFile;

/// The findings, fault cells, holes, advice and re-checks of one
/// agent's hooks. Serialized flat into its report (the JSON keys are the
/// field names).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Checks {
    /// Static findings.
    pub findings: Vec<Finding>,
    /// Dynamic cells (empty with --static-only).
    pub cells: Vec<AuditCell>,
    /// Proven holes.
    pub holes: Vec<Hole>,
    /// Advice.
    pub advice: Vec<Advice>,
    /// Each hook's recipe applied to a copy and re-run: its holes, every
    /// call it refused, the seal binary gone.
    pub rechecks: Vec<Recheck>,
    /// The holes no re-check covers, with why.
    pub unchecked: Vec<Unchecked>,
    /// What the dynamic checks do not cover.
    pub not_covered: Vec<String>,
    /// Each guard's verdict: held, untested or open, and why.
    pub guards: Vec<GuardVerdict>,
    /// Each probe tried against each command hook directly (its stdin contract, no session).
    pub screens: Vec<HookScreen>,
    /// The files each hook's screens wrote: where it keeps state (absent
    /// when none did). A hook with state is run under the state faults.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub state: Vec<StateFile>,
}

impl Checks {
    /// Whether a guard fails open: after the dynamic checks (`dynamic`), a
    /// proven hole or an error finding; static only, any warning or error
    /// finding.
    pub fn fails_open(&self, dynamic: bool) -> bool {
        if dynamic {
            !self.holes.is_empty() || self.findings.iter().any(|f| f.severity >= Severity::Error)
        } else {
            self.findings.iter().any(|f| f.severity >= Severity::Warning)
        }
    }

    /// The worst of these guards' verdicts (`open` when [`Checks::fails_open`]);
    /// `None` when there is no guard.
    pub fn status(&self, dynamic: bool) -> Option<GuardStatus> {
        if self.fails_open(dynamic) {
            return Some(GuardStatus::Open);
        }
        self.guards.iter().map(|g| g.status).max()
    }
}
