//! The rules core: board, moves, notation, rule options, positions and
//! games. It knows nothing of search or protocols.

// An item is public only when the crate's API holds it.
#![warn(unreachable_pub)]

mod board;
mod color;
mod ending;
mod fen;
mod game;
mod movegen;
mod moves;
mod notation;
mod options;
mod outcome;
mod perft;
mod position;
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
pub use options::{
    Blocked, BoardFull, Capture, CaptureRule, CaptureSwitch, EndgameWhen, Flying, LossCheck,
    MillRemoval, MillShuttle, OptionKind, PlacingMill, RuleOptionId, RuleOptions, RuleSetting,
    RuleValue, Rules, RulesError, Variant,
};
pub use outcome::{EndReason, GameResult, Outcome};
pub use position::{Owed, Position};
pub use setup::{Setup, SetupError, Start};
pub use symmetry::Symmetry;

pub use movegen::removable;
pub use notation::square;
pub use options::parse_bool;
pub use random::Rng;
