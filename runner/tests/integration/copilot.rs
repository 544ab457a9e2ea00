//! Copilot CLI on real binaries (installed by `.ci/run` with `failopen
//! claude --agent copilot install`): the article's arms give the expectation
//! each carries for Copilot (`expect.agents.copilot` in arms/article.json,
//! with its reasoning), on the pinned release and the one three months older.

use failopen::agent::Agent;
use failopen::record::Row;
use failopen::verdict::VerdictKind;

use crate::support::run_battery;

/// The article's arms on Copilot `version`: every row as arms/article.json expects.
fn article_holds(version: &str) -> Vec<Row> {
    let (rows, _dir) = run_battery(&["--agent", "copilot", "--claude", version, "--arms", "article", "-j", "3"]);
    assert_eq!(rows.len(), 9, "{rows:?}");
    let mut wrong = Vec::new();
    for arm in failopen::arms::load("article").unwrap() {
        let expect = arm.expect.as_ref().and_then(|e| e.for_agent(Agent::Copilot));
        let expect = expect.unwrap_or_else(|| panic!("article: {} carries no copilot expectation", arm.name));
        let row = rows.iter().find(|r| r.arm == arm.name).unwrap_or_else(|| panic!("no row for {}", arm.name));
        assert_eq!((row.agent.as_str(), row.claude_version.as_str()), ("copilot", version), "{row:?}");
        if row.verdict != expect.verdict || row.reason.as_str() != expect.reason.as_deref().unwrap_or("") {
            wrong.push(format!(
                "{}: got {} {} ({}), expected {:?} from {}",
                arm.name, row.verdict, row.reason, row.harness_said, expect.verdict, expect.source
            ));
        }
    }
    assert!(wrong.is_empty(), "copilot {version}:\n{}", wrong.join("\n"));
    rows
}

#[test]
fn copilot_pinned_gives_the_article_expectations() {
    let rows = article_holds(failopen::agent::copilot::PINNED_VERSION);
    // Copilot names no hook and no reason for an exit 2: the row quotes its own words.
    let deny = rows.iter().find(|r| r.arm == "deny/bare").unwrap();
    assert_eq!(deny.verdict, VerdictKind::Blocked, "{deny:?}");
    assert!(deny.harness_said.starts_with("Denied by preToolUse hook: "), "{deny:?}");
}

#[test]
fn copilot_three_months_older_gives_the_article_expectations() {
    article_holds(failopen::agent::copilot::OLDER_VERSION);
}
