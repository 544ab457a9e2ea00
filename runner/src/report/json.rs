//! JSON: per agent version (`agent`, `agent_version`; `claude_version` is
//! its older name, the same value, whichever agent ran), per arm counts and
//! summary verdict, and the cells whose verdict differs between versions
//! (keyed by each version's `label`: `2.1.328`, `codex 0.171.0`).

use serde_json::{json, Value};

use super::grid::Report;
use super::Exporter;
use crate::record::Row;

/// The JSON report.
#[derive(Debug, Default)]
pub struct Json;

/// Build the JSON value (the shape is the format's contract).
pub fn value(report: &Report) -> Value {
    let versions: Vec<Value> = report
        .versions
        .iter()
        .map(|g| {
            let arms: Vec<Value> = g
                .arms
                .iter()
                .map(|a| {
                    json!({
                        "arm": a.arm,
                        "guard": a.guard,
                        "wrapper": a.wrapper,
                        "runs": a.tally.runs(),
                        "blocked": a.tally.blocked,
                        "wrote": a.tally.wrote,
                        "invalid": a.tally.invalid,
                        "invalid_reasons": a.tally.invalid_reasons,
                        "verdict": a.tally.summary(),
                    })
                })
                .collect();
            // `claude_version` is the older name of `agent_version`, kept for readers of the first shape.
            json!({
                "agent": g.agent.as_str(),
                "agent_name": g.agent.display_name(),
                "agent_version": g.agent_version,
                "claude_version": g.agent_version,
                "label": g.version,
                "mode": g.mode.as_str(),
                "arms": arms,
            })
        })
        .collect();
    let differs: Vec<Value> = report
        .differing()
        .into_iter()
        .map(|(r, w)| {
            let verdicts: serde_json::Map<String, Value> = report
                .versions
                .iter()
                .filter_map(|g| g.cell(&r, &w).map(|a| (g.version.clone(), json!(a.tally.summary()))))
                .collect();
            json!({ "row": r, "wrapper": w, "verdicts": verdicts })
        })
        .collect();
    json!({ "versions": versions, "differs": differs })
}

impl Exporter for Json {
    fn render(&self, rows: &[Row]) -> anyhow::Result<String> {
        let mut s = serde_json::to_string_pretty(&value(&Report::from_rows(rows)))?;
        s.push('\n');
        Ok(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_helpers::row;
    use crate::verdict::VerdictKind::{Blocked as B, Wrote as W};

    #[test]
    fn counts_verdicts_and_differences() {
        let rows = [
            row("2.1.328", "crash/native", 1, B, ""),
            row("2.1.328", "crash/native", 2, B, ""),
            row("2.1.240", "crash/native", 1, W, ""),
        ];
        let v: Value = serde_json::from_str(&Json.render(&rows).unwrap()).unwrap();
        assert_eq!(v["versions"][0]["agent_version"], "2.1.240");
        assert_eq!(v["versions"][0]["claude_version"], "2.1.240", "the older name, kept");
        assert_eq!(v["versions"][1]["arms"][0]["blocked"], 2);
        assert_eq!(v["versions"][1]["arms"][0]["verdict"], "blocked");
        assert_eq!(v["differs"][0]["verdicts"]["2.1.240"], "wrote");
    }

    /// A Codex CSV's report names Codex, not Claude Code: two agents'
    /// results can be told apart.
    #[test]
    fn each_version_names_its_agent() {
        let mut codex = row("0.171.0", "crash/bare", 1, W, "");
        codex.agent = "codex".into();
        let rows = [row("2.1.328", "crash/bare", 1, W, ""), codex];
        let v: Value = serde_json::from_str(&Json.render(&rows).unwrap()).unwrap();
        let agents: Vec<(&str, &str, &str)> = v["versions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| (g["agent"].as_str().unwrap(), g["agent_version"].as_str().unwrap(), g["label"].as_str().unwrap()))
            .collect();
        assert!(agents.contains(&("codex", "0.171.0", "codex 0.171.0")), "{agents:?}");
        assert!(agents.contains(&("claude-code", "2.1.328", "2.1.328")), "{agents:?}");
    }
}
