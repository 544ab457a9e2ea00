//! Regression workflow on real Claude Code: several versions in one CSV,
//! shards that merge back into the whole battery, and the diff gate on the
//! committed reference results.

use crate::support::{self, arms_file, failopen, read_csv, run_battery, OLD, PINNED};

/// `crash/native` is the arm whose verdict `"onFailure": "block"` decides:
/// 2.1.240 ignores it (wrote, as bare), the pinned version honours it
/// (blocked); see results/bisect-crash-native.txt.
#[test]
fn two_versions_in_one_csv_and_the_report_marks_the_difference() {
    let versions = format!("{OLD},{PINNED}");
    let (rows, dir) =
        run_battery(&["--arms", &arms_file("full.json"), "--only", "crash/native", "--agent-version", &versions]);
    let verdict = |v: &str| rows.iter().find(|r| r.agent_version == v).map(|r| r.verdict.as_str()).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!((verdict(OLD), verdict(PINNED)), ("wrote", "blocked"));
    let out = failopen().arg("report").arg(dir.path().join("rows.csv")).assert().success().get_output().stdout.clone();
    let md = String::from_utf8(out).unwrap();
    assert!(md.contains("| crash / native | **wrote 1/1** ⚠ | **blocked 1/1** ⚠ |"), "{md}");
}

/// Every cell lands in exactly one shard, and merge puts the battery back together.
#[test]
fn shards_merge_into_the_whole_battery() {
    let article = arms_file("article.json");
    let (one, d1) = run_battery(&["--arms", &article, "--shard", "1/2"]);
    let (two, d2) = run_battery(&["--arms", &article, "--shard", "2/2"]);
    assert_eq!(one.len() + two.len(), 9);
    let mut arms: Vec<&str> = one.iter().chain(&two).map(|r| r.arm.as_str()).collect();
    arms.sort();
    arms.dedup();
    assert_eq!(arms.len(), 9, "no cell in two shards");
    let merged = d1.path().join("merged.csv");
    failopen()
        .arg("merge")
        .arg(d1.path().join("rows.csv"))
        .arg(d2.path().join("rows.csv"))
        .arg("--out")
        .arg(&merged)
        .assert()
        .success();
    assert_eq!(read_csv(&merged).len(), 9);
}

fn reference(version: &str) -> std::path::PathBuf {
    support::repo().join(format!("results/claude-{version}.csv"))
}

/// The diff gate on the committed results: going from the pinned version
/// back to 2.1.240 opens the guards `onFailure` had closed (exit 3); the
/// other direction only closes them (exit 4). Either way the cells are named.
#[test]
fn diff_gates_on_the_reference_results() {
    let run = |old: &str, new: &str| {
        let o = failopen().arg("diff").arg(reference(old)).arg(reference(new)).output().unwrap();
        (o.status.code(), String::from_utf8_lossy(&o.stdout).into_owned())
    };
    let (code, text) = run(PINNED, OLD);
    assert_eq!(code, Some(3), "{text}");
    assert!(text.contains("crash/native") && text.contains("http-down/native"), "{text}");
    let (code, text) = run(OLD, PINNED);
    assert_eq!(code, Some(4), "{text}");
    assert!(text.contains("hang/native"), "{text}");
    let (code, _) = run(PINNED, PINNED);
    assert_eq!(code, Some(0));
}
