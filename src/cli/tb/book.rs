//! `morris tb book`: an opening book cut from the tables.

use std::path::PathBuf;

use clap::Args;

use crate::cli::CliError;
use crate::cli::stdout::outln;
use crate::cli::tb::rules::{TbRules, generate_command};
use morris::tablebase::Tablebases;
use morris::tablebase::book::{Book, BookError};
use morris::tablebase::placement_covers;

/// Arguments of `morris tb book`.
#[derive(Args, Debug)]
pub struct BookArgs {
    #[command(flatten)]
    pub common: TbRules,
    /// Every position within this many plies of the start.
    #[arg(long)]
    pub plies: u32,
    /// The book file to write.
    #[arg(long)]
    pub out: PathBuf,
}

/// `morris tb book`.
pub fn run(args: &BookArgs) -> Result<(), CliError> {
    let rules = args.common.rules.rules()?;
    placement_covers(&rules)?;
    let dir = args.common.dir()?;
    let tables = Tablebases::open(&dir, &rules);
    let book = Book::build(&tables, &rules, args.plies).map_err(|e| match e {
        BookError::NotCovered { .. } => CliError::Message(format!(
            "{e} under {}; run `{}`",
            tables.dir().display(),
            generate_command(&args.common.rules, args.common.dir.as_deref(), true)
        )),
        e => CliError::Message(e.to_string()),
    })?;
    book.write(&args.out)
        .map_err(|e| CliError::Message(e.to_string()))?;
    outln!(
        "{} positions within {} plies, {} bytes, into {}",
        book.len(),
        book.plies(),
        book.to_bytes().len(),
        args.out.display()
    );
    Ok(())
}
