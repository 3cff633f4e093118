//! The `morris` program: diagnostics to stderr, then the command line.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    cli::run()
}
