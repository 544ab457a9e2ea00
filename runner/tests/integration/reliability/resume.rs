//! `--resume` runs only the missing cells, repairs a cut last line, and keys on the whole cell; `--keep`.

use super::*;

const SMALL: [&str; 6] = ["--arms", "full", "--only", "allow/bare", "--only", "deny/bare"];

/// `--resume` with a bigger set runs only the missing cells.
#[test]
fn resume_runs_only_the_missing_cells() {
    let (first, dir) = run_battery(&SMALL);
    assert_eq!(first.len(), 2);
    let path = dir.path().join("rows.csv");
    let before = std::fs::read_to_string(&path).unwrap();
    let (stdout, _) = resume(&path, &["--only", "crash/bare", "--repeats", "2"]);
    let rows = read_csv(&path);
    assert_eq!(rows.len(), 6, "3 arms x 2 repeats: {rows:#?}");
    assert_unique_cells(&rows);
    assert!(std::fs::read_to_string(&path).unwrap().starts_with(&before), "the first rows were rewritten");
    assert_eq!(&rows[..2], &first[..], "the first rows changed");
    assert!(stdout.contains("4 sessions in") && stdout.contains("2 already done"), "{stdout}");
}

/// A last line cut mid-row (a writer killed by SIGKILL) is cut off and its
/// cell run again, never kept twice.
#[test]
fn resume_repairs_a_truncated_last_line() {
    let (first, dir) = run_battery(&SMALL);
    let path = dir.path().join("rows.csv");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let last = lines.last().unwrap();
    let whole: String = lines[..lines.len() - 1].iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(&path, format!("{whole}{}", &last[..last.len() / 2])).unwrap();
    let (_, stderr) = resume(&path, &["--repeats", "2"]);
    assert!(stderr.contains("cut a truncated last line"), "{stderr}");
    let rows = read_csv(&path);
    assert_eq!(rows.len(), 4, "2 arms x 2 repeats: {rows:#?}");
    assert_unique_cells(&rows);
    assert_eq!(rows[0], first[0]);
    assert!(rows.iter().any(|r| CellKey::of(r) == CellKey::of(&first[1])), "the cut cell ran again");
}

/// `--resume` keys on the whole cell: a row of the same arm name run with
/// another hook timeout or deadline (an edited arm) is not "done".
#[test]
fn resume_reruns_an_edited_arm() {
    let dir = tempfile::tempdir().unwrap();
    let arms = dir.path().join("arms.json");
    let write_arms = |timeout: u32| {
        let text = format!(r#"{{"arms":[{{"guard":"deny","wrapper":"bare","hook_timeout":{timeout}}}]}}"#);
        std::fs::write(&arms, text).unwrap();
    };
    write_arms(5);
    let (first, out_dir) = run_battery(&["--arms", arms.to_str().unwrap()]);
    assert_eq!(first.len(), 1);
    let path = out_dir.path().join("rows.csv");
    let resume_with = |path: &Path| {
        let _lock = battery_lock();
        let tmp = tempfile::tempdir().unwrap();
        let output = std::process::Command::new(bin())
            .args(["run", "--arms", arms.to_str().unwrap(), "--resume"])
            .arg(path)
            .env("TMPDIR", tmp.path())
            .env("CI", "true")
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    // Unchanged: nothing to run.
    let stdout = resume_with(&path);
    assert!(stdout.contains("0 sessions in") && stdout.contains("1 already done"), "{stdout}");
    // Edited: the arm runs again, and both rows are kept, told apart by their timeout.
    write_arms(7);
    let stdout = resume_with(&path);
    assert!(stdout.contains("1 sessions in"), "{stdout}");
    let rows = read_csv(&path);
    assert_eq!(rows.iter().map(|r| r.hook_timeout).collect::<Vec<_>>(), [5.0, 7.0]);
    assert_unique_cells(&rows);
}

/// `failopen run --resume PATH SMALL EXTRA` with a private TMPDIR; checks it
/// succeeds and leaves nothing. Returns (stdout, stderr).
fn resume(path: &Path, extra: &[&str]) -> (String, String) {
    let _lock = battery_lock();
    let tmp = tempfile::tempdir().unwrap();
    let output = std::process::Command::new(bin())
        .arg("run")
        .args(SMALL)
        .args(extra)
        .arg("--resume")
        .arg(path)
        .env("TMPDIR", tmp.path())
        .env("CI", "true")
        .output()
        .unwrap();
    let (stdout, stderr) =
        (String::from_utf8_lossy(&output.stdout).into_owned(), String::from_utf8_lossy(&output.stderr).into_owned());
    assert!(output.status.success(), "{}\nstdout:\n{stdout}\nstderr:\n{stderr}", output.status);
    support::assert_no_leftovers(tmp.path());
    (stdout, stderr)
}

/// With `--keep` the temp roots stay, with their evidence, and the run says where.
#[test]
fn keep_keeps_the_temp_roots_and_prints_where() {
    let _lock = battery_lock();
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let out = dir.path().join("rows.csv");
    let output = std::process::Command::new(bin())
        .args(["run", "--arms", "full", "--only", "deny/bare", "--keep", "--out"])
        .arg(&out)
        .env("TMPDIR", &tmp)
        .env("CI", "true")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&output.stderr));
    let kept = stdout
        .lines()
        .find_map(|l| l.strip_prefix("kept temp roots under "))
        .unwrap_or_else(|| panic!("no `kept temp roots under` line:\n{stdout}"));
    let kept = PathBuf::from(kept.trim());
    assert!(kept.starts_with(&tmp) && kept.is_dir(), "{}", kept.display());
    let rows = read_csv(&out);
    let session = rows[0].flags.split(';').find_map(|f| f.strip_prefix("kept:")).expect("the row names its kept root");
    let session = PathBuf::from(session);
    assert!(session.starts_with(&kept), "{} not under {}", session.display(), kept.display());
    for evidence in ["evidence/stdout.jsonl", "evidence/settings.json", "evidence/transcript.json"] {
        let p = session.join(evidence);
        assert!(p.metadata().is_ok_and(|m| m.len() > 0), "{} missing or empty", p.display());
    }
    std::fs::remove_dir_all(&kept).unwrap();
    support::assert_no_leftovers(&tmp);
}
