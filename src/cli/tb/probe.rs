//! `morris tb probe`: a position's value and every move's, from the
//! tables or else the built-in book.

use clap::Args;

use crate::cli::CliError;
use crate::cli::stdout::outln;
use crate::cli::tb::rules::{TbRules, clock_zero_only, moves_past_clock_zero};
use morris::rules::Position;
use morris::tablebase::{Known, Source, Tablebases, preference};

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
    let tbs = Tablebases::open(a.common.dir()?, &rules);
    // Where no tables cover it, the built-in book may.
    let book = morris::tablebase::book::builtin().serving(&rules);
    let Some(known) = Known::of_or_value(Some(&tbs), book, &pos, &rules) else {
        return Err(CliError::Message(
            clock_zero_only(&tbs, &pos).unwrap_or_else(|| {
                "position not covered by the tables on disk (nor by the built-in book)".into()
            }),
        ));
    };
    if let (Source::Tables, true, Some(note)) = (
        known.source,
        known.moves.is_empty(),
        moves_past_clock_zero(&tbs, &pos),
    ) {
        eprintln!("morris: {note}");
    }
    if let (Source::Book, true, Some(book)) = (known.source, known.moves.is_empty(), book) {
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
