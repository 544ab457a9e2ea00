//! The `failopen` binary: parse arguments, call the library, map errors to exit codes.

mod audit_cmd;
mod bisect_cmd;
mod cli;
mod commands;
mod report_cmd;
mod run_cmd;
mod seal_mode;
mod signals;
mod standin_cmd;

use clap::Parser;

fn main() {
    // Seal's deadline counts from here: reading the payload is inside it.
    let started = std::time::Instant::now();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let code = if seal_mode::is_seal_mode(&args) {
        seal_mode::run(args, started)
    } else {
        signals::install_panic_reaper();
        commands::dispatch(cli::Cli::parse_from(args), started)
    };
    std::process::exit(code);
}
