//! `failopen audit`: arguments to [`failopen::audit::AuditOptions`], report out, exit code.

use anyhow::Context;
use failopen::audit::{self, render, AuditOptions};
use failopen::claude::{cache::Cache, ClaudeSpec, PINNED_VERSION};
use failopen::run::LiveGroups;
use tokio_util::sync::CancellationToken;

use crate::cli::{AuditArgs, AuditFormat};

pub async fn run(args: AuditArgs) -> anyhow::Result<i32> {
    let cwd = std::env::current_dir().context("cannot read the current directory")?;
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let files = if args.settings.is_empty() {
        let found = audit::default_files(&cwd, home.as_deref());
        if found.is_empty() {
            anyhow::bail!(
                "no settings file to audit: none of .claude/settings.json, .claude/settings.local.json, ~/.claude/settings.json exists here; pass SETTINGS.json files"
            );
        }
        found
    } else {
        args.settings.clone()
    };
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2));
    if jobs == 0 {
        anyhow::bail!("--jobs must be at least 1");
    }
    let claude = if args.static_only {
        None
    } else {
        let spec = ClaudeSpec::parse(args.claude.as_deref().unwrap_or(PINNED_VERSION))?;
        Some(failopen::claude::spec::resolve(&spec, &Cache::from_env()).await?)
    };
    let seal_exe = std::env::current_exe().context("cannot locate the failopen executable")?.to_string_lossy().into_owned();
    let opts = AuditOptions {
        files,
        cwd,
        home,
        path_var: std::env::var("PATH").unwrap_or_default(),
        claude,
        jobs,
        seal_exe,
        managed: crate::run_cmd::managed_settings(),
        live_groups: LiveGroups::default(),
    };
    let cancel = CancellationToken::new();
    // As in `run`: the first SIGINT/SIGTERM stops the sessions, a second one is a hard stop.
    crate::signals::spawn_handler(cancel.clone(), opts.live_groups.clone(), false);
    if opts.claude.is_some() && args.format == AuditFormat::Text {
        eprintln!("failopen audit: running Claude Code sessions in throwaway directories...");
    }
    let report = audit::audit(&opts, cancel.clone()).await?;
    if cancel.is_cancelled() {
        eprintln!("failopen audit: interrupted; the report is incomplete");
        return Ok(crate::signals::EXIT_INTERRUPTED);
    }
    match args.format {
        AuditFormat::Text => print!("{}", render::text(&report)),
        AuditFormat::Json => print!("{}", render::json(&report)),
    }
    Ok(report.exit_code())
}
