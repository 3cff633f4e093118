//! A root move and what the search found of it.

use morris_rules::Move;

/// A root move with what the last search of it found.
#[derive(Clone, Debug)]
pub(super) struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev: i32,
    /// The score reported for its line (`shown_score`).
    pub shown: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
}
