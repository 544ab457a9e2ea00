//! The Claude Agent SDK for TypeScript and Python on real releases
//! (installed by `.ci/run` with `failopen agents --agent agent-sdk-ts
//! install` and `--agent agent-sdk-py install`): every arm of arms/sdk.json
//! gives the verdict, and the reason of an expected `invalid`, written next
//! to it for `agent-sdk-ts` and `agent-sdk-py` (reasoning there and in
//! docs/agent-sdk.md), on the pinned SDK; the ones about three months older
//! are checked in their reference runs
//! (`results::sdk_reference_csvs_hold_every_arms_expectation`). Claude Code,
//! Codex and Gemini never run a callback arm.

use failopen::agent::{agent_sdk_py, agent_sdk_ts, Agent};
use failopen::verdict::VerdictKind;

use crate::support::run_battery;

/// arms/sdk.json (those matching `only`, all when empty) on `agent`'s SDK
/// `version`, each row against its written expectation, in sessions bounded
/// by `session_timeout` seconds. For the Claude Agent SDK, 75 s leaves a
/// hanging or late callback (two 3 s matcher timeouts and three model turns,
/// up to 50 s for a Python session on a loaded machine) room to be refused;
/// canUseTool's hang and a callback with no timeout wait it out.
pub(crate) fn sdk_arms_hold(agent: Agent, version: &str, bundled_cli: &str, only: &[&str], session_timeout: &str) {
    let mut args = vec![
        "--agent",
        agent.as_str(),
        "--agent-version",
        version,
        "--arms",
        "sdk",
        "--session-timeout",
        session_timeout,
    ];
    args.extend(["-j", "2"]);
    for glob in only {
        args.extend(["--only", glob]);
    }
    let (rows, _dir) = run_battery(&args);
    let arms: Vec<_> = failopen::arms::load("sdk")
        .unwrap()
        .into_iter()
        .filter(|a| only.is_empty() || rows.iter().any(|r| r.arm == a.name))
        .collect();
    assert_eq!(rows.len(), arms.len(), "one row per arm");
    assert!(only.is_empty() || !rows.is_empty(), "{only:?} matched no arm");
    let mut wrong = Vec::new();
    for arm in &arms {
        let expect = arm.expect.as_ref().and_then(|e| e.for_agent(agent));
        let expect = expect.unwrap_or_else(|| panic!("sdk: {} carries no {agent} expectation", arm.name)).on(version);
        let row = rows.iter().find(|r| r.arm == arm.name).unwrap_or_else(|| panic!("no row for {}", arm.name));
        assert_eq!((row.agent.as_str(), row.agent_version.as_str()), (agent.as_str(), version), "{row:?}");
        // An arm the SDK's language cannot run starts no session, and names no bundled CLI.
        let started = row.session_exit != "not-started";
        assert!(!started || row.flags.contains(&format!("bundled-cli:{bundled_cli}")), "{row:?}");
        let reason = expect.reason.unwrap_or_default();
        if row.verdict != expect.verdict || row.reason != reason {
            wrong.push(format!(
                "{}: got {} {} ({}; {}), expected {} {reason}: {}",
                arm.name, row.verdict, row.reason, row.hook_outcomes, row.harness_said, expect.verdict, expect.source
            ));
        }
    }
    assert!(wrong.is_empty(), "{agent} {version}:\n{}", wrong.join("\n"));
}

/// The arms that prove the pinned SDK's contract, run in CI: a failure bare,
/// with `onFailure` and sealed (throw, string, misspelt key), the deny and the
/// allow, a hang and a late answer refused at the timeout, and canUseTool
/// failing closed. The arms that only wait out the session timeout
/// (a hang with no matcher timeout, canUseTool's hang and null) and the
/// other garbage answers are the committed reference run, which
/// `results::sdk_reference_csvs_hold_every_arms_expectation` checks against
/// the same expectations.
const PINNED_PROOF: [&str; 11] = [
    "callback-throw/*",
    "callback-string/*",
    "callback-misspelt-key/*",
    "callback-deny/*",
    "callback-allow/bare",
    "callback-hang/bare",
    "callback-late/bare",
    "can-use-tool-allow/bare",
    "can-use-tool-deny/bare",
    "can-use-tool-throw/*",
    "callback-def-deny/*",
];

#[test]
fn sdk_pinned_gives_its_arms_expectation() {
    sdk_arms_hold(Agent::AgentSdkTs, agent_sdk_ts::PINNED_VERSION, "2.1.333", &PINNED_PROOF, "75");
}

/// The SDK's warning that a hook callback failed (a stream message the
/// verdict cannot show; the row flag `sdk-notice:hook_callback_failed`) is on
/// a failed callback's row from the release oracle.rs names (0.3.333 has it,
/// 0.3.258 does not), and never on a callback that answered a correct deny.
#[test]
fn sdk_flags_the_callback_failed_warning_from_its_release() {
    use crate::oracle::{sdk_at_least, SDK_TS_CALLBACK_FAILED_NOTICE_SINCE};
    let notice = "sdk-notice:hook_callback_failed";
    for version in [agent_sdk_ts::OLDER_VERSION, agent_sdk_ts::PINNED_VERSION] {
        let args = ["--agent", "agent-sdk-ts", "--agent-version", version, "--arms", "sdk", "-j", "2"];
        let (rows, _dir) =
            run_battery(&[&args[..], &["--only", "callback-throw/bare", "--only", "callback-deny/bare"]].concat());
        let flagged = |arm: &str| {
            let row = rows.iter().find(|r| r.arm == arm).unwrap_or_else(|| panic!("{version}: no {arm} row"));
            row.flags.split(';').any(|f| f == notice)
        };
        let since = sdk_at_least(version, SDK_TS_CALLBACK_FAILED_NOTICE_SINCE);
        assert_eq!(flagged("callback-throw/bare"), since, "{version}: a throw, warned from 0.3.317: {rows:?}");
        assert!(!flagged("callback-deny/bare"), "{version}: a correct deny is no failure: {rows:?}");
    }
}

#[test]
fn sdk_py_pinned_gives_its_arms_expectation() {
    sdk_arms_hold(Agent::AgentSdkPy, agent_sdk_py::PINNED_VERSION, "2.1.332", &PINNED_PROOF, "75");
}

/// Claude Code, Codex and Gemini never run a callback arm: `all` holds the
/// sdk arms, and a run of it on them rows only their settings hooks, while
/// the SDK's run of the same selection rows only its callback; `--arms sdk`
/// alone on them is an error that says why, before anything is installed
/// or started.
#[test]
fn other_agents_never_run_a_callback_arm() {
    let only = ["--only", "callback-throw/bare", "--only", "crash/bare"];
    for agent in ["claude-code", "codex", "gemini"] {
        let (rows, _dir) = run_battery(&[&["--agent", agent, "--arms", "all"][..], &only].concat());
        let arms: Vec<&str> = rows.iter().map(|r| r.arm.as_str()).collect();
        assert_eq!(arms, ["crash/bare"], "{agent}");
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("rows.csv");
        let mut cmd = crate::support::failopen();
        cmd.args(["run", "--agent", agent, "--arms", "sdk", "--only", "callback-throw/*", "--out"]).arg(&out);
        let output = cmd.timeout(std::time::Duration::from_secs(60)).output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{agent}: {stderr}");
        assert!(stderr.contains("arms is a hook type") && stderr.contains("they are callback hooks"), "{stderr}");
        assert!(std::fs::read_to_string(&out).unwrap_or_default().lines().count() <= 1, "{agent}: no row");
    }
    let (rows, _dir) = run_battery(&[&["--agent", "agent-sdk-ts", "--arms", "all"][..], &only].concat());
    let arms: Vec<(&str, VerdictKind)> = rows.iter().map(|r| (r.arm.as_str(), r.verdict)).collect();
    assert_eq!(arms, [("callback-throw/bare", VerdictKind::Wrote)], "the SDK runs the sdk arms of all, and only them");
}
