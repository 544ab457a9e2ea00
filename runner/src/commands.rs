//! Glue from parsed arguments to the library: one function per subcommand.

use std::time::Instant;

use crate::cli::{ClaudeCommand, Cli, Command, SealArgs};

/// Run the parsed command line and return the process exit code.
/// `started` is when the process started (seal's deadline counts from it).
pub fn dispatch(cli: Cli, started: Instant) -> i32 {
    match cli.command {
        // seal runs before every tool call: keep it synchronous, no runtime.
        Command::Seal(args) => seal(args, started),
        other => {
            let rt = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
                Ok(rt) => rt,
                Err(e) => {
                    eprintln!("error: cannot start the async runtime: {e}");
                    return 1;
                }
            };
            match rt.block_on(run_async(other)) {
                Ok(code) => code,
                Err(e) => {
                    eprintln!("error: {e:#}");
                    1
                }
            }
        }
    }
}

fn seal(args: SealArgs, started: Instant) -> i32 {
    if let Some(path) = args.install {
        return match failopen::seal::install::install_file(&path) {
            Ok(report) => {
                println!("{report}");
                0
            }
            Err(e) => {
                eprintln!("error: {e:#}");
                1
            }
        };
    }
    // clap's value parser already refused bad deadlines; checked again here
    // because a panic in from_secs_f64 would exit 101 and fail open.
    let deadline = match failopen::seal::deadline::from_secs(args.deadline) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("failopen seal: --deadline {}: {e}; refusing by default", e.value);
            return failopen::seal::decision::DENY;
        }
    };
    let opts = failopen::seal::SealOptions { deadline, expect_json: args.expect_json, argv: args.guard };
    failopen::seal::run_from_stdio(&opts, started)
}

async fn run_async(command: Command) -> anyhow::Result<i32> {
    match command {
        Command::Seal(_) => unreachable!("seal is dispatched synchronously"),
        Command::Run(args) => crate::run_cmd::run(args).await,
        Command::Claude { command } => claude(command).await,
        Command::Report(args) => crate::report_cmd::report(args),
        Command::Diff(args) => crate::report_cmd::diff(args),
        Command::Merge(args) => crate::report_cmd::merge(args),
        Command::Bisect(args) => crate::bisect_cmd::run(args).await,
        Command::Audit(args) => crate::audit_cmd::run(args).await,
        Command::Standin { command } => crate::standin_cmd::run(command).await,
    }
}

async fn claude(command: ClaudeCommand) -> anyhow::Result<i32> {
    let cache = failopen::claude::cache::Cache::from_env();
    match command {
        ClaudeCommand::List => {
            let installed = cache.installed();
            if installed.is_empty() {
                println!("no Claude Code version installed in {}", cache.versions_dir().display());
            }
            for v in installed {
                println!("{v}\t{}", cache.binary(&v).display());
            }
        }
        ClaudeCommand::Install { versions } => {
            for v in versions {
                let spec = failopen::claude::ClaudeSpec::parse(&v)?;
                if matches!(spec, failopen::claude::ClaudeSpec::Path(_)) {
                    anyhow::bail!("install takes versions or `latest`, not a path: {v}");
                }
                let bin = failopen::claude::spec::resolve(&spec, &cache).await?;
                println!("{}\t{}", bin.version, bin.path.display());
            }
        }
    }
    Ok(0)
}
