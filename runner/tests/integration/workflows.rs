//! The GitHub workflows (`.github/workflows/`) and the composite action
//! (`action.yml`), their steps run here exactly as the YAML states them
//! (see [`support::actions`]): the regression workflow's shards on real
//! Claude Code (the pinned version, with the article's arms to keep it
//! short), its merge and its gate, which must exit with the code `failopen
//! diff` gives for the same files; the plan's decisions; the history plan's
//! matrix; the action's audit step, on fixtures and on a public guard.

use std::path::{Path, PathBuf};

use crate::support::actions::{expand, scalar, Runner, Yaml};
use crate::support::{self, assert_no_leftovers, read_csv, scripts, PINNED};

const REGRESSION: &str = ".github/workflows/regression.yml";
const HISTORY: &str = ".github/workflows/history.yml";
const ACTION: &str = "action.yml";
const MACOS: &str = ".github/workflows/macos.yml";

/// A temp directory laid out like a checkout (`results/` is the repository's)
/// beside the runner's files; `failopen` is the binary under test.
fn checkout() -> (tempfile::TempDir, PathBuf, Runner) {
    let d = tempfile::tempdir().unwrap();
    let co = d.path().join("checkout");
    std::fs::create_dir(&co).unwrap();
    std::os::unix::fs::symlink(support::repo().join("results"), co.join("results")).unwrap();
    let runner = Runner::new(&d.path().join("runner"), support::bin().parent().unwrap());
    (d, co, runner)
}

/// `failopen diff OLD NEW` run directly: its exit code and stdout.
fn diff(cwd: &Path, old: &str, new: &str) -> (i32, String) {
    let out = support::failopen().current_dir(cwd).args(["diff", old, new]).output().unwrap();
    (out.status.code().unwrap(), String::from_utf8(out.stdout).unwrap())
}

/// The paths of an upload-artifact step after `${{ }}` expansion.
fn upload_paths(yaml: &Yaml, job: &str, exprs: &[(&str, &str)]) -> Vec<String> {
    yaml.steps(Some(job))
        .iter()
        .filter(|s| s["uses"].as_str().is_some_and(|u| u.starts_with("actions/upload-artifact@")))
        .flat_map(|s| expand(&scalar(&s["with"]["path"]), exprs).lines().map(str::to_string).collect::<Vec<_>>())
        .collect()
}

/// Two shards of the battery, each as its matrix cell runs it, merged as the
/// merge job merges the downloaded artifacts, diffed against the reference run
/// before the version; the gate step exits with the diff's own code.
#[test]
fn regression_shards_merge_and_the_gate_exits_with_the_diff_code() {
    let wf = Yaml::load(REGRESSION);
    let (_d, co, runner) = checkout();
    let version = PINNED;
    {
        let _lock = support::lock::sessions();
        for shard in ["1", "2"] {
            let exprs = [("needs.plan.outputs.version", version), ("matrix.shard", shard)];
            let install = runner.run(&wf, Some("shard"), "install", &co, &exprs, &[("SHARDS", "2")]);
            assert_eq!(install.code, 0, "{}", install.log);
            let run = runner.run(
                &wf,
                Some("shard"),
                "run",
                &co,
                &exprs,
                &[("SHARDS", "2"), ("ARMS", "article"), ("REPEATS", "1")],
            );
            assert_eq!(run.code, 0, "{}", run.log);
            for p in upload_paths(&wf, "shard", &exprs) {
                assert!(co.join(&p).is_file(), "shard {shard} uploads {p}, which it did not write\n{}", run.log);
            }
        }
        assert_no_leftovers(&runner.tmp);
    }

    let exprs = [("needs.plan.outputs.version", version)];
    let merge = runner.run(&wf, Some("merge"), "merge", &co, &exprs, &[]);
    assert_eq!(merge.code, 0, "{}", merge.log);
    let merged = format!("claude-{version}.csv");
    let rows = read_csv(&co.join(&merged));
    let mut arms: Vec<&str> = rows.iter().map(|r| r.arm.as_str()).collect();
    arms.sort();
    arms.dedup();
    let article = failopen::arms::load("article").unwrap();
    assert_eq!((rows.len(), arms.len()), (article.len(), article.len()), "both shards, each cell once");

    // The reference: the newest results/claude-*.csv of a version before this one.
    let reference = &merge.outputs["reference"];
    let before: Vec<String> = std::fs::read_dir(co.join("results"))
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.strip_prefix("claude-")?.strip_suffix(".csv").map(str::to_string))
        .filter(|v| failopen::version::compare(v, version).is_lt())
        .collect();
    let newest = before.iter().max_by(|a, b| failopen::version::compare(a, b)).expect("a reference before the pinned");
    assert_eq!(reference, &format!("results/claude-{newest}.csv"));
    for report in ["report.md", "report.html", "report.svg"] {
        assert!(co.join(report).metadata().unwrap().len() > 0, "{report} is empty\n{}", merge.log);
    }

    let exprs = [("needs.plan.outputs.version", version), ("steps.merge.outputs.reference", reference.as_str())];
    let gate = runner.run(&wf, Some("merge"), "diff", &co, &exprs, &[]);
    assert_eq!(gate.code, 0, "the diff step records the code and goes on\n{}", gate.log);
    let (expected, text) = diff(&co, reference, &merged);
    assert_eq!(gate.outputs["code"], expected.to_string(), "{}", gate.log);
    let summary = runner.summary();
    assert!(summary.contains(&text), "the summary holds the diff\n{summary}");
    let report = std::fs::read_to_string(co.join("report.md")).unwrap();
    assert!(summary.contains(&report), "the summary holds the report");
    for p in upload_paths(&wf, "merge", &exprs) {
        assert!(co.join(&p).is_file(), "the merge job uploads {p}, which it did not write");
    }

    let code = expected.to_string();
    let last = runner.run(&wf, Some("merge"), "gate", &co, &[("steps.diff.outputs.code", &code)], &[]);
    assert_eq!(last.code, expected, "the job fails with the diff's code\n{}", last.log);
    let last = runner.run(&wf, Some("merge"), "gate", &co, &[("steps.diff.outputs.code", "")], &[]);
    assert_eq!(last.code, 1, "no diff code (the diff never ran) fails the job\n{}", last.log);
}

/// The site job, after a new release's run: the committed results and the
/// merged CSV the merge job uploads, built into the folder the Pages upload
/// takes, with the new release as Claude Code's newest grid.
#[test]
fn regression_site_builds_the_pages_artifact_with_the_new_release() {
    let wf = Yaml::load(REGRESSION);
    let (_d, co, runner) = checkout();
    let version = "2.1.999";
    // The merge job's artifact: a whole run (here 2.1.328's rows, as the new version).
    let mut w = failopen::record::RowWriter::open(&co.join(format!("claude-{version}.csv"))).unwrap();
    for mut r in read_csv(&support::repo().join(format!("results/claude-{PINNED}.csv"))) {
        r.agent_version = version.into();
        w.append(&r).unwrap();
    }
    drop(w);
    let downloaded = wf.steps(Some("site")).iter().find_map(|s| s["with"]["name"].as_str()).unwrap();
    assert_eq!(expand(downloaded, &[("needs.plan.outputs.version", version)]), format!("claude-{version}"));
    assert!(
        upload_paths(&wf, "merge", &[("needs.plan.outputs.version", version)])
            .contains(&format!("claude-{version}.csv")),
        "the merge job uploads the CSV the site job reads"
    );
    let site = runner.run(&wf, Some("site"), "site", &co, &[("needs.plan.outputs.version", version)], &[]);
    assert_eq!(site.code, 0, "{}", site.log);
    let pages = wf
        .steps(Some("site"))
        .iter()
        .find(|s| s["uses"].as_str().is_some_and(|u| u.starts_with("actions/upload-pages-artifact@")));
    let folder = co.join(scalar(&pages.expect("the site job uploads a Pages artifact")["with"]["path"]));
    let front = std::fs::read_to_string(folder.join("index.html")).unwrap();
    assert!(
        front.contains(&format!("data-agent=\"claude-code\" data-version=\"{version}\"")),
        "the new release heads the matrix"
    );
    assert!(folder.join(format!("claude-code/{version}/crash/bare.html")).is_file());
    assert!(folder.join("claude-code/2.1.240.html").is_file(), "with the committed results");
    assert!(!folder.join("site").exists(), "the committed site is not an input");
    let built: usize = site.outputs["pages"].parse().unwrap();
    assert!(built > 1000, "{built} pages");
    let job = &wf.doc["jobs"]["site"];
    assert_eq!(scalar(&job["permissions"]["pages"]), "write");
    assert_eq!(scalar(&job["permissions"]["id-token"]), "write");
    assert!(scalar(&job["if"]).contains("always()"), "the site is published whatever the gate said");
}

/// The macOS job installs, through failopen's own installer, exactly the
/// versions the article's tests run on (the install step runs here: the
/// versions are in the cache), and its test filters name tests that exist:
/// the article's arms on both versions, and the unit tests of the code that
/// differs on macOS.
#[test]
fn macos_installs_the_articles_versions_and_runs_the_articles_tests() {
    let wf = Yaml::load(MACOS);
    assert_eq!(scalar(&wf.doc["jobs"]["article"]["runs-on"]), "macos-latest");
    let (_d, co, runner) = checkout();
    std::fs::create_dir_all(co.join("target/release")).unwrap();
    std::os::unix::fs::symlink(support::bin(), co.join("target/release/failopen")).unwrap();
    let install = {
        let _lock = support::lock::sessions();
        runner.run(&wf, Some("article"), "install", &co, &[], &[])
    };
    assert_eq!(install.code, 0, "{}", install.log);
    let step = wf.step(Some("article"), "install");
    let mut versions: Vec<String> = scalar(&step["env"]["VERSIONS"]).split_whitespace().map(str::to_string).collect();
    versions.sort();
    let mut want = vec![PINNED.to_string(), support::OLD.to_string()];
    want.sort();
    assert_eq!(versions, want, "the versions battery.rs runs the article on");
    for v in &want {
        assert!(install.log.contains(v.as_str()), "agents list shows {v}\n{}", install.log);
    }

    let filters = scalar(&wf.step(Some("article"), "article")["env"]["TESTS"]);
    let filters: Vec<&str> = filters.split_whitespace().collect();
    assert_eq!(filters[0], "battery::article_table_reproduces");
    for filter in &filters {
        let tests = integration_tests_matching(filter);
        if *filter == filters[0] {
            assert_eq!(tests.len(), 2, "the article on 2.1.240 and on the pinned version: {tests:?}");
        } else {
            assert!(!tests.is_empty(), "{filter} names no test");
        }
    }
    for module in scalar(&wf.step(Some("article"), "unit")["env"]["MODULES"]).split_whitespace() {
        let base = support::repo().join("runner/src").join(module.trim_end_matches("::"));
        let file = [base.with_extension("rs"), base.join("mod.rs")].into_iter().find(|f| f.is_file());
        let file = file.unwrap_or_else(|| panic!("{module}: no file at {}", base.display()));
        // A module folder's tests may sit in any of its files (seal's mod.rs only re-exports the crate).
        let mut files = vec![file.clone()];
        if base.is_dir() {
            let entries = std::fs::read_dir(&base).unwrap().map(|e| e.unwrap().path());
            files.extend(entries.filter(|p| p.extension().is_some_and(|x| x == "rs")));
        }
        let tested = files.iter().any(|f| std::fs::read_to_string(f).unwrap().contains("#[cfg(test)]"));
        assert!(tested, "{} has unit tests", file.display());
    }
    let unit = scalar(&wf.step(Some("article"), "unit")["run"]);
    assert!(
        unit.contains("-p failopen-seal"),
        "seal's runtime is its own crate, and its tests run on macOS too:\n{unit}"
    );
}

/// The integration tests a `cargo test` filter such as `seal::limits::the_guard`
/// or `seal::in_flight` selects: the module's file, and its functions whose
/// names start with the rest (every function, for a module filter).
fn integration_tests_matching(filter: &str) -> Vec<String> {
    let parts: Vec<&str> = filter.trim_end_matches("::").split("::").collect();
    let dir = support::repo().join("runner/tests/integration");
    for split in (1..=parts.len()).rev() {
        let file = dir.join(parts[..split].join("/")).with_extension("rs");
        if let Ok(source) = std::fs::read_to_string(&file) {
            let prefix = parts[split..].join("::");
            return source
                .lines()
                .filter_map(|l| l.strip_prefix("fn "))
                .filter(|f| f.starts_with(prefix.as_str()))
                .map(str::to_string)
                .collect();
        }
    }
    panic!("{filter}: no test file under {}", dir.display())
}

/// The plan runs the battery only for a version with no reference run, takes a
/// requested version as given, and makes the shard matrix 1..SHARDS.
#[test]
fn regression_plan_runs_only_a_version_without_reference_results() {
    let wf = Yaml::load(REGRESSION);
    let (_d, co, runner) = checkout();
    assert!(co.join(format!("results/claude-{PINNED}.csv")).is_file());
    let needed = |v: &str| {
        let r = runner.run(&wf, Some("plan"), "needed", &co, &[("steps.version.outputs.version", v)], &[]);
        assert_eq!(r.code, 0, "{}", r.log);
        r.outputs["needed"].clone()
    };
    assert_eq!(needed(PINNED), "false");
    let unknown = "2.1.99999";
    assert!(!co.join(format!("results/claude-{unknown}.csv")).exists());
    assert_eq!(needed(unknown), "true");

    let requested = runner.run(&wf, Some("plan"), "version", &co, &[("inputs.claude", "2.1.300")], &[]);
    assert_eq!((requested.code, requested.outputs["version"].as_str()), (0, "2.1.300"), "{}", requested.log);
    // No version asked: the newest published, as `failopen agents versions latest` says it (the registry).
    let newest = support::failopen().args(["agents", "versions", "latest"]).output().unwrap();
    assert!(newest.status.success(), "{}", String::from_utf8_lossy(&newest.stderr));
    let newest = String::from_utf8(newest.stdout).unwrap().trim().to_string();
    let latest = runner.run(&wf, Some("plan"), "version", &co, &[("inputs.claude", "")], &[]);
    assert_eq!((latest.code, latest.outputs["version"].as_str()), (0, newest.as_str()), "{}", latest.log);

    let shards = |over: &[(&str, &str)]| {
        let r = runner.run(&wf, Some("plan"), "shards", &co, &[], over);
        assert_eq!(r.code, 0, "{}", r.log);
        serde_json::from_str::<Vec<u32>>(&r.outputs["shards"]).unwrap()
    };
    assert_eq!(shards(&[("SHARDS", "3")]), vec![1, 2, 3]);
    let declared: u32 = scalar(&wf.doc["env"]["SHARDS"]).parse().unwrap();
    assert_eq!(shards(&[]), (1..=declared).collect::<Vec<_>>());
}

/// The history plan turns `failopen agents versions RANGE --split N`'s lines
/// into the matrix the history job reads (`matrix.part.index`, `.range`).
/// `agents versions` is a stand-in script here: the real one asks the npm registry.
#[test]
fn history_plan_turns_the_split_into_a_matrix() {
    let wf = Yaml::load(HISTORY);
    let (d, co, _) = checkout();
    let fake = d.path().join("fake-bin");
    std::fs::create_dir(&fake).unwrap();
    scripts::write(
        &fake.join("failopen"),
        "#!/bin/sh\n[ \"$*\" = 'agents versions 2.1.240..latest --split 2' ] || { echo \"unexpected: $*\" >&2; exit 1; }\n\
         printf '2.1.240..2.1.290\\n2.1.291..2.1.328\\n'\n",
    );
    let runner = Runner::new(&d.path().join("runner"), &fake);
    let exprs =
        |parts: &'static str| [("inputs.range", "2.1.240..latest"), ("inputs.parts", parts), ("inputs.shards", "3")];
    let r = runner.run(&wf, Some("plan"), "matrix", &co, &exprs("2"), &[]);
    assert_eq!(r.code, 0, "{}", r.log);
    let parts: serde_json::Value = serde_json::from_str(&r.outputs["parts"]).unwrap();
    assert_eq!(
        parts,
        serde_json::json!([{"index": 1, "range": "2.1.240..2.1.290"}, {"index": 2, "range": "2.1.291..2.1.328"}])
    );
    assert_eq!(r.outputs["shards"], "[1,2,3]");
    let fields = regex::Regex::new(r"matrix\.part\.(\w+)").unwrap();
    for c in fields.captures_iter(&wf.text) {
        assert!(
            parts[0].get(&c[1]).is_some(),
            "the history job reads matrix.part.{}, which the plan does not give",
            &c[1]
        );
    }
    let bad = runner.run(&wf, Some("plan"), "matrix", &co, &exprs("0"), &[]);
    assert_eq!(bad.code, 1, "a count of 0 is refused\n{}", bad.log);
}

/// Every `run:` of every workflow takes expressions through `env:` (nothing
/// to inject into a script); every input action.yml uses is declared and every declared one
/// used; its outputs name steps it has; each composite run step has a shell.
#[test]
fn scripts_take_expressions_through_env_and_action_inputs_are_declared() {
    let dir = support::repo().join(".github/workflows");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| format!(".github/workflows/{}", e.file_name().to_string_lossy()))
        .filter(|f| f.ends_with(".yml"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "regression, history, release, macos: {files:?}");
    files.push(ACTION.to_string());
    for file in &files {
        let y = Yaml::load(file);
        let jobs: Vec<Option<String>> = match y.doc["jobs"].as_mapping() {
            Some(m) => m.keys().map(|k| Some(scalar(k))).collect(),
            None => vec![None],
        };
        for job in &jobs {
            for step in y.steps(job.as_deref()) {
                if let Some(run) = step["run"].as_str() {
                    assert!(!run.contains("${{"), "{file} {job:?}: a run: holds an expression:\n{run}");
                }
            }
        }
    }

    let action = Yaml::load(ACTION);
    let declared: Vec<String> = action.doc["inputs"].as_mapping().unwrap().keys().map(scalar).collect();
    let steps = yaml_serde::to_string(&action.doc["runs"]).unwrap();
    let used_re = regex::Regex::new(r"inputs\.([A-Za-z0-9_-]+)").unwrap();
    let mut used: Vec<String> = used_re.captures_iter(&steps).map(|c| c[1].to_string()).collect();
    used.sort();
    used.dedup();
    let mut declared_sorted = declared.clone();
    declared_sorted.sort();
    assert_eq!(used, declared_sorted, "inputs used in action.yml's steps vs declared");
    let ids: Vec<&str> = action.steps(None).iter().filter_map(|s| s["id"].as_str()).collect();
    let outputs = yaml_serde::to_string(&action.doc["outputs"]).unwrap();
    let step_re = regex::Regex::new(r"steps\.([A-Za-z0-9_-]+)\.outputs").unwrap();
    for c in step_re.captures_iter(&format!("{steps}{outputs}")) {
        assert!(ids.contains(&&c[1]), "action.yml reads steps.{}, which is no step id", &c[1]);
    }
    for step in action.steps(None).iter().filter(|s| s.get("run").is_some()) {
        assert_eq!(step["shell"].as_str(), Some("bash"), "a composite run step needs a shell: {step:?}");
    }
}

/// The action's audit step on the audit fixtures (static checks, no session):
/// its report goes to the job summary, and it exits with the code `failopen
/// audit` gives for the same files (or 0 with `fail-on-open: false`).
#[test]
fn the_action_audit_step_writes_the_summary_and_exits_with_the_audit_code() {
    let action = Yaml::load(ACTION);
    let fixtures = support::fixture("audit");
    let d = tempfile::tempdir().unwrap();
    let bin_dir = support::bin().parent().unwrap().to_path_buf();
    let direct = support::failopen()
        .current_dir(&fixtures)
        .env("PATH", format!("{}:{}", bin_dir.display(), std::env::var("PATH").unwrap_or_default()))
        .args(["audit", "holes/unwrapped.json", "holes/missing.json", "--format", "md", "--static-only"])
        .output()
        .unwrap();
    let expected = direct.status.code().unwrap();
    let report = String::from_utf8(direct.stdout).unwrap();
    assert!(report.starts_with("### failopen audit:"), "{report}");

    let run = |name: &str, settings: &str, format: &str, fail_on_open: &str| {
        let runner = Runner::new(&d.path().join(name), &bin_dir);
        let exprs = [
            ("inputs.settings", settings),
            ("inputs.plugin-dirs", ""),
            ("steps.install.outputs.version", ""),
            ("inputs.format", format),
            ("inputs.static-only", "true"),
            ("inputs.fail-on-open", fail_on_open),
            ("inputs.fail-on-untested", "true"),
            ("inputs.working-directory", "."),
            ("inputs.upload-sarif", "true"),
        ];
        let r = runner.run(&action, None, "audit", &fixtures, &exprs, &[]);
        (r, runner.summary())
    };
    let (r, summary) = run("gate", "holes/unwrapped.json\nholes/missing.json", "md", "true");
    assert_eq!(r.code, expected, "{}", r.log);
    assert_eq!(r.outputs["exit-code"], expected.to_string());
    assert_eq!(summary, report, "the summary is the audit's Markdown");
    assert_eq!(std::fs::read_to_string(&r.outputs["report"]).unwrap(), report);
    assert_eq!((expected, r.outputs["result"].as_str()), (3, "open"), "the fixtures plant static holes");
    // The SARIF the upload step sends: one result per static finding, at a line of a settings file.
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&r.outputs["sarif"]).unwrap()).unwrap();
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert!(!results.is_empty(), "{sarif:#}");
    for res in results {
        let at = &res["locations"][0]["physicalLocation"];
        assert!(at["artifactLocation"]["uri"].as_str().unwrap().starts_with("holes/"), "{res:#}");
        assert!(at["region"]["startLine"].as_u64().unwrap() >= 1, "{res:#}");
    }
    let upload = action.step(None, "upload");
    assert!(scalar(&upload["uses"]).starts_with("github/codeql-action/upload-sarif@"), "{upload:?}");
    assert_eq!(scalar(&upload["with"]["sarif_file"]), "${{ steps.audit.outputs.sarif }}");
    assert!(scalar(&upload["if"]).contains("!cancelled()"), "uploaded when the audit step fails too");

    let (r, _) = run("warn", "holes/unwrapped.json holes/missing.json", "md", "false");
    assert_eq!((r.code, r.outputs["exit-code"].as_str()), (0, "3"), "fail-on-open: false\n{}", r.log);

    let (r, summary) = run("text", "holes/unwrapped.json", "text", "true");
    assert!(summary.contains("```\nfailopen audit: Claude Code (static checks only)"), "{summary}\n{}", r.log);

    let (r, summary) = run("bad", "no-such-settings.json", "md", "true");
    assert_eq!((r.code, r.outputs["result"].as_str()), (1, "error"), "{}", r.log);
    assert!(summary.contains("no report"), "{summary}");
}

/// The action's audit step on a public guard project, as a user's workflow
/// would run it: claude-safety-guard pip-installed into a venv an earlier step
/// put on `GITHUB_PATH`, wired into the project's `.claude/settings.json` as
/// its README says. The audit runs real sessions on the pinned Claude Code:
/// the guard refuses `git push --force` and lets it through when it breaks
/// (audit_public_guards.rs has the reasoning), so the step fails with exit 3,
/// `result` is `open`, and the JSON report names the hole.
#[test]
fn the_action_audit_step_fails_a_public_guard_that_fails_open() {
    use crate::audit_public_guards::{project_with_settings, pypi_venv, CLAUDE_SAFETY_GUARD};
    let action = Yaml::load(ACTION);
    let d = tempfile::tempdir().unwrap();
    let bin = pypi_venv(CLAUDE_SAFETY_GUARD, d.path());
    let settings = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash",
        "hooks": [{"type": "command", "command": "claude-safety-guard hook"}]}]}});
    let (project, home, _) = project_with_settings(d.path(), settings, &bin);
    let project = project.display().to_string();
    let mut runner = Runner::new(&d.path().join("runner"), support::bin().parent().unwrap());
    std::fs::write(runner.dir.join("path"), format!("{}\n", bin.display())).unwrap();
    runner.env.push(("HOME".into(), home.display().to_string()));
    runner.env.push(("FAILOPEN_CACHE".into(), crate::audit_probes::cache().display().to_string()));
    let exprs = [
        ("inputs.settings", ""),
        ("inputs.plugin-dirs", ""),
        ("steps.install.outputs.version", PINNED),
        ("inputs.format", "json"),
        ("inputs.static-only", "false"),
        ("inputs.fail-on-open", "true"),
        ("inputs.fail-on-untested", "true"),
        ("inputs.working-directory", &project),
        ("inputs.upload-sarif", "true"),
    ];
    let _lock = support::lock::sessions();
    let r = runner.run(&action, None, "audit", d.path(), &exprs, &[]);
    assert_eq!((r.code, r.outputs["exit-code"].as_str(), r.outputs["result"].as_str()), (3, "3", "open"), "{}", r.log);
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&r.outputs["report"]).unwrap()).unwrap();
    assert_eq!(report["agents"][0]["hooks"][0]["kind"]["command"], "claude-safety-guard hook", "{report:#}");
    let hole =
        report["agents"][0]["holes"].as_array().unwrap().first().unwrap_or_else(|| panic!("no hole: {report:#}"));
    assert_eq!(hole["hook"], "H1", "{report:#}");
    assert_eq!(hole["tool"], "Bash:git-push-force", "{report:#}");
    let sarif: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&r.outputs["sarif"]).unwrap()).unwrap();
    let rules: Vec<&str> =
        sarif["runs"][0]["results"].as_array().unwrap().iter().filter_map(|r| r["ruleId"].as_str()).collect();
    assert!(rules.contains(&"hole/fails-open"), "{sarif:#}");
    let summary = runner.summary();
    assert!(summary.starts_with("### failopen audit: open (exit 3)\n\n```\n{"), "{summary}");
}

/// Safe on a hostile pull request (issue 45): no workflow runs on
/// `pull_request_target`; every checkout leaves no token in `.git/config`;
/// the example `audit.yml` runs the action on `pull_request` with `contents:
/// read`; the action saves its build to the cache never on a pull request,
/// and before the audited hooks run; and its audit step refuses a workspace
/// whose `.git/config` holds a token (as `actions/checkout` saves it by
/// default), before any hook runs.
#[test]
fn the_action_is_safe_on_a_hostile_pull_request_by_default() {
    let dir = support::repo().join(".github/workflows");
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        let file = format!(".github/workflows/{}", e.file_name().to_string_lossy());
        let y = Yaml::load(&file);
        let on = yaml_serde::to_string(&y.doc["on"]).unwrap();
        assert!(!on.contains("pull_request_target"), "{file} runs on pull_request_target");
        for job in y.doc["jobs"].as_mapping().unwrap().keys().map(scalar) {
            for step in y.steps(Some(&job)) {
                if step["uses"].as_str().is_some_and(|u| u.starts_with("actions/checkout")) {
                    assert_eq!(
                        step["with"]["persist-credentials"].as_bool(),
                        Some(false),
                        "{file} {job}: a checkout saves the token in .git/config"
                    );
                }
            }
        }
    }
    let audit = Yaml::load(".github/workflows/audit.yml");
    assert!(audit.doc["on"].get("pull_request").is_some(), "the documented trigger");
    assert_eq!(scalar(&audit.doc["permissions"]["contents"]), "read");
    assert!(audit.steps(Some("audit")).iter().any(|s| s["uses"].as_str() == Some("./")), "audit.yml runs the action");

    let action = Yaml::load(ACTION);
    let steps = action.steps(None);
    let pos = |id: &str| steps.iter().position(|s| s["id"].as_str() == Some(id)).unwrap();
    assert_eq!(steps[pos("cache")]["uses"].as_str(), Some("actions/cache/restore@v4"));
    let save = &steps[pos("save")];
    assert_eq!(save["uses"].as_str(), Some("actions/cache/save@v4"));
    assert!(save["if"].as_str().unwrap().contains("github.event_name != 'pull_request'"), "{save:?}");
    assert!(pos("build") < pos("save") && pos("save") < pos("audit"), "saved right after the build");
    assert!(pos("sandbox") < pos("audit"), "the sandbox is set up before the audit");

    // A checkout that persisted its token: the audit step refuses, and no hook runs.
    let d = tempfile::tempdir().unwrap();
    let project = d.path().join("project");
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    let marker = d.path().join("hook-ran");
    let settings = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": format!("touch {}; exit 2", marker.display())}]}]}});
    std::fs::write(project.join(".claude/settings.json"), settings.to_string()).unwrap();
    let git = |args: &[&str]| {
        let st = std::process::Command::new("git").args(args).current_dir(&project).status().unwrap();
        assert!(st.success(), "git {args:?}");
    };
    git(&["init", "-q", "."]);
    git(&[
        "config",
        "--local",
        "http.https://github.com/.extraheader",
        "AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hz",
    ]);
    let runner = Runner::new(&d.path().join("runner"), support::bin().parent().unwrap());
    let exprs = [
        ("inputs.settings", ""),
        ("inputs.plugin-dirs", ""),
        ("steps.install.outputs.version", ""),
        ("inputs.format", "md"),
        ("inputs.static-only", "false"),
        ("inputs.fail-on-open", "true"),
        ("inputs.fail-on-untested", "true"),
        ("inputs.working-directory", "."),
        ("inputs.upload-sarif", "true"),
    ];
    let r = runner.run(&action, None, "audit", &project, &exprs, &[]);
    assert_eq!((r.code, r.outputs["result"].as_str()), (1, "error"), "{}", r.log);
    assert!(r.log.contains("persist-credentials: false"), "{}", r.log);
    assert!(!marker.exists(), "a hook ran");
}
