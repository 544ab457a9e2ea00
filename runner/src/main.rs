//! The `failopen` binary: parse arguments, call the library, map errors to exit codes.

mod cli;
mod commands;
mod run_cmd;

use clap::Parser;

fn main() {
    let cli = cli::Cli::parse();
    let code = commands::dispatch(cli);
    std::process::exit(code);
}
