//! The shape every reference-run test in `results.rs` shares: read a
//! committed CSV of `results/`, find each arm's rows for one agent and
//! version, and compare each row with the expectation written next to its
//! arm for that agent, version and mode, every mismatch listed at once.

use failopen::agent::Agent;
use failopen::arms::Arm;
use failopen::mode::Mode;
use failopen::record::Row;

/// One row of a reference CSV, checked against its arm's expectation.
#[derive(Debug)]
pub struct Checked {
    /// The file under `results/` the row is in.
    pub file: String,
    /// The arm the row ran.
    pub arm: Arm,
    /// The row.
    pub row: Row,
    /// The row is not what the arm's expectation says, and the test's
    /// allowance let it be.
    pub allowed: bool,
}

/// The allowance of a test that lets no row differ from its expectation.
pub fn none(_: &Row) -> bool {
    false
}

/// Whether arms/unmeasured.tsv lists `arm` of `set` on `agent`: a cell
/// with no expectation yet, each listed with why.
pub fn unmeasured(agent: Agent, set: &str, arm: &str) -> bool {
    let listed = std::fs::read_to_string(super::repo().join("arms/unmeasured.tsv")).unwrap();
    let cell = format!("{agent}\t{set}\t{arm}\t");
    listed.lines().any(|l| l.starts_with(&cell))
}

/// The rows of `results/<file>`.
pub fn rows(file: &str) -> Vec<Row> {
    super::read_csv(&super::repo().join("results").join(file))
}

/// Every arm of the arm sets `sets` that `agent` runs (by its hook type) has at least one row of `agent` on each
/// of `versions` in `files` (under `results/`, read together), and every
/// such row, each repeat, is what the arm's expectation for `agent` in `mode`
/// says on that version: its verdict, and its reason (an expected `invalid`
/// names one, any other verdict has none); the row's mode is `mode`. A row
/// that is not, and that `allowed` lets differ (a session the test knows may
/// end another way, e.g. past the session timeout on a loaded machine), is
/// kept with [`Checked::allowed`] set. Panics listing every other row that
/// is not, and names an arm that carries no expectation for `agent`.
///
/// Returns the rows checked, for a test's own further checks (a refusal's
/// trace, how a session ended) and counts. Rows of other agents, versions or
/// arms are left alone: a test that wants every row of a file checked
/// compares the count with [`rows`]'s.
pub fn check(
    files: &[&str],
    agent: Agent,
    versions: &[&str],
    sets: &[&str],
    mode: Mode,
    allowed: fn(&Row) -> bool,
) -> Vec<Checked> {
    let all: Vec<(&str, Row)> = files.iter().flat_map(|f| rows(f).into_iter().map(move |r| (*f, r))).collect();
    let mut checked = Vec::new();
    let mut wrong = Vec::new();
    for set in sets {
        // An arm of a hook type the agent does not run is no cell of its runs (cells::expand).
        let arms = failopen::arms::load(set).unwrap_or_else(|e| panic!("{e}")).into_iter();
        for arm in arms.filter(|a| agent.driver().runs_hook_type(a.guard.hook_type())) {
            let Some(expect) = arm.expected_on(agent) else {
                // An arm the agent lacks is rowed `invalid unsupported:<what>` with no session, as
                // failopen::run::lacks says; one arms/unmeasured.tsv lists has no expectation yet.
                let lacks = failopen::run::lacks(agent, &arm, &super::cmd::bin()).unwrap();
                match lacks.filter(|_| mode == Mode::Print) {
                    Some(what) => {
                        let want = format!("unsupported:{what}");
                        for version in versions {
                            let ran: Vec<&(&str, Row)> = all
                                .iter()
                                .filter(|(_, r)| r.arm == arm.name && r.agent() == agent && r.agent_version == *version)
                                .collect();
                            if ran.is_empty() {
                                wrong.push(format!("{files:?}: no row for {} ({set}) on {agent} {version}", arm.name));
                            }
                            for (file, row) in ran {
                                if (row.verdict.as_str(), row.reason.as_str()) != ("invalid", want.as_str()) {
                                    wrong.push(format!(
                                        "{file}: {} on {agent} {version}: got {} {:?}, and run::lacks says {want}",
                                        arm.name, row.verdict, row.reason
                                    ));
                                }
                                let row = row.clone();
                                checked.push(Checked { file: file.to_string(), arm: arm.clone(), row, allowed: false });
                            }
                        }
                    }
                    None if unmeasured(agent, set, &arm.name) => {}
                    None => panic!("{set}: {} carries no {agent} expectation", arm.name),
                }
                continue;
            };
            for version in versions {
                let want = expect.in_mode(mode).on(version);
                let ran: Vec<&(&str, Row)> = all
                    .iter()
                    .filter(|(_, r)| r.arm == arm.name && r.agent() == agent && r.agent_version == *version)
                    .collect();
                if ran.is_empty() {
                    wrong.push(format!("{files:?}: no row for {} ({set}) on {agent} {version}", arm.name));
                }
                for (file, row) in ran {
                    let got = (row.verdict, row.reason.as_str(), row.mode());
                    let ok = got == (want.verdict, want.reason.unwrap_or_default(), mode);
                    let allowed = !ok && allowed(row);
                    if !ok && !allowed {
                        wrong.push(format!(
                            "{file}: {} #{} on {agent} {version}: got {} {:?} in {} mode [{}], expected {} {:?} in {} mode, from {}",
                            arm.name,
                            row.repeat,
                            row.verdict,
                            row.reason,
                            row.mode().as_str(),
                            row.flags,
                            want.verdict,
                            want.reason.unwrap_or_default(),
                            mode.as_str(),
                            want.source
                        ));
                    }
                    checked.push(Checked { file: file.to_string(), arm: arm.clone(), row: row.clone(), allowed });
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{} rows not as expected:\n{}", wrong.len(), wrong.join("\n"));
    checked
}
