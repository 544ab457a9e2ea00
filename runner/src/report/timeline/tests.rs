//! The timeline model: version order, arm order, change points (gaps,
//! mixed and invalid summaries) and identical-binary columns.

use super::model::{copied_from, Timeline};
use crate::record::Row;
use crate::tally::Summary::{self, Blocked as SB, Invalid as SI, Mixed as SM, Wrote as SW};
use crate::test_helpers::row;
use crate::verdict::VerdictKind::{Blocked as B, Invalid as I, Wrote as W};

/// (arm, from, to, old, new) of every change point, in the model's order.
fn changes(t: &Timeline) -> Vec<(&str, &str, &str, Summary, Summary)> {
    t.changes.iter().map(|c| (c.arm.as_str(), c.from_version.as_str(), c.to_version.as_str(), c.from, c.to)).collect()
}

fn versions(t: &Timeline) -> Vec<&str> {
    t.versions.iter().map(|c| c.version.as_str()).collect()
}

fn copied(mut r: Row, from: &str) -> Row {
    r.flags = format!("hook-model-calls:1;identical-binary:{from}");
    r
}

#[test]
fn versions_go_in_version_order_not_text_order() {
    let rows = [
        row("2.1.100", "crash/native", 1, B, ""),
        row("2.1.9", "crash/native", 1, W, ""),
        row("2.1.10", "crash/native", 1, W, ""),
    ];
    let t = Timeline::from_rows(&rows);
    assert_eq!(versions(&t), ["2.1.9", "2.1.10", "2.1.100"]);
    // As text, 2.1.10 < 2.1.100 < 2.1.9: the change would land on 2.1.9.
    assert_eq!(changes(&t), [("crash/native", "2.1.10", "2.1.100", SW, SB)]);
    assert!(t.change(0, 2).is_some() && t.change(0, 1).is_none() && t.change(0, 0).is_none());
    assert_eq!(t.headline(), "3 versions from 2.1.9 to 2.1.100, 1 cell, 1 change point");
}

#[test]
fn an_arm_missing_on_a_version_is_compared_with_the_last_version_that_ran_it() {
    let rows = [
        row("2.1.9", "crash/native", 1, W, ""),
        row("2.1.9", "deny/bare", 1, B, ""),
        row("2.1.9", "hang/bare", 1, W, ""),
        // 2.1.10 runs deny/bare only.
        row("2.1.10", "deny/bare", 1, B, ""),
        row("2.1.100", "crash/native", 1, B, ""),
        row("2.1.100", "deny/bare", 1, B, ""),
        row("2.1.100", "hang/bare", 1, W, ""),
    ];
    let t = Timeline::from_rows(&rows);
    let crash = t.arm_index("crash/native").unwrap();
    assert!(t.entry(crash, 1).is_none(), "not run on 2.1.10");
    assert_eq!(changes(&t), [("crash/native", "2.1.9", "2.1.100", SW, SB)], "a gap is neither a change nor a reset");
    assert_eq!(t.change(crash, 2).unwrap().to_version, "2.1.100");
}

#[test]
fn mixed_and_invalid_are_summaries_like_the_others() {
    let rows = [
        // deny/bare: blocked, then mixed b1 w1, then mixed b2 w1 (still mixed: no change).
        row("2.1.9", "deny/bare", 1, B, ""),
        row("2.1.10", "deny/bare", 1, B, ""),
        row("2.1.10", "deny/bare", 2, W, ""),
        row("2.1.100", "deny/bare", 1, B, ""),
        row("2.1.100", "deny/bare", 2, B, ""),
        row("2.1.100", "deny/bare", 3, W, ""),
        // hang/timed: invalid (two reasons), invalid (another reason), then blocked.
        row("2.1.9", "hang/timed", 1, I, "session-timeout"),
        row("2.1.10", "hang/timed", 1, I, "no-attempt"),
        row("2.1.100", "hang/timed", 1, B, ""),
    ];
    let t = Timeline::from_rows(&rows);
    assert_eq!(
        changes(&t),
        [("deny/bare", "2.1.9", "2.1.10", SB, SM), ("hang/timed", "2.1.10", "2.1.100", SI, SB)],
        "a new reason or other counts under the same summary is not a change"
    );
    let deny = t.arm_index("deny/bare").unwrap();
    assert_eq!(t.entry(deny, 2).unwrap().tally.label(), "mixed b2 w1");
}

#[test]
fn change_points_are_listed_by_version_then_arm_order() {
    let rows = [
        row("2.1.10", "hang/native", 1, B, ""),
        row("2.1.10", "crash/native", 1, B, ""),
        row("2.1.11", "crash/native", 1, W, ""),
        row("2.1.9", "hang/native", 1, W, ""),
        row("2.1.9", "crash/native", 1, W, ""),
        row("2.1.11", "hang/native", 1, B, ""),
    ];
    let t = Timeline::from_rows(&rows);
    assert_eq!(
        changes(&t),
        [
            ("crash/native", "2.1.9", "2.1.10", SW, SB),
            ("hang/native", "2.1.9", "2.1.10", SW, SB),
            ("crash/native", "2.1.10", "2.1.11", SB, SW),
        ]
    );
    let grouped: Vec<(&str, usize)> = t.changes_by_version().iter().map(|(v, cs)| (*v, cs.len())).collect();
    assert_eq!(grouped, [("2.1.10", 2), ("2.1.11", 1)]);
}

#[test]
fn arms_follow_the_catalogue_whatever_order_the_rows_came_in() {
    let mut custom = row("2.1.9", "zz/bare", 1, B, "");
    custom.hook_type = String::new();
    let mut routed = row("2.1.9", "crash/native@bash", 1, B, "");
    routed.wrapper = "native".into();
    let rows = vec![
        row("2.1.9", "hang/sealed", 1, B, ""),
        routed,
        custom,
        row("2.1.9", "crash/native", 1, B, ""),
        row("2.1.9", "deny/native", 1, B, ""),
        row("2.1.9", "crash/bare", 1, B, ""),
        row("2.1.9", "aa/bare", 1, B, ""),
    ];
    let want = ["deny/native", "crash/bare", "crash/native", "crash/native@bash", "hang/sealed", "aa/bare", "zz/bare"];
    let names = |t: &Timeline| t.arms.iter().map(|a| a.name.clone()).collect::<Vec<_>>();
    assert_eq!(names(&Timeline::from_rows(&rows)), want);
    let reversed: Vec<Row> = rows.iter().rev().cloned().collect();
    assert_eq!(names(&Timeline::from_rows(&reversed)), want, "input order does not matter");
    let t = Timeline::from_rows(&rows);
    let zz = &t.arms[6];
    assert_eq!((zz.guard.as_str(), zz.wrapper.as_str(), zz.hook_type.as_str()), ("zz", "bare", "command"));
    let [guards, wrappers, _] = t.facets();
    assert_eq!(guards, ["deny", "crash", "hang", "aa", "zz"]);
    assert_eq!(wrappers, ["native", "bare", "sealed"]);
}

#[test]
fn identical_binary_columns_are_marked_and_never_change_anything_themselves() {
    let mut rows = vec![
        row("2.1.9", "crash/native", 1, W, ""),
        row("2.1.9", "deny/bare", 1, B, ""),
        row("2.1.10", "crash/native", 1, B, ""),
        row("2.1.10", "deny/bare", 1, B, ""),
        row("2.1.12", "crash/native", 1, W, ""),
        row("2.1.12", "deny/bare", 1, B, ""),
    ];
    // 2.1.11 was not run: its binary is 2.1.10's, whose verdicts it carries.
    rows.push(copied(row("2.1.11", "crash/native", 1, B, ""), "2.1.10"));
    rows.push(copied(row("2.1.11", "deny/bare", 1, B, ""), "2.1.10"));
    let t = Timeline::from_rows(&rows);
    assert_eq!(versions(&t), ["2.1.9", "2.1.10", "2.1.11", "2.1.12"]);
    let marks: Vec<Option<&str>> = t.versions.iter().map(|c| c.identical_to.as_deref()).collect();
    assert_eq!(marks, [None, None, Some("2.1.10"), None]);
    let crash = t.arm_index("crash/native").unwrap();
    assert_eq!(t.entry(crash, 2).unwrap().identical_to.as_deref(), Some("2.1.10"));
    assert_eq!(t.entry(crash, 1).unwrap().identical_to, None);
    // The copy is compared like any version: the change after it is from 2.1.11.
    assert_eq!(
        changes(&t),
        [("crash/native", "2.1.9", "2.1.10", SW, SB), ("crash/native", "2.1.11", "2.1.12", SB, SW)]
    );
    assert_eq!(t.identical_columns().map(|c| c.version.as_str()).collect::<Vec<_>>(), ["2.1.11"]);
}

#[test]
fn a_column_is_identical_only_when_every_row_was_copied_from_one_version() {
    let rows = [
        copied(row("2.1.11", "crash/native", 1, B, ""), "2.1.10"),
        row("2.1.11", "deny/bare", 1, B, ""),
        copied(row("2.1.12", "crash/native", 1, B, ""), "2.1.10"),
        copied(row("2.1.12", "deny/bare", 1, B, ""), "2.1.9"),
    ];
    let t = Timeline::from_rows(&rows);
    assert!(t.versions.iter().all(|c| c.identical_to.is_none()), "{:?}", t.versions);
    let crash = t.arm_index("crash/native").unwrap();
    assert_eq!(t.entry(crash, 0).unwrap().identical_to.as_deref(), Some("2.1.10"), "the cell still says so");
}

#[test]
fn the_flag_is_found_among_others_and_only_whole() {
    let mut r = row("1.0.0", "deny/bare", 1, B, "");
    for (flags, want) in [
        ("identical-binary:2.1.3", Some("2.1.3")),
        ("compacted:2;identical-binary:2.1.3;hook-model-calls:1", Some("2.1.3")),
        ("identical-binary:", None),
        ("not-identical-binary:2.1.3", None),
        ("", None),
    ] {
        r.flags = flags.into();
        assert_eq!(copied_from(&r), want, "{flags}");
    }
}

#[test]
fn no_rows_no_timeline() {
    let t = Timeline::from_rows(&[]);
    assert!(t.is_empty() && t.arms.is_empty() && t.changes.is_empty());
    assert_eq!(t.headline(), "0 versions, 0 cells, 0 change points");
}
