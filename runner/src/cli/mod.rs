//! The command line, and nothing else knows clap: [`args`] defines it, one
//! file per subcommand turns its arguments into the library's options and
//! its results into output and an [`ExitCode`].
//!
//! `seal` runs before every tool call of a user's agent, so it is taken
//! apart first ([`seal::is_seal_mode`]) and runs without an async runtime;
//! `mcp-guard` runs on a runtime of its own (dropped without waiting on a
//! read of stdin); every other subcommand runs on tokio.

mod agents;
mod args;
mod audit;
mod bisect;
mod census;
mod diff;
mod exit;
mod history;
mod mcp_fs;
mod mcp_guard;
mod merge;
mod output;
mod report;
mod run;
mod seal;
mod signals;
mod standin;

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use clap::Parser;

use args::{Cli, Command};
pub use exit::ExitCode;

/// The whole program.
pub fn main() -> ExitCode {
    // Seal's deadline counts from here: reading the payload is inside it.
    let started = Instant::now();
    let args: Vec<OsString> = std::env::args_os().collect();
    if seal::is_seal_mode(&args) {
        return seal::main(args, started);
    }
    if args.get(1).is_some_and(|a| a == failopen::sandbox::relay::SUBCOMMAND) {
        // Inside a sandbox, in front of the program it contains: no runtime, no parsing of ours.
        std::process::exit(failopen::sandbox::relay::exec_main(&args[2..]));
    }
    signals::install_panic_reaper();
    match Cli::try_parse_from(args) {
        Ok(cli) => dispatch(cli, started),
        Err(e) => {
            // Help and version are answers. A command line that does not
            // parse exits 2, as clap's own do: a hook that mistypes `failopen
            // seal` (`failopen sael -- g`, `failopen -- seal -- g`) then
            // blocks instead of letting the call through.
            let _ = e.print();
            if e.use_stderr() {
                ExitCode::Refused
            } else {
                ExitCode::Success
            }
        }
    }
}

/// Facts about the environment the subcommands need, read once here and
/// passed in (so the code that uses them can be tested with others).
#[derive(Debug, Clone)]
pub struct Env {
    /// stdin is a terminal (a person can answer a question).
    pub stdin_is_terminal: bool,
    /// stderr is a terminal (a progress bar can be drawn).
    pub stderr_is_terminal: bool,
    /// `CI` is set to something other than empty, `0` or `false`.
    pub is_ci: bool,
    /// stdout may be coloured: it is a terminal and `NO_COLOR` is unset or empty.
    pub colour: bool,
    /// The working directory.
    pub cwd: Option<PathBuf>,
    /// `$HOME`.
    pub home: Option<PathBuf>,
    /// `$PATH`.
    pub path_var: Option<OsString>,
}

impl Env {
    /// The environment of this process.
    pub fn read() -> Env {
        Env {
            stdin_is_terminal: std::io::stdin().is_terminal(),
            stderr_is_terminal: std::io::stderr().is_terminal(),
            is_ci: failopen::progress::is_ci(std::env::var("CI").ok().as_deref()),
            colour: std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()),
            cwd: std::env::current_dir().ok(),
            home: std::env::var_os("HOME").map(PathBuf::from),
            path_var: std::env::var_os("PATH"),
        }
    }
}

/// Run a parsed command line. `started` is when the process started.
fn dispatch(cli: Cli, started: Instant) -> ExitCode {
    if let Command::Seal(args) = cli.command {
        // No runtime for seal: it runs before every tool call.
        return seal::run(args, started);
    }
    let command = match cli.command {
        // Its own runtime, which it drops without waiting on a read of stdin.
        Command::McpGuard(args) => return mcp_guard::run(args),
        Command::McpFs(args) => return mcp_fs::run(args),
        command => command,
    };
    let rt = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the async runtime: {e}");
            return ExitCode::Failure;
        }
    };
    let env = Env::read();
    match rt.block_on(run_async(command, env)) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::Failure
        }
    }
}

async fn run_async(command: Command, env: Env) -> anyhow::Result<ExitCode> {
    match command {
        Command::Seal(_) => unreachable!("seal is dispatched without a runtime"),
        Command::McpGuard(_) | Command::McpFs(_) => unreachable!("MCP servers run on their own runtime"),
        Command::Run(args) => run::main(args, &env).await,
        Command::Agents { agent, command } => agents::main(agent, command).await,
        Command::Report(args) => report::main(args),
        Command::Diff(args) => diff::main(args),
        Command::Merge(args) => merge::main(args),
        Command::Bisect(args) => bisect::main(args).await,
        Command::History(args) => history::main(args, &env).await,
        Command::Audit(args) => audit::main(args, &env).await,
        Command::Census(args) => census::main(args).await,
        Command::Standin { command } => standin::main(command).await,
    }
}

/// `--jobs` when not given: one session per CPU.
fn default_jobs() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2)
}

/// `--jobs N`, or the CPU count; 0 is refused.
fn jobs(arg: Option<usize>) -> anyhow::Result<usize> {
    match arg.unwrap_or_else(default_jobs) {
        0 => anyhow::bail!("--jobs must be at least 1"),
        n => Ok(n),
    }
}

/// The managed settings Claude Code will read on this machine
/// (`FAILOPEN_MANAGED_SETTINGS_DIR` looks elsewhere, for tests).
fn managed_settings() -> failopen::managed::ManagedSettings {
    use failopen::managed::{ManagedSettings, DIR_VAR};
    let user = std::env::var("USER").ok();
    ManagedSettings::of_machine(std::env::var_os(DIR_VAR).map(PathBuf::from), std::env::consts::OS, user.as_deref())
}
