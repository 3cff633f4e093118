//! A compound move (one whole turn) and a fixed-capacity move list.

use std::fmt;
use std::mem::MaybeUninit;

use super::board::{Bitboard, Square};

/// One turn: a placement or a slide/fly/leap, then its removals; or a
/// removal-only turn (docs/rules.md 13): removals and nothing before.
///
/// Packed in 64 bits: `to` (5, 31 = removal-only), `from` (5, 31 = none),
/// the first three removal points (5 each), the low two bits of the
/// removal count, seven more removal points and the count's high two
/// bits. A turn of docs/rules.md Part I fits in the low 27 bits. Removals are kept in
/// the canonical order the generator produced, so two equal moves are
/// equal words.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u64);

const NONE: u64 = 31;

/// The most removals one turn can hold.
pub(crate) const MAX_REMOVALS: usize = 10;

impl Move {
    /// A placement from hand on `to`, with no removal yet.
    #[inline]
    pub const fn place(to: Square) -> Move {
        Move(to.index() as u64 | NONE << 5)
    }

    /// A move of the piece on `from` to `to` (a slide, flight or leap),
    /// with no removal yet.
    #[inline]
    pub const fn slide(from: Square, to: Square) -> Move {
        Move(to.index() as u64 | (from.index() as u64) << 5)
    }

    /// A removal-only turn before its removals are added.
    #[inline]
    pub const fn removal_only() -> Move {
        Move(NONE | NONE << 5)
    }

    /// Builds a move from its parts; `removals` in the order to print them.
    pub fn new(from: Option<Square>, to: Square, removals: &[Square]) -> Move {
        let mv = match from {
            Some(f) => Move::slide(f, to),
            None => Move::place(to),
        };
        mv.with_removals(removals)
    }

    fn with_removals(mut self, removals: &[Square]) -> Move {
        for &r in removals {
            self = self.with_removal(r);
        }
        self
    }

    #[inline]
    const fn slot_shift(i: usize) -> u32 {
        if i < 3 {
            10 + 5 * i as u32
        } else {
            27 + 5 * (i as u32 - 3)
        }
    }

    /// This move with one more removal appended (at most `MAX_REMOVALS`).
    #[inline]
    pub(crate) const fn with_removal(self, sq: Square) -> Move {
        let n = self.num_removals();
        debug_assert!(n < MAX_REMOVALS);
        let count = n as u64 + 1;
        let cleared = self.0 & !(3 << 25) & !(3 << 62);
        Move(
            cleared
                | (sq.index() as u64) << Move::slot_shift(n)
                | (count & 3) << 25
                | (count >> 2) << 62,
        )
    }

    /// The destination: none for a removal-only turn.
    #[inline]
    pub const fn to(self) -> Option<Square> {
        Square::new((self.0 & 31) as usize)
    }

    /// The point the piece moves from: none for a placement or a
    /// removal-only turn.
    #[inline]
    pub const fn from(self) -> Option<Square> {
        Square::new(((self.0 >> 5) & 31) as usize)
    }

    /// The destination of a move known to have one (docs/rules.md 4.1's turns).
    #[inline]
    pub(super) const fn dest(self) -> Square {
        Square::packed((self.0 & 31) as u32)
    }

    /// Whether this is a removal-only turn.
    #[inline]
    pub(crate) const fn is_removal_only(self) -> bool {
        self.0 & 31 == NONE
    }

    /// How many pieces the turn removes or marks from the board, 0 to 10
    /// (removals from the hand are not written, so not counted).
    #[inline]
    pub const fn num_removals(self) -> usize {
        (((self.0 >> 25) & 3) | ((self.0 >> 62) << 2)) as usize
    }

    /// The i-th removal, in move order.
    #[inline]
    pub fn removal(self, i: usize) -> Square {
        debug_assert!(i < self.num_removals());
        Square::packed(((self.0 >> Move::slot_shift(i)) & 31) as u32)
    }

    /// The removed points, in move order.
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
    pub const fn raw(self) -> u64 {
        self.0
    }

    /// The move from a packed word, if the word is one a move packs to.
    pub fn from_raw(raw: u64) -> Option<Move> {
        let mv = Move(raw);
        let n = mv.num_removals();
        let used = if n <= 3 {
            27
        } else {
            Move::slot_shift(n - 1) + 5
        };
        let unused = raw & !(3 << 62) & !((1u64 << used) - 1);
        let to = raw & 31;
        let from = (raw >> 5) & 31;
        let ok = unused == 0
            && n <= MAX_REMOVALS
            && (to < 24 || (to == NONE && from == NONE && n > 0))
            && (from < 24 || from == NONE)
            && (0..n).all(|i| (raw >> Move::slot_shift(i)) & 31 < 24);
        ok.then_some(mv)
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(from) = self.from() {
            write!(f, "{from}-")?;
        }
        if let Some(to) = self.to() {
            write!(f, "{to}")?;
        }
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
const MAX_MOVES: usize = 4096;

/// A move list on the stack. Its slots are left uninitialised until
/// pushed: a list is made at every node of perft and of the tools, and
/// zeroing 32 KiB there costs more than generating the moves.
pub struct MoveList {
    moves: [MaybeUninit<Move>; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl MoveList {
    /// An empty list, with room for 4096 moves.
    #[inline]
    pub const fn new() -> MoveList {
        MoveList {
            moves: [const { MaybeUninit::uninit() }; MAX_MOVES],
            len: 0,
        }
    }

    /// Appends `mv`; a full list (4096 moves) drops it.
    #[inline]
    pub fn push(&mut self, mv: Move) {
        // Capacity is a proven bound, see MAX_MOVES; stay safe regardless.
        if self.len < MAX_MOVES {
            self.moves[self.len].write(mv);
            self.len += 1;
        }
    }

    /// How many moves the list holds.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list holds no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// The moves pushed, in order.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        // SAFETY: the first `len` slots were written by `push` (`len` only
        // grows there, up to MAX_MOVES), and `MaybeUninit<Move>` has the
        // layout of `Move`.
        unsafe { std::slice::from_raw_parts(self.moves.as_ptr().cast::<Move>(), self.len) }
    }

    /// An iterator over the moves pushed, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    /// Whether the list holds `mv`, the same removals in the same order.
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
