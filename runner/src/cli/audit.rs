//! `failopen audit`: arguments to [`AuditOptions`] (in [`options`]), the
//! report out, the exit code.

use anyhow::Context;
use failopen::audit::{self, markdown, render, AuditOptions};
use failopen::claude::{cache::Cache, ClaudeSpec, PINNED_VERSION};
use failopen::pool::Interrupt;

use super::args::{AuditArgs, AuditFormat};
use super::output::emit;
use super::{Env, ExitCode};

pub async fn main(args: AuditArgs, env: &Env) -> anyhow::Result<ExitCode> {
    let opts = options(&args, env).await?;
    // As in `run`: the first SIGINT/SIGTERM stops the sessions, a second one is a hard stop.
    super::signals::spawn_handler(opts.interrupt.clone(), false);
    if opts.claude.is_some() && args.format != AuditFormat::Json {
        eprintln!("failopen audit: running Claude Code sessions in throwaway directories...");
    }
    let report = audit::audit(&opts).await?;
    if opts.interrupt.is_stopped() {
        eprintln!("failopen audit: interrupted; the report is incomplete");
        return Ok(ExitCode::Interrupted);
    }
    let code = if report.fails_open() { ExitCode::GuardOpen } else { ExitCode::Success };
    emit(&match args.format {
        AuditFormat::Text => render::text(&report, code.code()),
        AuditFormat::Json => render::json(&report, code.code()),
        AuditFormat::Md => markdown::markdown(&report, code.code()),
    })?;
    Ok(code)
}

/// The audit's options from its arguments and the environment.
async fn options(args: &AuditArgs, env: &Env) -> anyhow::Result<AuditOptions> {
    let cwd = env.cwd.clone().context("cannot read the current directory")?;
    let files = if args.settings.is_empty() {
        let found = audit::default_files(&cwd, env.home.as_deref());
        if found.is_empty() && args.plugin_dirs.is_empty() {
            anyhow::bail!(
                "no settings file to audit: none of .claude/settings.json, .claude/settings.local.json, ~/.claude/settings.json exists here; pass SETTINGS.json files"
            );
        }
        found
    } else {
        args.settings.clone()
    };
    let jobs = super::jobs(args.jobs)?;
    let claude = if args.static_only {
        None
    } else {
        let arg = args.claude.as_deref().unwrap_or(PINNED_VERSION);
        let spec = ClaudeSpec::parse(arg).map_err(|e| anyhow::anyhow!("--claude: {e}"))?;
        if let ClaudeSpec::Range(r) = &spec {
            anyhow::bail!(
                "--claude: audit runs on one Claude Code, and {r} is a range; name one version, `latest` or a path"
            );
        }
        Some(failopen::claude::spec::resolve(&spec, &Cache::from_env()).await?)
    };
    // Advice and the sealed re-check name the same failopen that `seal --install` would write.
    let facts = failopen::seal::exe_path::ExeFacts::from_env().context("cannot locate the failopen executable")?;
    let seal_exe = failopen::seal::exe_path::choose(&facts).path.to_string_lossy().into_owned();
    Ok(AuditOptions {
        files,
        cwd,
        home: env.home.clone(),
        path_var: env.path_var.as_ref().map(|p| p.to_string_lossy().into_owned()).unwrap_or_default(),
        claude,
        jobs,
        seal_exe,
        managed: super::managed_settings(),
        interrupt: Interrupt::new(),
        plugin_dirs: args.plugin_dirs.clone(),
        read_skills: args.settings.is_empty(),
    })
}
