//! Cline CLI on real binaries (installed by `.ci/run` with `failopen agents
//! --agent cline install`): the arms that prove its contract give the
//! expectation each carries for Cline (`expect.agents.cline`, with its
//! reasoning), on the pinned release (the older one, and every arm on both,
//! in the reference runs: `results::cline_reference_csvs_hold_every_arms_expectation`). The contract: only
//! `{"cancel": true}` refuses (`cline-cancel/bare`), an exit 2 and Claude
//! Code's JSON deny do not (`deny/bare`, `json-deny/bare`), and seal's
//! refusals on a Cline payload carry a cancel (`*/sealed` in arms/cline.json).
//! The article's hang arms take a minute or two each on Cline (its hook
//! timeout is fixed at 120 s): they are in the reference runs
//! (results/cline-*.csv), not here. Every run leaves a `cline
//! --cline-hub-daemon` behind: each row must show it reaped, and the
//! battery's /proc scan must find no process left.

use failopen::agent::Agent;
use failopen::record::Row;
use failopen::verdict::VerdictKind;

use crate::support::run_battery;

/// The article's arms that end in seconds on Cline.
const ARTICLE_FAST: [&str; 6] =
    ["deny/bare", "crash/bare", "crash/plain", "missing/plain", "json-deny/bare", "json-crash/bare"];

/// The rows of `arms` (a set name) on Cline `version`, with `only` globs.
fn rows(version: &str, set: &str, only: &[&str], extra: &[&str]) -> Vec<Row> {
    let mut args =
        vec!["--agent", "cline", "--agent-version", version, "--arms", set, "-j", "2", "--session-timeout", "240"];
    args.extend(extra);
    for glob in only {
        args.extend(["--only", glob]);
    }
    run_battery(&args).0
}

/// Every row gives its arm's Cline expectation, and shows the hub daemon
/// found and killed.
fn holds(version: &str, set: &str, rows: &[Row]) {
    let mut wrong = Vec::new();
    for row in rows {
        let arm = failopen::arms::load(set).unwrap().into_iter().find(|a| a.name == row.arm).unwrap();
        let expect = arm.expect.as_ref().and_then(|e| e.for_agent(Agent::Cline));
        let expect = expect.unwrap_or_else(|| panic!("{set}: {} carries no cline expectation", arm.name));
        assert_eq!((row.agent.as_str(), row.agent_version.as_str()), ("cline", version), "{row:?}");
        if row.verdict != expect.verdict || row.reason.as_str() != expect.reason.as_deref().unwrap_or("") {
            wrong.push(format!(
                "{}: got {} {} ({}), expected {:?} from {}",
                arm.name, row.verdict, row.reason, row.attempts, expect.verdict, expect.source
            ));
        }
        // Cline leaves its hub daemon running after every run: the session found and killed it,
        // outside the sandbox by failopen's reaper, inside by the sandbox's (docs/sandbox.md).
        assert!(row.flags.contains("stragglers-killed:"), "{}: no daemon reaped: {row:?}", row.arm);
    }
    assert!(wrong.is_empty(), "cline {version} {set}:\n{}", wrong.join("\n"));
}

/// No `cline --cline-hub-daemon` is running (the sessions lock keeps other
/// tests' Cline sessions out while this one runs).
fn no_hub_daemon_is_left() {
    let left: Vec<String> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read(e.path().join("cmdline")).ok())
        .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
        .filter(|c| c.contains("--cline-hub-daemon"))
        .collect();
    assert!(left.is_empty(), "hub daemons left running: {left:?}");
}

fn contract_holds(version: &str) {
    // In the sandbox (the default), then the article's fast arms outside it.
    let own = rows(version, "cline", &[], &[]);
    assert_eq!(own.len(), failopen::arms::load("cline").unwrap().len(), "{own:?}");
    holds(version, "cline", &own);
    no_hub_daemon_is_left();
    let cancel = own.iter().find(|r| r.arm == "cline-cancel/bare").unwrap();
    assert_eq!(
        (cancel.verdict, cancel.attempts.as_str()),
        (VerdictKind::Blocked, "run_commands:refused"),
        "{cancel:?}"
    );
    let article = rows(version, "article", &ARTICLE_FAST, &["--no-sandbox"]);
    assert_eq!(article.len(), ARTICLE_FAST.len(), "{article:?}");
    holds(version, "article", &article);
    no_hub_daemon_is_left();
}

#[test]
fn cline_pinned_keeps_its_contract() {
    contract_holds(failopen::agent::cline::PINNED_VERSION);
}
