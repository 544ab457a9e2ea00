//! OpenCode on real binaries (installed by `.ci/run` with `failopen agents
//! --agent opencode install`): the arms that prove its contract give the
//! expectation each carries for OpenCode (`expect.agents.opencode` in
//! arms/opencode.json, with its reasoning), on the pinned release (the older
//! one in its reference run). The contract: a plugin that throws refuses (`opencode-deny/bare`,
//! blocked only on the plugin's own trace of the throw for each call id and
//! the stream's failed tool_use part), a healthy one lets the write through
//! (`opencode-allow/bare`), a plugin that does not parse is dropped and the
//! write goes through (`opencode-syntax-error/bare`: fails open), and under
//! failopen's sealed plugin the same broken guard refuses, on the seal's own
//! trace (`opencode-syntax-error/sealed`). The whole grid, hang included, is
//! in the reference runs (results/opencode-*.csv, checked in results.rs).

use failopen::agent::Agent;
use failopen::record::Row;
use failopen::verdict::VerdictKind;

use crate::support::run_battery;

/// The arms this test runs: each is seconds long.
const CONTRACT: [&str; 4] =
    ["opencode-deny/bare", "opencode-allow/bare", "opencode-syntax-error/bare", "opencode-syntax-error/sealed"];

/// The contract's rows on OpenCode `version`.
fn rows(version: &str) -> Vec<Row> {
    let mut args = vec!["--agent", "opencode", "--agent-version", version, "--arms", "opencode", "-j", "2"];
    args.extend(["--session-timeout", "240"]);
    for arm in CONTRACT {
        args.extend(["--only", arm]);
    }
    run_battery(&args).0
}

fn contract_holds(version: &str) {
    let rows = rows(version);
    assert_eq!(rows.len(), CONTRACT.len(), "{rows:?}");
    let arms = failopen::arms::load("opencode").unwrap();
    let mut wrong = Vec::new();
    for row in &rows {
        let arm = arms.iter().find(|a| a.name == row.arm).unwrap();
        let expect = arm.expect.as_ref().and_then(|e| e.for_agent(Agent::OpenCode)).unwrap().on(version);
        assert_eq!((row.agent.as_str(), row.agent_version.as_str()), ("opencode", version), "{row:?}");
        if (row.verdict, row.reason.as_str()) != (expect.verdict, expect.reason.unwrap_or("")) {
            wrong.push(format!(
                "{}: got {} {} ({}), expected from {}",
                arm.name, row.verdict, row.reason, row.attempts, expect.source
            ));
        }
    }
    assert!(wrong.is_empty(), "opencode {version}:\n{}", wrong.join("\n"));
    let row = |arm: &str| rows.iter().find(|r| r.arm == arm).unwrap();
    // The refusals are the guard's: both calls refused, and the plugin traced each call and its throw.
    let deny = row("opencode-deny/bare");
    assert_eq!((deny.attempts.as_str(), deny.hook_invocations), ("bash:refused;write:refused", 4), "{deny:?}");
    assert_eq!(deny.harness_said, "failopen guard: refused write", "{deny:?}");
    // The dropped plugin never ran, and the write went through the hook point it left empty.
    let dropped = row("opencode-syntax-error/bare");
    assert_eq!((dropped.hook_invocations, dropped.hook_outcomes.as_str()), (0, "ran:bash"), "{dropped:?}");
    // Sealed, the refusal is the seal's own, recorded for each call.
    let sealed = row("opencode-syntax-error/sealed");
    assert_eq!((sealed.attempts.as_str(), sealed.hook_invocations), ("bash:refused;write:refused", 2), "{sealed:?}");
    assert!(sealed.harness_said.starts_with("failopen seal: refusing write: the guard did not load"), "{sealed:?}");
    assert_eq!(row("opencode-allow/bare").verdict, VerdictKind::Wrote);
}

#[test]
fn opencode_pinned_keeps_its_contract() {
    contract_holds(failopen::agent::opencode::PINNED_VERSION);
}
