//! Guards that keep state in a file (arms/state.json, docs/state.md): a
//! write budget, spent, missing, corrupt, unwritable, behind a stale lock,
//! and one write left for three parallel calls (the race).
//!
//! The reference run (results/state.csv: every agent with command hooks at
//! its pinned release, the race 20 times on Claude Code) is checked row by
//! row here, fast; one small live run keeps the pinned Claude Code's part.

use failopen::agent::Agent;
use failopen::record::Row;
use failopen::verdict::VerdictKind;

use crate::support::{reference, run_battery};

const FILE: &str = "state.csv";

/// How many writes a parallel row's session landed: notes.txt (its verdict)
/// and each side file its flags say landed.
fn writes_landed(row: &Row) -> usize {
    let sides = row.flags.split(';').find_map(|f| f.strip_prefix("parallel:")).unwrap_or("");
    usize::from(row.verdict == VerdictKind::Wrote) + sides.split(',').filter(|s| s.ends_with("=landed")).count()
}

/// Every row is its agent's: where the agent's driver says it cannot run the
/// arm (the race's parallel calls, on every agent but Claude Code), an
/// `invalid unsupported:` row; everywhere else, what the arm's expectation
/// for that agent says, reason included. Every agent with command hooks has
/// a row of every arm it runs.
#[test]
fn state_reference_csv_gives_every_arms_expectation() {
    let rows = reference::rows(FILE);
    let arms = failopen::arms::load("state").unwrap();
    let exe = crate::support::cmd::bin();
    let mut wrong = Vec::new();
    for row in &rows {
        let arm = arms.iter().find(|a| a.name == row.arm).unwrap_or_else(|| panic!("{} is no arm", row.arm));
        let agent = row.agent();
        if let Some(what) = failopen::run::lacks(agent, arm, &exe).unwrap() {
            assert_eq!(
                (row.verdict, row.reason.as_str()),
                (VerdictKind::Invalid, format!("unsupported:{what}").as_str())
            );
            continue;
        }
        let expect = arm.expect.as_ref().and_then(|e| e.for_agent(agent));
        let want =
            expect.unwrap_or_else(|| panic!("{} carries no {agent} expectation", arm.name)).on(&row.agent_version);
        if (row.verdict, row.reason.as_str()) != (want.verdict, want.reason.unwrap_or("")) {
            wrong.push(format!(
                "{} #{} on {agent}: got {} {}, expected from {}",
                arm.name, row.repeat, row.verdict, row.reason, want.source
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    for agent in [
        Agent::ClaudeCode,
        Agent::Codex,
        Agent::Gemini,
        Agent::Copilot,
        Agent::Qwen,
        Agent::Cline,
        Agent::Continue,
        Agent::Droid,
        Agent::Auggie,
    ] {
        for arm in &arms {
            assert!(
                rows.iter().any(|r| r.agent() == agent && r.arm == arm.name),
                "{FILE}: no row of {} on {agent}",
                arm.name
            );
        }
    }
}

/// The race is a rate, not one verdict: each race arm ran at least 20 times
/// on Claude Code, and the number of its sessions that landed more than the
/// one write the budget allows is the one its expectation states ("N of 20
/// sessions spent more than the one write").
#[test]
fn the_race_is_measured_twenty_times_and_its_rate_is_the_stated_one() {
    let rows = reference::rows(FILE);
    for arm in failopen::arms::load("state").unwrap().iter().filter(|a| a.name.ends_with("@race")) {
        let ran: Vec<&Row> = rows.iter().filter(|r| r.arm == arm.name && r.agent() == Agent::ClaudeCode).collect();
        assert!(ran.len() >= 20, "{}: {} sessions", arm.name, ran.len());
        let overspent = ran.iter().filter(|r| writes_landed(r) > 1).count();
        let source = &arm.expect.as_ref().unwrap().source;
        let stated = format!("{overspent} of {} sessions spent more than the one write", ran.len());
        assert!(source.contains(&stated), "{}: measured \"{stated}\"; the expectation says: {source}", arm.name);
    }
}

/// The pinned Claude Code, live: a spent budget refuses, a corrupt state
/// file lets the write through bare and is refused sealed, and the race's
/// first call spends the one write while the two others are refused.
#[test]
fn pinned_claude_code_keeps_the_state_arms_expectations() {
    const ARMS: [&str; 4] = ["budget/bare@spent", "budget/bare@corrupt", "budget/sealed@corrupt", "budget/bare@race"];
    let version = failopen::agent::claude_code::PINNED_VERSION;
    let mut args = vec!["--agent-version", version, "--arms", "state", "-j", "2"];
    for arm in ARMS {
        args.extend(["--only", arm]);
    }
    let rows = run_battery(&args).0;
    assert_eq!(rows.len(), ARMS.len(), "{rows:?}");
    let arms = failopen::arms::load("state").unwrap();
    for row in &rows {
        let arm = arms.iter().find(|a| a.name == row.arm).unwrap();
        let want = arm.expect.as_ref().unwrap().on(version);
        assert_eq!((row.verdict, row.reason.as_str()), (want.verdict, ""), "{}: {row:?}", want.source);
        if row.arm.ends_with("@race") {
            assert_eq!(writes_landed(row), 1, "{row:?}");
        }
    }
}
