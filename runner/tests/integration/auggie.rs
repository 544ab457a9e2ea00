//! Auggie CLI on a real binary (installed by `.ci/run` with `failopen
//! agents install --agent auggie`), against the stand-in's simulation of
//! Augment's API (docs/auggie.md): the arms that prove its contract give
//! the expectation each carries for Auggie (`expect.agents.auggie` in
//! arms/article.json and arms/auggie.json), on the pinned release. Exit 2
//! refuses both calls (`deny/bare`), Claude Code's `"timeout": 3` read as
//! 3 ms lets the write through (`deny/bare+timeout-3ms`), and a tenant
//! without the hooks flag never starts the guard
//! (`deny/bare@augment-unflagged`), while a guard Auggie tried and that
//! never ran is `wrote`, read off Auggie's own words about the hook, not
//! `hook-not-run`: a script it cannot exec (`no-exec/bare`, EACCES on its
//! stdout) and one whose `#!/usr/bin/env` interpreter is missing
//! (`env-interpreter/bare`, exit 127 tied to the hook only by its log). A
//! release whose client expects another
//! shape of `get-models` or `chat-stream` than the stand-in sends fails
//! here: its sessions write nothing and end `invalid`. The rest of the
//! grid is in results/auggie-0.36.0.csv, checked in results.rs.

use failopen::agent::Agent;

use crate::support::battery::run_contract;

/// The arms this test runs, by set: each ends in seconds (no hang).
const CONTRACT: [(&str, &str); 5] = [
    ("article", "deny/bare"),
    ("auggie", "deny/bare+timeout-3ms"),
    ("auggie", "deny/bare@augment-unflagged"),
    ("extended", "no-exec/bare"),
    ("surface", "env-interpreter/bare"),
];

#[test]
fn auggie_pinned_keeps_its_contract() {
    let version = failopen::agent::auggie::PINNED_VERSION;
    let mut wrong = Vec::new();
    for (name, row, expect) in run_contract(Agent::Auggie, version, &CONTRACT) {
        let expect = expect.on(version);
        let as_expected = (row.verdict, row.reason.as_str()) == (expect.verdict, expect.reason.unwrap_or(""));
        if !as_expected {
            wrong.push(format!(
                "{name}: got {} {} ({}), expected from {}",
                row.verdict, row.reason, row.attempts, expect.source
            ));
        }
    }
    assert!(wrong.is_empty(), "auggie {version}:\n{}", wrong.join("\n"));
}

/// What the stand-in's simulation takes from the pinned client's bundle
/// (docs/auggie.md), each as the bundle spells it: the endpoints, the reply
/// fields its converters check, a tool call's node, the hooks flag's test,
/// the refusal's wording, the millisecond timeout, and the words on stdout
/// and in its log that name a hook it tried (`agent::auggie::log`,
/// `agent::auggie::wording::failed_to_run`). A release that drops
/// one is a release the simulation was not read off: this fails, before
/// any session does.
const READ_OFF_THE_BUNDLE: [&str; 17] = [
    r#""get-models""#,
    r#""chat-stream""#,
    r#""BackGetModelsResult","default_model""#,
    r#""BackModelInfo","suggested_prefix_char_count""#,
    r#""BackChatResult","text""#,
    "tool_use:{tool_use_id:",
    "modelConfig?.featureFlagsV2,",
    "?.enableHooks===!0",
    "convertToListRemoteToolsResult(e){return{tools:e.tools.map(",
    "hook returned blocking error",
    "Hook execution timed out after ${e}ms",
    "Tool execution blocked by hook: ",
    "Failed with non-blocking status code ${",
    "' failed: ${",
    "Executing hook: ${",
    "Hook execution failed for command '${",
    "Hook execution completed: exitCode=${",
];

#[test]
fn the_pinned_bundle_still_holds_what_the_simulation_was_read_off() {
    let version = failopen::agent::auggie::PINNED_VERSION;
    let cache = failopen::install::cache::Cache::from_env().for_agent(Agent::Auggie);
    let bundle = cache.version_dir(version).join("node_modules/@augmentcode/auggie/augment.mjs");
    let text = std::fs::read_to_string(&bundle)
        .unwrap_or_else(|e| panic!("{}: {e} (failopen agents install --agent auggie {version})", bundle.display()));
    let missing: Vec<&str> = READ_OFF_THE_BUNDLE.iter().copied().filter(|s| !text.contains(s)).collect();
    assert!(missing.is_empty(), "{}: no longer holds {missing:?}", bundle.display());
}
