//! A compound move (one whole turn) and a fixed-capacity move list.

use std::fmt;

use super::board::{Bitboard, Square};

/// One turn: a placement or a slide/fly, then up to three removals.
///
/// Packed in 32 bits: `to` (5), `from` (5, 31 = placement), three removal
/// points (5 each) and the removal count (2). Removals are kept in the
/// canonical order the generator produced, so two equal moves are equal
/// words.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u32);

const NO_FROM: u32 = 31;

impl Move {
    #[inline]
    pub const fn place(to: Square) -> Move {
        Move(to.index() as u32 | NO_FROM << 5)
    }

    #[inline]
    pub const fn slide(from: Square, to: Square) -> Move {
        Move(to.index() as u32 | (from.index() as u32) << 5)
    }

    /// Builds a move from its parts; `removals` in the order to print them.
    pub fn new(from: Option<Square>, to: Square, removals: &[Square]) -> Move {
        let mut mv = match from {
            Some(f) => Move::slide(f, to),
            None => Move::place(to),
        };
        for &r in removals {
            mv = mv.with_removal(r);
        }
        mv
    }

    /// This move with one more removal appended (at most three).
    #[inline]
    pub const fn with_removal(self, sq: Square) -> Move {
        let n = self.num_removals();
        debug_assert!(n < 3);
        Move((self.0 & !(3 << 25)) | (sq.index() as u32) << (10 + 5 * n) | ((n as u32 + 1) << 25))
    }

    #[inline]
    pub const fn to(self) -> Square {
        Square::packed(self.0 & 31)
    }

    #[inline]
    pub const fn from(self) -> Option<Square> {
        Square::new(((self.0 >> 5) & 31) as usize)
    }

    #[inline]
    pub const fn num_removals(self) -> usize {
        ((self.0 >> 25) & 3) as usize
    }

    /// The i-th removal, in move order.
    #[inline]
    pub fn removal(self, i: usize) -> Square {
        debug_assert!(i < self.num_removals());
        Square::packed((self.0 >> (10 + 5 * i)) & 31)
    }

    pub fn removals(self) -> impl Iterator<Item = Square> {
        (0..self.num_removals()).map(move |i| self.removal(i))
    }

    /// The set of removed points (what identifies the move, whatever the order).
    #[inline]
    pub fn removed(self) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        for r in self.removals() {
            bb |= r.bit();
        }
        bb
    }

    /// Origin and target as one number below 1024, for tables indexed
    /// by the move without its removals.
    #[inline]
    pub const fn origin_target(self) -> usize {
        (self.0 & 1023) as usize
    }

    /// A compact number for tables (history, killers): the packed word.
    #[inline]
    pub const fn raw(self) -> u32 {
        self.0
    }

    /// The move from a packed word, if the word is one a move packs to.
    pub fn from_raw(raw: u32) -> Option<Move> {
        let mv = Move(raw);
        let ok = raw >> 27 == 0
            && (raw & 31) < 24
            && ((raw >> 5) & 31 < 24 || (raw >> 5) & 31 == NO_FROM)
            && (0..mv.num_removals()).all(|i| (raw >> (10 + 5 * i)) & 31 < 24);
        ok.then_some(mv)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(from) = self.from() {
            write!(f, "{from}-")?;
        }
        write!(f, "{}", self.to())?;
        for r in self.removals() {
            write!(f, "x{r}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Room for the legal moves of a position.
///
/// Reachable positions stay in the hundreds; only set-up positions with
/// many flights that each close three lines under `RemovePerMill` and
/// `MayPass` could approach this (the list then keeps the first 4096).
pub const MAX_MOVES: usize = 4096;

/// A move list on the stack.
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move(0); MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, mv: Move) {
        // Capacity is a proven bound, see MAX_MOVES; stay safe regardless.
        if self.len < MAX_MOVES {
            self.moves[self.len] = mv;
            self.len += 1;
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    pub fn contains(&self, mv: Move) -> bool {
        self.as_slice().contains(&mv)
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
