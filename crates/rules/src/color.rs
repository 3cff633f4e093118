//! The two players.

use std::ops::Not;

/// A player. White places first unless `FirstPlayer` says black
/// (docs/rules.md 5.1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// White, whose pieces are `W` in a position string.
    White = 0,
    /// Black, whose pieces are `B` in a position string.
    Black = 1,
}

impl Color {
    /// Both players, White first: also the values of `FirstPlayer`.
    pub const BOTH: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black: the player's slot in per-player arrays.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `white` or `black`, as `FirstPlayer` and the messages write it.
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}
