//! Codex CLI and Gemini CLI on real binaries (installed by `.ci/run` with
//! `failopen agents --agent A install`): the article's arms give the
//! expectation each carries for the agent (`expect.codex`, `expect.gemini`
//! in arms/article.json), and every arm run gives [`expected_on_agent`]'s
//! verdict, whose reasoning is in oracle.rs, on the pinned release of each.
//! arms/shapes.json (which JSON decision each agent reads) runs on the pinned
//! release of all three agents, each arm against its written expectation.
//! The wide grids and the older releases are reference runs in results/,
//! checked by results.rs against the same expectations.

use failopen::agent::Agent;
use failopen::record::Row;
use failopen::verdict::VerdictKind;

use crate::oracle::expected_on_agent;
use crate::support::run_battery;

/// The arms that prove `agent`'s contract on `version`: the article's nine
/// (exit 2, crash, missing, JSON deny and crash, hang, under the article's
/// wrappers) and `extra` arms of the extended grid. Every row gives
/// [`expected_on_agent`]'s verdict and the article's arms their written
/// expectation. The whole full and extended grids (91 arms) are the
/// reference runs results/<agent>-<version>.csv, checked against the same
/// oracle by `results::agent_reference_csvs_match_the_oracle_and_their_versions_agree`.
fn contract_holds(agent: Agent, version: &str, extra: &[&str]) -> Vec<Row> {
    let mut args = vec!["--agent", agent.as_str(), "--agent-version", version, "--arms", "article", "-j", "3"];
    let (mut rows, _dir) = run_battery(&args);
    assert_eq!(rows.len(), 9, "the article's nine arms");
    if !extra.is_empty() {
        args.truncate(4);
        args.extend(["--arms", "extended", "-j", "3"]);
        for arm in extra {
            args.extend(["--only", arm]);
        }
        let (more, _dir) = run_battery(&args);
        assert_eq!(more.len(), extra.len(), "{extra:?}");
        rows.extend(more);
    }
    let mut wrong = Vec::new();
    for r in &rows {
        assert_eq!((r.agent.as_str(), r.agent_version.as_str()), (agent.as_str(), version), "{r:?}");
        let want = expected_on_agent(agent, &r.guard, &r.wrapper, version);
        if r.verdict.as_str() != want {
            wrong.push(format!("{}: got {} {} ({}), expected {want}", r.arm, r.verdict, r.reason, r.harness_said));
        }
    }
    assert!(wrong.is_empty(), "{agent} {version}:\n{}", wrong.join("\n"));
    article_expectations_hold(agent, &rows);
    rows
}

/// The article's arms among `rows` give what arms/article.json expects on the agent.
fn article_expectations_hold(agent: Agent, rows: &[Row]) {
    set_expectations_hold("article", agent, rows);
}

/// Every arm of the built-in set `set` has a row among `rows`, with the
/// verdict the set's file expects on `agent` (reasoning beside it).
fn set_expectations_hold(set: &str, agent: Agent, rows: &[Row]) {
    for arm in failopen::arms::load(set).unwrap() {
        let expect = arm.expect.as_ref().and_then(|e| e.for_agent(agent));
        let expect = expect.unwrap_or_else(|| panic!("{set}: {} carries no {agent} expectation", arm.name));
        let row = rows.iter().find(|r| r.arm == arm.name).unwrap_or_else(|| panic!("no row for {}", arm.name));
        assert_eq!(row.verdict, expect.verdict, "{} on {agent}: {row:?}\nexpected from {}", arm.name, expect.source);
    }
}

#[test]
fn codex_pinned_keeps_its_contract() {
    let rows = contract_holds(Agent::Codex, failopen::agent::codex::PINNED_VERSION, &[]);
    // A refusal names no hook on Codex: the row quotes Codex's own words.
    let deny = rows.iter().find(|r| r.arm == "deny/bare").unwrap();
    assert_eq!(deny.attempts, "Bash:refused;apply_patch:refused", "{deny:?}");
    assert!(deny.harness_said.starts_with("Command blocked by PreToolUse hook: this session may not write files"));
}

#[test]
fn gemini_pinned_keeps_its_contract() {
    let rows = contract_holds(Agent::Gemini, failopen::agent::gemini::PINNED_VERSION, &["big-output/bare"]);
    let deny = rows.iter().find(|r| r.arm == "deny/bare").unwrap();
    assert_eq!(deny.attempts, "run_shell_command:refused;write_file:refused", "{deny:?}");
    // The 5 MB refusal never reaches the model again; the CLI's own stream says it was refused.
    let big = rows.iter().find(|r| r.arm == "big-output/bare").unwrap();
    assert_eq!(big.verdict, VerdictKind::Blocked, "{big:?}");
}

#[test]
fn an_agent_that_cannot_run_an_arm_says_so_without_a_session() {
    // A PermissionRequest hook has no Codex counterpart in failopen's battery yet.
    let (rows, _dir) = run_battery(&["--agent", "codex", "--arms", "surface", "--only", "*@PermissionRequest"]);
    assert!(!rows.is_empty());
    for r in &rows {
        assert_eq!(r.verdict, VerdictKind::Invalid, "{r:?}");
        assert!(r.reason.starts_with("unsupported:codex-"), "{r:?}");
        assert_eq!(r.session_secs, 0.0, "no session was started: {r:?}");
    }
}

/// arms/shapes.json on each agent at `version`: which JSON decision each reads,
/// with and without the article's plain wrapper and seal.
fn shapes_hold(agent: Agent, version: &str) {
    let (rows, _dir) =
        run_battery(&["--agent", agent.as_str(), "--agent-version", version, "--arms", "shapes", "-j", "3"]);
    assert_eq!(rows.len(), failopen::arms::load("shapes").unwrap().len(), "{agent} {version}");
    set_expectations_hold("shapes", agent, &rows);
}

#[test]
fn each_agent_reads_its_own_json_decision_and_seal_makes_every_shape_refuse() {
    shapes_hold(Agent::ClaudeCode, failopen::agent::claude_code::PINNED_VERSION);
    shapes_hold(Agent::Codex, failopen::agent::codex::PINNED_VERSION);
    shapes_hold(Agent::Gemini, failopen::agent::gemini::PINNED_VERSION);
    // The older release of each: results::shapes_reference_csv_gives_every_arms_expectation_on_the_older_releases.
}

/// A command guard that asks a model itself (guards/model-command.sh) reaches
/// the stand-in on every agent that runs command hooks, not only on the ones
/// whose driver sets ANTHROPIC_BASE_URL: every stand-in session gets
/// FAILOPEN_STANDIN_URL, which the guard reads first, and Codex CLI, Gemini
/// CLI and Copilot CLI pass it to their hooks. The stand-in counts the
/// guard's calls (the row's `hook-model-calls` flag), and the verdicts follow
/// the model's answer: an allow writes (Copilot would refuse a guard that
/// cannot reach its model, which exits 1), a deny refuses (Codex and Gemini
/// would let a guard that cannot reach its model through).
#[test]
fn a_command_guard_that_asks_a_model_reaches_the_stand_in_on_every_agent() {
    for agent in [Agent::Codex, Agent::Gemini, Agent::Copilot] {
        let args = ["--agent", agent.as_str(), "--arms", "model"];
        let only = ["--only", "model-cmd-allow/bare", "--only", "model-cmd-deny/bare", "-j", "2"];
        let (rows, _dir) = run_battery(&[&args[..], &only[..]].concat());
        assert_eq!(rows.len(), 2, "{agent}: {rows:?}");
        for r in &rows {
            assert!(
                r.flags.split(';').any(|f| f.starts_with("hook-model-calls:")),
                "{agent}: no call reached the stand-in: {r:?}"
            );
            let arm = failopen::arms::load("model").unwrap().into_iter().find(|a| a.name == r.arm).unwrap();
            let expect = arm.expected_on(agent).unwrap_or_else(|| panic!("{}: no {agent} expectation", r.arm));
            assert_eq!(r.verdict, expect.verdict, "{} on {agent}: {r:?}\nexpected from {}", r.arm, expect.source);
        }
    }
}
