//! `morris puzzles`: puzzles from the mistakes of real games, in the other
//! public app's (Sanmill's) puzzle JSON on stdout.

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use super::args::read_input;
use super::stdout::outln;
use morris::engine::{Oracle, tables_folder};
use morris::tools::{Criteria, InputError, export_puzzles, find_puzzles, parse_records};

const PUZZLES_HELP: &str = "\
A puzzle is a position of a game whose player to move could keep a win or a
draw with at most --max-keeping moves among at least --min-legal, where the
game played a move that threw the value away. Values come from the tables of
the default folder ($MORRIS_TB_DIR, else ~/.cache/morris/tb: the automatic
ones, the compact solution) and the built-in opening books; positions that
neither knows make no puzzle. The solutions are the value-keeping moves
(isOptimal: the fastest wins, or every drawing move); removals are moves of
their own by the same side, as Sanmill's format has them.

EXAMPLES:
  morris puzzles games.pgn > mistakes.sanmill_puzzles
  morris puzzles playok-games.txt --max-keeping 2";

/// Arguments of `morris puzzles`.
#[derive(Args, Debug)]
#[command(after_help = PUZZLES_HELP)]
pub struct PuzzlesArgs {
    /// Game records in any dialect (ours, PlayOK's, Sanmill's); `-` or none: stdin.
    pub input: Option<PathBuf>,
    /// At most this many moves keep the value.
    #[arg(long, default_value_t = 1)]
    pub max_keeping: usize,
    /// Among at least this many legal moves.
    #[arg(long, default_value_t = 5)]
    pub min_legal: usize,
}

/// `morris puzzles`.
pub fn run(args: &PuzzlesArgs) -> Result<(), CliError> {
    if args.max_keeping == 0 {
        return Err("--max-keeping must be at least 1".into());
    }
    let (name, text) = read_input(args.input.as_deref())?;
    let error = |source| InputError::Record {
        name: name.clone(),
        source,
    };
    let records = parse_records(&text).map_err(error)?;
    if records.is_empty() {
        return Err(InputError::Empty {
            name,
            what: "game record",
        }
        .into());
    }
    let mut oracle = Oracle::new(tables_folder(None).ok());
    let criteria = Criteria {
        max_keeping: args.max_keeping,
        min_legal: args.min_legal,
    };
    let mut puzzles = Vec::new();
    for (g, record) in records.iter().enumerate() {
        let game = record.replay().map_err(error)?;
        oracle.reopen_for(game.rules());
        puzzles.extend(find_puzzles(
            &game,
            &format!("game {}", g + 1),
            criteria,
            |p, r| oracle.known(p, r),
        ));
    }
    for fault in oracle.take_faults() {
        eprintln!("morris puzzles: error: {fault}");
    }
    let date = jiff::Timestamp::now()
        .strftime("%Y-%m-%dT%H:%M:%SZ")
        .to_string();
    outln!("{:#}", export_puzzles(&puzzles, &date));
    eprintln!(
        "morris puzzles: {} puzzles from {} games",
        puzzles.len(),
        records.len()
    );
    Ok(())
}
