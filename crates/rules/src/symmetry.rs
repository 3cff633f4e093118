//! The 16 symmetries of the board: rotations, mirrors and the swap of the
//! inner and outer rings, each a permutation of the points that keeps
//! lines and neighbours (on both layouts).

use super::board::{Bitboard, NUM_SQUARES, RING_POS, RING_SQUARES, Square};

/// Number of board symmetries.
const NUM_SYMMETRIES: usize = 16;

/// A symmetry of the board: a permutation of the points that maps lines to
/// lines and neighbours to neighbours, on both layouts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Symmetry(u8);

const SYMMETRY_TABLE: [[u8; NUM_SQUARES]; NUM_SYMMETRIES] = {
    let mut table = [[0u8; NUM_SQUARES]; NUM_SYMMETRIES];
    let mut s = 0;
    while s < NUM_SYMMETRIES {
        let rot = s % 4;
        let mirror = (s / 4) % 2 == 1;
        let swap = s / 8 == 1;
        let mut sq = 0;
        while sq < NUM_SQUARES {
            let (mut r, mut k) = RING_POS[sq];
            if mirror {
                k = (10 - k) % 8;
            }
            k = (k + 2 * rot) % 8;
            if swap {
                r = 2 - r;
            }
            table[s][sq] = RING_SQUARES[r][k];
            sq += 1;
        }
        s += 1;
    }
    table
};

impl Symmetry {
    /// All 16 symmetries; the first is the identity.
    pub const ALL: [Symmetry; NUM_SYMMETRIES] = {
        let mut all = [Symmetry(0); NUM_SYMMETRIES];
        let mut i = 0;
        while i < NUM_SYMMETRIES {
            all[i] = Symmetry(i as u8);
            i += 1;
        }
        all
    };

    /// The point this symmetry maps `sq` to.
    #[inline]
    pub fn apply(self, sq: Square) -> Square {
        Square(SYMMETRY_TABLE[self.0 as usize][sq.index()])
    }

    /// The image of a set of points: each point mapped as by `apply`.
    pub fn apply_bb(self, bb: Bitboard) -> Bitboard {
        let mut out = 0;
        for sq in bb {
            out |= 1 << self.apply(sq).0;
        }
        Bitboard(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Layout;

    #[test]
    fn symmetries_preserve_lines_and_adjacency() {
        for layout in [&Layout::PLAIN, &Layout::DIAGONAL] {
            let mut images = std::collections::HashSet::new();
            for s in Symmetry::ALL {
                let perm: Vec<_> = Square::ALL.iter().map(|&q| s.apply(q)).collect();
                images.insert(perm);
                for line in &layout.lines[..layout.num_lines] {
                    assert!(layout.line_index(s.apply_bb(*line)).is_some());
                }
                for a in Square::ALL {
                    for b in layout.adjacent[a.index()] {
                        assert!(layout.adjacent[s.apply(a).index()].contains(s.apply(b)));
                    }
                }
            }
            assert_eq!(images.len(), NUM_SYMMETRIES);
        }
    }
}
