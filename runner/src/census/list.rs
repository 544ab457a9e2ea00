//! `guards/census.json`: the public guards of the census, each pinned by
//! version and registry integrity, its README's install steps as data, a
//! call it refuses, and the verdict each fault is expected to give (the
//! oracle, with its reasoning).

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The census file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CensusList {
    /// What the file is (for its readers).
    #[serde(default)]
    pub about: String,
    pub guards: Vec<CensusGuard>,
}

/// One public guard.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CensusGuard {
    /// The row's name: a file name part, `[a-z0-9-]`.
    pub name: String,
    /// The project's page.
    pub url: String,
    pub package: Package,
    /// The README's install instructions, in its words.
    pub readme: String,
    /// A limit the project itself documents, in its words (the row says so).
    #[serde(default)]
    pub documented_limit: Option<String>,
    /// The README's steps, as data, in order.
    pub steps: Vec<Step>,
    /// A call the healthy guard refuses, as `failopen audit --probe` takes it.
    pub probe: Value,
    /// The oracle: what the row is expected to say, with the reasoning.
    #[serde(default)]
    pub expect: Option<Expectation>,
}

/// Where the guard comes from, pinned.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Package {
    pub registry: Registry,
    pub name: String,
    pub version: String,
    /// npm's `dist.integrity` (`sha512-...`), or the wheel's `sha256:HEX` on PyPI.
    pub integrity: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Registry {
    Npm,
    Pypi,
}

/// One install step of a README.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Step {
    /// `npm install -g PACKAGE`, into the user's own prefix (named in `~/.npmrc`, its `bin` on PATH).
    NpmInstallGlobal,
    /// `npm install --save-dev PACKAGE` in the project.
    NpmInstallProject,
    /// `pip install PACKAGE` (or `pipx install`): into a venv whose `bin` is on PATH.
    PipInstall,
    /// A command the README runs (`bashgate install`), in the project, with the user's HOME and PATH.
    Run { command: Vec<String> },
    /// A settings file the README writes by hand: `project` (.claude/settings.json) or `user` (~/.claude/settings.json).
    Settings { scope: Scope, json: Value },
    /// A Claude Code plugin shipped in the package: a directory marketplace
    /// with the package as the plugin, then `claude plugin marketplace add`
    /// and `claude plugin install PLUGIN@MARKETPLACE`.
    Plugin {
        marketplace: String,
        owner: String,
        plugin: String,
        plugin_json: Value,
        /// The repository's `hooks/hooks.json` when the package does not ship one.
        #[serde(default)]
        hooks_json: Option<Value>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Scope {
    Project,
    User,
}

/// What the row is expected to say.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    /// `failopen audit`'s exit code.
    pub exit_code: i32,
    /// The guard's status (`open`, `held`, `untested`).
    pub status: String,
    /// Why, as a whole.
    pub why: String,
    /// Each fault's verdict under the probe (`none` is the healthy guard), with its reason.
    pub faults: BTreeMap<String, Expected>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    pub verdict: String,
    pub why: String,
}

impl Package {
    /// `npm` or `pypi`.
    pub fn registry_name(&self) -> &'static str {
        match self.registry {
            Registry::Npm => "npm",
            Registry::Pypi => "pypi",
        }
    }
}

impl CensusList {
    /// Read and check the file; every error names the file and the field.
    pub fn load(path: &Path) -> anyhow::Result<CensusList> {
        let text = std::fs::read_to_string(path).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let list: CensusList = serde_json::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        let mut seen = std::collections::BTreeSet::new();
        for g in &list.guards {
            let bad_name =
                g.name.is_empty() || !g.name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            if bad_name {
                anyhow::bail!("{}: guard name {:?}: use a-z, 0-9 and -", path.display(), g.name);
            }
            if !seen.insert(g.name.as_str()) {
                anyhow::bail!("{}: guard name {:?} appears twice", path.display(), g.name);
            }
            if !g.probe.is_object() {
                anyhow::bail!(
                    "{}: {}: probe must be an object like {{\"tool\": \"Bash\", \"command\": \"...\"}}",
                    path.display(),
                    g.name
                );
            }
            let installs = g.steps.iter().filter(|s| !matches!(s, Step::Run { .. } | Step::Settings { .. })).count();
            if installs == 0 {
                anyhow::bail!(
                    "{}: {}: steps install nothing (npm-install-global, npm-install-project, pip-install or plugin)",
                    path.display(),
                    g.name
                );
            }
        }
        Ok(list)
    }

    /// The guards named by `only` (all when empty); an unknown name is an error listing the valid ones.
    pub fn select(&self, only: &[String]) -> anyhow::Result<Vec<&CensusGuard>> {
        if only.is_empty() {
            return Ok(self.guards.iter().collect());
        }
        only.iter()
            .map(|name| {
                self.guards.iter().find(|g| &g.name == name).ok_or_else(|| {
                    let names: Vec<&str> = self.guards.iter().map(|g| g.name.as_str()).collect();
                    anyhow::anyhow!("--only {name}: no such guard; the census has {}", names.join(", "))
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_committed_census_loads_and_only_names_its_guards() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../guards/census.json");
        let list = CensusList::load(&path).unwrap();
        assert!(list.guards.len() >= 10, "{}", list.guards.len());
        assert_eq!(list.select(&["bashgate".into()]).unwrap()[0].name, "bashgate");
        let err = list.select(&["nope".into()]).unwrap_err().to_string();
        assert!(err.contains("--only nope") && err.contains("cc-safety-net"), "{err}");
    }

    #[test]
    fn a_step_of_an_unknown_kind_names_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.json");
        std::fs::write(
            &path,
            r#"{"guards": [{"name": "g", "url": "u", "readme": "r", "probe": {},
            "package": {"registry": "npm", "name": "g", "version": "1", "integrity": "x"},
            "steps": [{"do": "curl-pipe-sh"}]}]}"#,
        )
        .unwrap();
        let err = CensusList::load(&path).unwrap_err().to_string();
        assert!(err.contains("c.json") && err.contains("curl-pipe-sh"), "{err}");
    }
}
