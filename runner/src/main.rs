//! The `failopen` binary: everything about the command line is in [`cli`].

mod cli;

fn main() {
    std::process::exit(cli::main().code());
}
