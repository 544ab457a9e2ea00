//! Droid CLI on real binaries (installed by `.ci/run` with `failopen agents
//! install --agent droid`): the article's arms that prove its contract give
//! the expectation each carries for Droid (`expect.agents.droid` in
//! arms/article.json, with its reasoning), on the pinned release. The
//! contract: an exit 2 and Claude Code's JSON deny refuse (`deny/bare`,
//! `json-deny/bare`: both calls come back `Error: <reason>`), a crash lets
//! the write through (`crash/bare`), and the article's plain wrapper turns
//! the crash into a refusal (`crash/plain`). The wider grid on both
//! reference versions is in results/droid-*.csv, checked in results.rs.

use failopen::agent::Agent;
use failopen::verdict::VerdictKind;

use crate::support::run_battery;

/// The arms this test runs: each ends in seconds (no hang).
const CONTRACT: [&str; 4] = ["deny/bare", "json-deny/bare", "crash/bare", "crash/plain"];

#[test]
fn droid_pinned_keeps_its_contract() {
    let version = failopen::agent::droid::PINNED_VERSION;
    let mut args = vec!["--agent", "droid", "--agent-version", version, "--arms", "article", "-j", "2"];
    args.extend(["--session-timeout", "300"]);
    for arm in CONTRACT {
        args.extend(["--only", arm]);
    }
    let rows = run_battery(&args).0;
    assert_eq!(rows.len(), CONTRACT.len(), "{rows:?}");
    let arms = failopen::arms::load("article").unwrap();
    let mut wrong = Vec::new();
    for row in &rows {
        let arm = arms.iter().find(|a| a.name == row.arm).unwrap();
        let expect = arm.expect.as_ref().and_then(|e| e.for_agent(Agent::Droid));
        let expect = expect.unwrap_or_else(|| panic!("{} carries no droid expectation", arm.name)).on(version);
        assert_eq!((row.agent.as_str(), row.agent_version.as_str()), ("droid", version), "{row:?}");
        if (row.verdict, row.reason.as_str()) != (expect.verdict, expect.reason.unwrap_or("")) {
            wrong.push(format!(
                "{}: got {} {} ({}), expected from {}",
                arm.name, row.verdict, row.reason, row.attempts, expect.source
            ));
        }
        if row.verdict == VerdictKind::Blocked {
            // Both calls (Execute, then Create) refused.
            assert_eq!(row.attempts, "Execute:refused;Create:refused", "{row:?}");
        }
        // Droid's own transcript says how the guard ended for each call (transcript.rs):
        // the JSON deny on exit 0, an exit 2 (the plain wrapper's too), and a crash's exit 1.
        let outcomes = match row.arm.as_str() {
            "json-deny/bare" => "success:0;success:0",
            "crash/bare" => "error:1",
            _ => "error:2;error:2",
        };
        assert_eq!(row.hook_outcomes, outcomes, "{row:?}");
    }
    assert!(wrong.is_empty(), "droid {version}:\n{}", wrong.join("\n"));
    let crash = rows.iter().find(|r| r.arm == "crash/bare").unwrap();
    assert_eq!(crash.attempts, "Execute:allowed", "{crash:?}");
}
