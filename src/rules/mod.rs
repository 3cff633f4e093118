//! The rules core: board, moves, notation, rule options, positions and
//! games. It knows nothing of search or protocols.

pub mod board;
pub mod color;
mod ending;
pub mod fen;
pub mod game;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod options;
pub mod outcome;
pub mod perft;
pub mod position;
pub mod random;
pub mod setup;
#[cfg(test)]
pub(crate) mod testing;
mod turns;

pub use board::{
    Bitboard, EmptyNeighbours, Layout, LineCounts, Slides, Square, Symmetry, line_indices,
};
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
