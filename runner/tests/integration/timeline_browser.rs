//! The timeline page in a real browser: `failopen report --format
//! timeline-html` on three versions (the two reference CSVs and a copy of
//! the newer one marked as an identical binary), loaded in headless
//! Chromium with a filter in the URL fragment. The DOM the page's script
//! draws must hold every (arm, version) with the verdict failopen's tally
//! gives the CSV's rows, mark exactly the cells where an arm's verdict
//! changed, and hide exactly the rows the filter leaves out.
//!
//! Chromium is Debian's package (see [`crate::support::browser`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use failopen::record::{read_rows, Row, RowWriter};
use failopen::tally::{Summary, Tally};

use crate::support::browser::{dump_dom, set_diff, tags};
use crate::support::{self, failopen};

/// The synthetic version: not run, a byte-identical copy of 2.1.328.
const COPY: &str = "2.1.329";

/// The reference rows of 2.1.240 and 2.1.328, and 2.1.328's again as
/// [`COPY`], flagged `identical-binary:2.1.328` as `failopen history` writes them.
fn fixture_rows() -> Vec<Row> {
    let results = support::repo().join("results");
    let mut rows = Vec::new();
    for f in ["claude-2.1.240.csv", "claude-2.1.328.csv"] {
        rows.extend(read_rows(&results.join(f)).unwrap_or_else(|e| panic!("{f}: {e}")));
    }
    let copies: Vec<Row> = rows
        .iter()
        .filter(|r| r.agent_version == "2.1.328")
        .map(|r| {
            let mut c = r.clone();
            c.agent_version = COPY.into();
            c.flags = if c.flags.is_empty() {
                "identical-binary:2.1.328".into()
            } else {
                format!("{};identical-binary:2.1.328", c.flags)
            };
            c
        })
        .collect();
    rows.extend(copies);
    rows
}

/// What the page must show, computed here from the rows with failopen's tally.
struct Expected {
    /// (arm, version) → summary of that arm's rows on that version.
    verdicts: BTreeMap<(String, String), Summary>,
    /// (arm, version) where the summary differs from the arm's previous version.
    changes: BTreeSet<(String, String)>,
    /// arm → guard.
    guards: BTreeMap<String, String>,
}

fn expected(rows: &[Row]) -> Expected {
    let mut tallies: BTreeMap<(String, String), Tally> = BTreeMap::new();
    let mut guards = BTreeMap::new();
    for r in rows {
        tallies.entry((r.arm.clone(), r.agent_version.clone())).or_default().add(r);
        guards.insert(r.arm.clone(), r.guard.clone());
    }
    let verdicts: BTreeMap<(String, String), Summary> = tallies.into_iter().map(|(k, t)| (k, t.summary())).collect();
    let mut versions: Vec<String> = rows.iter().map(|r| r.agent_version.clone()).collect();
    versions.sort_by(|a, b| failopen::version::compare(a, b));
    versions.dedup();
    let mut changes = BTreeSet::new();
    for arm in guards.keys() {
        let mut before: Option<Summary> = None;
        for v in &versions {
            if let Some(&now) = verdicts.get(&(arm.clone(), v.clone())) {
                if before.is_some_and(|b| b != now) {
                    changes.insert((arm.clone(), v.clone()));
                }
                before = Some(now);
            }
        }
    }
    Expected { verdicts, changes, guards }
}

/// `failopen report CSV --format timeline-html --out DIR/timeline.html`.
fn render_page(dir: &Path, rows: &[Row]) -> PathBuf {
    let csv = dir.join("history.csv");
    let mut w = RowWriter::open(&csv).unwrap();
    for r in rows {
        w.append(r).unwrap();
    }
    let page = dir.join("timeline.html");
    failopen().arg("report").arg(&csv).args(["--format", "timeline-html", "--out"]).arg(&page).assert().success();
    page
}

#[test]
fn the_page_draws_the_tallied_verdicts_marks_changes_and_filters_from_the_fragment() {
    let rows = fixture_rows();
    let want = expected(&rows);
    assert!(!want.changes.is_empty(), "the reference versions differ in several native cells");
    assert!(want.changes.iter().all(|(_, v)| v != COPY), "a copy changes nothing");

    let dir = tempfile::tempdir().unwrap();
    let page = render_page(dir.path(), &rows);
    let dom = dump_dom(&format!("file://{}#guard=crash", page.display()));

    let start = dom.find("<table id=\"timeline\"").unwrap_or_else(|| panic!("no timeline table in the DOM:\n{dom}"));
    let table = &dom[start..start + dom[start..].find("</table>").expect("the table ends")];

    // Rows: one per arm, hidden exactly when its guard is not crash.
    let trs: Vec<_> = tags(table, "tr").into_iter().filter(|t| t.contains_key("data-arm")).collect();
    let drawn: BTreeSet<&str> = trs.iter().map(|t| t["data-arm"].as_str()).collect();
    let arms: BTreeSet<&str> = want.guards.keys().map(String::as_str).collect();
    assert!(drawn == arms, "one row per arm\n{}", set_diff(&drawn, &arms));
    assert_eq!(trs.len(), want.guards.len(), "no arm twice");
    let hidden: BTreeSet<&str> =
        trs.iter().filter(|t| t.contains_key("hidden")).map(|t| t["data-arm"].as_str()).collect();
    let not_crash: BTreeSet<&str> =
        want.guards.iter().filter(|(_, g)| g.as_str() != "crash").map(|(a, _)| a.as_str()).collect();
    assert!(!not_crash.is_empty() && not_crash.len() < want.guards.len(), "the filter has rows to hide and to keep");
    assert!(
        hidden == not_crash,
        "#guard=crash hides exactly the rows of other guards\n{}",
        set_diff(&hidden, &not_crash)
    );
    for t in &trs {
        assert_eq!(t["data-guard"], want.guards[&t["data-arm"]], "{t:?}");
    }
    let shown = want.guards.len() - not_crash.len();
    assert!(dom.contains(&format!("showing {shown} of {} cells", want.guards.len())), "the count follows the filter");

    // Cells: the tallied verdict of every (arm, version), and nothing where the arm did not run.
    let tds = tags(table, "td");
    let versions = want.verdicts.keys().map(|(_, v)| v).collect::<BTreeSet<_>>().len();
    assert_eq!(tds.len(), want.guards.len() * versions, "a cell per arm and version");
    let mut verdicts = BTreeSet::new();
    let mut changes = BTreeSet::new();
    for td in &tds {
        let key = (td["data-arm"].clone(), td["data-version"].clone());
        if let Some(v) = td.get("data-verdict") {
            verdicts.insert((key.0.clone(), key.1.clone(), v.clone()));
        }
        if td.get("data-change").map(String::as_str) == Some("1") {
            changes.insert(key.clone());
        }
        if key.1 == COPY {
            assert_eq!(td.get("data-identical-to").map(String::as_str), Some("2.1.328"), "{td:?}");
        }
    }
    let want_verdicts: BTreeSet<(String, String, String)> =
        want.verdicts.iter().map(|((a, v), s)| (a.clone(), v.clone(), s.as_str().to_string())).collect();
    assert!(
        verdicts == want_verdicts,
        "the drawn (arm, version, verdict) are the tallies of the CSV's rows\n{}",
        set_diff(&verdicts, &want_verdicts)
    );
    assert!(
        changes == want.changes,
        "change points exactly where an arm's verdict changed\n{}",
        set_diff(&changes, &want.changes)
    );
}
