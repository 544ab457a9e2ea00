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

use crate::support::battery::run_contract;

/// The arms this test runs, by set: each ends in seconds (no hang).
const CONTRACT: [(&str, &str); 3] =
    [("article", "deny/bare"), ("continue", "allow/bare@continue-user"), ("continue", "deny/bare@claude-project")];

#[test]
fn continue_pinned_keeps_its_contract() {
    let version = failopen::agent::continue_cli::PINNED_VERSION;
    let mut wrong = Vec::new();
    for (name, row, expect) in run_contract(Agent::Continue, version, &CONTRACT) {
        let expect = expect.on(version);
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
