//! No arm without an expectation (issue 47, item 5): every arm of every
//! built-in arm set, on every agent whose driver says it can run it
//! ([`failopen::run::lacks`]: the hook type it runs, and nothing its driver
//! would answer `unsupported` for), carries that agent's expectation with
//! its reasoning: written next to the arm (`expect`, `expect.agents.<agent>`),
//! or, for the wide grids whose arms carry none (full, extended, model),
//! reasoned out in [`crate::oracle`] for the agents it reasons about.

use failopen::agent::Agent;

/// The agents [`crate::oracle`] reasons about, for an arm that carries no
/// expectation in its file: Claude Code ([`crate::oracle::expected_on`]),
/// Codex, Gemini and Copilot ([`crate::oracle::expected_on_agent`]), Qwen
/// ([`crate::oracle::expected_on_qwen`]).
const ORACLE_AGENTS: [Agent; 5] = [Agent::ClaudeCode, Agent::Codex, Agent::Gemini, Agent::Copilot, Agent::Qwen];

/// The arms (as `set: arm on agent`) that an agent runs and that carry no
/// expectation for it.
fn missing_expectations() -> Vec<String> {
    let exe = crate::support::cmd::bin();
    let mut missing = Vec::new();
    for (set, _) in failopen::arms::BUILTIN {
        for arm in failopen::arms::load(set).unwrap_or_else(|e| panic!("{e}")) {
            for (_, agent) in Agent::ALL {
                let lacks =
                    failopen::run::lacks(agent, &arm, &exe).unwrap_or_else(|e| panic!("{set}: {}: {e:#}", arm.name));
                if lacks.is_some() {
                    continue;
                }
                let written = arm.expect.as_ref().and_then(|e| e.for_agent(agent)).is_some();
                let reasoned = arm.expect.is_none() && ORACLE_AGENTS.contains(&agent);
                if !written && !reasoned {
                    missing.push(format!("{set}: {} on {agent}", arm.name));
                }
            }
        }
    }
    missing
}

/// The gaps known when this test was written (issue 47), one `set: arm on
/// agent` a line: each is an arm an agent runs that was never measured on
/// it. The list only shrinks: a new gap fails, and so does a filled one
/// still listed.
const UNWRITTEN: &str = include_str!("expectations-unwritten.txt");

#[test]
fn every_arm_an_agent_can_run_carries_its_expectation() {
    let missing = missing_expectations();
    let known: Vec<&str> = UNWRITTEN.lines().filter(|l| !l.is_empty()).collect();
    let new: Vec<&str> = missing.iter().map(String::as_str).filter(|m| !known.contains(m)).collect();
    let filled: Vec<&str> = known.iter().copied().filter(|k| !missing.iter().any(|m| m == k)).collect();
    assert!(
        new.is_empty(),
        "{} arms an agent runs carry no expectation for it (write each, with its reasoning, measured):\n{}",
        new.len(),
        new.join("\n")
    );
    assert!(filled.is_empty(), "now expected, take them off expectations-unwritten.txt:\n{}", filled.join("\n"));
}
