//! The census of public guards (issue 48): `guards/census.json` lists each
//! guard with its README's install steps and, under `expect`, the verdict
//! each fault is expected to give with the reasoning (the oracle).
//! `results/census.csv` holds the measured rows and `results/census/` each
//! row's evidence (the audit report it was read from).
//!
//! - [`every_committed_row_is_its_guards_expectation_and_its_evidence`]
//!   (fast): every guard has a row, of its pinned version, and the row is
//!   what the oracle expects, fault by fault; the row is what its evidence
//!   JSON's audit cells say (no hand-edited row).
//! - [`census_only_one_guard_reproduces_its_committed_row_from_a_clean_cache`]
//!   (live, ~1 min): `failopen census --only claude-safety-guard` installs it
//!   from PyPI into a fresh root (downloads through no cache), audits it on
//!   real Claude Code, and gives the committed row.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::Value;

use crate::support::{self, failopen};

const FAULTS: [&str; 7] = ["none", "missing", "crash", "hang", "signal", "no-launcher", "no-deps"];

fn census() -> Value {
    let path = support::repo().join("guards/census.json");
    serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap()
}

fn rows(path: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut r = csv::Reader::from_path(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    r.deserialize::<BTreeMap<String, String>>()
        .map(|row| {
            let row = row.unwrap();
            (row["guard"].clone(), row)
        })
        .collect()
}

/// The audited agent's part of an audit report, and its version: `agents[0]`
/// (schema 2), or the top level of evidence measured before it (schema 1,
/// Claude Code's part at the top, its version `agent_version`).
fn part(audit: &Value) -> (&Value, &Value) {
    match audit["schema"].as_u64() {
        Some(s) if s >= 2 => (&audit["agents"][0], &audit["agents"][0]["version"]),
        _ => (audit, &audit["agent_version"]),
    }
}

/// The verdict of `fault` under the row's probe, from the audit report's own cells.
fn cell(audit: &Value, probe: &str, fault: &str) -> String {
    part(audit).0["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["tool"] == probe && c["fault"] == fault)
        .map_or("-".to_string(), |c| c["result"].as_str().unwrap().to_string())
}

#[test]
fn every_committed_row_is_its_guards_expectation_and_its_evidence() {
    let census = census();
    let guards = census["guards"].as_array().unwrap();
    assert!(guards.len() >= 10, "the census has {} guards", guards.len());
    let rows = rows(&support::repo().join("results/census.csv"));
    for g in guards {
        let name = g["name"].as_str().unwrap();
        let version = g["package"]["version"].as_str().unwrap();
        let row = rows.get(name).unwrap_or_else(|| panic!("{name}: no row in results/census.csv"));
        assert_eq!(row["version"], version, "{name}: the row is of another version");
        let expect = &g["expect"];
        assert!(expect.is_object(), "{name}: no expectation in census.json");
        assert!(!expect["why"].as_str().unwrap_or_default().is_empty(), "{name}: an expectation with no reasoning");
        assert_eq!(row["status"], expect["status"].as_str().unwrap(), "{name}: {}", expect["why"]);
        assert_eq!(row["exit_code"], expect["exit_code"].to_string(), "{name}: {}", expect["why"]);
        for fault in FAULTS {
            let e = &expect["faults"][fault];
            assert!(
                !e["why"].as_str().unwrap_or_default().is_empty(),
                "{name} {fault}: no expectation with its reasoning"
            );
            assert_eq!(row[fault], e["verdict"].as_str().unwrap(), "{name} {fault}: expected because {}", e["why"]);
        }
        let evidence = support::repo().join(format!("results/census/{name}-{version}.json"));
        let ev: Value = serde_json::from_slice(&std::fs::read(&evidence).unwrap()).unwrap();
        let audit = &ev["audit"];
        assert_eq!(ev["row"]["exit_code"].to_string(), row["exit_code"], "{name}: the evidence's exit code");
        assert_eq!(audit["exit_code"].to_string(), row["exit_code"], "{name}: audit's own exit code");
        assert_eq!(part(audit).1, row["agent_version"].as_str(), "{name}");
        for fault in FAULTS {
            assert_eq!(cell(audit, &row["probe"], fault), row[fault], "{name} {fault}: the row is not its evidence");
        }
        let advice = part(audit).0["advice"].as_array().unwrap();
        let fix = advice
            .iter()
            .find(|a| a["recheck"]["status"] == "proved")
            .or_else(|| advice.iter().find(|a| a["recheck"]["status"].is_string()))
            .map_or("-".to_string(), |a| {
                format!("{}: {}", a["recheck"]["status"].as_str().unwrap(), a["change"].as_str().unwrap())
            });
        assert_eq!(fix, row["fix"], "{name}: the fix is the first re-checked advice, a proved one first");
        assert!(!ev["audit"].to_string().contains("/tmp/failopen-census-"), "{name}: the temp root is redacted");
    }
    assert_eq!(rows.len(), guards.len(), "a row for a guard the census no longer lists");
}

#[test]
fn census_only_one_guard_reproduces_its_committed_row_from_a_clean_cache() {
    let _lock = support::lock::sessions();
    let d = tempfile::tempdir().unwrap();
    let (out_dir, csv) = (d.path().join("census"), d.path().join("census.csv"));
    let out = failopen()
        .current_dir(support::repo())
        .args(["census", "--only", "claude-safety-guard", "--out-dir"])
        .arg(&out_dir)
        .arg("--csv")
        .arg(&csv)
        .timeout(std::time::Duration::from_secs(600))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout} {}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("1 measured"), "{stdout}");
    let got = rows(&csv);
    let want = rows(&support::repo().join("results/census.csv"));
    let (got, want) = (&got["claude-safety-guard"], &want["claude-safety-guard"]);
    for field in ["version", "agent", "agent_version", "probe", "status", "exit_code", "fix"].iter().chain(&FAULTS) {
        assert_eq!(got[*field], want[*field], "{field}: {stdout}");
    }
    assert!(out_dir.join("claude-safety-guard-0.2.0.json").is_file());
    // Resumable: the same command again finds the row current and runs nothing.
    let again = failopen()
        .current_dir(support::repo())
        .args(["census", "--only", "claude-safety-guard", "--out-dir"])
        .arg(&out_dir)
        .arg("--csv")
        .arg(&csv)
        .timeout(std::time::Duration::from_secs(120))
        .output()
        .unwrap();
    let again = String::from_utf8_lossy(&again.stdout);
    assert!(again.contains("0 measured, 1 current"), "{again}");
}
