//! The Claude Agent SDK for TypeScript on real releases (installed by
//! `.ci/run` with `failopen claude --agent agent-sdk-ts install`): every arm
//! of arms/sdk.json gives the verdict, and the reason of an expected
//! `invalid`, written next to it for `agent-sdk-ts` (reasoning there and in
//! docs/agent-sdk.md), on the pinned SDK and on the one about three months
//! older. Claude Code, Codex and Gemini never run a callback arm.

use failopen::agent::agent_sdk_ts::{OLDER_VERSION, PINNED_VERSION};
use failopen::agent::Agent;
use failopen::verdict::VerdictKind;

use crate::support::run_battery;

/// arms/sdk.json on SDK `version`, each row against its written expectation.
/// The session timeout leaves a hanging or late callback (two 3 s matcher
/// timeouts and three model turns, up to 25 s on a loaded machine) room to be
/// refused; canUseTool's null and hang wait it out.
fn sdk_arms_hold(version: &str, bundled_cli: &str) {
    let (rows, _dir) = run_battery(&[
        "--agent",
        "agent-sdk-ts",
        "--claude",
        version,
        "--arms",
        "sdk",
        "--session-timeout",
        "45",
        "-j",
        "3",
    ]);
    let arms = failopen::arms::load("sdk").unwrap();
    assert_eq!(rows.len(), arms.len(), "one row per arm");
    let mut wrong = Vec::new();
    for arm in &arms {
        let expect = arm.expect.as_ref().and_then(|e| e.for_agent(Agent::AgentSdkTs));
        let expect =
            expect.unwrap_or_else(|| panic!("sdk: {} carries no agent-sdk-ts expectation", arm.name)).on(version);
        let row = rows.iter().find(|r| r.arm == arm.name).unwrap_or_else(|| panic!("no row for {}", arm.name));
        assert_eq!((row.agent.as_str(), row.claude_version.as_str()), ("agent-sdk-ts", version), "{row:?}");
        assert!(row.flags.contains(&format!("bundled-cli:{bundled_cli}")), "{row:?}");
        let reason = expect.reason.unwrap_or_default();
        if row.verdict != expect.verdict || row.reason != reason {
            wrong.push(format!(
                "{}: got {} {} ({}; {}), expected {} {reason}: {}",
                arm.name, row.verdict, row.reason, row.hook_outcomes, row.harness_said, expect.verdict, expect.source
            ));
        }
    }
    assert!(wrong.is_empty(), "agent-sdk-ts {version}:\n{}", wrong.join("\n"));
}

#[test]
fn sdk_pinned_gives_every_arms_expectation() {
    sdk_arms_hold(PINNED_VERSION, "2.1.333");
}

#[test]
fn sdk_three_months_older_gives_every_arms_expectation() {
    sdk_arms_hold(OLDER_VERSION, "2.1.258");
}

#[test]
fn other_agents_never_run_a_callback_arm() {
    for agent in ["claude-code", "codex", "gemini"] {
        let (rows, _dir) = run_battery(&["--agent", agent, "--arms", "sdk", "--only", "callback-throw/*"]);
        assert_eq!(rows.len(), 2, "{agent}");
        for r in &rows {
            assert_eq!(r.verdict, VerdictKind::Invalid, "{r:?}");
            assert!(r.reason.starts_with("unsupported:"), "{r:?}");
            assert_eq!(r.session_secs, 0.0, "no session was started: {r:?}");
        }
    }
}
