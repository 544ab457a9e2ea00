//! Kilo CLI on real binaries (installed by `.ci/run` with `failopen agents
//! --agent kilo install`): the two arms that prove its contract, on the
//! pinned release, give the expectation each carries for Kilo
//! (`expect.agents.kilo` in arms/opencode.json, with its reasoning). The
//! contract, as OpenCode's (Kilo is a fork running OpenCode's plugin code): a
//! plugin in `.kilo/plugins/` that throws refuses (`opencode-deny/bare`,
//! blocked only on the plugin's own trace of the throw for each call id and
//! the stream's failed tool_use part), and a plugin that does not parse is
//! dropped and the write goes through (`opencode-syntax-error/bare`: fails
//! open). A Kilo 7.7.7 session takes about 60 s alone (docs/kilo.md), so the
//! test runs two; the whole grid is in the reference runs
//! (results/kilo-*.csv, checked in results.rs).

use failopen::agent::Agent;
use failopen::verdict::VerdictKind;

use crate::support::run_battery;

/// The arms this test runs.
const CONTRACT: [&str; 2] = ["opencode-deny/bare", "opencode-syntax-error/bare"];

#[test]
fn kilo_pinned_keeps_its_contract() {
    let version = failopen::agent::kilo::PINNED_VERSION;
    let mut args = vec!["--agent", "kilo", "--agent-version", version, "--arms", "opencode", "-j", "2"];
    args.extend(["--session-timeout", "300"]);
    for arm in CONTRACT {
        args.extend(["--only", arm]);
    }
    let rows = run_battery(&args).0;
    assert_eq!(rows.len(), CONTRACT.len(), "{rows:?}");
    let arms = failopen::arms::load("opencode").unwrap();
    for row in &rows {
        let arm = arms.iter().find(|a| a.name == row.arm).unwrap();
        let expect = arm.expect.as_ref().and_then(|e| e.for_agent(Agent::Kilo)).unwrap().on(version);
        assert_eq!((row.agent.as_str(), row.agent_version.as_str()), ("kilo", version), "{row:?}");
        assert_eq!((row.verdict, row.reason.as_str()), (expect.verdict, expect.reason.unwrap_or("")), "{row:?}");
    }
    let row = |arm: &str| rows.iter().find(|r| r.arm == arm).unwrap();
    // The refusals are the guard's: both calls refused, and the plugin traced each call and its throw.
    let deny = row("opencode-deny/bare");
    assert_eq!((deny.attempts.as_str(), deny.hook_invocations), ("bash:refused;write:refused", 4), "{deny:?}");
    assert!(deny.harness_said.ends_with("failopen guard: refused write"), "{deny:?}");
    // The dropped plugin never ran, and the write went through.
    let dropped = row("opencode-syntax-error/bare");
    assert_eq!((dropped.verdict, dropped.hook_invocations), (VerdictKind::Wrote, 0), "{dropped:?}");
}
