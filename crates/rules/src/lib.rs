//! The rules core: board, moves, notation, rule options, positions and
//! games. It knows nothing of search or protocols.
//!
//! A game of the standard rules, played from move text, its legal moves,
//! a position string and a perft count:
//!
//! ```
//! use morris_rules::{Game, MoveList, Position, RuleOptionId, Rules};
//!
//! let rules = Rules::default(); // the standard game, docs/rules.md Part I
//! let mut game = Game::new(rules, Position::start(&rules));
//! for token in ["d2", "d6", "b4", "f4"] {
//!     game.play_text(token).expect("a legal placement");
//! }
//! let mut moves = MoveList::default();
//! game.legal_moves(&mut moves);
//! assert_eq!(moves.len(), 20); // the empty points
//! let fen = game.position().to_fen(&rules);
//! assert_eq!(fen, "3/1B1/3/1W2B1/3/1W1/3 w 7 7 0 3");
//! assert_eq!(Position::from_fen(&fen, &rules).unwrap(), *game.position());
//! // No mill can close in the first three placements.
//! assert_eq!(Position::start(&rules).perft(&rules, 3), 24 * 23 * 22);
//!
//! // The rule options are typed: three stones each.
//! let mut small = rules;
//! small.set_option(RuleOptionId::Pieces, "3").unwrap();
//! assert_eq!(small.pieces, 3);
//! ```

// An item is public only when the crate's API holds it.
#![warn(missing_docs, unreachable_pub)]

mod board;
mod color;
mod ending;
mod fen;
mod game;
mod movegen;
mod moves;
mod notation;
mod option_values;
mod options;
mod outcome;
mod perft;
mod position;
mod presets;
mod random;
mod setup;
mod step;
mod symmetry;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
mod turns;

pub use board::{Bitboard, EmptyNeighbours, Layout, LineCounts, Slides, Square, line_indices};
pub use color::Color;
pub use fen::{FenError, START_FEN};
pub use game::Game;
pub use movegen::{MoveSink, Removals};
pub use moves::{Move, MoveList};
pub use notation::{Alternatives, MoveError, MoveReason, MoveText};
pub use option_values::{
    Blocked, BoardFull, Capture, CaptureRule, CaptureSwitch, EndgameWhen, Flying, LossCheck,
    MillRemoval, MillShuttle, PlacingMill, Variant,
};
pub use options::{
    OptionKind, RuleOptionId, RuleOptions, RuleSetting, RuleValue, Rules, RulesError,
};
pub use outcome::{EndReason, GameResult, Outcome};
pub use position::{Owed, Position};
pub use setup::{Setup, SetupError, Start};
pub use symmetry::Symmetry;

pub use movegen::removable;
pub use notation::square;
pub use options::parse_bool;
pub use random::Rng;
