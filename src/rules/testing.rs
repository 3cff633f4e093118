//! Random games for unit tests across the crate.

use super::game::Game;
use super::moves::{Move, MoveList};

/// A small deterministic random number generator (xorshift).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A random legal move of `game`, `None` once it is over.
    pub fn legal_move(&mut self, game: &Game) -> Option<Move> {
        let mut list = MoveList::new();
        game.legal_moves(&mut list);
        let moves = list.as_slice();
        (!moves.is_empty()).then(|| moves[self.next() as usize % moves.len()])
    }
}
