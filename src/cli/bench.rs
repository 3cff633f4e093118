//! `morris bench`: the bench line, whose node count is the search's signature.

use clap::Args;

use super::CliError;
use super::stdout::outln;
use morris::search::bench;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Search every position to this depth instead of its own.
    #[arg(long)]
    pub depth: Option<u32>,
}

pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    outln!("{}", bench::bench(args.depth));
    Ok(())
}
