//! `morris tb probe`: a position's value and every move's, from the
//! tables or else the built-in book.

use clap::Args;

use crate::cli::CliError;
use crate::cli::stdout::outln;
use crate::cli::tb::rules::TbRules;
use morris::engine::Oracle;
use morris::rules::Position;
use morris::tablebase::{Source, preference};

#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// The position string.
    pub fen: String,
    #[command(flatten)]
    pub common: TbRules,
}

/// `morris tb probe`.
pub fn run(a: &ProbeArgs) -> Result<(), CliError> {
    let rules = a.common.rules()?;
    let pos = Position::from_fen(&a.fen, &rules)?;
    let mut oracle = Oracle::new(Some(a.common.dir()?));
    let tbs = oracle.reopen_for(&rules).expect("a folder opens tables");
    // Where no tables cover it, the built-in book may.
    let Some(known) = oracle.known_or_value(&pos, &rules) else {
        return Err(CliError::Message(
            oracle.clock_zero_only(&pos).unwrap_or_else(|| {
                "position not covered by the tables on disk (nor by the built-in book)".into()
            }),
        ));
    };
    if let (Source::Tables, true, Some(note)) = (
        known.source,
        known.moves.is_empty(),
        oracle.moves_past_clock_zero(&pos),
    ) {
        eprintln!("morris: {note}");
    }
    if let (Source::Book, true, Some(book)) =
        (known.source, known.moves.is_empty(), oracle.book(&rules))
    {
        eprintln!(
            "morris: the moves of this position lead past the book's {} plies: no value for them without tables",
            book.plies()
        );
    }
    match known.source {
        Source::Tables => {
            outln!("value: {}", known.value);
            let stored = tbs.probe_table(&pos).expect("covered");
            if known.value != stored {
                outln!("stored: {stored} (the move-count draw comes first)");
            }
        }
        Source::Book => outln!("value: {} (book)", known.value),
    }
    let mut moves = known.moves;
    moves.sort_by_key(|m| std::cmp::Reverse(preference(m.probe)));
    for m in moves {
        outln!("{:<12} {}", m.mv.to_string(), m.probe);
    }
    Ok(())
}
