//! The `failopen` binary: everything about the command line is in [`cli`].

mod cli;

fn main() {
    let code = cli::main().code();
    failopen::sandbox::settle();
    std::process::exit(code);
}
