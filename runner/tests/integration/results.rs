//! The reports in results/ regenerate identically from the reference CSVs.

use std::path::PathBuf;

use failopen::agent::Agent;

fn results_dir() -> PathBuf {
    crate::support::repo().join("results")
}

fn regenerated(format: &str) -> String {
    regenerated_from(&["claude-2.1.240.csv", "claude-2.1.328.csv"], format)
}

fn regenerated_from(csvs: &[&str], format: &str) -> String {
    let dir = results_dir();
    let out = tempfile::NamedTempFile::new().unwrap();
    crate::support::failopen()
        .arg("report")
        .args(csvs.iter().map(|c| dir.join(c)))
        .args(["--format", format, "--out"])
        .arg(out.path())
        .assert()
        .success();
    std::fs::read_to_string(out.path()).unwrap()
}

#[test]
fn committed_reports_match_the_reference_csvs() {
    for (format, file) in [("md", "REPORT.md"), ("svg", "grid.svg"), ("html", "grid.html"), ("json", "summary.json")] {
        let committed = std::fs::read_to_string(results_dir().join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(
            committed == regenerated(format),
            "results/{file} differs from what `failopen report --format {format}` makes of the reference CSVs; run results/regenerate.sh"
        );
    }
}

/// The reference runs of the other agents, oldest version of each first.
const AGENT_CSVS: [(&str, Agent, &str); 6] = [
    ("codex-0.149.0.csv", Agent::Codex, "0.149.0"),
    ("codex-0.171.0.csv", Agent::Codex, "0.171.0"),
    ("gemini-0.45.2.csv", Agent::Gemini, "0.45.2"),
    ("gemini-0.61.0.csv", Agent::Gemini, "0.61.0"),
    ("copilot-1.0.73.csv", Agent::Copilot, "1.0.73"),
    ("copilot-1.0.102.csv", Agent::Copilot, "1.0.102"),
];

/// results/agents.md puts the agents side by side: Claude Code 2.1.328 and
/// both versions of Codex, Gemini and Copilot CLI.
#[test]
fn the_agents_report_matches_the_reference_csvs() {
    let mut csvs = vec!["claude-2.1.328.csv"];
    csvs.extend(AGENT_CSVS.iter().map(|(f, _, _)| *f));
    let committed = std::fs::read_to_string(results_dir().join("agents.md")).unwrap();
    assert!(committed == regenerated_from(&csvs, "md"), "results/agents.md is stale; run results/regenerate.sh");
    for label in
        ["codex 0.171.0", "codex 0.149.0", "gemini 0.61.0", "gemini 0.45.2", "copilot 1.0.102", "copilot 1.0.73"]
    {
        assert!(committed.contains(label), "{label} has no column in results/agents.md");
    }
}

/// Every row of the other agents' reference runs is theirs, valid, and what
/// the oracle expects; and the two versions of each agent agree on every arm
/// (so there was nothing to bisect).
#[test]
fn agent_reference_csvs_match_the_oracle_and_their_versions_agree() {
    for (file, agent, version) in AGENT_CSVS {
        let rows = failopen::record::read_rows(&results_dir().join(file)).unwrap();
        assert_eq!(rows.iter().map(|r| r.arm.as_str()).collect::<std::collections::HashSet<_>>().len(), 91, "{file}");
        for r in &rows {
            assert_eq!((r.agent(), r.agent_version.as_str()), (agent, version), "{file}: {r:?}");
            let want = crate::oracle::expected_on_agent(agent, &r.guard, &r.wrapper, version);
            assert_eq!(r.verdict.as_str(), want, "{file}: {r:?}");
        }
    }
    for pair in AGENT_CSVS.chunks(2) {
        let (old, new) = (&pair[0], &pair[1]);
        let d = failopen::diff::diff_files(&results_dir().join(old.0), &results_dir().join(new.0)).unwrap();
        // A change between the two versions only where the oracle says the agent changed.
        let guard_of = |arm: &str| {
            let (g, w) = arm.split_once('/').expect("an arm named guard/wrapper");
            (g.to_string(), w.to_string())
        };
        let unexplained: Vec<&str> = d
            .changes
            .iter()
            .map(|c| c.arm.as_str())
            .filter(|arm| {
                let (guard, wrapper) = guard_of(arm);
                let on = |v| crate::oracle::expected_on_agent(old.1, &guard, &wrapper, v);
                on(old.2) == on(new.2)
            })
            .collect();
        assert!(unexplained.is_empty(), "{} → {}: {unexplained:?} changed\n{d}", old.0, new.0);
    }
}

/// Every arm of `all` that Claude Code runs (not the SDK's callbacks) ran at
/// least 3 times on each version, and no row is invalid except where the
/// arm's own expectation on that version says it can only be (with that
/// reason), e.g. a hook source a version never loads.
#[test]
fn reference_csvs_hold_both_versions_every_arm_and_no_unexplained_invalid() {
    use failopen::verdict::VerdictKind;
    let arms: Vec<_> = failopen::arms::load("all")
        .unwrap()
        .into_iter()
        .filter(|a| failopen::cells::runs(Agent::ClaudeCode, a))
        .collect();
    assert!(arms.len() >= 281, "{} arms", arms.len());
    for (file, version) in [("claude-2.1.240.csv", "2.1.240"), ("claude-2.1.328.csv", "2.1.328")] {
        let rows = failopen::record::read_rows(&results_dir().join(file)).unwrap();
        for arm in &arms {
            let sessions = rows.iter().filter(|r| r.arm == arm.name).count();
            assert!(sessions >= 3, "{file}: {} has {sessions} sessions", arm.name);
        }
        for r in &rows {
            assert_eq!(r.agent_version, version);
            if r.verdict != VerdictKind::Invalid {
                continue;
            }
            let expected = arms.iter().find(|a| a.name == r.arm).and_then(|a| a.expect.as_ref()).map(|e| e.on(version));
            let explained =
                expected.is_some_and(|e| e.verdict == VerdictKind::Invalid && e.reason == Some(r.reason.as_str()));
            assert!(explained, "{file}: an invalid row no expectation explains: {r:?}");
        }
    }
}

/// Every row of Claude Code's reference runs (`--arms all`, 3 sessions an
/// arm, print mode, on 2.1.240 and 2.1.328) gives its arm's expectation on
/// that version (written in its arm file, or reasoned out in oracle.rs for
/// the wide grids), reason included where the expectation names one. The live
/// tests run the pinned release's contract arms; the wide grids and the
/// older release are checked here.
#[test]
fn reference_csvs_give_every_arms_expectation_on_both_versions() {
    let arms: Vec<_> = failopen::arms::load("all")
        .unwrap()
        .into_iter()
        .filter(|a| failopen::cells::runs(Agent::ClaudeCode, a))
        .collect();
    for (file, version) in [("claude-2.1.240.csv", "2.1.240"), ("claude-2.1.328.csv", "2.1.328")] {
        let rows = failopen::record::read_rows(&results_dir().join(file)).unwrap();
        let mut wrong = Vec::new();
        for r in &rows {
            let arm = arms.iter().find(|a| a.name == r.arm).unwrap_or_else(|| panic!("{file}: {} is no arm", r.arm));
            // An arm of the wide grids (full, extended, model, http) carries no expectation in its file:
            // oracle.rs reasons its verdict out from its guard, wrapper and the version.
            let (verdict, reason, source) = match arm.expect.as_ref().map(|e| e.on(version)) {
                Some(want) => (want.verdict.to_string(), want.reason, want.source.to_string()),
                None => {
                    (crate::oracle::expected_on(&r.guard, &r.wrapper, version).to_string(), None, "oracle.rs".into())
                }
            };
            if r.verdict.as_str() != verdict || reason.is_some_and(|reason| reason != r.reason) {
                wrong.push(format!(
                    "{} #{}: got {} {}, expected {verdict} {reason:?} from {source}",
                    r.arm, r.repeat, r.verdict, r.reason
                ));
            }
        }
        assert!(wrong.is_empty(), "{file}:\n{}", wrong.join("\n"));
    }
}

/// The interactive reference runs (`--mode interactive`: the full grid and
/// arms/surface.json on 2.1.240 and 2.1.328, and the trust dialog's cells on
/// both): every arm of article.json, workspace-trust.json and surface.json
/// (the sets whose arms carry an interactive expectation where it differs
/// from print mode's) has a row on each version, every row gives the arm's
/// interactive expectation, reason included, and every session was ended by
/// `/exit` or ended itself, or, waiting on a question failopen never answers
/// (a permission prompt, a settings dialog), was hung up on after 20 s of it
/// with the question named in its flags, and is no verdict. The live tests
/// run the pinned release's article arms and trust dialog; the rest is
/// checked here.
#[test]
fn interactive_reference_csvs_give_every_arms_interactive_expectation() {
    use crate::support::reference;
    use failopen::mode::Mode;
    use failopen::verdict::VerdictKind;
    let files = [
        "interactive-2.1.240.csv",
        "interactive-2.1.328.csv",
        "interactive-trust.csv",
        "interactive-surface-2.1.240.csv",
        "interactive-surface-2.1.328.csv",
    ];
    let sets = ["article", "workspace-trust", "surface"];
    let checked =
        reference::check(&files, Agent::ClaudeCode, &["2.1.240", "2.1.328"], &sets, Mode::Interactive, reference::none);
    let mut wrong = Vec::new();
    for c in &checked {
        let flags: Vec<&str> = c.row.flags.split(';').collect();
        let ended = flags.iter().find(|f| f.starts_with("exit-by:")).copied().unwrap_or("");
        let unanswered = flags.contains(&"idle-exit") && flags.iter().any(|f| f.starts_with("unanswered:"));
        let ok = match ended {
            "exit-by:slash-exit" | "exit-by:itself" => true,
            "exit-by:hangup" | "exit-by:kill" => unanswered && c.row.verdict == VerdictKind::Invalid,
            _ => false,
        };
        if !ok {
            wrong.push(format!(
                "{}: {} on {}: ended by {ended:?} [{}]",
                c.file, c.arm.name, c.row.agent_version, c.row.flags
            ));
        }
    }
    assert!(wrong.is_empty(), "{} sessions:\n{}", wrong.len(), wrong.join("\n"));
    for file in files.iter().filter(|f| f.starts_with("interactive-surface-")) {
        let of_file = checked.iter().filter(|c| c.file == *file).count();
        assert_eq!(of_file, reference::rows(file).len(), "{file}: every row is a surface arm's, checked");
    }
}
/// arms/shapes.json on the older release of Claude Code, Codex and Gemini
/// (results/shapes-older.csv, one session an arm; the pinned releases run
/// live in `agents::each_agent_reads_its_own_json_decision_and_seal_makes_every_shape_refuse`):
/// every arm has a row on each, with the verdict, and the reason of an
/// expected `invalid`, its written expectation for that agent and version says.
#[test]
fn shapes_reference_csv_gives_every_arms_expectation_on_the_older_releases() {
    use crate::support::reference;
    let older = [
        (Agent::ClaudeCode, failopen::agent::claude_code::ARTICLE_VERSION),
        (Agent::Codex, failopen::agent::codex::OLDER_VERSION),
        (Agent::Gemini, failopen::agent::gemini::OLDER_VERSION),
    ];
    let file = "shapes-older.csv";
    let arms = failopen::arms::load("shapes").unwrap();
    assert_eq!(reference::rows(file).len(), arms.len() * older.len());
    for (agent, version) in older {
        reference::check(&[file], agent, &[version], &["shapes"], failopen::mode::Mode::Print, reference::none);
    }
}

/// The committed results carry no machine paths: rows quote the run's temp
/// root as `$RUN`, the failopen binary as `failopen` and the home as `~`. A
/// path under `~` is the session's own HOME, whatever it holds (Qwen Code
/// quotes the tool output it keeps in `~/.qwen/tmp/<project>/tool-results/`).
#[test]
fn committed_results_carry_no_machine_paths() {
    let under_home = regex::Regex::new(r"~/[^\s,]*").unwrap();
    for entry in std::fs::read_dir(results_dir()).unwrap().flatten() {
        let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
        for (n, line) in text.lines().enumerate() {
            let line = under_home.replace_all(line, "~");
            for machine in ["/tmp/", "/root/", "/home/", "/Users/", "target/release/", "failopen-run-"] {
                assert!(!line.contains(machine), "{}:{}: {machine:?} in {line}", entry.path().display(), n + 1);
            }
        }
    }
}

/// The timeline reports regenerate identically from `results/history.csv`,
/// and the Agent SDK's from `results/agent-sdk-ts-history.csv` and
/// `results/agent-sdk-py-history.csv`.
#[test]
fn committed_timeline_matches_the_history() {
    let dir = results_dir();
    for (history, format, file) in [
        ("history.csv", "timeline-md", "TIMELINE.md"),
        ("history.csv", "timeline-svg", "timeline.svg"),
        ("history.csv", "timeline-html", "timeline.html"),
        ("agent-sdk-ts-history.csv", "timeline-md", "AGENT-SDK-TS-TIMELINE.md"),
        ("agent-sdk-py-history.csv", "timeline-md", "AGENT-SDK-PY-TIMELINE.md"),
    ] {
        let out = tempfile::NamedTempFile::new().unwrap();
        crate::support::failopen()
            .arg("report")
            .arg(dir.join(history))
            .args(["--format", format, "--out"])
            .arg(out.path())
            .assert()
            .success();
        let committed = std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(
            committed == std::fs::read_to_string(out.path()).unwrap(),
            "results/{file} differs from what `failopen report --format {format}` makes of results/{history}; run results/regenerate.sh"
        );
    }
}

/// The arms the backward history ran on the releases before 2.1.240 (one
/// working session's worth): the article's 9, `crash/native`, and crash,
/// missing, hang and json-crash under seal.
const EARLY_ARMS: [&str; 14] = [
    "deny/bare",
    "crash/bare",
    "crash/plain",
    "missing/plain",
    "json-deny/bare",
    "json-crash/bare",
    "hang/bare",
    "hang/plain",
    "hang/timed",
    "crash/native",
    "crash/sealed",
    "missing/sealed",
    "hang/sealed",
    "json-crash/sealed",
];

/// `results/history.csv` covers every release its ledger lists, from 1.0.61
/// (the first with `--settings`), each with every arm of `full` (from
/// 2.1.240) or [`EARLY_ARMS`] (before) and no invalid row; the early
/// releases give the verdicts of 2.1.240 on every early arm; and the only
/// change point for `crash/native` is the release `failopen bisect` found
/// (`results/bisect-crash-native.txt`).
#[test]
fn the_history_covers_every_release_without_invalid_rows_and_agrees_with_bisect() {
    let dir = results_dir();
    let rows = crate::support::read_csv(&dir.join("history.csv"));
    let mut ledger = csv::Reader::from_path(dir.join("history-versions.csv")).unwrap();
    let versions: Vec<String> = ledger.records().map(|r| r.unwrap()[0].to_string()).collect();
    assert!(versions.len() >= 80 + 324, "1.0.61..2.1.332 holds 404 releases: {}", versions.len());
    let full: Vec<String> = failopen::arms::load("full").unwrap().into_iter().map(|a| a.name).collect();
    let is_early = |v: &str| failopen::version::compare(v, "2.1.240").is_lt();
    for v in &versions {
        let arms: Vec<&str> = if is_early(v) { EARLY_ARMS.to_vec() } else { full.iter().map(String::as_str).collect() };
        for arm in arms {
            let n = rows.iter().filter(|r| &r.agent_version == v && r.arm == arm).count();
            assert!(n >= 1, "{v} {arm}: no row");
        }
    }
    let invalid: Vec<String> = rows
        .iter()
        .filter(|r| r.verdict == failopen::verdict::VerdictKind::Invalid)
        .map(|r| format!("{} {} {}", r.agent_version, r.arm, r.reason))
        .collect();
    assert!(invalid.is_empty(), "invalid rows: {invalid:?}");

    let bisect = std::fs::read_to_string(dir.join("bisect-crash-native.txt")).unwrap();
    let found = bisect
        .lines()
        .find_map(|l| l.split_once("differs from 2.1.240: ").map(|(_, rest)| rest.split_whitespace().next().unwrap()))
        .expect("the bisect's conclusion");
    let mut ordered = versions.clone();
    ordered.sort_by(|a, b| failopen::version::compare(a, b));
    assert_eq!(
        ordered.first().map(String::as_str),
        Some("1.0.61"),
        "the history starts at the first release with --settings"
    );
    let verdict_of = |v: &str, arm: &str| rows.iter().find(|r| r.agent_version == v && r.arm == arm).map(|r| r.verdict);
    let moved: Vec<String> = ordered
        .iter()
        .filter(|v| is_early(v))
        .flat_map(|v| EARLY_ARMS.iter().map(move |arm| (v, *arm)))
        .filter(|(v, arm)| verdict_of(v, arm) != verdict_of("2.1.240", arm))
        .map(|(v, arm)| format!("{v} {arm}: {:?}", verdict_of(v, arm)))
        .collect();
    assert!(moved.is_empty(), "an early release differs from 2.1.240: {moved:?}");
    let verdict = |v: &str| rows.iter().find(|r| r.agent_version == v && r.arm == "crash/native").unwrap().verdict;
    let changes: Vec<&str> =
        ordered.windows(2).filter(|w| verdict(&w[0]) != verdict(&w[1])).map(|w| w[1].as_str()).collect();
    assert_eq!(changes, [found], "crash/native changes exactly where bisect says");
    let timeline = std::fs::read_to_string(dir.join("TIMELINE.md")).unwrap();
    assert!(timeline.contains(&format!("## {found}\n")), "the timeline marks {found}:\n{timeline}");
}

/// `results/site/` is what `failopen report results --format site` builds
/// now: the same files, byte for byte, and no others.
#[test]
fn committed_site_matches_a_fresh_build() {
    let out = tempfile::tempdir().unwrap();
    let fresh = out.path().join("site");
    crate::support::failopen()
        .arg("report")
        .arg(results_dir())
        .args(["--format", "site", "--out"])
        .arg(&fresh)
        .assert()
        .success();
    let files = |root: &std::path::Path| -> std::collections::BTreeMap<String, Vec<u8>> {
        let mut found = std::collections::BTreeMap::new();
        let mut stack = vec![root.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())).flatten() {
                let path = entry.path();
                if path.is_dir() {
                    stack.push(path);
                } else {
                    let rel = path.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                    found.insert(rel, std::fs::read(&path).unwrap());
                }
            }
        }
        found
    };
    let committed = files(&results_dir().join("site"));
    let built = files(&fresh);
    let only = |a: &std::collections::BTreeMap<String, Vec<u8>>, b: &std::collections::BTreeMap<String, Vec<u8>>| {
        a.keys().filter(|k| !b.contains_key(*k)).take(10).cloned().collect::<Vec<_>>()
    };
    assert!(
        committed.keys().eq(built.keys()),
        "results/site/ has other pages than a fresh build (only committed: {:?}; only built: {:?}); run results/regenerate.sh",
        only(&committed, &built),
        only(&built, &committed)
    );
    let stale: Vec<&String> = committed.iter().filter(|(k, v)| built[*k] != **v).map(|(k, _)| k).take(10).collect();
    assert!(stale.is_empty(), "results/site/ pages differ from a fresh build: {stale:?}; run results/regenerate.sh");
    assert!(committed.len() > 1000, "a page per cell: {} pages", committed.len());
}

/// The Agent SDK and Copilot SDK reference runs: every arm of arms/sdk.json
/// that the SDK runs has a row on each, and each row is what the arm's
/// expectation for that SDK and version says, reason included.
#[test]
fn sdk_reference_csvs_hold_every_arms_expectation() {
    use crate::support::reference;
    let files = [
        ("agent-sdk-ts-0.3.333.csv", Agent::AgentSdkTs, "0.3.333"),
        ("agent-sdk-ts-0.3.258.csv", Agent::AgentSdkTs, "0.3.258"),
        ("agent-sdk-py-0.2.189.csv", Agent::AgentSdkPy, "0.2.189"),
        ("agent-sdk-py-0.2.145.csv", Agent::AgentSdkPy, "0.2.145"),
        ("copilot-sdk-1.0.14.csv", Agent::CopilotSdk, "1.0.14"),
        ("copilot-sdk-1.0.13.csv", Agent::CopilotSdk, "1.0.13"),
    ];
    for (file, agent, version) in files {
        let checked =
            reference::check(&[file], agent, &[version], &["sdk"], failopen::mode::Mode::Print, reference::none);
        assert_eq!(checked.len(), reference::rows(file).len(), "{file}: a row of another SDK, version or arm");
    }
}

/// The OpenCode reference runs (`failopen run --agent opencode --arms
/// opencode` on the pinned and the older release): every arm of
/// arms/opencode.json has one row on each, that row is what the arm's
/// OpenCode expectation says, reason included (the bare hang's only
/// invalid, `session-timeout`, is its expectation), and every `blocked` row
/// shows both calls refused with the plugin's trace of each.
#[test]
fn opencode_reference_csvs_hold_every_arms_expectation() {
    use crate::support::reference;
    use failopen::verdict::VerdictKind;
    let arms = failopen::arms::load("opencode").unwrap();
    for version in [failopen::agent::opencode::PINNED_VERSION, failopen::agent::opencode::OLDER_VERSION] {
        let file = format!("opencode-{version}.csv");
        assert_eq!(reference::rows(&file).len(), arms.len(), "{file}");
        let mode = failopen::mode::Mode::Print;
        for c in reference::check(&[&file], Agent::OpenCode, &[version], &["opencode"], mode, reference::none) {
            if c.row.verdict == VerdictKind::Blocked {
                assert_eq!(c.row.attempts, "bash:refused;write:refused", "{file}: {:?}", c.row);
                assert!(c.row.hook_invocations >= 2, "{file}: a refusal with no trace of it: {:?}", c.row);
            }
        }
    }
}

/// The Cline reference runs (arms/cline.json and the article's arms, on the
/// pinned and the older release): every arm of both sets has one row on each,
/// that row is what the arm's Cline expectation says on that version, reason
/// included, and each row shows the hub daemon Cline leaves behind reaped.
/// (The live test runs the pinned release's fast arms; the older release is
/// checked here.)
#[test]
fn cline_reference_csvs_hold_every_arms_expectation() {
    use crate::support::reference;
    let sets = ["cline", "article"];
    let arms: usize = sets.iter().map(|set| failopen::arms::load(set).unwrap().len()).sum();
    for version in [failopen::agent::cline::PINNED_VERSION, failopen::agent::cline::OLDER_VERSION] {
        let file = format!("cline-{version}.csv");
        assert_eq!(reference::rows(&file).len(), arms, "{file}: one row per arm of {sets:?}");
        for c in
            reference::check(&[&file], Agent::Cline, &[version], &sets, failopen::mode::Mode::Print, reference::none)
        {
            assert!(c.row.flags.contains("stragglers-killed:"), "{file}: no hub daemon reaped: {:?}", c.row);
        }
    }
}

/// The Kilo CLI reference runs (`failopen run --agent kilo --arms opencode`):
/// on both releases every arm of arms/opencode.json has one row, and that
/// row is what the arm's Kilo expectation says, reason included; every
/// `blocked` row shows both calls refused with the plugin's trace of each.
/// Both grids were run on a quiet machine (docs/kilo.md): no row is let off
/// as a session the machine's load made outlive its timeout.
#[test]
fn kilo_reference_csvs_hold_every_arms_expectation() {
    use crate::support::reference;
    use failopen::agent::kilo::{OLDER_VERSION, PINNED_VERSION};
    use failopen::verdict::VerdictKind;
    let arms = failopen::arms::load("opencode").unwrap();
    for version in [OLDER_VERSION, PINNED_VERSION] {
        let file = format!("kilo-{version}.csv");
        assert_eq!(reference::rows(&file).len(), arms.len(), "{file}");
        let mode = failopen::mode::Mode::Print;
        let checked = reference::check(&[&file], Agent::Kilo, &[version], &["opencode"], mode, |_| false);
        for c in &checked {
            assert!(!c.allowed, "{file}: no row is let off: {:?}", c.row);
            if c.row.verdict == VerdictKind::Blocked {
                assert_eq!(c.row.attempts, "bash:refused;write:refused", "{file}: {:?}", c.row);
                assert!(c.row.hook_invocations >= 2, "{file}: a refusal with no trace of it: {:?}", c.row);
            }
        }
    }
}

/// `failopen history --agent copilot` over every Copilot CLI release from
/// 1.0.55 that has a linux-x64 build (30 of them), five arms each: every
/// version has every arm, and the rows change exactly at the releases
/// oracle.rs names, with the reference grids' verdicts on 1.0.73 and 1.0.102.
#[test]
fn the_copilot_history_covers_30_releases_and_changes_where_the_oracle_says() {
    use crate::oracle::{
        copilot_at_least as since, COPILOT_EXIT_2_DENIES_SINCE, COPILOT_FAILS_CLOSED_SINCE,
        COPILOT_TIMES_OUT_HELD_PIPES_SINCE,
    };
    let rows = failopen::record::read_rows(&results_dir().join("copilot-history.csv")).unwrap();
    let versions: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.agent_version.as_str()).collect();
    assert!(versions.len() >= 30, "{} versions", versions.len());
    for v in &versions {
        let verdict = |arm: &str| {
            let r = rows.iter().find(|r| r.agent_version == *v && r.arm == arm);
            r.unwrap_or_else(|| panic!("{v} has no {arm} row")).verdict.as_str()
        };
        assert!(rows.iter().filter(|r| r.agent_version == *v).all(|r| r.agent() == Agent::Copilot));
        let deny = if since(v, COPILOT_EXIT_2_DENIES_SINCE) { "blocked" } else { "wrote" };
        assert_eq!(verdict("deny/bare"), deny, "{v}: exit 2 with a reason on stderr");
        assert_eq!(verdict("crash/bare") == "blocked", since(v, COPILOT_FAILS_CLOSED_SINCE), "{v}: exit 1");
        assert_eq!(verdict("json-deny/bare"), "wrote", "{v}: Claude Code's JSON is never Copilot's");
        assert_ne!(verdict("hang/bare"), "blocked", "{v}: a hang past timeoutSec is never refused");
        if since(v, COPILOT_EXIT_2_DENIES_SINCE) {
            let orphan = if since(v, COPILOT_TIMES_OUT_HELD_PIPES_SINCE) { "wrote" } else { "blocked" };
            assert_eq!(verdict("orphan/bare"), orphan, "{v}: exit 2 while a child holds the pipes");
        }
    }
}

/// `failopen history --agent agent-sdk-ts` over 50 TypeScript SDK releases
/// from 0.3.258 to 0.3.333 (every one to 0.3.289, then every other), six
/// arms each: every version has every arm, no row is invalid, each row is
/// what its arm's expectation in arms/sdk.json says on that version (the
/// native arms' change is the bisected `onFailure` release), and the
/// failure warning is on the failed callbacks' rows exactly from the
/// release oracle.rs names, and never on a callback that did not fail.
#[test]
fn the_sdk_ts_history_covers_40_releases_and_changes_where_the_oracle_says() {
    use crate::oracle::{sdk_at_least as since, SDK_TS_CALLBACK_FAILED_NOTICE_SINCE, SDK_TS_ON_FAILURE_SINCE};
    let arms = failopen::arms::load("sdk").unwrap();
    let rows = failopen::record::read_rows(&results_dir().join("agent-sdk-ts-history.csv")).unwrap();
    let versions: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.agent_version.as_str()).collect();
    assert!(versions.len() >= 40, "{} versions", versions.len());
    let measured: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.arm.as_str()).collect();
    let notice = "sdk-notice:hook_callback_failed";
    for v in &versions {
        for arm in &measured {
            let row = rows.iter().find(|r| r.agent_version == *v && r.arm == *arm);
            let row = row.unwrap_or_else(|| panic!("{v} has no {arm} row"));
            assert_eq!(row.agent(), Agent::AgentSdkTs, "{v} {arm}");
            let spec = arms.iter().find(|a| a.name == *arm).unwrap_or_else(|| panic!("{arm} is no arm of sdk"));
            let want = spec.expect.as_ref().and_then(|e| e.for_agent(Agent::AgentSdkTs)).unwrap().on(v);
            assert_eq!(
                (row.verdict, row.reason.as_str()),
                (want.verdict, want.reason.unwrap_or_default()),
                "{v} {arm}: {}",
                want.source
            );
            // A throw or a string is a failed callback; inside the sealed callback the SDK sees a deny.
            let failed = row.wrapper != "sealed"
                && (row.hook_outcomes.contains("callback:threw:")
                    || row.hook_outcomes.contains("callback:returned:\""));
            let warned = row.flags.split(';').any(|f| f == notice);
            assert_eq!(
                warned,
                failed && since(v, SDK_TS_CALLBACK_FAILED_NOTICE_SINCE),
                "{v} {arm}: the warning ({})",
                row.flags
            );
        }
        let native = rows.iter().find(|r| r.agent_version == *v && r.arm == "callback-throw/native").unwrap();
        let held = if since(v, SDK_TS_ON_FAILURE_SINCE) { "blocked" } else { "wrote" };
        assert_eq!(native.verdict.as_str(), held, "{v}: a throw with onFailure 'block'");
    }
}

/// `failopen history --agent agent-sdk-py` over 30 Python SDK releases from
/// 0.2.145 to 0.2.189 (every one to 0.2.159, then every other), eight arms
/// each (the TypeScript history's six, and the plain `def` bare and with
/// `on_failure`): every version has every arm, each row is what its arm's
/// expectation in arms/sdk.json says on that version (an `invalid` only
/// where it says `session-error`: a `HookMatcher` without `on_failure`), the
/// native arms change at the bisected release that takes `on_failure`, and
/// the failure warning is on the failed callbacks' rows exactly from the
/// release oracle.rs names.
#[test]
fn the_sdk_py_history_covers_30_releases_and_changes_where_the_oracle_says() {
    use crate::oracle::{sdk_at_least as since, SDK_PY_CALLBACK_FAILED_NOTICE_SINCE, SDK_PY_ON_FAILURE_SINCE};
    let arms = failopen::arms::load("sdk").unwrap();
    let rows = failopen::record::read_rows(&results_dir().join("agent-sdk-py-history.csv")).unwrap();
    let versions: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.agent_version.as_str()).collect();
    assert!(versions.len() >= 30, "{} versions", versions.len());
    assert!(
        versions.iter().any(|v| !since(v, SDK_PY_ON_FAILURE_SINCE))
            && versions.iter().any(|v| since(v, SDK_PY_ON_FAILURE_SINCE))
    );
    let measured: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.arm.as_str()).collect();
    assert!(
        measured.contains("callback-def-deny/bare") && measured.contains("callback-def-deny/native"),
        "{measured:?}"
    );
    let notice = "sdk-notice:hook_callback_failed";
    for v in &versions {
        for arm in &measured {
            let row = rows.iter().find(|r| r.agent_version == *v && r.arm == *arm);
            let row = row.unwrap_or_else(|| panic!("{v} has no {arm} row"));
            assert_eq!(row.agent(), Agent::AgentSdkPy, "{v} {arm}");
            let spec = arms.iter().find(|a| a.name == *arm).unwrap_or_else(|| panic!("{arm} is no arm of sdk"));
            let want = spec.expect.as_ref().and_then(|e| e.for_agent(Agent::AgentSdkPy)).unwrap().on(v);
            assert_eq!(
                (row.verdict, row.reason.as_str()),
                (want.verdict, want.reason.unwrap_or_default()),
                "{v} {arm}: {}",
                want.source
            );
            // A raise, a string or a plain def's dict is a failed callback; sealed, the SDK sees a deny.
            let failed = row.wrapper != "sealed"
                && (row.hook_outcomes.contains("callback:threw:")
                    || row.hook_outcomes.contains("callback:returned:plain def:")
                    || row.hook_outcomes.contains("callback:returned:\""));
            let warned = row.flags.split(';').any(|f| f == notice);
            assert_eq!(
                warned,
                failed && since(v, SDK_PY_CALLBACK_FAILED_NOTICE_SINCE),
                "{v} {arm}: the warning ({}; {})",
                row.flags,
                row.hook_outcomes
            );
        }
        let native = rows.iter().find(|r| r.agent_version == *v && r.arm == "callback-throw/native").unwrap();
        let held = if since(v, SDK_PY_ON_FAILURE_SINCE) { "blocked" } else { "invalid" };
        assert_eq!(native.verdict.as_str(), held, "{v}: a raise with on_failure=\"block\"");
    }
}

/// The sealed arms of the full and extended grids on 7 Copilot CLI releases
/// from 1.0.55 to 1.0.102 (results/copilot-seal.csv), after seal learnt to
/// write Copilot's JSON deny beside its exit 2: every one is what the oracle
/// expects on every release, also on 1.0.55 to 1.0.69, which ran the call
/// after a bare exit 2 (and where every sealed arm wrote before).
#[test]
fn copilot_seal_holds_on_every_release_measured() {
    use crate::oracle::{copilot_at_least as since, expected_on_agent, COPILOT_EXIT_2_DENIES_SINCE};
    let rows = failopen::record::read_rows(&results_dir().join("copilot-seal.csv")).unwrap();
    let versions: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.agent_version.as_str()).collect();
    assert!(versions.len() >= 7, "{versions:?}");
    assert!(versions.iter().filter(|v| !since(v, COPILOT_EXIT_2_DENIES_SINCE)).count() >= 4, "{versions:?}");
    let arms: Vec<_> = ["full", "extended"]
        .iter()
        .flat_map(|s| failopen::arms::load(s).unwrap())
        .filter(|a| a.name.ends_with("/sealed"))
        .collect();
    for v in &versions {
        for arm in &arms {
            let row = rows.iter().find(|r| r.agent_version == *v && r.arm == arm.name);
            let row = row.unwrap_or_else(|| panic!("{v} has no {} row", arm.name));
            assert_eq!(row.agent(), Agent::Copilot, "{row:?}");
            let (guard, wrapper) = arm.name.split_once('/').unwrap();
            let want = expected_on_agent(Agent::Copilot, guard, wrapper, v);
            assert_eq!((row.verdict.to_string().as_str(), row.reason.as_str()), (want, ""), "{v} {}", arm.name);
        }
    }
}

/// The shapes and http arm sets on Copilot CLI 1.0.102 and 1.0.73
/// (results/copilot-shapes-http.csv): every arm of both sets ran on both
/// versions, and every row is what its arm's `expect.agents.copilot` says
/// (verdict and reason), on that version: the shapes arms once each, the
/// http arms (Copilot's own http hooks, docs/copilot.md) 3 times each.
#[test]
fn copilot_shapes_and_http_rows_are_what_their_arms_expect() {
    use crate::support::reference;
    use failopen::agent::copilot::{OLDER_VERSION, PINNED_VERSION};
    let file = "copilot-shapes-http.csv";
    assert_eq!(failopen::arms::load("http").unwrap().len(), 12);
    let versions = [PINNED_VERSION, OLDER_VERSION];
    let mode = failopen::mode::Mode::Print;
    let checked = reference::check(&[file], Agent::Copilot, &versions, &["shapes", "http"], mode, reference::none);
    assert_eq!(checked.len(), reference::rows(file).len(), "{file}: a row of another agent, version or arm");
    for v in versions {
        for c in checked.iter().filter(|c| c.row.agent_version == v && c.arm.guard.is_http()) {
            let sessions = checked.iter().filter(|o| o.row.agent_version == v && o.arm.name == c.arm.name).count();
            assert!(sessions >= 3, "{v} {}: {sessions} sessions", c.arm.name);
        }
    }
}

/// The Qwen Code reference runs (`failopen run --agent qwen --arms full`
/// with the article's arms and the sealed and missing ones, on the pinned
/// and the older release, docs/qwen.md): each has the same arms, every row
/// is what the oracle's Qwen reasoning says for its version, with no reason
/// (no invalid row), an article arm's row is also what arms/article.json's
/// Qwen expectation says, and every `blocked` row shows both calls refused.
#[test]
fn qwen_reference_csvs_hold_every_arms_expectation() {
    use crate::support::reference;
    use failopen::verdict::VerdictKind;
    for version in [failopen::agent::qwen::PINNED_VERSION, failopen::agent::qwen::OLDER_VERSION] {
        let file = format!("qwen-{version}.csv");
        let rows = reference::rows(&file);
        for row in &rows {
            assert_eq!((row.agent(), row.agent_version.as_str()), (Agent::Qwen, version), "{file}: {row:?}");
            let want = crate::oracle::expected_on_qwen(&row.guard, &row.wrapper, version);
            assert_eq!((row.verdict.as_str(), row.reason.as_str()), (want, ""), "{file}: {}", row.arm);
            if row.verdict == VerdictKind::Blocked {
                assert_eq!(row.attempts, "run_shell_command:refused;write_file:refused", "{file}: {row:?}");
            }
        }
        let mode = failopen::mode::Mode::Print;
        reference::check(&[&file], Agent::Qwen, &[version], &["article"], mode, reference::none);
    }
}

/// The Droid CLI reference runs (`failopen run --agent droid --arms full`
/// with the article's arms and the sealed and missing ones, on the pinned
/// and the older release, docs/droid.md): each has the same 14 arms, every
/// row is what the oracle's Droid reasoning says, with no reason (no invalid
/// row), an article arm's row is also what arms/article.json's Droid
/// expectation says, every `blocked` row shows both calls refused, and every
/// row's hook outcomes are the guard's runs in Droid's own transcript.
#[test]
fn droid_reference_csvs_hold_every_arms_expectation() {
    use crate::support::reference;
    use failopen::verdict::VerdictKind;
    for version in [failopen::agent::droid::PINNED_VERSION, failopen::agent::droid::OLDER_VERSION] {
        let file = format!("droid-{version}.csv");
        let rows = reference::rows(&file);
        assert_eq!(rows.len(), 14, "{file}: one row per arm");
        for row in &rows {
            assert_eq!((row.agent(), row.agent_version.as_str()), (Agent::Droid, version), "{file}: {row:?}");
            let want = crate::oracle::expected_on_droid(&row.guard, &row.wrapper);
            assert_eq!((row.verdict.as_str(), row.reason.as_str()), (want, ""), "{file}: {}", row.arm);
            if row.verdict == VerdictKind::Blocked {
                assert_eq!(row.attempts, "Execute:refused;Create:refused", "{file}: {row:?}");
            }
            // Droid's own transcript shows the guard ran in every session, and how it ended
            // (agent/droid/transcript.rs); every write landed after a run that failed.
            let outcomes: Vec<&str> = row.hook_outcomes.split(';').collect();
            let transcript_words =
                |o: &str| o == "success:0" || o.strip_prefix("error:").is_some_and(|c| c.parse::<i32>().is_ok());
            assert!(outcomes.iter().all(|o| transcript_words(o)), "{file}: {row:?}");
            if row.verdict == VerdictKind::Wrote {
                assert!(outcomes.iter().all(|o| o.starts_with("error:")), "{file}: {row:?}");
            }
        }
        let mode = failopen::mode::Mode::Print;
        reference::check(&[&file], Agent::Droid, &[version], &["article"], mode, reference::none);
    }
}

/// The Continue CLI reference runs (`failopen run --agent continue --arms
/// article --arms continue`, on the pinned and the older release,
/// docs/continue.md): every arm of both sets has a row on both releases,
/// and every row is what its arm's `expect.agents.continue` says (verdict
/// and reason): Continue loads the hook and never runs it, so each row is
/// `invalid hook-not-run` with the file written and no trace line.
#[test]
fn continue_reference_csvs_hold_every_arms_expectation() {
    let arms: Vec<_> = ["article", "continue"].iter().flat_map(|s| failopen::arms::load(s).unwrap()).collect();
    for version in [failopen::agent::continue_cli::PINNED_VERSION, failopen::agent::continue_cli::OLDER_VERSION] {
        let file = format!("continue-{version}.csv");
        let rows = failopen::record::read_rows(&results_dir().join(&file)).unwrap();
        for arm in &arms {
            let expect = arm.expect.as_ref().and_then(|e| e.for_agent(Agent::Continue));
            let expect = expect.unwrap_or_else(|| panic!("{} carries no continue expectation", arm.name)).on(version);
            let row =
                rows.iter().find(|r| r.arm == arm.name).unwrap_or_else(|| panic!("{file}: no row for {}", arm.name));
            assert_eq!((row.agent(), row.agent_version.as_str()), (Agent::Continue, version), "{file}: {row:?}");
            assert_eq!(
                (row.verdict, row.reason.as_str()),
                (expect.verdict, expect.reason.unwrap_or("")),
                "{file}: {}: {}",
                arm.name,
                expect.source
            );
            assert_eq!(row.hook_invocations, 0, "{file}: {row:?}");
        }
        assert_eq!(rows.len(), arms.len(), "{file}: one row per arm");
    }
}

/// arms/seal-shapes.json (issue 44: each answer shape seal used to get
/// wrong, sealed) on every agent with command hooks at its pinned release
/// (results/seal-shapes.csv, one session an arm and agent): every arm has a
/// row on each, and each row is the verdict its written expectation gives
/// for that agent (blocked, everywhere).
#[test]
fn seal_shapes_reference_csv_is_blocked_on_every_agent_with_command_hooks() {
    use crate::support::reference;
    use failopen::agent::{auggie, claude_code, cline, codex, copilot, droid, gemini, qwen};
    let pinned = [
        (Agent::ClaudeCode, claude_code::PINNED_VERSION),
        (Agent::Codex, codex::PINNED_VERSION),
        (Agent::Gemini, gemini::PINNED_VERSION),
        (Agent::Copilot, copilot::PINNED_VERSION),
        (Agent::Cline, cline::PINNED_VERSION),
        (Agent::Qwen, qwen::PINNED_VERSION),
        (Agent::Droid, droid::PINNED_VERSION),
        (Agent::Auggie, auggie::PINNED_VERSION),
    ];
    let file = "seal-shapes.csv";
    let arms = failopen::arms::load("seal-shapes").unwrap();
    assert_eq!(reference::rows(file).len(), arms.len() * pinned.len());
    for arm in &arms {
        let expect = arm.expect.as_ref().unwrap();
        for (agent, version) in pinned {
            let want = expect.for_agent(agent).unwrap().on(version);
            assert_eq!(want.verdict.to_string(), "blocked", "{} on {agent}: a sealed refusal must block", arm.name);
        }
    }
    for (agent, version) in pinned {
        reference::check(&[file], agent, &[version], &["seal-shapes"], failopen::mode::Mode::Print, reference::none);
    }
}

/// The Auggie CLI reference runs (`failopen run --agent auggie`: the
/// article's arms and arms/auggie.json on the pinned and the older release,
/// against the stand-in's simulation of Augment's API, docs/auggie.md):
/// every arm of both sets has a row on both, each is what its arm's
/// `expect.agents.auggie` says, and every `blocked` row shows both of
/// Auggie's write calls refused.
#[test]
fn auggie_reference_csvs_hold_every_arms_expectation() {
    use crate::support::reference;
    use failopen::agent::auggie::{OLDER_VERSION, PINNED_VERSION};
    use failopen::verdict::VerdictKind;
    for version in [PINNED_VERSION, OLDER_VERSION] {
        let file = format!("auggie-{version}.csv");
        for row in reference::rows(&file).iter().filter(|r| r.verdict == VerdictKind::Blocked) {
            assert_eq!(row.attempts, "launch-process:refused;save-file:refused", "{file}: {row:?}");
        }
        let mode = failopen::mode::Mode::Print;
        reference::check(&[&file], Agent::Auggie, &[version], &["article", "auggie"], mode, reference::none);
    }
}

/// `failopen history --agent auggie --agent-version 0.16.1..0.36.0 --arms
/// article --arms auggie` over every Auggie CLI release in the registry
/// (ten): every version has every arm, and each row is what the arm's
/// `expect.agents.auggie` says. Auggie's hook contract, against the stand-in's
/// simulation of its vendor's API, is the same on all of them.
#[test]
fn the_auggie_history_covers_ten_releases_each_at_its_expectation() {
    use crate::support::reference;
    let file = "auggie-history.csv";
    let rows = reference::rows(file);
    let versions: std::collections::BTreeSet<&str> = rows.iter().map(|r| r.agent_version.as_str()).collect();
    assert!(versions.len() >= 10, "{versions:?}");
    let versions: Vec<&str> = versions.into_iter().collect();
    let mode = failopen::mode::Mode::Print;
    let checked = reference::check(&[file], Agent::Auggie, &versions, &["article", "auggie"], mode, reference::none);
    assert_eq!(checked.len(), rows.len(), "every row is one of the two sets' arms on a listed version");
}

/// Issue 47 item 5: the arm sets' cells no reference run held before, on
/// Continue CLI 1.5.47, Codex CLI 0.171.0, Gemini CLI 0.61.0, Copilot
/// CLI 1.0.102, Droid CLI 0.225.2, Qwen Code 0.24.4, Cline CLI 3.0.65 and
/// Auggie CLI 0.36.0
/// (results/<agent>-grids-<version>.csv, one session an arm,
/// `failopen run --agent A --arms SET --only ARM...`): every arm of each set
/// named here has a row, and each row is what its arm's expectation for
/// that agent says (an arm's own or its set's `agent_defaults`), or, for an
/// arm the agent cannot run, the `unsupported:<what>` that
/// `failopen::run::lacks` says, or is a cell arms/unmeasured.tsv lists with
/// why it has no expectation yet. No row is of another agent, version or arm.
#[test]
fn grid_reference_csvs_hold_every_arms_expectation_or_lack() {
    use crate::support::reference;
    const EVERY: [&str; 12] = [
        "auggie",
        "cline",
        "continue",
        "copilot",
        "extended",
        "full",
        "http",
        "model",
        "seal-shapes",
        "shapes",
        "surface",
        "trust",
    ];
    let grids: [(&str, Agent, &str, Vec<&str>); 8] = [
        (
            "continue-grids-1.5.47.csv",
            Agent::Continue,
            "1.5.47",
            EVERY.iter().filter(|s| **s != "continue").copied().collect(),
        ),
        (
            "codex-grids-0.171.0.csv",
            Agent::Codex,
            "0.171.0",
            vec!["auggie", "cline", "continue", "copilot", "http", "model", "surface", "trust"],
        ),
        (
            "gemini-grids-0.61.0.csv",
            Agent::Gemini,
            "0.61.0",
            vec!["auggie", "cline", "continue", "copilot", "http", "model", "surface", "trust"],
        ),
        (
            "copilot-grids-1.0.102.csv",
            Agent::Copilot,
            "1.0.102",
            vec!["auggie", "cline", "continue", "model", "surface", "trust"],
        ),
        (
            "droid-grids-0.225.2.csv",
            Agent::Droid,
            "0.225.2",
            EVERY.iter().filter(|s| **s != "seal-shapes").copied().collect(),
        ),
        (
            "qwen-grids-0.24.4.csv",
            Agent::Qwen,
            "0.24.4",
            EVERY.iter().filter(|s| **s != "seal-shapes").copied().collect(),
        ),
        (
            "cline-grids-3.0.65.csv",
            Agent::Cline,
            "3.0.65",
            vec!["auggie", "continue", "extended", "full", "model", "shapes", "surface"],
        ),
        (
            "auggie-grids-0.36.0.csv",
            Agent::Auggie,
            "0.36.0",
            vec!["cline", "continue", "extended", "full", "model", "shapes", "surface", "trust"],
        ),
    ];
    for (file, agent, version, mut sets) in grids {
        sets.push("workspace-trust");
        let mode = failopen::mode::Mode::Print;
        reference::check(&[file], agent, &[version], &sets, mode, reference::none);
        let arms: std::collections::HashSet<String> =
            sets.iter().flat_map(|s| failopen::arms::load(s).unwrap()).map(|a| a.name).collect();
        for row in reference::rows(file) {
            assert_eq!((row.agent(), row.agent_version.as_str()), (agent, version), "{file}: {row:?}");
            assert!(arms.contains(&row.arm), "{file}: {} is no arm of {sets:?}", row.arm);
        }
    }
}
