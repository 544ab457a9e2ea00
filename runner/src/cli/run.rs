//! `failopen run`: arguments to [`RunOptions`] (in [`options`], the one
//! place), signals, the table, the exit code.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use anyhow::Context;
use failopen::agent::Agent;
use failopen::arms::ArmsError;
use failopen::install::VersionSpec;
use failopen::mode::Mode;
use failopen::pool::Interrupt;
use failopen::report::fail_open::FailOpen;
use failopen::report::Exporter;
use failopen::run::{Model, RunOptions, RunSummary};
use failopen::verdict::VerdictKind;

use super::args::{ModeArg, ModelArg, RunArgs, RunFormat};
use super::output::{check_out, emit_line};
use super::{Env, ExitCode};

pub async fn main(args: RunArgs, env: &Env) -> anyhow::Result<ExitCode> {
    failopen::sandbox::choose(failopen::sandbox::for_sessions(args.no_sandbox).map_err(anyhow::Error::msg)?);
    let opts = options(&args, env)?;
    let model = opts.model;
    if model == Model::Live && !confirm_live(args.yes, env.stdin_is_terminal)? {
        eprintln!("failopen: live run not confirmed; nothing was run");
        return Ok(ExitCode::Failure);
    }
    let interrupt = Interrupt::new();
    let resume = format!(
        "the rows so far stay in {0}, and the same command with `--resume {0}` (in place of --out) runs the rest",
        opts.out.display()
    );
    super::signals::spawn_handler(interrupt.clone(), opts.keep, Some(resume));
    let started = Instant::now();
    if let Some(warning) = opts.managed.warning() {
        eprintln!("failopen: {warning}");
    }
    if args.arms.is_empty() {
        let sets = opts.agent.driver().default_arm_sets();
        eprintln!(
            "failopen: arm set {} ({} arms), {}'s default; --arms names another",
            sets.join(" + "),
            opts.arms.len(),
            opts.agent.display_name()
        );
    }
    eprintln!("failopen: writing rows to {}", opts.out.display());
    let out = opts.out.clone();
    let summary = failopen::run::run(opts, interrupt).await?;
    let fail_open = FailOpen::of(&summary.rows);
    let elapsed = started.elapsed().as_secs_f64();
    match args.format {
        RunFormat::Json => emit_line(&summary_json(&summary, &fail_open, elapsed).to_string())?,
        RunFormat::Text => text_summary(&summary, &fail_open, elapsed, model, env.colour)?,
    }
    if summary.interrupted {
        eprintln!(
            "failopen: interrupted; the rows above are on disk, and the same command with `--resume {}` (in place \
             of --out) runs the rest",
            out.display()
        );
        return Ok(ExitCode::Interrupted);
    }
    Ok(ExitCode::Success)
}

/// The run for people: the table (writes past a guard that means to refuse
/// in red, on a terminal), what could not run, the live control, how many
/// guards let the write through and which, and where the rows are.
fn text_summary(
    summary: &RunSummary,
    fail_open: &FailOpen,
    elapsed: f64,
    model: Model,
    colour: bool,
) -> anyhow::Result<()> {
    let table = failopen::report::article::ArticleTable.render(&summary.rows)?;
    emit_line(&if colour { paint(&table, fail_open) } else { table })?;
    for note in failopen::report::article::unsupported_notes(&summary.rows) {
        emit_line(&format!("{note}\n"))?;
    }
    if model == Model::Live {
        for line in failopen::live::control_report(&summary.rows) {
            emit_line(&format!("{line}\n"))?;
        }
    }
    let headline = fail_open.headline();
    emit_line(&match (colour, fail_open.let_through.is_empty()) {
        (false, _) => headline,
        (true, true) => format!("{GREEN}{headline}{RESET}"),
        (true, false) => format!("{RED}{headline}{RESET}"),
    })?;
    for line in fail_open.lines() {
        emit_line(&if colour { format!("{RED}{line}{RESET}") } else { line })?;
    }
    emit_line("")?;
    let invalid = summary.rows.iter().filter(|r| r.verdict == VerdictKind::Invalid).count();
    emit_line(&format!(
        "{} sessions in {elapsed:.1} s{}{}; rows in {}",
        summary.rows.len(),
        if invalid > 0 { format!(", {invalid} invalid") } else { String::new() },
        if summary.skipped > 0 { format!(", {} already done", summary.skipped) } else { String::new() },
        summary.out.display()
    ))?;
    if let Some(kept) = &summary.kept {
        emit_line(&format!("kept temp roots under {}", kept.display()))?;
    }
    Ok(())
}

const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const RESET: &str = "\x1b[0m";

/// The article table with each row of a cell that let a write through past a
/// guard meaning to refuse in red (the table names each version in a line
/// of its own above its rows, as `ArticleTable` writes it).
fn paint(table: &str, fail_open: &FailOpen) -> String {
    let mut block = "";
    let mut out = String::with_capacity(table.len());
    for line in table.lines() {
        if !line.starts_with('|') && !line.is_empty() {
            block = line;
        }
        let red = line.starts_with('|')
            && fail_open.let_through.iter().any(|l| {
                let agent = failopen::agent::Agent::of_csv(&l.agent).unwrap_or_default();
                block == format!("{} {}", agent.display_name(), l.agent_version)
                    && line.starts_with(&format!("| {} |", failopen::report::article::md_escape(&l.arm)))
            });
        if red {
            out.push_str(&format!("{RED}{line}{RESET}\n"));
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// `run --format json`'s last line: `{"type": "summary", ...}` after the
/// sessions' own lines.
fn summary_json(summary: &RunSummary, fail_open: &FailOpen, elapsed: f64) -> serde_json::Value {
    let count = |k: VerdictKind| summary.rows.iter().filter(|r| r.verdict == k).count();
    serde_json::json!({
        "type": "summary",
        "sessions": summary.rows.len(),
        "blocked": count(VerdictKind::Blocked),
        "wrote": count(VerdictKind::Wrote),
        "invalid": count(VerdictKind::Invalid),
        "already_done": summary.skipped,
        "should_refuse": fail_open.should_refuse,
        "let_through": fail_open.let_through,
        "not_judged": fail_open.not_judged,
        "elapsed_secs": (elapsed * 10.0).round() / 10.0,
        "out": summary.out.display().to_string(),
        "interrupted": summary.interrupted,
        "kept": summary.kept.as_ref().map(|k| k.display().to_string()),
    })
}

/// Live mode: check the credentials, print the warning, ask for confirmation.
/// `Ok(false)`: the user said no.
fn confirm_live(yes: bool, stdin_is_terminal: bool) -> anyhow::Result<bool> {
    use failopen::live::{self, Confirmation};
    let set = |var: &str| std::env::var_os(var).is_some_and(|v| !v.is_empty());
    if let Some(problem) = live::credentials_problem(set("ANTHROPIC_API_KEY"), set("ANTHROPIC_AUTH_TOKEN")) {
        anyhow::bail!("--model live: {problem}");
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

/// The run's options from its arguments: every check of a flag's value is
/// here, and every error names the flag.
fn options(args: &RunArgs, env: &Env) -> anyhow::Result<RunOptions> {
    let agent = args.agent;
    // No --arms: the agent's own sets, which hold arms it runs.
    let arm_specs: Vec<String> = match args.arms.is_empty() {
        true => agent.driver().default_arm_sets().iter().map(|s| s.to_string()).collect(),
        false => args.arms.clone(),
    };
    let arms = load_arms(&arm_specs, &args.only)?;
    if let Some(why) = failopen::cells::none_runs(agent, &arms) {
        anyhow::bail!("nothing to run on {}: {why}", agent.display_name());
    }
    let claude_arg = args.agent_version.as_deref().unwrap_or(pinned_version(agent));
    let claude = VersionSpec::parse_list(claude_arg).map_err(|e| anyhow::anyhow!("--agent-version: {e}"))?;
    if claude.is_empty() {
        anyhow::bail!("--agent-version is empty");
    }
    let model = match args.model {
        ModelArg::Scripted => Model::Scripted,
        ModelArg::Live => Model::Live,
    };
    let mode = match args.mode {
        ModeArg::Print => Mode::Print,
        ModeArg::Interactive => Mode::Interactive,
    };
    if mode == Mode::Interactive && model == Model::Live {
        anyhow::bail!(
            "--mode interactive works with --model scripted only: an interactive session is ended when the \
             stand-in's script has ended, which a live model has not"
        );
    }
    let repeats = args.repeats.unwrap_or(if model == Model::Live { 3 } else { 1 });
    check_repeats_and_timeout(repeats, args.session_timeout)?;
    let shard = parse_shard(args.shard.as_deref())?;
    let (out, resume) = match (&args.resume, &args.out) {
        (Some(r), _) => (r.clone(), true),
        (None, Some(o)) => (o.clone(), false),
        (None, None) => (default_out(agent, claude_arg, mode), false),
    };
    // The default `results/` is made when missing; a directory the user names must exist.
    check_out(&out, args.out.is_none() && args.resume.is_none())?;
    let mut extra_args = Vec::new();
    if let Some(t) = args.max_turns {
        extra_args.extend(["--max-turns".to_string(), t.to_string()]);
    }
    if let Some(b) = args.max_budget_usd {
        extra_args.extend(["--max-budget-usd".to_string(), b.to_string()]);
    }
    if !agent.driver().runs_live_and_interactive() && (model == Model::Live || mode == Mode::Interactive) {
        anyhow::bail!(
            "--agent {agent} runs with --model scripted --mode print only (the stand-in speaks its model \
             protocol; a live model and the terminal UI are measured on Claude Code)"
        );
    }
    Ok(RunOptions {
        arms,
        agent,
        claude,
        include_pre: args.pre_releases,
        model,
        mode,
        repeats,
        jobs: super::jobs(args.jobs)?,
        out,
        resume,
        keep: args.keep,
        session_timeout: Duration::from_secs_f64(args.session_timeout),
        shard,
        extra_args,
        progress: failopen::progress::View::for_stderr(env.stderr_is_terminal, env.is_ci),
        json_lines: args.format == RunFormat::Json,
        failopen_exe: std::env::current_exe().context("locating the failopen binary")?,
        managed: super::managed_settings(),
        home: env.home.clone(),
        ..RunOptions::default()
    })
}

/// The arm sets named by `--arms`, narrowed by `--only` (shared by `run` and `history`).
pub fn load_arms(specs: &[String], only: &[String]) -> anyhow::Result<Vec<failopen::arms::Arm>> {
    let arms = failopen::arms::load_all(specs)?;
    let arms = failopen::arms::filter(arms, only).map_err(|e| match e {
        ArmsError::Glob { .. } => anyhow::anyhow!("--only: {e}"),
        other => other.into(),
    })?;
    if arms.is_empty() {
        anyhow::bail!("no arm matches --only {}", only.join(" "));
    }
    Ok(arms)
}

/// `--repeats` and `--session-timeout` checked (shared by `run` and `history`).
pub fn check_repeats_and_timeout(repeats: u32, session_timeout: f64) -> anyhow::Result<()> {
    if repeats == 0 {
        anyhow::bail!("--repeats must be at least 1");
    }
    if !(session_timeout.is_finite() && session_timeout > 0.0 && session_timeout <= 86_400.0) {
        anyhow::bail!("--session-timeout must be a number of seconds above 0 (at most 86400)");
    }
    Ok(())
}

/// `--shard K/N` (shared by `run` and `history`).
pub fn parse_shard(shard: Option<&str>) -> anyhow::Result<Option<failopen::cells::Shard>> {
    shard.map(failopen::cells::Shard::parse).transpose().map_err(|e| anyhow::anyhow!("--shard: {e}"))
}

/// The version run when `--agent-version` names none.
fn pinned_version(agent: Agent) -> &'static str {
    agent.driver().pinned_version()
}

fn default_out(agent: Agent, claude: &str, mode: Mode) -> PathBuf {
    let stamp = chrono::Local::now().format("%Y%m%d-%H%M%S");
    let label: String = claude.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' { c } else { '_' }).collect();
    let mode = if mode == Mode::Print { String::new() } else { format!("-{}", mode.as_str()) };
    let agent = if agent.driver().implied_when_unnamed() { String::new() } else { format!("{agent}-") };
    PathBuf::from("results").join(format!("{stamp}-{agent}{label}{mode}.csv"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(arm: &str, verdict: VerdictKind) -> failopen::record::Row {
        let (guard, wrapper) = arm.split_once('/').unwrap();
        let mut r: failopen::record::Row = serde_json::from_value(serde_json::json!({
            "agent_version": "2.1.328", "model": "scripted", "arm": arm, "guard": guard, "wrapper": wrapper,
            "repeat": 1, "verdict": verdict.as_str(), "reason": "", "file_bytes": null, "hook_invocations": 1,
            "hook_outcomes": "", "attempts": "", "session_exit": "0", "session_secs": 1.0, "harness_said": "",
            "file_ready": null, "hook_timeout": 5.0, "deadline": 3.0, "flags": "",
        }))
        .unwrap();
        r.agent = "claude-code".into();
        r
    }

    /// On a terminal, the row of a write past a guard that means to refuse
    /// is red; the control's write (`allow/bare`) and a refusal are not.
    #[test]
    fn only_writes_past_a_refusing_guard_are_red() {
        let rows = [
            row("allow/bare", VerdictKind::Wrote),
            row("crash/bare", VerdictKind::Wrote),
            row("deny/bare", VerdictKind::Blocked),
        ];
        let table = failopen::report::article::ArticleTable.render(&rows).unwrap();
        let painted = paint(&table, &FailOpen::of(&rows));
        let red: Vec<&str> = painted.lines().filter(|l| l.starts_with(RED)).collect();
        assert_eq!(red, [format!("{RED}| crash/bare | 0/1 | wrote |{RESET}")], "{painted}");
        assert_eq!(painted.replace(RED, "").replace(RESET, ""), table);
    }
}
