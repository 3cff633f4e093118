//! The nodes of the alpha-beta search: their kinds, windows and the
//! view of a child, and the cutoffs decided before a node's moves.

use morris_rules::Position;

use super::score::{MATE_BOUND, from_tt};
use super::shared::Shared;
use super::tt::{Bound, Hit};

/// Moves tried at a non-PV node of depth d before late quiet moves are
/// pruned (index d, 1..=4).
const LATE_MOVES: [usize; 5] = [0, 4, 7, 12, 19];

/// The kind of a node, as a type: each kind gets its own compiled search,
/// with the kind's tests folded away.
pub(super) trait NodeKind {
    /// On the principal variation: an open window, and the line is kept.
    const PV: bool;
}

/// A node of the principal variation.
pub(super) struct Pv;

/// Any other node: searched with a null window, only whether its score
/// passes it matters.
pub(super) struct NonPv;

impl NodeKind for Pv {
    const PV: bool = true;
}

impl NodeKind for NonPv {
    const PV: bool = false;
}

/// The scores that still matter at a node, side to move's view: one of at
/// most `alpha` is no better than what it has elsewhere, one from `beta`
/// on is one the opponent avoids.
#[derive(Clone, Copy)]
pub(super) struct Window {
    pub(super) alpha: i32,
    pub(super) beta: i32,
}

impl Window {
    /// The null window just above `bound`: whether a score exceeds it.
    pub(super) fn null(bound: i32) -> Window {
        Window {
            alpha: bound,
            beta: bound + 1,
        }
    }

    /// The same window from the other side (the child's view).
    pub(super) fn flip(self) -> Window {
        Window {
            alpha: -self.beta,
            beta: -self.alpha,
        }
    }
}

/// How a child's window and score relate to its parent's: negated when
/// the turn passes to the other side, kept when the same side moves again
/// (rule sets, docs/rules.md 13: removal turns, passes, `handagain`).
#[derive(Clone, Copy)]
pub(super) struct View {
    flip: bool,
}

impl View {
    #[inline(always)]
    pub(super) fn of(pos: &Position, child: &Position) -> View {
        View {
            flip: child.side_to_move() != pos.side_to_move(),
        }
    }

    /// The parent's window in the child's view.
    #[inline(always)]
    pub(super) fn window(self, w: Window) -> Window {
        if self.flip { w.flip() } else { w }
    }

    /// The child's score in the parent's view.
    #[inline(always)]
    pub(super) fn score(self, s: i32) -> i32 {
        if self.flip { -s } else { s }
    }
}

/// The stored score, if the table's entry decides the node: deep enough,
/// with a bound on the right side of the window (never at a PV node, whose
/// line must be searched).
#[inline(always)]
pub(super) fn table_cutoff<N: NodeKind>(
    hit: Hit,
    depth: i32,
    ply: usize,
    w: Window,
) -> Option<i32> {
    let s = from_tt(hit.score, ply);
    let decides = !N::PV
        && hit.depth >= depth
        && match hit.bound {
            Bound::Exact => true,
            Bound::Lower => s >= w.beta,
            Bound::Upper => s <= w.alpha,
        };
    decides.then_some(s)
}

/// Late quiet moves near the horizon are not tried, unless every move so
/// far loses (then each is searched for a defence).
#[inline(always)]
pub(super) fn late_move_pruned<N: NodeKind>(
    sh: &Shared,
    depth: i32,
    i: usize,
    quiet: bool,
    best: i32,
) -> bool {
    sh.settings.late_move_pruning
        && quiet
        && !N::PV
        && depth <= 4
        && i >= LATE_MOVES[depth as usize]
        && best > -MATE_BOUND
}
