//! Continue CLI on a real binary (installed by `.ci/run` with `failopen
//! agents install --agent continue`): the arms that prove its contract give
//! the expectation each carries for Continue (`expect.agents.continue` in
//! arms/article.json and arms/continue.json, with its reasoning), on the
//! pinned release. The contract, such as it is: Continue loads the hook
//! from its own `~/.continue/settings.json` and from Claude Code's project
//! `.claude/settings.json`, and never runs it, so a guard that refuses
//! (`deny/bare`) and one that allows (`allow/bare@continue-user`, which would leave a
//! trace line) both leave `notes.txt` written by `Bash` with no sign of the
//! hook: `invalid hook-not-run`, never `blocked` nor a plain `wrote`. The
//! article's arms and Continue's own on both reference versions are in
//! results/continue-*.csv, checked in results.rs.

use failopen::agent::Agent;

use crate::support::run_battery;

/// The arms this test runs, by set: each ends in seconds (no hang).
const CONTRACT: [(&str, &str); 3] =
    [("article", "deny/bare"), ("continue", "allow/bare@continue-user"), ("continue", "deny/bare@claude-project")];

#[test]
fn continue_pinned_keeps_its_contract() {
    let version = failopen::agent::continue_cli::PINNED_VERSION;
    let mut args = vec!["--agent", "continue", "--agent-version", version, "--arms", "article", "--arms", "continue"];
    args.extend(["-j", "2", "--session-timeout", "120"]);
    for (_, arm) in CONTRACT {
        args.extend(["--only", arm]);
    }
    let rows = run_battery(&args).0;
    assert_eq!(rows.len(), CONTRACT.len(), "{rows:?}");
    let mut wrong = Vec::new();
    for (set, name) in CONTRACT {
        let arms = failopen::arms::load(set).unwrap();
        let arm = arms.iter().find(|a| a.name == name).unwrap();
        let row = rows.iter().find(|r| r.arm == name).unwrap_or_else(|| panic!("no row for {name}: {rows:?}"));
        let expect = arm.expect.as_ref().and_then(|e| e.for_agent(Agent::Continue));
        let expect = expect.unwrap_or_else(|| panic!("{name} carries no continue expectation")).on(version);
        assert_eq!((row.agent.as_str(), row.claude_version.as_str()), ("continue", version), "{row:?}");
        if (row.verdict, row.reason.as_str()) != (expect.verdict, expect.reason.unwrap_or("")) {
            wrong.push(format!(
                "{name}: got {} {} ({}), expected from {}",
                row.verdict, row.reason, row.attempts, expect.source
            ));
        }
        // The write went through Continue's Bash, and no guard ever ran.
        assert_eq!(row.attempts, "Bash:allowed", "{row:?}");
        assert!(row.file_bytes.is_some_and(|b| b > 0), "{row:?}");
        assert_eq!(row.hook_invocations, 0, "{row:?}");
    }
    assert!(wrong.is_empty(), "continue {version}:\n{}", wrong.join("\n"));
}
