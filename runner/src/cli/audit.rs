//! `failopen audit`: arguments to [`AuditOptions`] (in [`options`]), the
//! report out, the exit code.

use anyhow::Context;
use failopen::audit::guard_verdict::GuardStatus;
use failopen::audit::render::{self, markdown};
use failopen::audit::{self, AuditOptions};
use std::path::PathBuf;

use failopen::agent::Agent;
use failopen::install::{cache::Cache, VersionSpec};
use failopen::pool::Interrupt;

use super::args::{AuditArgs, AuditFormat};
use super::output::emit;
use super::{Env, ExitCode};

pub async fn main(mut args: AuditArgs, env: &Env) -> anyhow::Result<ExitCode> {
    choose_sandbox(&mut args);
    if let Some(sarif) = &args.sarif {
        super::output::check_out(sarif, false)
            .map_err(|e| anyhow::anyhow!("{}", e.to_string().replacen("--out", "--sarif", 1)))?;
    }
    let opts = options(&args, env).await?;
    // As in `run`: the first SIGINT/SIGTERM stops the sessions, a second one is a hard stop.
    super::signals::spawn_handler(opts.interrupt.clone(), false, None);
    if !matches!(args.format, AuditFormat::Json | AuditFormat::Sarif) {
        let agents: Vec<&str> = opts.agent_bins.iter().map(|b| b.agent.display_name()).collect();
        if !agents.is_empty() {
            eprintln!("failopen audit: running {} sessions in throwaway directories...", agents.join(" and "));
        }
    }
    let report = audit::audit(&opts).await?;
    if opts.interrupt.is_stopped() {
        eprintln!("failopen audit: interrupted; the report is incomplete");
        return Ok(ExitCode::Interrupted);
    }
    let code = match report.outcome() {
        GuardStatus::Open => ExitCode::GuardOpen,
        GuardStatus::Untested => ExitCode::Untested,
        GuardStatus::Held => ExitCode::Success,
    };
    emit(&match args.format {
        AuditFormat::Text => render::text(&report, code.code()),
        AuditFormat::Json => render::json(&report, code.code()),
        AuditFormat::Md => markdown::markdown(&report, code.code()),
        AuditFormat::Sarif => render::sarif::sarif(&report, code.code(), &opts.cwd),
    })?;
    if let Some(path) = &args.sarif {
        std::fs::write(path, render::sarif::sarif(&report, code.code(), &opts.cwd))
            .with_context(|| format!("--sarif {}: writing the SARIF report", path.display()))?;
    }
    Ok(code)
}

/// Every process started from the audited hooks runs in the sandbox
/// ([`failopen::sandbox`]); where none can be had, the dynamic checks run
/// only with `--no-sandbox` (uncontained), and otherwise the static checks
/// alone, saying why.
fn choose_sandbox(args: &mut AuditArgs) {
    use failopen::sandbox::{self, Policy};
    if args.static_only {
        return;
    }
    if args.no_sandbox {
        eprintln!(
            "failopen audit: --no-sandbox: the audited hooks run with everything you have (your HOME, your network)"
        );
        sandbox::choose(Policy::Off);
        return;
    }
    match sandbox::available() {
        Ok(_) => sandbox::choose(Policy::On),
        Err(why) => {
            eprintln!(
                "failopen audit: {why}\nfailopen audit: no sandbox, so only the static checks ran; \
                 pass --no-sandbox to run the dynamic checks uncontained (the hooks then reach your HOME and network)"
            );
            args.static_only = true;
        }
    }
}

/// The audit's options from its arguments and the environment.
async fn options(args: &AuditArgs, env: &Env) -> anyhow::Result<AuditOptions> {
    let cwd = env.cwd.clone().context("cannot read the current directory")?;
    let agent_files = if args.settings.is_empty() {
        let found = audit::default_files(&cwd, env.home.as_deref());
        if found.is_empty() && args.plugin_dirs.is_empty() {
            anyhow::bail!(
                "no settings file to audit: none of .claude/settings.json, .claude/settings.local.json, ~/.claude/settings.json, .codex/hooks.json, .codex/config.toml, .gemini/settings.json, .github/hooks/*.json, .qwen/settings.json, .clinerules/hooks/PreToolUse, .opencode/plugins/, .kilo/plugins/, .continue/settings.json exists here; pass SETTINGS.json files"
            );
        }
        found
    } else {
        by_agent(&args.settings, args.agent.as_deref())?
    };
    let jobs = super::jobs(args.jobs)?;
    // Advice and the sealed re-check name the same failopen that `seal --install` would write.
    let facts = failopen::seal::exe_path::ExeFacts::from_env().context("cannot locate the failopen executable")?;
    let seal_exe = failopen::seal::exe_path::choose(&facts).path.to_string_lossy().into_owned();
    let mut opts = AuditOptions {
        cwd,
        home: env.home.clone(),
        path_var: env.path_var.as_ref().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default(),
        jobs,
        plugin_timeout: args.plugin_timeout.map(std::time::Duration::from_secs_f64),
        seal_exe,
        managed: super::managed_settings(),
        interrupt: Interrupt::new(),
        plugin_dirs: args.plugin_dirs.clone(),
        read_skills: args.settings.is_empty(),
        read_plugins: args.settings.is_empty(),
        agent_files,
        agent_bins: Vec::new(),
        probes: user_probes(args, &env.cwd)?,
    };
    if !args.static_only {
        opts.agent_bins = agent_bins(args, &opts).await?;
    }
    Ok(opts)
}

/// The user's probes: each `--probe JSON`, then the project's `.failopen/probes.json`.
fn user_probes(args: &AuditArgs, cwd: &Option<PathBuf>) -> anyhow::Result<Vec<audit::probe::Probe>> {
    let mut out = Vec::new();
    for p in &args.probes {
        out.extend(audit::probe::parse(p, "--probe")?);
    }
    if let Some(cwd) = cwd {
        out.extend(audit::probe::project_probes(cwd)?);
    }
    Ok(out)
}

/// The named files with their agent: `--agent`'s, else the one whose
/// driver claims the path ([`failopen::agent::hook_config::owner_of`]).
fn by_agent(paths: &[PathBuf], agent: Option<&str>) -> anyhow::Result<Vec<(Agent, PathBuf)>> {
    let forced = agent.map(|a| a.parse::<Agent>().map_err(|e| anyhow::anyhow!("--agent: {e}"))).transpose()?;
    let mut out = Vec::new();
    for p in paths {
        let Some(agent) = forced.or_else(|| failopen::agent::hook_config::owner_of(p)) else {
            anyhow::bail!("{}: no agent audit reads claims this file; name it with --agent", p.display());
        };
        out.push((agent, p.clone()));
    }
    Ok(out)
}

/// A binary for each agent whose files hold a hook it runs, or whose
/// driver has a census (a session with the user's own configuration) when
/// its files or plugin directories were given (`--claude`, `--codex`,
/// `--gemini`, else its pinned version), installed into failopen's cache if
/// missing.
async fn agent_bins(args: &AuditArgs, opts: &AuditOptions) -> anyhow::Result<Vec<failopen::agent::AgentBin>> {
    let mut out = Vec::new();
    for (agent, files) in audit::load_agent_files(opts)? {
        let driver = agent.driver();
        let Some(config) = driver.hook_config() else { continue };
        let reach = config.reach();
        // Hooks audit only lists (an npm plugin) need no binary; a plugin module runs in sessions
        // when its driver says how (`plugin_faults`).
        let has_hooks = files.iter().any(|f| {
            let entries = audit::intake::config::entries(std::slice::from_ref(&f.file));
            entries.iter().any(|e| !matches!(e.kind, audit::intake::config::HookKind::Other { .. }))
                || audit::probe::plugin_faults::runs_any(driver, &entries)
        });
        let census = reach.census && (!files.is_empty() || (reach.plugins_and_skills && !opts.plugin_dirs.is_empty()));
        if !has_hooks && !census {
            continue;
        }
        let flag = config.version_flag();
        let given = args.version_named_by(flag);
        let spec =
            VersionSpec::parse(given.unwrap_or(driver.pinned_version())).map_err(|e| anyhow::anyhow!("{flag}: {e}"))?;
        if let VersionSpec::Range(r) = &spec {
            anyhow::bail!(
                "{flag}: audit runs on one {}, and {r} is a range; name one version, `latest` or a path",
                agent.display_name()
            );
        }
        let cache = Cache::from_env().for_agent(agent);
        out.push(failopen::install::spec::resolve(&spec, &cache).await?);
    }
    Ok(out)
}
