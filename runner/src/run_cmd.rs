//! `failopen run`: turn arguments into [`failopen::run::RunOptions`], handle
//! signals, print the table, pick the exit code.

use std::collections::HashSet;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use failopen::claude::{cache::Cache, ClaudeSpec, PINNED_VERSION};
use failopen::report::Exporter;
use failopen::run::{LiveGroups, Model, RunOptions};
use tokio_util::sync::CancellationToken;

use crate::cli::{ModelArg, RunArgs};

use crate::signals::EXIT_INTERRUPTED;

pub async fn run(args: RunArgs) -> anyhow::Result<i32> {
    let opts = options(&args)?;
    let model = opts.model;
    if model == Model::Live && !confirm_live(args.yes, std::io::stdin().is_terminal())? {
        eprintln!("failopen: live run not confirmed; nothing was run");
        return Ok(1);
    }
    let cancel = CancellationToken::new();
    let live: LiveGroups = Arc::new(Mutex::new(HashSet::new()));
    crate::signals::spawn_handler(cancel.clone(), live.clone(), opts.keep);
    let started = Instant::now();
    if let Some(warning) = opts.managed.warning() {
        eprintln!("failopen: {warning}");
    }
    eprintln!("failopen: writing rows to {}", opts.out.display());
    let summary = failopen::run::run(opts, cancel, live).await?;
    let table = failopen::report::article::ArticleTable.render(&summary.rows)?;
    println!("{table}");
    if model == Model::Live {
        for line in failopen::live::control_report(&summary.rows) {
            println!("{line}\n");
        }
    }
    let invalid = summary.rows.iter().filter(|r| r.verdict == failopen::verdict::VerdictKind::Invalid).count();
    println!(
        "{} sessions in {:.1} s{}{}; rows in {}",
        summary.rows.len(),
        started.elapsed().as_secs_f64(),
        if invalid > 0 { format!(", {invalid} invalid") } else { String::new() },
        if summary.skipped > 0 { format!(", {} already done", summary.skipped) } else { String::new() },
        summary.out.display()
    );
    if let Some(kept) = &summary.kept {
        println!("kept temp roots under {}", kept.display());
    }
    if summary.interrupted {
        eprintln!("failopen: interrupted; the rows above are on disk");
        return Ok(EXIT_INTERRUPTED);
    }
    Ok(0)
}

/// Live mode: check the credentials, print the warning, ask for confirmation.
/// `Ok(false)`: the user said no.
fn confirm_live(yes: bool, stdin_is_terminal: bool) -> anyhow::Result<bool> {
    use failopen::live::{self, Confirmation};
    let set = |var: &str| std::env::var_os(var).is_some_and(|v| !v.is_empty());
    if let Some(problem) = live::credentials_problem(set("ANTHROPIC_API_KEY"), set("ANTHROPIC_AUTH_TOKEN")) {
        anyhow::bail!(problem);
    }
    eprintln!("{}", live::WARNING);
    let mut answer: Option<String> = None;
    loop {
        match live::confirm(yes, stdin_is_terminal, answer.as_deref()) {
            Confirmation::Proceed => return Ok(true),
            Confirmation::Declined => return Ok(false),
            Confirmation::NoTerminal => anyhow::bail!(
                "--model live asks for confirmation on a terminal, and stdin is not one; pass --yes to start without asking"
            ),
            Confirmation::Ask => {
                eprint!("{}", live::QUESTION);
                std::io::Write::flush(&mut std::io::stderr())?;
                let mut line = String::new();
                std::io::stdin().read_line(&mut line).context("reading the answer")?;
                answer = Some(line); // end of input reads as "" (no)
            }
        }
    }
}

fn options(args: &RunArgs) -> anyhow::Result<RunOptions> {
    let arm_specs = if args.arms.is_empty() { vec!["article".to_string()] } else { args.arms.clone() };
    let arms = failopen::arms::filter(failopen::arms::load_all(&arm_specs)?, &args.only)?;
    if arms.is_empty() {
        anyhow::bail!("no arm matches --only {}", args.only.join(" "));
    }
    let claude = ClaudeSpec::parse_list(args.claude.as_deref().unwrap_or(PINNED_VERSION))?;
    if claude.is_empty() {
        anyhow::bail!("--claude is empty");
    }
    let model = match args.model {
        ModelArg::Scripted => Model::Scripted,
        ModelArg::Live => Model::Live,
    };
    let repeats = args.repeats.unwrap_or(if model == Model::Live { 3 } else { 1 });
    if repeats == 0 {
        anyhow::bail!("--repeats must be at least 1");
    }
    if !(args.session_timeout.is_finite() && args.session_timeout > 0.0) {
        anyhow::bail!("--session-timeout must be a number of seconds above 0");
    }
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2));
    if jobs == 0 {
        anyhow::bail!("--jobs must be at least 1");
    }
    let shard = args.shard.as_deref().map(failopen::cells::Shard::parse).transpose().map_err(anyhow::Error::msg)?;
    let (out, resume) = match (&args.resume, &args.out) {
        (Some(r), _) => (r.clone(), true),
        (None, Some(o)) => (o.clone(), false),
        (None, None) => (default_out(args.claude.as_deref().unwrap_or(PINNED_VERSION)), false),
    };
    check_out_dir(&out)?;
    let mut extra_args = Vec::new();
    if let Some(t) = args.max_turns {
        extra_args.extend(["--max-turns".to_string(), t.to_string()]);
    }
    if let Some(b) = args.max_budget_usd {
        extra_args.extend(["--max-budget-usd".to_string(), b.to_string()]);
    }
    let failopen_exe = std::env::current_exe().context("locating the failopen binary")?;
    Ok(RunOptions {
        arms,
        claude,
        model,
        repeats,
        jobs,
        out,
        resume,
        keep: args.keep,
        session_timeout: Duration::from_secs_f64(args.session_timeout),
        shard,
        extra_args,
        show_progress: failopen::progress::should_show(
            std::io::stderr().is_terminal(),
            failopen::progress::is_ci(std::env::var("CI").ok().as_deref()),
        ),
        failopen_exe,
        cache: Cache::from_env(),
        managed: managed_settings(),
    })
}

/// The managed settings Claude Code will read on this machine
/// (`FAILOPEN_MANAGED_SETTINGS_DIR` looks elsewhere, for tests).
pub fn managed_settings() -> failopen::managed::ManagedSettings {
    use failopen::managed::{ManagedSettings, DIR_VAR};
    let dirs = ManagedSettings::dirs(std::env::var_os(DIR_VAR).map(PathBuf::from), std::env::consts::OS);
    ManagedSettings::detect(&dirs)
}

fn default_out(claude: &str) -> PathBuf {
    let stamp = chrono::Local::now().format("%Y%m%d-%H%M%S");
    let label: String = claude.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' { c } else { '_' }).collect();
    PathBuf::from("results").join(format!("{stamp}-{label}.csv"))
}

fn check_out_dir(out: &std::path::Path) -> anyhow::Result<()> {
    let dir = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    if out.file_name().is_none() {
        anyhow::bail!("--out {}: not a file path", out.display());
    }
    if !dir.exists() {
        if out.starts_with("results") && dir == std::path::Path::new("results") {
            std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        } else {
            anyhow::bail!("--out {}: directory {} does not exist", out.display(), dir.display());
        }
    }
    let probe = tempfile::Builder::new().prefix(".failopen-write-probe").tempfile_in(dir);
    if let Err(e) = probe {
        anyhow::bail!("--out {}: directory {} is not writable: {e}", out.display(), dir.display());
    }
    Ok(())
}

