//! A README's install steps, carried out in the census's temp root: a
//! project, a HOME, and the PATH the README's install leaves (a venv's or
//! npm prefix's `bin` in front). Every command runs as the leader of its own
//! process group, killed as a group when it ends or times out.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;
use serde_json::{json, Value};
use tokio::process::Command;

use super::list::{Scope, Step};

/// How long one install step may take.
const STEP_TIMEOUT: Duration = Duration::from_secs(600);

/// Where a guard was installed: the project audit runs in, the user's HOME, and PATH.
#[derive(Debug, Clone)]
pub struct Installed {
    pub project: PathBuf,
    pub home: PathBuf,
    pub path: OsString,
}

/// Run `cmd` (stdin closed) in its own process group within `timeout`; its
/// stdout, or an error with `what` and its stderr.
pub(crate) async fn run_checked(cmd: Command, what: &str, timeout: Duration) -> anyhow::Result<Vec<u8>> {
    let out = tokio::time::timeout(timeout, crate::agent::ask::output_in_own_group(cmd))
        .await
        .map_err(|_| anyhow::anyhow!("{what}: no answer in {} s", timeout.as_secs()))?
        .with_context(|| what.to_string())?;
    if !out.status.success() {
        anyhow::bail!("{what}: {}: {}", out.status, String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(out.stdout)
}

/// A fresh project and HOME under `root`, with PATH as the caller's.
pub fn fresh(root: &Path) -> anyhow::Result<Installed> {
    let (project, home) = (root.join("project"), root.join("user-home"));
    for d in [&project, &home] {
        std::fs::create_dir_all(d).with_context(|| d.display().to_string())?;
    }
    Ok(Installed { project, home, path: std::env::var_os("PATH").unwrap_or_default() })
}

impl Installed {
    /// A command with this install's HOME and PATH, in the project.
    fn command(&self, program: impl AsRef<std::ffi::OsStr>) -> Command {
        let mut cmd = Command::new(program);
        cmd.current_dir(&self.project).env("HOME", &self.home).env("PATH", &self.path);
        cmd.env("DISABLE_AUTOUPDATER", "1").env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1");
        cmd
    }

    fn prepend_path(&mut self, dir: &Path) {
        let mut p = OsString::from(dir);
        p.push(":");
        p.push(&self.path);
        self.path = p;
    }

    /// The program `name` as this install's PATH finds it.
    fn which(&self, name: &str) -> anyhow::Result<PathBuf> {
        std::env::split_paths(&self.path)
            .map(|d| d.join(name))
            .find(|p| p.is_file())
            .with_context(|| format!("{name} is not on the install's PATH"))
    }

    /// Carry out one step with the verified `package` file; `claude` runs plugin commands.
    pub async fn apply(&mut self, step: &Step, package: &Path, root: &Path, claude: &Path) -> anyhow::Result<()> {
        let npm_cache = root.join("npm-cache");
        match step {
            Step::NpmInstallGlobal => {
                let prefix = root.join("npm-global");
                // The user's global prefix: `npm root -g` (run by a hook with this HOME) reads it.
                std::fs::write(self.home.join(".npmrc"), format!("prefix={}\n", prefix.display()))?;
                let mut cmd = self.command("npm");
                cmd.args(["install", "-g", "--no-audit", "--no-fund", "--loglevel=error", "--cache"])
                    .arg(&npm_cache)
                    .arg(package);
                run_checked(cmd, "npm install -g", STEP_TIMEOUT).await?;
                self.prepend_path(&prefix.join("bin"));
            }
            Step::NpmInstallProject => {
                let mut cmd = self.command("npm");
                cmd.args(["install", "--save-dev", "--no-audit", "--no-fund", "--loglevel=error", "--cache"])
                    .arg(&npm_cache)
                    .arg(package);
                run_checked(cmd, "npm install --save-dev", STEP_TIMEOUT).await?;
            }
            Step::PipInstall => {
                let venv = root.join("venv");
                let mut cmd = self.command("python3");
                cmd.args(["-m", "venv"]).arg(&venv);
                run_checked(cmd, "python3 -m venv", STEP_TIMEOUT).await?;
                let mut cmd = self.command(venv.join("bin/pip"));
                cmd.args(["install", "-q", "--no-cache-dir", "--disable-pip-version-check"]).arg(package);
                run_checked(cmd, "pip install", STEP_TIMEOUT).await?;
                self.prepend_path(&venv.join("bin"));
            }
            Step::Run { command } => {
                let (program, args) = command.split_first().context("a run step with an empty command")?;
                let mut cmd = self.command(self.which(program)?);
                cmd.args(args);
                run_checked(cmd, &command.join(" "), STEP_TIMEOUT).await?;
            }
            Step::Settings { scope, json } => {
                let dir = match scope {
                    Scope::Project => self.project.join(".claude"),
                    Scope::User => self.home.join(".claude"),
                };
                std::fs::create_dir_all(&dir)?;
                std::fs::write(dir.join("settings.json"), serde_json::to_string_pretty(json)?)?;
            }
            Step::Plugin { marketplace, owner, plugin, plugin_json, hooks_json } => {
                let market = root.join(marketplace);
                let dir = market.join("plugins").join(plugin);
                std::fs::create_dir_all(&dir)?;
                let mut tar = Command::new("tar");
                tar.arg("xzf").arg(package).arg("--strip-components=1").arg("-C").arg(&dir);
                run_checked(tar, "tar xzf", STEP_TIMEOUT).await?;
                let source = format!("./plugins/{plugin}");
                let listing = json!({"name": marketplace, "owner": {"name": owner},
                                     "plugins": [{"name": plugin, "source": source}]});
                write_json(&market.join(".claude-plugin/marketplace.json"), &listing)?;
                write_json(&dir.join(".claude-plugin/plugin.json"), plugin_json)?;
                if let Some(hooks) = hooks_json {
                    write_json(&dir.join("hooks/hooks.json"), hooks)?;
                }
                let add = [OsString::from("marketplace"), OsString::from("add"), market.into_os_string()];
                let install = [OsString::from("install"), OsString::from(format!("{plugin}@{marketplace}"))];
                for args in [&add[..], &install[..]] {
                    let mut cmd = self.command(claude);
                    cmd.arg("plugin").args(args);
                    run_checked(cmd, "claude plugin", STEP_TIMEOUT).await?;
                }
            }
        }
        Ok(())
    }
}

fn write_json(path: &Path, v: &Value) -> anyhow::Result<()> {
    std::fs::create_dir_all(path.parent().context("a path with no parent")?)?;
    std::fs::write(path, serde_json::to_string_pretty(v)?).with_context(|| path.display().to_string())
}
