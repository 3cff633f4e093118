//! Random games for unit tests across the crate.

use super::game::Game;
use super::moves::{Move, MoveList};
use super::random;

/// Random legal moves, repeatable from a seed.
pub struct Rng(random::Rng);

impl Rng {
    /// The stream of `seed` with its low bit set, so that 0 is allowed (and
    /// `2n` and `2n + 1` give one stream).
    pub fn new(seed: u64) -> Rng {
        Rng(random::Rng::new(seed | 1))
    }

    /// The stream's next word (never 0).
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A random legal move of `game`, `None` once it is over.
    pub fn legal_move(&mut self, game: &Game) -> Option<Move> {
        let mut list = MoveList::new();
        game.legal_moves(&mut list);
        let moves = list.as_slice();
        (!moves.is_empty()).then(|| moves[self.next_u64() as usize % moves.len()])
    }
}
