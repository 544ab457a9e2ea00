//! One census row from `failopen audit --format json`: the version, the
//! agent's, each fault's verdict under the probe the guard refused, the
//! guard's status, audit's exit code, and the measured fix (advice audit
//! re-checked on a copy). `results/census.csv` holds one row per guard.

use std::path::Path;

use anyhow::Context;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The faults a row reports, in order (`none` is the healthy guard).
pub const FAULTS: [&str; 7] = ["none", "missing", "crash", "hang", "signal", "no-launcher", "no-deps"];

/// One guard's row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Row {
    pub guard: String,
    pub version: String,
    pub agent: String,
    pub agent_version: String,
    /// The refused call the faults were injected under: a probe (`Bash:git-reset-hard`),
    /// or a plain write's tool (`Bash`) when the guard refused that; `-` when none was refused in a session.
    pub probe: String,
    pub none: String,
    pub missing: String,
    pub crash: String,
    pub hang: String,
    pub signal: String,
    #[serde(rename = "no-launcher")]
    pub no_launcher: String,
    #[serde(rename = "no-deps")]
    pub no_deps: String,
    /// The guard's status: open, held, untested.
    pub status: String,
    pub exit_code: i32,
    /// The re-checked fix ([`fix`]).
    pub fix: String,
    /// When it was measured (UTC, RFC 3339).
    pub measured: String,
    /// Wall time of install and audit, in seconds.
    pub seconds: u64,
}

impl Row {
    /// The verdict of `fault` in this row.
    pub fn verdict(&self, fault: &str) -> Option<&str> {
        Some(match fault {
            "none" => &self.none,
            "missing" => &self.missing,
            "crash" => &self.crash,
            "hang" => &self.hang,
            "signal" => &self.signal,
            "no-launcher" => &self.no_launcher,
            "no-deps" => &self.no_deps,
            _ => return None,
        })
    }

    /// The row of an audit report `v` (whose paths are already redacted):
    /// its first agent's part (`agents[0]`, the agent the census runs).
    pub fn from_audit(guard: &str, version: &str, v: &Value, exit_code: i32) -> Row {
        let v = &v["agents"][0];
        let cells = v["cells"].as_array().map(Vec::as_slice).unwrap_or_default();
        // The first probe a hook refused in a session, else the first call it
        // refused at all (a guard that refuses a plain write): audit injected its faults there.
        let refused = |c: &&Value| c["fault"] == "none" && c["result"] == "blocked";
        let probed = cells.iter().find(|c| refused(c) && is_probe(c)).or_else(|| cells.iter().find(refused));
        let (hook, probe) = probed
            .map(|c| (c["hook"].as_str().unwrap_or_default(), c["tool"].as_str().unwrap_or_default()))
            .unwrap_or(("", "-"));
        let verdict = |fault: &str| {
            cells
                .iter()
                .find(|c| c["hook"] == hook && c["tool"] == probe && c["fault"] == fault)
                .and_then(|c| c["result"].as_str())
                .unwrap_or("-")
                .to_string()
        };
        let status = first_hook_status(v, hook);
        let fix = fix(v);
        Row {
            guard: guard.to_string(),
            version: version.to_string(),
            agent: v["agent"].as_str().unwrap_or("claude-code").to_string(),
            agent_version: v["version"].as_str().unwrap_or("-").to_string(),
            probe: probe.to_string(),
            none: verdict("none"),
            missing: verdict("missing"),
            crash: verdict("crash"),
            hang: verdict("hang"),
            signal: verdict("signal"),
            no_launcher: verdict("no-launcher"),
            no_deps: verdict("no-deps"),
            status,
            exit_code,
            fix,
            measured: String::new(),
            seconds: 0,
        }
    }
}

/// The re-checked fix: the first advice audit proved on a copy, else the
/// first it re-checked at all, as `STATUS: CHANGE` (`proved`, `unsettled`,
/// `failed`); `-` when audit re-checked none. `v`: an agent's part of the report.
pub fn fix(v: &Value) -> String {
    let advice = v["advice"].as_array().map(Vec::as_slice).unwrap_or_default();
    advice
        .iter()
        .find(|a| a["recheck"]["status"] == "proved")
        .or_else(|| advice.iter().find(|a| a["recheck"]["status"].is_string()))
        .map(|a| format!("{}: {}", a["recheck"]["status"].as_str().unwrap_or(""), a["change"].as_str().unwrap_or("")))
        .unwrap_or_else(|| "-".to_string())
}

/// A probe's cell: its tool is `Tool:probe-name`, not a plain write.
fn is_probe(c: &Value) -> bool {
    c["tool"].as_str().is_some_and(|t| t.contains(':'))
}

/// The status of `hook` (when a probe was refused), else the worst of all
/// guards: open, untested, held. `v`: an agent's part of the report.
fn first_hook_status(v: &Value, hook: &str) -> String {
    let guards = v["guards"].as_array().map(Vec::as_slice).unwrap_or_default();
    if let Some(g) = guards.iter().find(|g| g["hook"] == hook) {
        return g["status"].as_str().unwrap_or("-").to_string();
    }
    for status in ["open", "untested", "held"] {
        if guards.iter().any(|g| g["status"] == status) {
            return status.to_string();
        }
    }
    "-".to_string()
}

/// The rows of `path` (none when it does not exist).
pub fn read_rows(path: &Path) -> anyhow::Result<Vec<Row>> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let mut r = csv::Reader::from_path(path).with_context(|| path.display().to_string())?;
    r.deserialize().map(|row| row.with_context(|| path.display().to_string())).collect()
}

/// Write `rows` to `path` (through a temp file renamed over it: a reader never sees half a file).
pub fn write_rows(path: &Path, rows: &[Row]) -> anyhow::Result<()> {
    let tmp = path.with_extension("csv.tmp");
    let mut w = csv::Writer::from_path(&tmp).with_context(|| tmp.display().to_string())?;
    for row in rows {
        w.serialize(row)?;
    }
    w.flush()?;
    drop(w);
    std::fs::rename(&tmp, path).with_context(|| path.display().to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_row_reads_the_faults_under_the_refused_probe_and_the_proved_fix() {
        let v = json!({"schema": 2, "agents": [{"agent": "claude-code", "version": "2.1.328",
            "cells": [
                {"hook": "H1", "tool": "Bash", "fault": "none", "result": "wrote"},
                {"hook": "H1", "tool": "Bash:git-reset-hard", "fault": "none", "result": "blocked"},
                {"hook": "H1", "tool": "Bash:git-reset-hard", "fault": "crash", "result": "wrote"},
                {"hook": "H1", "tool": "Bash:git-reset-hard", "fault": "hang", "result": "skipped"}],
            "guards": [{"hook": "H1", "status": "open"}],
            "advice": [{"change": "unproved", "recheck": {"status": "failed"}},
                       {"change": "wrap it with seal", "recheck": {"status": "proved"}}]}]});
        let row = Row::from_audit("g", "1.0.0", &v, 3);
        assert_eq!(
            (row.probe.as_str(), row.none.as_str(), row.crash.as_str()),
            ("Bash:git-reset-hard", "blocked", "wrote")
        );
        assert_eq!((row.hang.as_str(), row.signal.as_str()), ("skipped", "-"));
        assert_eq!((row.status.as_str(), row.fix.as_str(), row.exit_code), ("open", "proved: wrap it with seal", 3));
        assert_eq!((row.agent.as_str(), row.agent_version.as_str()), ("claude-code", "2.1.328"));
    }

    #[test]
    fn with_no_refused_probe_the_row_says_so_and_takes_the_guards_status() {
        let v = json!({"agents": [{"version": "2.1.328",
            "cells": [{"hook": "H1", "tool": "Bash", "fault": "none", "result": "wrote"}],
            "guards": [{"hook": "H1", "status": "untested"}], "advice": []}]});
        let row = Row::from_audit("g", "1", &v, 6);
        assert_eq!(
            (row.probe.as_str(), row.missing.as_str(), row.status.as_str(), row.fix.as_str()),
            ("-", "-", "untested", "-")
        );
    }

    #[test]
    fn a_guard_that_refused_a_plain_write_has_its_faults_read_under_that_write() {
        let v = json!({"agents": [{"cells": [
                {"hook": "H1", "tool": "Write", "fault": "none", "result": "wrote"},
                {"hook": "H1", "tool": "Bash", "fault": "none", "result": "blocked"},
                {"hook": "H1", "tool": "Bash", "fault": "missing", "result": "wrote"}],
            "guards": [{"hook": "H1", "status": "open"}]}]});
        let row = Row::from_audit("g", "1", &v, 3);
        assert_eq!((row.probe.as_str(), row.none.as_str(), row.missing.as_str()), ("Bash", "blocked", "wrote"));
    }

    #[test]
    fn rows_round_trip_through_the_csv() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.csv");
        let mut row = Row::from_audit("g", "1", &json!({}), 1);
        row.fix = "a, \"quoted\" fix".into();
        write_rows(&path, std::slice::from_ref(&row)).unwrap();
        assert_eq!(read_rows(&path).unwrap(), vec![row]);
        assert!(read_rows(&dir.path().join("none.csv")).unwrap().is_empty());
    }
}
