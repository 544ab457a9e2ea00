//! Running a GitHub workflow's or composite action's steps here, as the
//! runner would: the step picked by `id`, its `run:` executed as written by
//! `bash --noprofile --norc -eo pipefail`, its `env:` (over the workflow's and
//! the job's) with each `${{ X }}` replaced by the value the test gives for
//! `X` (a job's needs, a matrix cell, an input, an earlier step's output), and
//! `GITHUB_OUTPUT`, `GITHUB_STEP_SUMMARY`, `GITHUB_PATH` and `RUNNER_TEMP` in a
//! directory of their own.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use yaml_serde::Value;

/// A workflow or `action.yml`, parsed.
pub struct Yaml {
    /// The file, for messages.
    pub path: PathBuf,
    /// Its text.
    pub text: String,
    /// Its document.
    pub doc: Value,
}

impl Yaml {
    /// Parse `rel` (a path in the repository).
    pub fn load(rel: &str) -> Yaml {
        let path = super::repo().join(rel);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let doc = yaml_serde::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        Yaml { path, text, doc }
    }

    /// The steps of `job` (a workflow), or of `runs` (an action: `None`).
    pub fn steps(&self, job: Option<&str>) -> &[Value] {
        let steps = match job {
            Some(j) => &self.doc["jobs"][j]["steps"],
            None => &self.doc["runs"]["steps"],
        };
        steps.as_sequence().unwrap_or_else(|| panic!("{}: no steps in {job:?}", self.path.display()))
    }

    /// The step with `id`.
    pub fn step(&self, job: Option<&str>, id: &str) -> &Value {
        self.steps(job)
            .iter()
            .find(|s| s["id"].as_str() == Some(id))
            .unwrap_or_else(|| panic!("{}: no step with id {id} in {job:?}", self.path.display()))
    }

    /// The environment a step of `job` sees: the workflow's `env`, the job's, the step's.
    fn env(&self, job: Option<&str>, step: &Value) -> Vec<(String, String)> {
        let mut layers = vec![&step["env"]];
        if let Some(j) = job {
            layers.insert(0, &self.doc["jobs"][j]["env"]);
            layers.insert(0, &self.doc["env"]);
        }
        let mut env: Vec<(String, String)> = Vec::new();
        for layer in layers {
            for (k, v) in layer.as_mapping().into_iter().flatten() {
                let k = scalar(k);
                env.retain(|(name, _)| *name != k);
                env.push((k, scalar(v)));
            }
        }
        env
    }
}

/// A YAML scalar as the runner passes it to a step (numbers and booleans as written).
pub fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        other => panic!("not a scalar: {other:?}"),
    }
}

/// `text` with each `${{ X }}` replaced by the value `exprs` gives for `X`;
/// an expression the test gives no value for is an error in the test.
pub fn expand(text: &str, exprs: &[(&str, &str)]) -> String {
    let re = regex::Regex::new(r"\$\{\{\s*(.*?)\s*\}\}").unwrap();
    re.replace_all(text, |c: &regex::Captures| {
        let expr = &c[1];
        exprs
            .iter()
            .find(|(e, _)| *e == expr)
            .map(|(_, v)| v.to_string())
            .unwrap_or_else(|| panic!("the test gives no value for ${{{{ {expr} }}}} in {text:?}"))
    })
    .into_owned()
}

/// What one step did.
#[derive(Debug)]
pub struct StepRun {
    /// bash's exit code.
    pub code: i32,
    /// What it wrote to `GITHUB_OUTPUT`.
    pub outputs: BTreeMap<String, String>,
    /// Its stdout and stderr, for messages.
    pub log: String,
}

/// The runner's side of the steps: the directory of `GITHUB_*` files,
/// `RUNNER_TEMP`, and the directory put first on `PATH`.
pub struct Runner {
    /// Holds the files below.
    pub dir: PathBuf,
    /// First on `PATH` (where `failopen` is).
    pub bin_dir: PathBuf,
    /// `TMPDIR` for the step's processes.
    pub tmp: PathBuf,
    /// What the job's environment holds beyond this process's (`HOME`...).
    pub env: Vec<(String, String)>,
}

impl Runner {
    /// A runner whose files live in `dir` (created), with `failopen` found in `bin_dir`.
    pub fn new(dir: &Path, bin_dir: &Path) -> Runner {
        for d in ["temp", "tmp"] {
            std::fs::create_dir_all(dir.join(d)).unwrap();
        }
        Runner { dir: dir.to_path_buf(), bin_dir: bin_dir.to_path_buf(), tmp: dir.join("tmp"), env: Vec::new() }
    }

    /// The job summary written so far.
    pub fn summary(&self) -> String {
        std::fs::read_to_string(self.dir.join("summary.md")).unwrap_or_default()
    }

    /// `RUNNER_TEMP`.
    pub fn temp(&self) -> PathBuf {
        self.dir.join("temp")
    }

    /// Run step `id` of `job` in `cwd` (or the step's `working-directory`
    /// under it). `exprs` gives each `${{ }}` of the step's env its value;
    /// `overrides` replaces env values the YAML itself sets (a key it does
    /// not set is an error in the test).
    pub fn run(
        &self,
        yaml: &Yaml,
        job: Option<&str>,
        id: &str,
        cwd: &Path,
        exprs: &[(&str, &str)],
        overrides: &[(&str, &str)],
    ) -> StepRun {
        let step = yaml.step(job, id);
        let script = step["run"].as_str().unwrap_or_else(|| panic!("step {id} has no run"));
        assert!(!script.contains("${{"), "step {id}'s run holds an expression; pass it through env:\n{script}");
        let mut env: Vec<(String, String)> =
            yaml.env(job, step).into_iter().map(|(k, v)| (k, expand(&v, exprs))).collect();
        for (k, v) in overrides {
            let slot = env.iter_mut().find(|(name, _)| name == k);
            slot.unwrap_or_else(|| panic!("step {id} reads no {k} from its env: the test may not set it")).1 =
                v.to_string();
        }
        let dir = match step["working-directory"].as_str() {
            Some(w) => cwd.join(expand(w, exprs)),
            None => cwd.to_path_buf(),
        };
        let output = self.dir.join(format!("output-{id}"));
        std::fs::write(&output, "").unwrap();
        // What earlier steps appended to `GITHUB_PATH` comes first, as on a runner.
        let added = std::fs::read_to_string(self.dir.join("path")).unwrap_or_default();
        let added: String = added.lines().rev().map(|l| format!("{l}:")).collect();
        let path = format!("{added}{}:{}", self.bin_dir.display(), std::env::var("PATH").unwrap_or_default());
        let out = assert_cmd::Command::new("bash")
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
            .current_dir(&dir)
            .env("PATH", path)
            .env("CI", "true")
            .env("TMPDIR", &self.tmp)
            .env("RUNNER_TEMP", self.temp())
            .env("GITHUB_OUTPUT", &output)
            .env("GITHUB_STEP_SUMMARY", self.dir.join("summary.md"))
            .env("GITHUB_PATH", self.dir.join("path"))
            .envs(self.env.iter().cloned())
            .envs(env)
            .timeout(std::time::Duration::from_secs(900))
            .output()
            .unwrap();
        let outputs = std::fs::read_to_string(&output)
            .unwrap()
            .lines()
            .map(|l| {
                let (k, v) =
                    l.split_once('=').unwrap_or_else(|| panic!("step {id}: not key=value in GITHUB_OUTPUT: {l}"));
                (k.to_string(), v.to_string())
            })
            .collect();
        std::fs::remove_file(&output).unwrap();
        let log = format!(
            "step {id} exited {:?}\nstdout:\n{}\nstderr:\n{}",
            out.status.code(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        StepRun { code: out.status.code().unwrap_or(-1), outputs, log }
    }
}
