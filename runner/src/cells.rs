//! Cells: arms expanded over Claude Code versions and repeats, then
//! sharded, resumed and ordered for scheduling.

use std::collections::HashSet;

use crate::agent::Agent;
use crate::arms::Arm;
use crate::hook_type::HookType;
use crate::install::AgentBin;
use crate::mode::Mode;
use crate::record::Row;

/// One session to run: an arm on one Claude Code version, one repeat.
#[derive(Debug, Clone)]
pub struct Cell {
    /// Position in the full expansion (stable across shards and resumes).
    pub index: usize,
    /// The agent's binary.
    pub bin: AgentBin,
    /// The arm.
    pub arm: Arm,
    /// Repeat number, from 1.
    pub repeat: u32,
}

impl Cell {
    /// What identifies this cell in a results file, run with `model` in `mode`.
    pub fn key(&self, model: &str, mode: Mode) -> CellKey {
        CellKey {
            agent: self.bin.agent,
            mode,
            agent_version: self.bin.version.clone(),
            model: model.to_string(),
            arm: self.arm.name.clone(),
            guard: self.arm.guard.name.to_string(),
            wrapper: self.arm.wrapper.name().to_string(),
            hook_timeout_bits: self.arm.hook_timeout_secs.to_bits(),
            deadline_bits: self.arm.deadline_secs.to_bits(),
            repeat: self.repeat,
        }
    }
}

/// The whole identity of a cell in a results file: everything that changes
/// what a session measures. `--resume` skips a cell only when a row has the
/// same key, so a scripted row never stands in for a live one, nor a row of
/// an arm whose guard, wrapper, timeout or deadline has since been edited.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CellKey {
    /// The agent: a Claude Code row never stands in for a Codex one.
    pub agent: crate::agent::Agent,
    /// Print or interactive: a print row never stands in for an interactive one.
    pub mode: Mode,
    /// The agent's version.
    pub agent_version: String,
    /// `scripted` or `live`.
    pub model: String,
    /// Arm name.
    pub arm: String,
    /// Guard name.
    pub guard: String,
    /// Wrapper name.
    pub wrapper: String,
    /// The hook timeout in seconds, as `f64` bits (exact, hashable).
    pub hook_timeout_bits: u64,
    /// The wrapper deadline in seconds, as `f64` bits.
    pub deadline_bits: u64,
    /// Repeat number, from 1.
    pub repeat: u32,
}

impl CellKey {
    /// The cell a results row belongs to.
    pub fn of(row: &Row) -> CellKey {
        CellKey {
            agent: row.agent(),
            mode: row.mode(),
            agent_version: row.agent_version.clone(),
            model: row.model.clone(),
            arm: row.arm.clone(),
            guard: row.guard.clone(),
            wrapper: row.wrapper.clone(),
            hook_timeout_bits: row.hook_timeout.to_bits(),
            deadline_bits: row.deadline.to_bits(),
            repeat: row.repeat,
        }
    }
}

/// Whether `agent` runs `arm`'s hook type at all
/// ([`crate::agent::driver::AgentDriver::runs_hook_type`]).
pub fn runs(agent: Agent, arm: &Arm) -> bool {
    agent.driver().runs_hook_type(arm.guard.hook_type())
}

/// Why a run of `arms` on `agent` has no cell: none of them is a hook type
/// the agent runs (`--arms sdk` on Claude Code). `None` when one is.
pub fn none_runs(agent: Agent, arms: &[Arm]) -> Option<String> {
    if arms.is_empty() || arms.iter().any(|a| runs(agent, a)) {
        return None;
    }
    let mut types: Vec<&str> = arms.iter().map(|a| a.guard.hook_type().as_str()).collect();
    types.sort_unstable();
    types.dedup();
    let runs: Vec<&str> =
        HookType::ALL.into_iter().filter(|t| agent.driver().runs_hook_type(*t)).map(|t| t.as_str()).collect();
    Some(format!(
        "none of the {} arms is a hook type {} runs: they are {} hooks, and it runs {}; \
         the built-in arm sets it runs: {} (with no --arms: {})",
        arms.len(),
        agent.display_name(),
        types.join(", "),
        runs.join(", "),
        sets_it_runs(agent).join(", "),
        agent.driver().default_arm_sets().join(", ")
    ))
}

/// The built-in arm sets ([`crate::arms::BUILTIN`]) holding at least one
/// arm `agent` runs ([`runs`]), in their order.
pub fn sets_it_runs(agent: Agent) -> Vec<&'static str> {
    crate::arms::BUILTIN
        .iter()
        .filter(|(name, _)| crate::arms::load(name).is_ok_and(|arms| arms.iter().any(|a| runs(agent, a))))
        .map(|(name, _)| *name)
        .collect()
}

/// Every (version, arm, repeat) in a fixed order, leaving out an arm whose
/// hook type the version's agent does not run ([`runs`]).
pub fn expand(versions: &[AgentBin], arms: &[Arm], repeats: u32) -> Vec<Cell> {
    let mut cells = Vec::with_capacity(versions.len() * arms.len() * repeats as usize);
    for bin in versions {
        for arm in arms.iter().filter(|a| runs(bin.agent, a)) {
            for repeat in 1..=repeats {
                cells.push(Cell { index: cells.len(), bin: bin.clone(), arm: arm.clone(), repeat });
            }
        }
    }
    cells
}

/// A shard `K/N` (1-based K).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// This shard, from 1.
    pub k: usize,
    /// Shard count.
    pub n: usize,
}

impl Shard {
    /// Parse `K/N` with 1 ≤ K ≤ N.
    pub fn parse(s: &str) -> Result<Shard, String> {
        let err = || format!("{s:?} is not a shard: expected K/N with 1 <= K <= N, e.g. 2/4");
        let (k, n) = s.split_once('/').ok_or_else(err)?;
        let (k, n) = (k.trim().parse::<usize>().map_err(|_| err())?, n.trim().parse::<usize>().map_err(|_| err())?);
        if k == 0 || n == 0 || k > n {
            return Err(err());
        }
        Ok(Shard { k, n })
    }

    /// Whether a cell at `index` of the expansion belongs to this shard.
    pub fn owns(&self, index: usize) -> bool {
        index % self.n == self.k - 1
    }
}

/// Keep this shard's cells, drop the ones already done (run with `model`),
/// and order the rest so long-running cells start first (they mostly wait,
/// so they overlap with the short ones instead of trailing at the end).
pub fn plan(cells: Vec<Cell>, shard: Option<Shard>, done: &HashSet<CellKey>, model: &str, mode: Mode) -> Vec<Cell> {
    let mut kept: Vec<Cell> = cells
        .into_iter()
        .filter(|c| shard.is_none_or(|s| s.owns(c.index)))
        .filter(|c| !done.contains(&c.key(model, mode)))
        .collect();
    kept.sort_by_key(|c| (!c.arm.guard.long_running, c.index));
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn bins() -> Vec<AgentBin> {
        ["2.1.240", "2.1.328"].map(|v| AgentBin::claude(PathBuf::from("/x"), v.into())).to_vec()
    }

    #[test]
    fn shards_partition_the_cells() {
        let arms = crate::arms::load("full").unwrap();
        let cells = expand(&bins(), &arms, 3);
        let total = cells.len();
        let mut seen = vec![0; total];
        for k in 1..=4 {
            for c in plan(cells.clone(), Some(Shard { k, n: 4 }), &HashSet::new(), "scripted", Mode::Print) {
                seen[c.index] += 1;
            }
        }
        assert!(seen.iter().all(|&n| n == 1), "every cell in exactly one shard");
    }

    /// One set holding settings hooks and the SDK's callbacks (`all`) rows, on
    /// each agent, only the arms of the hook types it runs: a Claude Code or
    /// Codex run of it is the run of the settings hooks alone, an SDK's the
    /// callbacks alone; a set of which an agent runs nothing says so.
    #[test]
    fn an_agent_gets_only_the_arms_of_the_hook_types_it_runs() {
        let sdk = crate::arms::load("sdk").unwrap();
        let mut mixed = crate::arms::load("article").unwrap();
        let settings_hooks = mixed.len();
        mixed.extend(sdk.iter().cloned());
        let on = |agent: Agent| {
            let bin = AgentBin { agent, path: PathBuf::from("/x"), version: "1.0.0".into() };
            expand(&[bin], &mixed, 2).into_iter().map(|c| c.arm).collect::<Vec<_>>()
        };
        for agent in [Agent::ClaudeCode, Agent::Codex, Agent::Gemini, Agent::Copilot, Agent::Cline] {
            let arms = on(agent);
            assert_eq!(arms.len(), 2 * settings_hooks, "{agent}");
            assert!(arms.iter().all(|a| !a.guard.hook_type().is_callback()), "{agent}");
            assert!(none_runs(agent, &mixed).is_none(), "{agent}");
            let why = none_runs(agent, &sdk).unwrap_or_else(|| panic!("{agent} runs no sdk arm"));
            assert!(why.contains("callback, can-use-tool hooks"), "{why}");
        }
        for agent in [Agent::AgentSdkTs, Agent::AgentSdkPy] {
            let arms = on(agent);
            assert_eq!(arms.len(), 2 * sdk.len(), "{agent}");
            assert!(arms.iter().all(|a| a.guard.hook_type().is_callback()), "{agent}");
            let article = crate::arms::load("article").unwrap();
            assert!(none_runs(agent, &article).unwrap().contains("it runs callback, can-use-tool"), "{agent}");
        }
    }

    /// Every agent runs with no `--arms`: its default sets are built-in,
    /// and each holds arms it runs; a set it cannot run is refused with the
    /// sets it can, its default among them.
    #[test]
    fn every_agents_default_sets_hold_arms_it_runs() {
        for (name, agent) in Agent::ALL {
            let defaults = agent.driver().default_arm_sets();
            assert!(!defaults.is_empty(), "{name}");
            let can = sets_it_runs(agent);
            for set in defaults {
                let arms = crate::arms::load(set).unwrap_or_else(|e| panic!("{name}: {set}: {e}"));
                assert!(none_runs(agent, &arms).is_none(), "{name} runs nothing of its default {set}");
                assert!(can.contains(set), "{name}: {set} not in {can:?}");
            }
        }
        let article = crate::arms::load("article").unwrap();
        let why = none_runs(Agent::OpenCode, &article).unwrap();
        assert!(why.contains("the built-in arm sets it runs: opencode (with no --arms: opencode)"), "{why}");
    }

    #[test]
    fn shard_parse_rejects_nonsense() {
        assert_eq!(Shard::parse("2/4").unwrap(), Shard { k: 2, n: 4 });
        for bad in ["0/4", "5/4", "x/2", "3", "1/0"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn long_running_first_and_done_skipped() {
        let arms = crate::arms::load("article").unwrap();
        let cells = expand(&bins()[..1], &arms, 1);
        let deny = cells.iter().find(|c| c.arm.name == "deny/bare").unwrap().clone();
        let done: HashSet<_> = [deny.key("scripted", Mode::Print)].into();
        let planned = plan(cells.clone(), None, &done, "scripted", Mode::Print);
        assert_eq!(planned.len(), 8);
        assert!(planned[..3].iter().all(|c| c.arm.guard.name == "hang"));
        assert!(!planned.iter().any(|c| c.arm.name == "deny/bare"));
        // A scripted row does not stand in for a live session.
        assert_eq!(plan(cells.clone(), None, &done, "live", Mode::Print).len(), 9);
        // Nor a print row for an interactive session.
        assert_eq!(plan(cells.clone(), None, &done, "scripted", Mode::Interactive).len(), 9);
        // Nor a row of the arm before its hook timeout was edited.
        let mut edited = deny.clone();
        edited.arm.hook_timeout_secs = 7.0;
        let done: HashSet<_> = [edited.key("scripted", Mode::Print)].into();
        assert_eq!(plan(cells, None, &done, "scripted", Mode::Print).len(), 9);
    }
}
