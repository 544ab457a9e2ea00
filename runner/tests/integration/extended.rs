//! Failure modes the article never ran (arms/extended.json, arms/http.json) on
//! real Claude Code. Each expectation carries its reasoning; the ones that
//! rest on Claude Code's own behaviour say where that was measured. Live on
//! the pinned version; 2.1.240 is checked in its reference run
//! (`results::reference_csvs_give_every_arms_expectation_on_both_versions`).

use crate::oracle;
use crate::support::{arms_file, run_battery, PINNED};

/// Every extended and HTTP cell gives the verdict [`oracle::expected`]
/// reasons out for this version.
fn extended_matches_reasoning(version: &str) {
    let (rows, _dir) = run_battery(&[
        "--arms",
        &arms_file("extended.json"),
        "--arms",
        &arms_file("http.json"),
        "--agent-version",
        version,
        "-j",
        "4",
    ]);
    assert_eq!(rows.len(), 56 + 12);
    let mut wrong = Vec::new();
    for r in &rows {
        let want = oracle::expected_on(&r.guard, &r.wrapper, version);
        if r.verdict.as_str() != want {
            wrong.push(format!("{}: got {} {} [{}], expected {want}", r.arm, r.verdict, r.reason, r.flags));
        }
    }
    assert!(wrong.is_empty(), "{version}:\n{}", wrong.join("\n"));
    // The sealed column blocks every failure guard.
    for r in rows.iter().filter(|r| r.wrapper == "sealed") {
        assert_eq!(r.verdict.as_str(), "blocked", "{}", r.arm);
    }
}

/// Every model.json cell (prompt and agent hooks under each model policy, bare
/// and native; model-command.sh bare, native and sealed; mcp_tool hooks under
/// each server policy, bare and native) gives the verdict [`oracle::expected`]
/// reasons out, and the hook ran.
fn model_matches_reasoning(version: &str) {
    let (rows, _dir) = run_battery(&["--arms", &arms_file("model.json"), "--agent-version", version, "-j", "4"]);
    assert_eq!(rows.len(), 68);
    let mut wrong = Vec::new();
    for r in &rows {
        let want = oracle::expected_on(&r.guard, &r.wrapper, version);
        if r.verdict.as_str() != want {
            wrong.push(format!("{}: got {} {} [{}], expected {want}", r.arm, r.verdict, r.reason, r.flags));
        }
        let ran = r.flags.split(';').any(|f| f.starts_with("hook-model-calls:"))
            || r.hook_invocations > 0
            || !r.hook_outcomes.is_empty();
        assert!(ran, "{}: no sign the hook ran: {r:?}", r.arm);
        let hook_type = match r.guard.split('-').next() {
            Some("prompt") => "prompt",
            Some("agent") => "agent",
            Some("mcp") => "mcp_tool",
            _ => "command",
        };
        assert_eq!(r.hook_type, hook_type, "{}", r.arm);
    }
    assert!(wrong.is_empty(), "{version}:\n{}", wrong.join("\n"));
}

#[test]
fn model_hooks_on_the_pinned_version() {
    model_matches_reasoning(PINNED);
}

#[test]
fn extended_and_http_on_the_pinned_version() {
    extended_matches_reasoning(PINNED);
}

/// The article's wrappers put big-output's 5 MB into the refusal text, past
/// the context window (2.1.328 counts 1.3 M tokens). 2.1.328 then compacts
/// the conversation before going on: it asks the model for a summary, which
/// the stand-in gives as a model would (a stand-in that answered with a tool
/// call instead, or one that turned away bodies over 2 MB, made these
/// sessions end in "Prompt is too long": `invalid`). The summary is real
/// evidence that the refusal reached the model: checked here in the flags.
#[test]
fn oversized_refusals_are_compacted_away() {
    let (rows, _dir) =
        run_battery(&["--arms", &arms_file("extended.json"), "--only", "big-output/*", "--agent-version", PINNED]);
    assert_eq!(rows.len(), 5);
    for r in &rows {
        assert_eq!(r.verdict.as_str(), "blocked", "{}: {} [{}]", r.arm, r.reason, r.flags);
        assert_eq!(r.attempts, "Bash:refused;Write:refused", "{}", r.arm);
        let wrapped = r.wrapper == "plain" || r.wrapper == "timed";
        // Bare, native and sealed, Claude Code keeps only the stderr reason (one line), not the 5 MB.
        assert_eq!(r.flags.contains("compacted:"), wrapped, "{}: {}", r.arm, r.flags);
    }
}
