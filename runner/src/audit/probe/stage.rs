//! The probe stage, the same for every agent. One [`Lab`] (one pool, one
//! stand-in, one set of fault scripts) serves the whole audit: Claude Code's
//! sessions, the census and every other agent's. Each hook entry of an agent
//! is tried in real sessions of that agent ([`run`]):
//!
//! 1. a write through each of the agent's write tools, as configured (the baseline);
//! 2. the injected faults, through the fault tools, where the guard stopped
//!    the write as configured;
//! 3. the probes (the user's, then the catalogue's, as that agent's tools
//!    make them: [`plan::for_agent`]) screened against the hook directly
//!    through the agent's stdin contract, those it refuses confirmed in
//!    sessions, and the faults injected under the first one refused there;
//!    the files the hook wrote while screened are its state ([`super::state`]),
//!    and a hook with state is run under the state faults too, where its
//!    other faults ran;
//! 4. the holes that proves ([`holes`]), and each hook's recipe (seal as
//!    `seal --install` writes it, onFailure, a wider matcher) applied to a
//!    copy and re-run: its holes, every call it refused, the seal binary gone
//!    ([`recheck`]).

use std::path::Path;
use std::time::Duration;

use super::dynamic::{self, AuditCell, Runner};
use super::faults::FaultScripts;
use super::holes::{self, Hole};
use super::recheck::{self, Recheck, Unchecked};
use super::screen::HookScreen;
use super::state::StateFile;
use super::{plan, Probe};
use crate::agent::AgentBin;
use crate::audit::intake::config::HookEntry;
use crate::audit::model::OnFailure;
use crate::pool::{Interrupt, Pool};
use crate::standin::{Policy, StandIn};

/// What the sessions of a whole audit share: one pool (slots, temp root,
/// interrupt), one stand-in serving every agent's wire protocol, the fault
/// scripts, and a loopback URL nothing listens on.
#[derive(Debug)]
pub struct Lab {
    /// The session pool.
    pub pool: Pool,
    /// The stand-in model.
    pub standin: StandIn,
    /// The fault scripts (under the pool's temp root).
    pub scripts: FaultScripts,
    /// A loopback URL nothing listens on (an HTTP hook's `missing` fault).
    pub unreachable_url: String,
    /// How long a plugin session may run (`--plugin-timeout`); `None`: the agent's own default.
    pub plugin_timeout: Option<Duration>,
}

impl Lab {
    /// Start the pool (`jobs` sessions at once, and as many long ones per
    /// job beside them) and the stand-in.
    /// `plugin_timeout` bounds each plugin session (`None`: the agent's default).
    pub async fn start(jobs: usize, interrupt: Interrupt, plugin_timeout: Option<Duration>) -> anyhow::Result<Lab> {
        let long_slots = jobs.max(1) * crate::pool::LONG_SLOTS_PER_JOB;
        let pool = Pool::new(jobs, Some(long_slots), interrupt)?;
        let standin = StandIn::start(Policy::Scripted, None).await?;
        let scripts = FaultScripts::create(&pool.root().join("faults"))?;
        Ok(Lab { pool, standin, scripts, unreachable_url: unreachable_url()?, plugin_timeout })
    }

    /// A runner of `bin`'s sessions in this lab. The hooks run with the
    /// user's `home`; `failopen_exe` serves an mcp_tool hook and seals;
    /// `other_hooks_may_run`: a hook from outside the session (managed
    /// settings, an agent's system config) may run beside the audited one.
    pub fn runner<'a>(
        &'a self,
        bin: &'a AgentBin,
        home: Option<&'a Path>,
        failopen_exe: &str,
        other_hooks_may_run: bool,
    ) -> Runner<'a> {
        Runner {
            bin,
            standin: &self.standin,
            pool: &self.pool,
            home,
            scripts: &self.scripts,
            unreachable_url: self.unreachable_url.clone(),
            failopen_exe: failopen_exe.to_string(),
            other_hooks_may_run,
            states: Default::default(),
            plugin_timeout: self.plugin_timeout,
        }
    }
}

/// A loopback URL nothing listens on (a port bound, then released).
fn unreachable_url() -> std::io::Result<String> {
    let l = std::net::TcpListener::bind("127.0.0.1:0")?;
    let port = l.local_addr()?.port();
    drop(l);
    Ok(format!("http://127.0.0.1:{port}/failopen-audit-unreachable"))
}

/// Which tools an agent's entries are tried through.
#[derive(Debug, Clone, Copy)]
pub struct Tools {
    /// One plain write each, as configured (the baseline).
    pub writes: &'static [&'static str],
    /// The faults are injected through these (a subset of `writes`).
    pub faults: &'static [&'static str],
}

/// What the probe stage found on one agent's entries.
#[derive(Debug, Default)]
pub struct Found {
    /// Every session's cell (and the skipped ones, with the reason), in the
    /// order: baseline, faults, skipped faults, confirmed probes, faults under a probe.
    pub cells: Vec<AuditCell>,
    /// The probes tried: those the agent's own tools make.
    pub probes: Vec<Probe>,
    /// Each probe screened against each command hook.
    pub screens: Vec<HookScreen>,
    /// The holes the cells prove.
    pub holes: Vec<Hole>,
    /// Each hook's recipe re-run on a copy.
    pub rechecks: Vec<Recheck>,
    /// The holes no re-check covers, with why.
    pub unchecked: Vec<Unchecked>,
    /// The files each hook's screens wrote: its state.
    pub state: Vec<StateFile>,
}

/// Run the stage on `entries` with `runner` (whose agent they belong to),
/// `probes` being every probe of the audit (the user's, then the catalogue);
/// `on_failure`: whether the agent honours `"onFailure": "block"` (measured).
pub async fn run(
    runner: &Runner<'_>,
    entries: &[HookEntry],
    tools: Tools,
    probes: &[Probe],
    seal_exe: &str,
    on_failure: OnFailure,
) -> anyhow::Result<Found> {
    let baseline = runner.run_cells(entries, &dynamic::baseline_plan_for(entries, tools.writes)).await?;
    let (fault_plan, skipped) = dynamic::fault_plan_for(entries, &baseline, tools.faults);
    let faulted = runner.run_cells(entries, &fault_plan).await?;
    let probes = plan::for_agent(runner.bin.agent.driver(), probes);
    let (screens, state) = plan::screen_all(runner, entries, &probes).await?;
    runner.learned(&state);
    let confirm = plan::confirm_plan(entries, &probes, &screens, &baseline, tools.faults);
    let confirmed = runner.run_probe_cells(entries, &confirm).await?;
    let under = plan::fault_plan(entries, &probes, &confirmed, &baseline, tools.faults);
    let probe_faulted = runner.run_probe_cells(entries, &under).await?;
    // The state faults, on the hooks whose screens wrote state, where the other faults ran.
    let (plain, probed) = plan::state_plan(entries, &state, &probes, &confirmed, &baseline, tools.faults);
    let state_faulted = runner.run_cells(entries, &plain).await?;
    let state_probed = runner.run_probe_cells(entries, &probed).await?;
    let cells: Vec<AuditCell> = baseline
        .into_iter()
        .chain(faulted)
        .chain(skipped)
        .chain(state_faulted)
        .chain(confirmed)
        .chain(probe_faulted)
        .chain(state_probed)
        .collect();
    let holes = holes::holes(entries, &cells);
    let (rechecks, unchecked) =
        recheck::run(runner, entries, &cells, &holes, &probes, on_failure, seal_exe, tools.writes).await?;
    Ok(Found { cells, probes, screens, holes, rechecks, unchecked, state })
}
