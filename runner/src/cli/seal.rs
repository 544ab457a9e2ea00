//! `failopen seal`: the fail-closed wrapper, and seal mode.
//!
//! `failopen seal` runs as a hook command, so every way out of the
//! process must be exit 2 unless a guard ran and decided (exit 0 or 2).
//!
//! Claude Code reads exit 0 as "no objection" and lets any exit code but 2
//! through, so clap's own outcomes are remapped here: an argument error,
//! `--help` and `--version` print what they print and exit 2, and a panic
//! becomes one refusal line and exit 2 (not 101).
//!
//! Seal mode is decided before parsing, from the raw arguments: `seal`
//! appears among them before any `--` (so `failopen --version seal -- g` is
//! seal mode too). `seal --install FILE` is a setup command, not a hook: it
//! keeps exit 0 on success and 1 on error (but its argument errors exit 2).

use std::ffi::OsString;
use std::time::Instant;

use clap::Parser;
use failopen::seal::fail_closed;

use super::args::{Cli, Command, SealArgs};
use super::ExitCode;

/// Whether `args` (with the program name first) ask for seal.
pub fn is_seal_mode(args: &[OsString]) -> bool {
    before_separator(args).any(|a| a == "seal")
}

/// Whether the subcommand in `args` is surely `seal` as a hook: the first
/// argument that is not a flag is `seal` (the top level has no flags that
/// take a value), and no `--install` comes before `--`. Only then are seal's
/// signal handlers installed before parsing: for another subcommand that
/// merely has a `seal` argument (`failopen run --only seal`), or for the
/// `--install` setup command, SIGINT must keep its default meaning.
pub fn is_seal_hook(args: &[OsString]) -> bool {
    let subcommand = args.iter().skip(1).find(|a| !a.to_string_lossy().starts_with('-'));
    subcommand.is_some_and(|s| s == "seal") && !is_install(args)
}

/// Whether `args` may ask for `seal --install` (the setup command, which
/// keeps the default signal behaviour).
fn is_install(args: &[OsString]) -> bool {
    before_separator(args).any(|a| a == "--install" || a.to_string_lossy().starts_with("--install="))
}

fn before_separator(args: &[OsString]) -> impl Iterator<Item = &OsString> {
    args.iter().skip(1).take_while(|a| *a != "--")
}

/// Parse and run in seal mode.
///
/// Every clap outcome and every panic exits 2, `--install` included: the
/// raw arguments cannot tell `seal --install F` from a hook such as
/// `seal g.sh --install` that failed to parse, and only exit 2 is safe for
/// the latter. A successful `--install` still exits 0, a failed one 1.
pub fn main(args: Vec<OsString>, started: Instant) -> ExitCode {
    if is_seal_hook(&args) {
        // As early as possible: from here SIGTERM, SIGINT and SIGHUP are a
        // refusal, not exit 143/130/129. (Otherwise, and on a failure here,
        // seal installs them after parsing, before it reads the payload.)
        let _ = failopen::seal::signals::install();
    }
    let default_hook = fail_closed::quiet_panics();
    let outcome = fail_closed::catch(|| match Cli::try_parse_from(&args) {
        Ok(cli) if matches!(cli.command, Command::Seal(_)) => Ok(super::dispatch(cli, started)),
        // `seal` was an argument of another subcommand: not seal after all.
        Ok(cli) => Err(Box::new(cli)),
        Err(e) => {
            // Help and version go to stdout, errors to stderr; all exit 2.
            let _ = e.print();
            Ok(ExitCode::Refused)
        }
    });
    match outcome {
        Ok(Ok(code)) => code,
        Ok(Err(cli)) => {
            std::panic::set_hook(default_hook);
            super::dispatch(*cli, started)
        }
        Err(message) => {
            eprint!("{}", fail_closed::panic_refusal(&message));
            ExitCode::Refused
        }
    }
}

/// `failopen seal` parsed: `--install`, or run the guard.
pub fn run(args: SealArgs, started: Instant) -> ExitCode {
    if let Some(path) = args.install {
        return match failopen::seal::install::install_file(&path) {
            Ok(report) => {
                println!("{report}");
                match report.summary.unprotected.len() {
                    0 => ExitCode::Success,
                    n => {
                        eprintln!(
                            "error: {n} hook{} can let a refusal or a crash through as written, with seal or \
                             without (listed above as NOT PROTECTED, with the reason); fix {} by hand",
                            if n == 1 { "" } else { "s" },
                            if n == 1 { "it" } else { "them" }
                        );
                        ExitCode::Failure
                    }
                }
            }
            Err(e) => {
                eprintln!("error: {e:#}");
                ExitCode::Failure
            }
        };
    }
    // clap's value parser already refused bad deadlines; checked again here
    // because a panic in from_secs_f64 would exit 101 and fail open.
    let deadline = match failopen::seal::deadline::from_secs(args.deadline) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("failopen seal: --deadline {}: {e}; refusing by default", e.value);
            return ExitCode::Refused;
        }
    };
    let opts = failopen::seal::SealOptions { deadline, expect_json: args.expect_json, argv: args.guard };
    ExitCode::from_seal(failopen::seal::run_from_stdio(&opts, started))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<OsString> {
        std::iter::once("failopen").chain(s.iter().copied()).map(OsString::from).collect()
    }

    #[test]
    fn seal_before_the_separator_is_seal_mode() {
        assert!(is_seal_mode(&args(&["seal", "--", "g"])));
        assert!(is_seal_mode(&args(&["--version", "seal", "--", "g"])));
        assert!(is_seal_mode(&args(&["seal", "-h"])));
        assert!(!is_seal_mode(&args(&["--version"])));
        assert!(!is_seal_mode(&args(&["run", "--", "seal"])));
        assert!(!is_seal_mode(&args(&["seal-x"])));
        assert!(!is_seal_mode(&args(&[])));
    }

    #[test]
    fn signals_are_taken_over_early_only_for_the_seal_hook() {
        assert!(is_seal_hook(&args(&["seal", "--deadline", "2", "--", "g"])));
        assert!(is_seal_hook(&args(&["--version", "seal", "--", "g"])));
        assert!(is_seal_hook(&args(&["seal", "--", "g", "--install"])));
        assert!(!is_seal_hook(&args(&["seal", "--install", "s.json"])));
        assert!(!is_seal_hook(&args(&["seal", "--install=s.json"])));
        assert!(!is_seal_hook(&args(&["run", "--only", "seal"])));
        assert!(!is_seal_hook(&args(&["help", "seal"])));
        assert!(!is_seal_hook(&args(&[])));
    }
}
