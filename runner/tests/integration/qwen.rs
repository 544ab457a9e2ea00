//! Qwen Code on real binaries (installed by `.ci/run` with `failopen agents
//! --agent qwen install`): the article's arms that prove its contract give
//! the expectation each carries for Qwen Code (`expect.agents.qwen` in
//! arms/article.json, with its reasoning), on the pinned release. The
//! contract: an exit 2 and Claude Code's JSON deny refuse (`deny/bare`,
//! `json-deny/bare`: blocked only on Qwen's own `permission_denials` for each
//! call), a crash lets the write through (`crash/bare`), and the article's
//! plain wrapper turns the crash into a refusal (`crash/plain`). The whole
//! `full` grid on both reference versions is in results/qwen-*.csv, checked
//! in results.rs.

use failopen::agent::Agent;
use failopen::verdict::VerdictKind;

use crate::support::run_battery;

/// The arms this test runs: each ends in seconds (no hang).
const CONTRACT: [&str; 4] = ["deny/bare", "json-deny/bare", "crash/bare", "crash/plain"];

#[test]
fn qwen_pinned_keeps_its_contract() {
    let version = failopen::agent::qwen::PINNED_VERSION;
    let mut args = vec!["--agent", "qwen", "--agent-version", version, "--arms", "article", "-j", "2"];
    args.extend(["--session-timeout", "600"]);
    for arm in CONTRACT {
        args.extend(["--only", arm]);
    }
    let rows = run_battery(&args).0;
    assert_eq!(rows.len(), CONTRACT.len(), "{rows:?}");
    let arms = failopen::arms::load("article").unwrap();
    let mut wrong = Vec::new();
    for row in &rows {
        let arm = arms.iter().find(|a| a.name == row.arm).unwrap();
        let expect = arm.expect.as_ref().and_then(|e| e.for_agent(Agent::Qwen));
        let expect = expect.unwrap_or_else(|| panic!("{} carries no qwen expectation", arm.name)).on(version);
        assert_eq!((row.agent.as_str(), row.agent_version.as_str()), ("qwen", version), "{row:?}");
        if (row.verdict, row.reason.as_str()) != (expect.verdict, expect.reason.unwrap_or("")) {
            wrong.push(format!(
                "{}: got {} {} ({}), expected from {}",
                arm.name, row.verdict, row.reason, row.attempts, expect.source
            ));
        }
        if row.verdict == VerdictKind::Blocked {
            // Both calls (the shell, then write_file) refused, each listed by Qwen as denied.
            assert_eq!(row.attempts, "run_shell_command:refused;write_file:refused", "{row:?}");
            assert_eq!(row.hook_outcomes, "denied;denied", "{row:?}");
        }
    }
    assert!(wrong.is_empty(), "qwen {version}:\n{}", wrong.join("\n"));
    let crash = rows.iter().find(|r| r.arm == "crash/bare").unwrap();
    assert_eq!(
        (crash.attempts.as_str(), crash.hook_outcomes.as_str()),
        ("run_shell_command:allowed", "ran"),
        "{crash:?}"
    );
}
