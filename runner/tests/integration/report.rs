//! `failopen report`, `diff` and `merge`, driven through the binary on the
//! hand-written fixtures in `tests/fixtures/report/` (see its README for
//! what each holds and why the expected verdicts are what they are).

use std::path::PathBuf;

use predicates::prelude::*;

use crate::support::{self, failopen};

fn fixture(name: &str) -> PathBuf {
    support::fixture("report").join(name)
}

/// `failopen report FILES --format FORMAT` on stdout; must exit 0.
fn report(files: &[&str], format: &str) -> String {
    let mut cmd = failopen();
    cmd.arg("report");
    for f in files {
        cmd.arg(fixture(f));
    }
    let out = cmd.args(["--format", format]).output().unwrap();
    assert!(out.status.success(), "report failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

// ------------------------------------------------------------ rendering

#[test]
fn md_one_version() {
    insta::assert_snapshot!(report(&["v328.csv"], "md"));
}

#[test]
fn md_two_versions_marks_the_differing_cells() {
    let md = report(&["two_versions.csv"], "md");
    // crash/native: wrote on 2.1.240, blocked on 2.1.328 (see the fixture README).
    assert!(md.contains("| crash / native | **wrote 2/2** ⚠ | **blocked 2/2** ⚠ |"), "{md}");
    assert!(md.contains("| deny / bare | blocked 2/2 | blocked 2/2 |"), "unchanged cells are not marked\n{md}");
    insta::assert_snapshot!(md);
}

#[test]
fn two_files_report_like_their_merge() {
    assert_eq!(report(&["v240.csv", "v328.csv"], "md"), report(&["two_versions.csv"], "md"));
}

#[test]
fn json_two_versions() {
    let text = report(&["two_versions.csv"], "json");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["differs"].as_array().unwrap().len(), 3, "crash/native, hang/plain, hang/timed\n{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn csv_two_versions() {
    insta::assert_snapshot!(report(&["two_versions.csv"], "csv"));
}

#[test]
fn svg_two_versions() {
    let svg = report(&["two_versions.csv"], "svg");
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg, report(&["two_versions.csv"], "svg"), "deterministic");
    insta::assert_snapshot!(svg);
}

#[test]
fn html_two_versions() {
    let html = report(&["two_versions.csv"], "html");
    assert!(!html.contains("<script") && !html.contains("src="), "self-contained");
    insta::assert_snapshot!(html);
}

#[test]
fn timeline_md_says_what_changed_when() {
    let md = report(&["timeline.csv"], "timeline-md");
    // See the fixture README: one change on 2.1.10, three on 2.1.100, none on the copy 2.1.101.
    assert!(md.contains("4 versions from 2.1.9 to 2.1.101, 5 cells, 4 change points."), "{md}");
    assert!(md.contains("## 2.1.10\n\n- `http-500/native`: wrote → mixed (after 2.1.9)\n\n## 2.1.100\n"), "{md}");
    assert!(md.contains("- `hang/timed`: invalid → blocked (after 2.1.9)"), "the gap on 2.1.10 is skipped\n{md}");
    assert!(md.contains("- 2.1.101: identical to 2.1.100") && !md.contains("## 2.1.101"), "{md}");
    insta::assert_snapshot!(md);
}

#[test]
fn timeline_svg() {
    let svg = report(&["timeline.csv"], "timeline-svg");
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<title>").count(), 4, "one titled, outlined square per change point\n{svg}");
    assert_eq!(svg, report(&["timeline.csv"], "timeline-svg"), "deterministic");
    insta::assert_snapshot!(svg);
}

// --------------------------------------------------------- report errors

#[test]
fn report_on_a_wrong_header_names_the_file() {
    failopen().arg("report").arg(fixture("v328.csv")).arg(fixture("wrong_header.csv")).assert().code(1).stderr(
        predicate::str::contains("wrong_header.csv").and(predicate::str::contains("not a failopen results file")),
    );
}

#[test]
fn report_out_into_a_missing_dir_is_a_clear_error() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("missing/r.svg");
    failopen()
        .arg("report")
        .arg(fixture("v328.csv"))
        .args(["--format", "svg", "--out"])
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("does not exist").and(predicate::str::contains("missing")));
}

#[test]
fn report_out_writes_the_file() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("r.html");
    failopen().arg("report").arg(fixture("v328.csv")).args(["--format", "html", "--out"]).arg(&out).assert().success();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), report(&["v328.csv"], "html"));
}

/// `--format site` reads one results folder (by failopen's file names) into
/// the folder `--out`: a page per cell; without `--out`, with CSVs instead of
/// a folder, or into a folder of someone else's files, it refuses, naming why.
#[test]
fn report_site_writes_a_folder_and_refuses_what_it_cannot_write() {
    let d = tempfile::tempdir().unwrap();
    let results = d.path().join("results");
    std::fs::create_dir(&results).unwrap();
    std::fs::copy(fixture("v328.csv"), results.join("claude-2.1.328.csv")).unwrap();
    std::fs::write(results.join("notes.csv"), "not a results file: not read").unwrap();
    let out = d.path().join("site");
    failopen().arg("report").arg(&results).args(["--format", "site", "--out"]).arg(&out).assert().success();
    let crash = std::fs::read_to_string(out.join("claude-code/2.1.328/crash/bare.html")).unwrap();
    assert!(crash.contains("id=\"verdict\""), "{crash}");
    assert!(out.join("index.html").is_file() && out.join("claude-code/2.1.328.html").is_file());
    // Again: the folder is failopen's own, so it is replaced.
    failopen().arg("report").arg(&results).args(["--format", "site", "--out"]).arg(&out).assert().success();

    let refused = |args: &[&std::ffi::OsStr], needle: &str| {
        failopen().arg("report").args(args).assert().code(1).stderr(predicate::str::contains(needle));
    };
    let os = |s: &str| std::ffi::OsString::from(s);
    let (r, o) = (results.as_os_str().to_owned(), out.as_os_str().to_owned());
    refused(&[&r, &os("--format"), &os("site")], "give it with --out DIR");
    let csv = fixture("v328.csv").into_os_string();
    refused(&[&csv, &csv, &os("--format"), &os("site"), &os("--out"), &o], "one results folder");
    refused(&[&csv, &os("--format"), &os("site"), &os("--out"), &o], "not a results folder");
    let empty = d.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    refused(&[empty.as_os_str(), &os("--format"), &os("site"), &os("--out"), &o], "no reference rows");
    let mine = d.path().join("mine");
    std::fs::create_dir(&mine).unwrap();
    std::fs::write(mine.join("keep.txt"), "mine").unwrap();
    refused(&[&r, &os("--format"), &os("site"), &os("--out"), mine.as_os_str()], "did not write");
    assert_eq!(std::fs::read_to_string(mine.join("keep.txt")).unwrap(), "mine");
    refused(&[&os("--format"), &os("md")], "give the result CSVs");
}

// ------------------------------------------------------------------ diff

fn diff(old: &str, new: &str) -> (i32, String) {
    let out = failopen().arg("diff").arg(fixture(old)).arg(fixture(new)).output().unwrap();
    (out.status.code().unwrap(), String::from_utf8(out.stdout).unwrap())
}

#[test]
fn diff_nothing_changed_exits_0() {
    let (code, text) = diff("v328.csv", "v328.csv");
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("no verdict changed"), "{text}");
}

#[test]
fn diff_other_changes_exit_4() {
    let (code, text) = diff("v240.csv", "v328.csv");
    assert_eq!(code, 4, "{text}");
    insta::assert_snapshot!(text);
}

#[test]
fn diff_a_guard_opening_exits_3_even_with_other_changes() {
    let (code, text) = diff("v328.csv", "v240.csv");
    assert_eq!(code, 3, "{text}");
    assert!(text.contains("crash/native: blocked 2/2 → wrote 2/2   (guard opened)"), "{text}");
    assert!(text.contains("hang/timed: blocked 1/1 → invalid 1/1 (session-timeout)"), "{text}");
}

#[test]
fn diff_a_file_with_several_versions_uses_its_newest() {
    // two_versions.csv's newest is 2.1.328: the same as v328.csv.
    let (code, text) = diff("two_versions.csv", "v328.csv");
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("left out: 2.1.240"), "{text}");
}

#[test]
fn diff_broken_input_exits_1_naming_the_file() {
    failopen()
        .arg("diff")
        .arg(fixture("v240.csv"))
        .arg(fixture("wrong_header.csv"))
        .assert()
        .code(1)
        .stderr(predicate::str::contains("wrong_header.csv"));
    let out = failopen().arg("diff").arg(fixture("v240.csv")).arg(fixture("nope.csv")).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("nope.csv"), "{err}");
    assert_eq!(err.matches("No such file").count(), 1, "the cause is said once\n{err}");
}

// ----------------------------------------------------------------- merge

#[test]
fn merge_writes_the_rows_in_input_order_with_one_header() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("m.csv");
    failopen().arg("merge").arg(fixture("v240.csv")).arg(fixture("v328.csv")).arg("--out").arg(&out).assert().success();
    // The fixtures predate the hook_type and mode columns: the merge has every
    // column, each row's hook type comes from its guard and its mode is print;
    // the rest is the rows as they were.
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().next(), Some(failopen::record::HEADER.join(",").as_str()));
    let merged = failopen::record::read_rows(&out).unwrap();
    let mut want = failopen::record::read_rows(&fixture("two_versions.csv")).unwrap();
    for r in &mut want {
        r.hook_type = r.hook_type().to_string();
        r.mode = "print".to_string();
        r.agent = "claude-code".to_string();
    }
    assert_eq!(merged, want);
    // And an old file diffs against a new one.
    let d = failopen().arg("diff").arg(fixture("two_versions.csv")).arg(&out).output().unwrap();
    assert_eq!(d.status.code(), Some(0), "{}", String::from_utf8_lossy(&d.stdout));
}

#[test]
fn merge_refuses_a_foreign_header_naming_the_file() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("m.csv");
    failopen()
        .arg("merge")
        .arg(fixture("v240.csv"))
        .arg(fixture("wrong_header.csv"))
        .arg("--out")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(
            predicate::str::contains("wrong_header.csv").and(predicate::str::contains("not a failopen results file")),
        );
    assert!(!out.exists());
}

#[test]
fn merge_refuses_duplicate_cells() {
    let d = tempfile::tempdir().unwrap();
    let out = d.path().join("m.csv");
    failopen()
        .arg("merge")
        .arg(fixture("v240.csv"))
        .arg(fixture("two_versions.csv"))
        .arg("--out")
        .arg(&out)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("duplicate cell (claude-code version 2.1.240, arm deny/bare, repeat 1)"));
    assert!(!out.exists());
}

#[test]
fn merge_refuses_to_overwrite_an_input() {
    let d = tempfile::tempdir().unwrap();
    let a = d.path().join("a.csv");
    std::fs::copy(fixture("v240.csv"), &a).unwrap();
    let before = std::fs::read(&a).unwrap();
    failopen()
        .arg("merge")
        .arg(&a)
        .arg(fixture("v328.csv"))
        .arg("--out")
        .arg(&a)
        .assert()
        .code(1)
        .stderr(predicate::str::contains("refusing to overwrite an input"));
    assert_eq!(std::fs::read(&a).unwrap(), before);
}
