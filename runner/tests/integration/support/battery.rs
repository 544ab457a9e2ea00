//! Running a battery: the real binary on real Claude Code, one battery at a
//! time, checked to leave nothing behind.

use std::path::{Path, PathBuf};

use failopen::record::Row;

/// The version failopen runs by default.
pub const PINNED: &str = failopen::install::PINNED_VERSION;
/// The article's version.
pub const OLD: &str = "2.1.240";

/// Read a results CSV.
pub fn read_csv(path: &Path) -> Vec<Row> {
    failopen::record::read_rows(path).unwrap_or_else(|e| panic!("{e}"))
}

/// Run `failopen run ARGS --out <tmp>/rows.csv` with a private TMPDIR, then
/// check that no temp directory and no tagged process survived it.
pub fn run_battery(args: &[&str]) -> (Vec<Row>, tempfile::TempDir) {
    let _guard = super::lock::sessions();
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    let out = dir.path().join("rows.csv");
    let mut cmd = super::failopen();
    cmd.arg("run").args(args).arg("--out").arg(&out).env("TMPDIR", &tmp).timeout(std::time::Duration::from_secs(900));
    let output = cmd.output().unwrap();
    assert!(
        output.status.success(),
        "failopen run failed: {}\nstdout:\n{}\nstderr:\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert_no_leftovers(&tmp);
    (read_csv(&out), dir)
}

/// Every arm of an arm set gives the `expect` written next to it on
/// `version` (verdict, and the reason of an expected `invalid`; a `changes`
/// entry takes over from its `since` version on).
pub fn expectations_hold(set: &str, version: &str) {
    expectations_hold_for(set, version, &[]);
}

/// As [`expectations_hold`], for the arms matching `only` (all when empty).
pub fn expectations_hold_for(set: &str, version: &str, only: &[&str]) {
    let file = super::arms_file(set);
    let mut args = vec!["--arms", file.as_str(), "--agent-version", version];
    for pattern in only {
        args.extend(["--only", pattern]);
    }
    let (rows, _dir) = run_battery(&args);
    let patterns: Vec<String> = only.iter().map(|p| p.to_string()).collect();
    let arms = failopen::arms::filter(failopen::arms::load(&file).unwrap(), &patterns).unwrap();
    assert_eq!(rows.len(), arms.len(), "one row per arm");
    for arm in &arms {
        let expect = arm.expect.as_ref().unwrap_or_else(|| panic!("{set}: {} carries no expectation", arm.name));
        let expect = expect.on(version);
        let row = rows.iter().find(|r| r.arm == arm.name).unwrap_or_else(|| panic!("no row for {}", arm.name));
        assert_eq!(row.agent_version, version);
        assert_eq!(
            row.verdict, expect.verdict,
            "{} on {version}: row {row:?}\nexpected from {}",
            arm.name, expect.source
        );
        if let Some(reason) = expect.reason {
            assert_eq!(row.reason, reason, "{} on {version}: row {row:?}\nexpected from {}", arm.name, expect.source);
        }
    }
}

/// Nothing under the run's TMPDIR, and no process whose environment points into it.
pub fn assert_no_leftovers(tmp: &Path) {
    let left: Vec<PathBuf> = std::fs::read_dir(tmp).unwrap().flatten().map(|e| e.path()).collect();
    assert!(left.is_empty(), "temp entries left behind: {left:?}");
    let procs = super::procs::mentioning(tmp);
    assert!(procs.is_empty(), "processes left behind: {procs:?}");
}

/// The installed `claude` of a version in failopen's cache.
pub fn installed_claude(version: &str) -> PathBuf {
    let path = failopen::install::cache::Cache::from_env().binary(version);
    assert!(
        path.exists(),
        "Claude Code {version} is not installed at {} (failopen agents install {version})",
        path.display()
    );
    path
}

/// Run an agent's contract arms (`(set, arm)` pairs, each ending in
/// seconds) on `version` with the sets they come from, and return each
/// arm's row beside the expectation it carries for `agent` on that version.
pub fn run_contract<'a>(
    agent: failopen::agent::Agent,
    version: &str,
    contract: &[(&'a str, &'a str)],
) -> Vec<(&'a str, Row, failopen::arms::Expectation)> {
    let name = agent.as_str();
    let mut args = vec!["--agent", name, "--agent-version", version, "-j", "2", "--session-timeout", "120"];
    let mut sets: Vec<&str> = contract.iter().map(|(set, _)| *set).collect();
    sets.dedup();
    for set in &sets {
        args.extend(["--arms", set]);
    }
    for (_, arm) in contract {
        args.extend(["--only", arm]);
    }
    let rows = run_battery(&args).0;
    assert_eq!(rows.len(), contract.len(), "{rows:?}");
    contract
        .iter()
        .map(|(set, arm_name)| {
            let arms = failopen::arms::load(set).unwrap();
            let arm = arms.iter().find(|a| a.name == *arm_name).unwrap();
            let expect = arm.expect.as_ref().and_then(|e| e.for_agent(agent));
            let expect = expect.unwrap_or_else(|| panic!("{arm_name} carries no {name} expectation")).clone();
            let row =
                rows.iter().find(|r| r.arm == *arm_name).unwrap_or_else(|| panic!("no row for {arm_name}: {rows:?}"));
            assert_eq!((row.agent.as_str(), row.agent_version.as_str()), (name, version), "{row:?}");
            (*arm_name, row.clone(), expect)
        })
        .collect()
}
