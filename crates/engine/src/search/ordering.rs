//! Move ordering: the transposition-table move, then mills (removing
//! the most dangerous piece first), then moves that block an opponent
//! mill, then killers, then the rest by history.

use morris_rules::{Bitboard, Layout, Move, MoveSink, Position, Rules, line_indices};

use super::MAX_PLY;

const TT_MOVE: i32 = 1 << 30;
const MILL: i32 = 1 << 28;
pub(super) const BLOCK: i32 = 1 << 27;
const KILLER: i32 = 1 << 26;
/// History scores stay within this, below the killers.
const HISTORY_MAX: i32 = 1 << 20;

/// Per-thread ordering memory: killer moves per ply and a history of quiet
/// moves that caused cutoffs, per side, origin and target.
pub(super) struct MoveOrdering {
    killers: [[Option<Move>; 2]; MAX_PLY + 2],
    history: [[i32; 1024]; 2],
}

/// Scores moves for one node as they come (see `MoveOrdering::scorer`).
pub(super) struct Scorer<'a> {
    out: &'a mut Vec<(Move, i32)>,
    lines: TheirLines,
    tt: u64,
    killers: [u64; 2],
    history: &'a [i32; 1024],
}

impl MoveSink for Scorer<'_> {
    #[inline(always)]
    fn push(&mut self, mv: Move) {
        let m = mv.raw();
        let lines = &self.lines;
        let score = if m == self.tt {
            TT_MOVE
        } else if mv.num_removals() > 0 {
            let removed = mv.removed();
            MILL + 64 * (removed & lines.threats).count() as i32
                + 16 * (removed & !lines.in_mills).count() as i32
                + mv.to().is_some_and(|to| lines.open.contains(to)) as i32 * 32
        } else if mv.to().is_some_and(|to| lines.open.contains(to)) {
            BLOCK
        } else if m == self.killers[0] {
            KILLER + 1
        } else if m == self.killers[1] {
            KILLER
        } else {
            self.history[mv.origin_target()]
        };
        self.out.push((mv, score));
    }
}

/// What the ordering needs to know of the opponent's lines.
struct TheirLines {
    /// Empty points that would complete one of their mills.
    open: Bitboard,
    /// Their pieces in such a line: removing one breaks a mill in the making.
    threats: Bitboard,
    /// Their pieces in closed mills.
    in_mills: Bitboard,
}

fn their_lines(layout: &Layout, theirs: Bitboard, ours: Bitboard) -> TheirLines {
    let mut t = TheirLines {
        open: Bitboard::EMPTY,
        threats: Bitboard::EMPTY,
        in_mills: Bitboard::EMPTY,
    };
    let counts = layout.line_counts(theirs);
    for l in line_indices(counts.all) {
        t.in_mills |= layout.lines[l];
    }
    // Two of theirs and none of ours: the third point is empty.
    let ours = layout.line_counts(ours).any;
    for l in line_indices(counts.two & !counts.all & !ours) {
        let line = layout.lines[l];
        t.open |= line & !theirs;
        t.threats |= line & theirs;
    }
    t
}

impl MoveOrdering {
    pub(super) fn new() -> Box<MoveOrdering> {
        Box::new(MoveOrdering {
            killers: [[None; 2]; MAX_PLY + 2],
            history: [[0; 1024]; 2],
        })
    }

    pub(super) fn clear(&mut self) {
        self.killers = [[None; 2]; MAX_PLY + 2];
        self.history = [[0; 1024]; 2];
    }

    /// A sink that appends each move given to it to `out` with its score
    /// (higher first): generation fills the move stack straight away.
    pub(super) fn scorer<'a>(
        &'a self,
        pos: &Position,
        rules: &Rules,
        ply: usize,
        tt_move: Option<Move>,
        out: &'a mut Vec<(Move, i32)>,
    ) -> Scorer<'a> {
        let layout = rules.layout();
        let me = pos.side_to_move();
        // Compared as packed words; no move packs to u64::MAX.
        let raw = |m: Option<Move>| m.map_or(u64::MAX, Move::raw);
        let [k0, k1] = self.killers[ply].map(raw);
        Scorer {
            out,
            lines: their_lines(layout, pos.pieces(!me), pos.pieces(me)),
            tt: raw(tt_move),
            killers: [k0, k1],
            history: &self.history[me.index()],
        }
    }

    /// Whether `mv` is a quiet move (no mill, no block) ranked as a killer.
    pub(super) fn is_killer(&self, ply: usize, mv: Move) -> bool {
        self.killers[ply].contains(&Some(mv))
    }

    /// A quiet move caused a cutoff at `depth`; `tried` are the moves
    /// searched before it, those marked non-zero quiet ones.
    pub(super) fn reward(
        &mut self,
        pos: &Position,
        ply: usize,
        depth: i32,
        mv: Move,
        tried: &[(Move, i32)],
    ) {
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        let bonus = (depth * depth).min(400) * 32;
        let history = &mut self.history[pos.side_to_move().index()];
        let update = |h: &mut i32, b: i32| *h += b - *h * b.abs() / HISTORY_MAX;
        update(&mut history[mv.origin_target()], bonus);
        for &(t, _) in tried.iter().filter(|t| t.1 != 0 && t.0 != mv) {
            update(&mut history[t.origin_target()], -bonus);
        }
    }
}

/// Whether `mv` is tactical: closes a mill or blocks one of the opponent's.
pub(super) fn is_tactical(pos: &Position, rules: &Rules, mv: Move) -> bool {
    if mv.num_removals() > 0 {
        return true;
    }
    let me = pos.side_to_move();
    let open = their_lines(rules.layout(), pos.pieces(!me), pos.pieces(me)).open;
    mv.to().is_some_and(|to| open.contains(to))
}
