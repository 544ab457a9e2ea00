//! The `failopen` binary: parse arguments, call the library, map errors to exit codes.

mod cli;
mod audit_cmd;
mod bisect_cmd;
mod commands;
mod report_cmd;
mod run_cmd;
mod signals;
mod standin_cmd;

use clap::Parser;

fn main() {
    signals::install_panic_reaper();
    let cli = cli::Cli::parse();
    let code = commands::dispatch(cli);
    std::process::exit(code);
}
