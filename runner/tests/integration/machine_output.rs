//! Output a machine can read, and a summary that says what matters, through
//! the real binary: `run --format json` (JSON lines) and `run`'s text
//! summary on the article's arms on the pinned Claude Code, each agent's
//! default arm set with no `--arms` (no session: a binary that is not
//! there stops the run after the arm sets were accepted), `audit --format
//! sarif` validated against the SARIF 2.1.0 schema (vendored in
//! `tests/fixtures/sarif/`, from the crates.io package serde-sarif, MIT),
//! and `diff` across agents.

use std::path::Path;

use serde_json::Value;

use crate::support::{self, failopen, PINNED};

/// `failopen run ARGS --out <tmp>/rows.csv` with a private TMPDIR and no
/// terminal: (stdout, stderr, rows), after checking nothing was left behind.
fn run(args: &[&str]) -> (String, String, Vec<failopen::record::Row>) {
    let _lock = support::lock::sessions();
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let out = dir.path().join("rows.csv");
    let output = failopen()
        .arg("run")
        .args(args)
        .arg("--out")
        .arg(&out)
        .env("TMPDIR", &tmp)
        .timeout(std::time::Duration::from_secs(600))
        .output()
        .unwrap();
    let (stdout, stderr) =
        (String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr).into_owned());
    assert!(output.status.success(), "{}\nstdout:\n{stdout}\nstderr:\n{stderr}", output.status);
    support::assert_no_leftovers(&tmp);
    (stdout, stderr, support::read_csv(&out))
}

/// `run --format json` with no `--arms`: the article's nine arms, one JSON
/// object per session on stdout as it finishes (each the CSV row it
/// matches, naming the agent and its version), then one summary whose
/// count of guards that let the write through is the sessions' own; stderr,
/// not a terminal, has a line per finished session.
#[test]
fn run_format_json_is_a_line_per_session_then_a_summary() {
    let (stdout, stderr, rows) = run(&["--format", "json", "--agent-version", PINNED, "-j", "4"]);
    let lines: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not one JSON object per line: {e}: {l}")))
        .collect();
    let article = failopen::arms::load("article").unwrap();
    assert_eq!(lines.len(), article.len() + 1, "{stdout}");
    let (summary, sessions) = lines.split_last().unwrap();
    for s in sessions {
        assert_eq!((s["type"].as_str(), s["agent"].as_str()), (Some("session"), Some("claude-code")), "{s}");
        assert_eq!(s["agent_version"], PINNED, "{s}");
        assert_eq!(s["claude_version"], PINNED, "the older name, kept: {s}");
        let row = rows.iter().find(|r| s["arm"] == r.arm.as_str()).unwrap_or_else(|| panic!("no row for {s}"));
        assert_eq!(s["verdict"], row.verdict.as_str(), "{s}");
        assert_eq!(s["reason"], row.reason.as_str(), "{s}");
    }
    let mut arms: Vec<&str> = sessions.iter().map(|s| s["arm"].as_str().unwrap()).collect();
    let mut expected: Vec<&str> = article.iter().map(|a| a.name.as_str()).collect();
    arms.sort_unstable();
    expected.sort_unstable();
    assert_eq!(arms, expected, "the article's arms, with no --arms");

    assert_eq!(summary["type"], "summary", "{summary}");
    assert_eq!(summary["sessions"], article.len(), "{summary}");
    let let_through: Vec<&str> =
        sessions.iter().filter(|s| s["let_through"] == true).map(|s| s["arm"].as_str().unwrap()).collect();
    let listed: Vec<&str> =
        summary["let_through"].as_array().unwrap().iter().map(|l| l["arm"].as_str().unwrap()).collect();
    let mut sorted = listed.clone();
    sorted.sort_unstable();
    let mut through = let_through.clone();
    through.sort_unstable();
    assert_eq!(sorted, through, "{summary}");
    // The article: a crashing or hanging guard under bare/plain lets the write through (docs/findings.md).
    assert!(listed.contains(&"crash/bare") && !listed.contains(&"deny/bare"), "{summary}");
    let judged = rows.iter().filter(|r| r.verdict != failopen::verdict::VerdictKind::Invalid).count();
    assert_eq!(summary["should_refuse"], judged, "every article arm's guard means to refuse: {summary}");

    assert!(stderr.contains("arm set article (9 arms), Claude Code's default"), "{stderr}");
    for r in &rows {
        assert!(stderr.contains(&format!("Claude Code {PINNED} {}: {}", r.arm, r.verdict)), "{}: {stderr}", r.arm);
    }
    assert_eq!(stderr.matches(&format!("/{}] ", article.len())).count(), article.len(), "{stderr}");
}

/// The text summary under the table: how many guards that mean to refuse
/// let the write through, and which (no colour off a terminal). Snapshot,
/// times and paths redacted.
#[test]
fn run_text_summary_names_the_guards_that_let_the_write_through() {
    let (stdout, _, rows) =
        run(&["--agent-version", PINNED, "--arms", "article", "--only", "crash/*", "--only", "deny/bare", "-j", "3"]);
    assert_eq!(rows.len(), 3);
    assert!(!stdout.contains('\x1b'), "no colour when stdout is not a terminal: {stdout:?}");
    let redacted = regex::Regex::new(r"\d+ sessions in [0-9.]+ s; rows in \S+")
        .unwrap()
        .replace(&stdout, "[N] sessions in [SECS] s; rows in [CSV]")
        .into_owned();
    insta::assert_snapshot!(redacted);
}

/// Every agent runs with no `--arms`: its default set is accepted (the run
/// goes on to look for the binary, here a path that is not there, so no
/// session starts), and a set it cannot run is refused naming those it can.
#[test]
fn every_agent_has_a_default_arm_set_and_a_set_it_cannot_run_is_refused_with_those_it_can() {
    let d = tempfile::tempdir().unwrap();
    for (name, agent) in failopen::agent::Agent::ALL {
        let out = failopen()
            .args(["run", "--agent", name, "--agent-version", "/no/such/agent-binary", "--out"])
            .arg(d.path().join(format!("{name}.csv")))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {stderr}");
        assert!(!stderr.contains("nothing to run"), "{name}: {stderr}");
        let sets = agent.driver().default_arm_sets().join(" + ");
        assert!(stderr.contains(&format!("arm set {sets} (")), "{name}: {stderr}");
        assert!(stderr.contains("/no/such/agent-binary"), "{name}: the binary is what stopped it: {stderr}");
    }
    let out = failopen().args(["run", "--agent", "opencode", "--arms", "article"]).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("the built-in arm sets it runs: opencode (with no --arms: opencode)"), "{stderr}");
    assert!(!stderr.contains("writing rows"), "refused before anything is opened: {stderr}");
}

/// The SARIF 2.1.0 schema, vendored. The published schema's one defect is
/// corrected in memory: `run.language`'s and `toolComponent.language`'s pattern has a stray `]`
/// (`^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`), not a valid ECMA-262 regex,
/// which jsonschema's check of the schema itself refuses; failopen writes no
/// `language`, so the correction checks nothing of ours less.
fn sarif_validator() -> jsonschema::Validator {
    let mut schema: Value =
        serde_json::from_str(&std::fs::read_to_string(support::fixture("sarif/sarif-schema-2.1.0.json")).unwrap())
            .unwrap();
    for of in ["run", "toolComponent"] {
        let pattern = &mut schema["definitions"][of]["properties"]["language"]["pattern"];
        assert_eq!(pattern, "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$", "{of}: the vendored schema changed");
        *pattern = Value::from("^[a-zA-Z]{2}(-[a-zA-Z]{2})?$");
    }
    jsonschema::validator_for(&schema).unwrap()
}

fn assert_valid_sarif(sarif: &Value) {
    let validator = sarif_validator();
    let errors: Vec<String> = validator.iter_errors(sarif).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "not SARIF 2.1.0: {errors:#?}\n{sarif:#}");
}

/// The 1-based line of `needle` in `file`.
fn line_of(file: &Path, needle: &str) -> u64 {
    let text = std::fs::read_to_string(file).unwrap();
    let at = text.find(needle).unwrap_or_else(|| panic!("{needle} not in {}", file.display()));
    text[..at].matches('\n').count() as u64 + 1
}

/// The static checks as SARIF: valid against the schema, one result per
/// finding at its level, each at the line of its hook's command.
#[test]
fn audit_sarif_of_static_findings_is_valid_and_points_at_each_hook() {
    let fixtures = support::fixture("audit");
    let args = ["audit", "holes/unwrapped.json", "holes/missing.json", "--static-only"];
    let json = failopen().current_dir(&fixtures).args(args).args(["--format", "json"]).output().unwrap();
    let report: Value = serde_json::from_slice(&json.stdout).unwrap();
    let out = failopen().current_dir(&fixtures).args(args).args(["--format", "sarif"]).output().unwrap();
    assert_eq!(out.status.code(), json.status.code(), "the same exit code as the JSON report's");
    let sarif: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_valid_sarif(&sarif);
    let run = &sarif["runs"][0];
    assert_eq!(run["invocations"][0]["exitCode"], report["exit_code"]);
    let results = run["results"].as_array().unwrap();
    let findings = report["agents"][0]["findings"].as_array().unwrap();
    assert_eq!(results.len(), findings.len(), "one result per finding\n{sarif:#}");
    let hooks = report["agents"][0]["hooks"].as_array().unwrap();
    for (r, f) in results.iter().zip(findings) {
        let level = match f["severity"].as_str().unwrap() {
            "info" => "note",
            other => other,
        };
        assert_eq!(r["level"], level, "{r:#}");
        assert_eq!(r["ruleId"], format!("finding/{}", f["code"].as_str().unwrap()), "{r:#}");
        let rule = &run["tool"]["driver"]["rules"][r["ruleIndex"].as_u64().unwrap() as usize];
        assert_eq!(rule["id"], r["ruleId"], "{r:#}");
        let at = &r["locations"][0]["physicalLocation"];
        let uri = at["artifactLocation"]["uri"].as_str().unwrap();
        assert_eq!(at["artifactLocation"]["uriBaseId"], "%SRCROOT%", "{r:#}");
        let Some(hook) = hooks.iter().find(|h| h["id"] == f["hook"]) else { continue };
        assert!(hook["file"].as_str().unwrap().ends_with(uri), "{r:#}");
        let command = serde_json::to_string(hook["kind"]["command"].as_str().unwrap()).unwrap();
        assert_eq!(at["region"]["startLine"], line_of(&fixtures.join(uri), &command), "{r:#}");
    }
}

/// A dynamic audit as SARIF (`--sarif FILE` beside the JSON report): valid,
/// one `error` result per proven hole and one per finding, the hole's at the
/// line of its hook's command, with the fix audit proposes.
#[test]
fn audit_sarif_has_a_result_per_proven_hole() {
    let d = tempfile::tempdir().unwrap();
    let sarif_file = d.path().join("audit.sarif");
    let sarif_arg = sarif_file.display().to_string();
    let (out, report) = crate::audit::audit(&["holes/unwrapped.json", "--sarif", &sarif_arg]);
    assert_eq!(out.status.code(), Some(3), "the fixture's crashing guard is a hole\n{report:#}");
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(&sarif_file).unwrap()).unwrap();
    assert_valid_sarif(&sarif);
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    let holes = report["agents"][0]["holes"].as_array().unwrap();
    assert!(!holes.is_empty(), "{report:#}");
    let hole_results: Vec<&Value> =
        results.iter().filter(|r| r["ruleId"].as_str().unwrap().starts_with("hole/")).collect();
    assert_eq!(hole_results.len(), holes.len(), "one result per hole\n{sarif:#}");
    assert_eq!(results.len(), holes.len() + report["agents"][0]["findings"].as_array().unwrap().len());
    let fixtures = support::fixture("audit");
    for (r, h) in hole_results.iter().zip(holes) {
        assert_eq!((r["level"].as_str(), r["properties"]["hook"].as_str()), (Some("error"), h["hook"].as_str()));
        assert_eq!(r["ruleId"], format!("hole/{}", h["kind"].as_str().unwrap()), "{r:#}");
        let hook = report["agents"][0]["hooks"].as_array().unwrap().iter().find(|e| e["id"] == h["hook"]).unwrap();
        let command = serde_json::to_string(hook["kind"]["command"].as_str().unwrap()).unwrap();
        let at = &r["locations"][0]["physicalLocation"];
        assert_eq!(at["artifactLocation"]["uri"], "holes/unwrapped.json", "{r:#}");
        assert_eq!(at["region"]["startLine"], line_of(&fixtures.join("holes/unwrapped.json"), &command), "{r:#}");
    }
    let with_fix = hole_results.iter().filter(|r| r["message"]["text"].as_str().unwrap().contains(" Fix: ")).count();
    assert!(with_fix > 0, "the advice rides along: {sarif:#}");
}

/// `diff` of a Codex CSV against a Claude Code one compares two programs,
/// not two releases: refused with exit 7 and why; `--across-agents`
/// compares them with a warning.
#[test]
fn diff_across_agents_is_refused_unless_asked() {
    let d = tempfile::tempdir().unwrap();
    let claude = support::fixture("report/v328.csv");
    let text = std::fs::read_to_string(&claude).unwrap();
    let rows = failopen::record::read_rows(&claude).unwrap();
    assert!(rows.iter().all(|r| r.agent() == failopen::agent::Agent::ClaudeCode));
    let codex = d.path().join("codex.csv");
    let mut w = failopen::record::RowWriter::open(&codex).unwrap();
    for mut r in rows {
        r.agent = "codex".into();
        r.agent_version = "0.171.0".into();
        w.append(&r).unwrap();
    }
    drop(w);
    assert!(!text.is_empty());
    let out = failopen().arg("diff").arg(&claude).arg(&codex).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(7), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing compared");
    assert!(stderr.contains("Claude Code's results") && stderr.contains("Codex CLI's"), "{stderr}");
    assert!(stderr.contains("--across-agents"), "{stderr}");

    let out = failopen().arg("diff").arg(&claude).arg(&codex).arg("--across-agents").output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "the same verdicts: {stderr}");
    assert!(stderr.contains("warning:"), "{stderr}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("old: Claude Code") && stdout.contains("new: Codex CLI 0.171.0"), "{stdout}");

    // The same agent on both sides is no warning.
    let out = failopen().arg("diff").arg(&claude).arg(&claude).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `report --format json` names each version's agent: a Codex CSV's report
/// says `codex`, where it used to say only `claude_version`.
#[test]
fn report_json_names_the_agent() {
    let d = tempfile::tempdir().unwrap();
    let codex = d.path().join("codex.csv");
    let mut w = failopen::record::RowWriter::open(&codex).unwrap();
    for mut r in failopen::record::read_rows(&support::fixture("report/v328.csv")).unwrap() {
        r.agent = "codex".into();
        r.agent_version = "0.171.0".into();
        w.append(&r).unwrap();
    }
    drop(w);
    let out = failopen().arg("report").arg(&codex).args(["--format", "json"]).output().unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let g = &v["versions"][0];
    assert_eq!((g["agent"].as_str(), g["agent_version"].as_str()), (Some("codex"), Some("0.171.0")), "{v:#}");
    assert_eq!(g["claude_version"], "0.171.0", "the older key, kept for readers of the first shape");
}
