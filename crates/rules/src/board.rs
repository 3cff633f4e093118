//! The 24 points, their lines and the board's symmetries.
//!
//! Points are numbered in the order of their names (`a1` = 0 ... `g7` = 23),
//! so iterating a bitboard from its low bit lists points sorted as text,
//! which is the order the notation's canonical forms are defined by.

use std::fmt;

/// Number of points on the board.
pub(crate) const NUM_SQUARES: usize = 24;

/// One of the 24 points.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Square(pub(super) u8);

/// Names of the points in index order (which is also text order).
const NAMES: [&str; NUM_SQUARES] = [
    "a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3", "d5", "d6", "d7", "e3",
    "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7",
];

impl Square {
    /// Every point, in index (text) order.
    pub const ALL: [Square; NUM_SQUARES] = {
        let mut all = [Square(0); NUM_SQUARES];
        let mut i = 0;
        while i < NUM_SQUARES {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The point with this index, if it is one.
    pub const fn new(index: usize) -> Option<Square> {
        if index < NUM_SQUARES {
            Some(Square(index as u8))
        } else {
            None
        }
    }

    /// The point of a packed index already known to be one (a move's
    /// fields); an out-of-range index is a bug, caught in debug builds.
    #[inline]
    pub(crate) const fn packed(index: u32) -> Square {
        debug_assert!(index < NUM_SQUARES as u32);
        Square(index as u8)
    }

    /// The point's number, 0 (`a1`) to 23 (`g7`) in text order.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The set of this point alone.
    pub const fn bit(self) -> Bitboard {
        Bitboard(1 << self.0)
    }

    /// The point's name in lower case (`d2`), as the notation writes it.
    pub fn name(self) -> &'static str {
        NAMES[self.index()]
    }

    /// The point at file `a..g` (0..7) and rank `1..7` (0..7), if that is a point.
    pub fn from_coords(file: u8, rank: u8) -> Option<Square> {
        let bytes = [b'a' + file, b'1' + rank];
        NAMES
            .iter()
            .position(|n| n.as_bytes() == bytes)
            .map(|i| Square(i as u8))
    }

    /// File (0 = a) and rank (0 = rank 1).
    pub fn coords(self) -> (u8, u8) {
        let b = NAMES[self.index()].as_bytes();
        (b[0] - b'a', b[1] - b'1')
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Points by ring and clockwise position from the top-left corner.
pub(super) const RING_SQUARES: [[u8; 8]; 3] = [
    // a7 d7 g7 g4 g1 d1 a1 a4
    [2, 14, 23, 22, 21, 9, 0, 1],
    // b6 d6 f6 f4 f2 d2 b2 b4
    [5, 13, 20, 19, 18, 10, 3, 4],
    // c5 d5 e5 e4 e3 d3 c3 c4
    [8, 12, 17, 16, 15, 11, 6, 7],
];

pub(super) const RING_POS: [(usize, usize); NUM_SQUARES] = {
    let mut table = [(0, 0); NUM_SQUARES];
    let mut r = 0;
    while r < 3 {
        let mut k = 0;
        while k < 8 {
            table[RING_SQUARES[r][k] as usize] = (r, k);
            k += 1;
        }
        r += 1;
    }
    table
};

/// Per byte of a bitboard and its value: the same points in ring order
/// (ring r in byte r, its k-th point in bit k), where neighbours along a
/// ring or across rings are one shift apart.
const RING_BITS: [[u32; 256]; 3] = {
    let mut table = [[0u32; 256]; 3];
    let mut s = 0;
    while s < NUM_SQUARES {
        let (r, k) = RING_POS[s];
        let mut v = 0;
        while v < 256 {
            if v & (1 << (s % 8)) != 0 {
                table[s / 8][v] |= 1 << (8 * r + k);
            }
            v += 1;
        }
        s += 1;
    }
    table
};

#[inline]
fn ring_order(set: Bitboard) -> u32 {
    let b = set.0 as usize;
    RING_BITS[0][b & 255] | RING_BITS[1][(b >> 8) & 255] | RING_BITS[2][(b >> 16) & 255]
}

/// How a set of pieces can slide (see `Layout::slides`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Slides {
    /// Pairs of a piece and an empty neighbour of it.
    pub moves: u32,
    /// Pieces with no empty neighbour.
    pub blocked: u32,
}

/// The points (in ring order) with an empty neighbour in each direction
/// (see `Layout::empty_neighbours`).
#[derive(Clone, Copy, Debug)]
pub struct EmptyNeighbours {
    prev: u32,
    next: u32,
    inner: u32,
    outer: u32,
    any: u32,
}

impl EmptyNeighbours {
    /// The slides of `pieces`, which must not stand on empty points.
    #[inline]
    pub fn slides(&self, pieces: Bitboard) -> Slides {
        let p = ring_order(pieces);
        Slides {
            moves: (p & self.prev).count_ones()
                + (p & self.next).count_ones()
                + (p & self.inner).count_ones()
                + (p & self.outer).count_ones(),
            blocked: (p & !self.any).count_ones(),
        }
    }
}

/// A set of points.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, Debug)]
pub struct Bitboard(pub u32);

impl Bitboard {
    /// No point.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 24 points.
    pub const FULL: Bitboard = Bitboard((1 << NUM_SQUARES) - 1);

    /// Whether the set holds no point.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many points the set holds.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether `sq` is in the set.
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 & (1 << sq.0) != 0
    }

    /// The lowest point of the set (first in text order).
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square(self.0.trailing_zeros() as u8))
        }
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl std::ops::$tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl std::ops::$atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl std::ops::Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::FULL.0)
    }
}

/// Maximum number of lines (mills) on a layout.
pub(crate) const MAX_LINES: usize = 20;

/// Adjacency and mill lines of one board layout (plain or with diagonals).
#[derive(Debug)]
pub struct Layout {
    /// Neighbours of each point.
    pub adjacent: [Bitboard; NUM_SQUARES],
    /// Every line of three, as the set of its points.
    pub lines: [Bitboard; MAX_LINES],
    /// How many entries of `lines` and `middles` are used: 16, or 20 with
    /// the diagonals.
    pub num_lines: usize,
    /// Indices into `lines` of the lines through each point.
    pub lines_through: [[u8; 3]; NUM_SQUARES],
    /// How many entries of `lines_through` each point uses: 2, or 3 on a
    /// corner with the diagonals.
    pub num_lines_through: [u8; NUM_SQUARES],
    /// Ring positions (bit k of each byte) with lines across the rings.
    cross: u32,
    /// The lines through each point as sets, padded with a set no pieces
    /// can fill, so `mills_at` tests all three without a loop.
    line_sets: [[u32; 3]; NUM_SQUARES],
    /// Points with four neighbours (the middles of the middle ring's sides
    /// on the plain board).
    pub junctions: Bitboard,
    /// The lines by family (bit L = `lines[L]`), for the capture rules of
    /// docs/rules.md 11: here the 12 sides of the squares.
    pub side_lines: u32,
    /// The 4 cross lines through the side midpoints.
    pub cross_lines: u32,
    /// The 4 diagonals; none on the plain board.
    pub diagonal_lines: u32,
    /// The middle point of each line.
    pub middles: [Square; MAX_LINES],
    /// Per byte of a bitboard and its value: bit `L + 20 k` is set when
    /// the `k`-th point of line `L` is in that byte and set (see
    /// `line_counts`).
    line_bits: [[u64; 256]; 3],
}

/// How many points of some set each line holds, for all lines at once:
/// bit `L` of a mask stands for `lines[L]`.
#[derive(Clone, Copy, Debug)]
pub struct LineCounts {
    /// Lines holding at least one point.
    pub any: u32,
    /// Lines holding at least two.
    pub two: u32,
    /// Lines holding all three.
    pub all: u32,
}

/// The indices of the set bits of a line mask, lowest first.
#[inline]
pub fn line_indices(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let l = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            l
        })
    })
}

/// The width of one slice of `Layout::line_bits`.
const LINE_SLICE: u32 = 20;

impl Layout {
    /// The plain board (16 mills, 32 adjacencies).
    pub(crate) const PLAIN: Layout = Layout::build(false);
    /// The board with the four diagonals (twelve men's morris, Morabaraba).
    pub(crate) const DIAGONAL: Layout = Layout::build(true);

    const fn build(diagonals: bool) -> Layout {
        let mut lines = [Bitboard(0); MAX_LINES];
        let mut n = 0;
        // The sides of the three squares.
        let mut r = 0;
        while r < 3 {
            let mut side = 0;
            while side < 4 {
                let k = side * 2;
                lines[n] = Bitboard(
                    (1 << RING_SQUARES[r][k])
                        | (1 << RING_SQUARES[r][k + 1])
                        | (1 << RING_SQUARES[r][(k + 2) % 8]),
                );
                n += 1;
                side += 1;
            }
            r += 1;
        }
        // Cross lines through the midpoints; with diagonals, through the corners.
        let side_lines = (1u32 << n) - 1;
        let mut cross_lines = 0u32;
        let mut diagonal_lines = 0u32;
        let mut k = 0;
        while k < 8 {
            if k % 2 == 1 || diagonals {
                if k % 2 == 1 {
                    cross_lines |= 1 << n;
                } else {
                    diagonal_lines |= 1 << n;
                }
                lines[n] = Bitboard(
                    (1 << RING_SQUARES[0][k])
                        | (1 << RING_SQUARES[1][k])
                        | (1 << RING_SQUARES[2][k]),
                );
                n += 1;
            }
            k += 1;
        }
        let mut adjacent = [Bitboard(0); NUM_SQUARES];
        let mut lines_through = [[0u8; 3]; NUM_SQUARES];
        let mut num_lines_through = [0u8; NUM_SQUARES];
        let mut l = 0;
        while l < n {
            // Each line is a path of three points: its middle one touches both ends.
            let bits = lines[l].0;
            let mut s = 0;
            while s < NUM_SQUARES {
                if bits & (1 << s) != 0 {
                    lines_through[s][num_lines_through[s] as usize] = l as u8;
                    num_lines_through[s] += 1;
                }
                s += 1;
            }
            let mid = Layout::middle_of(lines[l]);
            let ends = bits & !(1 << mid);
            adjacent[mid].0 |= ends;
            let mut s = 0;
            while s < NUM_SQUARES {
                if ends & (1 << s) != 0 {
                    adjacent[s].0 |= 1 << mid;
                }
                s += 1;
            }
            l += 1;
        }
        let mut middles = [Square(0); MAX_LINES];
        let mut l = 0;
        while l < n {
            middles[l] = Square(Layout::middle_of(lines[l]) as u8);
            l += 1;
        }
        let mut line_sets = [[u32::MAX; 3]; NUM_SQUARES];
        let mut s = 0;
        while s < NUM_SQUARES {
            let mut k = 0;
            while k < num_lines_through[s] as usize {
                line_sets[s][k] = lines[lines_through[s][k] as usize].0;
                k += 1;
            }
            s += 1;
        }
        let mut junctions = 0;
        let mut s = 0;
        while s < NUM_SQUARES {
            if adjacent[s].0.count_ones() >= 4 {
                junctions |= 1 << s;
            }
            s += 1;
        }
        let mut line_bits = [[0u64; 256]; 3];
        let mut l = 0;
        while l < n {
            let mut k = 0;
            let mut s = 0;
            while s < NUM_SQUARES {
                if lines[l].0 & (1 << s) != 0 {
                    let bit = 1u64 << (l as u32 + LINE_SLICE * k);
                    let mut v = 0;
                    while v < 256 {
                        if v & (1 << (s % 8)) != 0 {
                            line_bits[s / 8][v] |= bit;
                        }
                        v += 1;
                    }
                    k += 1;
                }
                s += 1;
            }
            l += 1;
        }
        Layout {
            adjacent,
            lines,
            num_lines: n,
            lines_through,
            num_lines_through,
            line_sets,
            cross: if diagonals { 0xFF_FFFF } else { 0xAA_AAAA },
            junctions: Bitboard(junctions),
            side_lines,
            cross_lines,
            diagonal_lines,
            middles,
            line_bits,
        }
    }

    /// How many of `pieces` each line holds, by three table lookups.
    #[inline]
    pub fn line_counts(&self, pieces: Bitboard) -> LineCounts {
        let b = pieces.0 as usize;
        let slices = self.line_bits[0][b & 255]
            | self.line_bits[1][(b >> 8) & 255]
            | self.line_bits[2][(b >> 16) & 255];
        let mask = (1u64 << LINE_SLICE) - 1;
        let p0 = (slices & mask) as u32;
        let p1 = ((slices >> LINE_SLICE) & mask) as u32;
        let p2 = (slices >> (2 * LINE_SLICE)) as u32;
        LineCounts {
            any: p0 | p1 | p2,
            two: (p0 & p1) | (p0 & p2) | (p1 & p2),
            all: p0 & p1 & p2,
        }
    }

    /// The middle point of a line: on a ring side the odd position, on a
    /// cross line or diagonal the middle ring.
    const fn middle_of(line: Bitboard) -> usize {
        let mut s = 0;
        while s < NUM_SQUARES {
            if line.0 & (1 << s) != 0 {
                let (r, k) = RING_POS[s];
                let same_ring = {
                    let mut all = true;
                    let mut t = 0;
                    while t < NUM_SQUARES {
                        if line.0 & (1 << t) != 0 && RING_POS[t].0 != r {
                            all = false;
                        }
                        t += 1;
                    }
                    all
                };
                if (same_ring && k % 2 == 1) || (!same_ring && r == 1) {
                    return s;
                }
            }
            s += 1;
        }
        0
    }

    /// Lines through `sq`.
    #[inline]
    pub(crate) fn lines_through(&self, sq: Square) -> impl Iterator<Item = (usize, Bitboard)> + '_ {
        let i = sq.index();
        self.lines_through[i][..self.num_lines_through[i] as usize]
            .iter()
            .map(|&l| (l as usize, self.lines[l as usize]))
    }

    /// Number of lines through `to` that `pieces` (which includes `to`) complete.
    #[inline]
    pub fn mills_at(&self, pieces: Bitboard, to: Square) -> u32 {
        let [a, b, c] = self.line_sets[to.index()];
        let p = pieces.0;
        (p & a == a) as u32 + (p & b == b) as u32 + (p & c == c) as u32
    }

    /// The slides of `pieces` onto `empty` (points must not be in both).
    #[inline]
    pub fn slides(&self, pieces: Bitboard, empty: Bitboard) -> Slides {
        self.empty_neighbours(empty).slides(pieces)
    }

    /// Where the empty points are, seen from their neighbours: what
    /// `slides` needs of `empty`, worked out once for both sides.
    #[inline]
    pub fn empty_neighbours(&self, empty: Bitboard) -> EmptyNeighbours {
        let e = ring_order(empty);
        // From each point: the previous and next one on its ring, the same
        // position on the next ring in and out.
        let prev = ((e << 1) & 0xFE_FEFE) | ((e >> 7) & 0x01_0101);
        let next = ((e >> 1) & 0x7F_7F7F) | ((e << 7) & 0x80_8080);
        let inner = (e >> 8) & self.cross & 0x00_FFFF;
        let outer = (e << 8) & self.cross & 0xFF_FF00;
        EmptyNeighbours {
            prev,
            next,
            inner,
            outer,
            any: prev | next | inner | outer,
        }
    }

    /// The points not in `pieces` that would complete a line of `pieces`
    /// (the third points of lines holding two of them).
    #[inline]
    pub(crate) fn closing_points(&self, pieces: Bitboard) -> Bitboard {
        let counts = self.line_counts(pieces);
        let mut out = 0;
        for l in line_indices(counts.two & !counts.all) {
            out |= self.lines[l].0;
        }
        Bitboard(out & !pieces.0)
    }

    /// Every point of `pieces` that stands in a complete line of `pieces`.
    #[inline]
    pub fn in_mills(&self, pieces: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for l in line_indices(self.line_counts(pieces).all) {
            out |= self.lines[l];
        }
        out
    }

    /// Index of the line with exactly these points, if it is one.
    pub(crate) fn line_index(&self, points: Bitboard) -> Option<usize> {
        self.lines[..self.num_lines]
            .iter()
            .position(|&l| l == points)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::ALL.into_iter().find(|s| s.name() == name).unwrap()
    }

    /// A stream of random words after `seed`.
    fn random_words(seed: u64) -> impl Iterator<Item = u64> {
        let mut rng = crate::Rng::new(seed);
        std::iter::repeat_with(move || rng.next_u64())
    }

    #[test]
    fn slides_match_counting_each_neighbour() {
        let mut words = random_words(0x2545_F491_4F6C_DD1D);
        for layout in [&Layout::PLAIN, &Layout::DIAGONAL] {
            for x in words.by_ref().take(5000) {
                let pieces = Bitboard(x as u32 & Bitboard::FULL.0);
                let empty = Bitboard((x >> 24) as u32 & !pieces.0 & Bitboard::FULL.0);
                let free = |sq: Square| (layout.adjacent[sq.index()] & empty).count();
                let expected = Slides {
                    moves: pieces.map(free).sum(),
                    blocked: pieces.filter(|&sq| free(sq) == 0).count() as u32,
                };
                assert_eq!(
                    layout.slides(pieces, empty),
                    expected,
                    "{pieces:?} {empty:?}"
                );
            }
        }
    }

    #[test]
    fn line_counts_match_counting_each_line() {
        let mut words = random_words(0x9E37_79B9_7F4A_7C15);
        for layout in [&Layout::PLAIN, &Layout::DIAGONAL] {
            for x in words.by_ref().take(5000) {
                let pieces = Bitboard(x as u32 & Bitboard::FULL.0);
                let c = layout.line_counts(pieces);
                for (l, &line) in layout.lines[..layout.num_lines].iter().enumerate() {
                    let n = (line & pieces).count();
                    let bit = |m: u32| m >> l & 1 == 1;
                    assert_eq!(bit(c.any), n >= 1);
                    assert_eq!(bit(c.two), n >= 2);
                    assert_eq!(bit(c.all), n == 3);
                }
                let masks = c.any | c.two | c.all;
                assert_eq!(masks >> layout.num_lines, 0);
                let listed: Vec<usize> = line_indices(c.two).collect();
                let expected: Vec<usize> = (0..layout.num_lines)
                    .filter(|&l| c.two >> l & 1 == 1)
                    .collect();
                assert_eq!(listed, expected);
            }
            for s in Square::ALL {
                assert_eq!(
                    layout.junctions.contains(s),
                    layout.adjacent[s.index()].count() >= 4
                );
            }
        }
    }

    #[test]
    fn names_sorted_and_coords_round_trip() {
        let mut sorted = NAMES;
        sorted.sort();
        assert_eq!(sorted, NAMES);
        for s in Square::ALL {
            let (f, r) = s.coords();
            assert_eq!(Square::from_coords(f, r), Some(s));
        }
        assert_eq!(Square::from_coords(3, 3), None);
    }

    #[test]
    fn plain_layout_counts() {
        let l = &Layout::PLAIN;
        assert_eq!(l.num_lines, 16);
        let adj: u32 = l.adjacent.iter().map(|b| b.count()).sum();
        assert_eq!(adj, 2 * 32);
        assert_eq!(
            l.adjacent[sq("d2").index()],
            sq("d1").bit() | sq("d3").bit() | sq("b2").bit() | sq("f2").bit()
        );
        assert_eq!(
            l.adjacent[sq("a1").index()],
            sq("a4").bit() | sq("d1").bit()
        );
    }

    #[test]
    fn diagonal_layout_counts() {
        let l = &Layout::DIAGONAL;
        assert_eq!(l.num_lines, 20);
        let adj: u32 = l.adjacent.iter().map(|b| b.count()).sum();
        assert_eq!(adj, 2 * 40);
        assert!(l.adjacent[sq("b2").index()].contains(sq("a1")));
        assert!(l.adjacent[sq("b2").index()].contains(sq("c3")));
        assert!(!l.adjacent[sq("a1").index()].contains(sq("c3")));
    }
}
