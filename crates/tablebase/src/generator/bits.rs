//! Moves on bare stone sets, for the generators: the rules core's moves
//! (`rules::movegen`) without building positions, forward (placements,
//! slides and flights with every distinct set of removals) and backward
//! (un-slides). `verify` checks the tables made with them against the
//! rules core.

use crate::sector::Sector;
use morris_rules::removable;
use morris_rules::{Bitboard, Flying, Layout, Rules, Square};

/// Calls back with the stone sets after a move: the mover's, the other
/// side's, and whether the move removed anything; returning true stops.
pub(super) trait Visit: FnMut(u32, u32, bool) -> bool {}
impl<F: FnMut(u32, u32, bool) -> bool> Visit for F {}

/// The move generator of one rule set.
pub(super) struct Mover {
    rules: Rules,
    layout: &'static Layout,
}

impl Mover {
    pub(super) fn new(rules: &Rules) -> Mover {
        Mover {
            rules: *rules,
            layout: rules.layout(),
        }
    }

    /// Whether the side to move in sector `s` flies (`Position::can_fly`).
    pub(super) fn flies(&self, s: Sector) -> bool {
        let fly_at = self.rules.fly_at;
        match self.rules.flying {
            Flying::Off => false,
            Flying::Three => s.mine_hand == 0 && s.mine <= fly_at,
            Flying::Both => !s.placing() && (s.mine <= fly_at || s.theirs <= fly_at),
        }
    }

    /// What `mine`'s removals may take from `theirs` now.
    #[inline]
    pub(super) fn removable(&self, theirs: u32) -> u32 {
        removable(self.layout, self.rules.mill_removal, Bitboard(theirs)).0
    }

    /// Each slide (each flight with `fly`) of `mine` against `theirs`,
    /// each distinct outcome once, to `f`; whether `f` stopped it.
    /// `scratch` is reused between calls (no allocation once grown).
    pub(super) fn slides(
        &self,
        mine: u32,
        theirs: u32,
        fly: bool,
        scratch: &mut Vec<u32>,
        f: &mut impl Visit,
    ) -> bool {
        let empty = !(mine | theirs) & Bitboard::FULL.0;
        let removable_now = self.removable(theirs);
        for from in Bitboard(mine) {
            let targets = if fly {
                empty
            } else {
                self.layout.adjacent[from.index()].0 & empty
            };
            for to in Bitboard(targets) {
                let after = mine ^ from.bit().0 ^ to.bit().0;
                if self.outcomes(after, to, theirs, removable_now, scratch, f) {
                    return true;
                }
            }
        }
        false
    }

    /// Each placement of a stone from the hand, as `slides`.
    pub(super) fn placements(
        &self,
        mine: u32,
        theirs: u32,
        scratch: &mut Vec<u32>,
        f: &mut impl Visit,
    ) -> bool {
        let empty = !(mine | theirs) & Bitboard::FULL.0;
        let removable_now = self.removable(theirs);
        for to in Bitboard(empty) {
            let after = mine | to.bit().0;
            if self.outcomes(after, to, theirs, removable_now, scratch, f) {
                return true;
            }
        }
        false
    }

    /// The outcomes of a move that leaves the mover on `after`, having
    /// arrived at point `to`: its removals, if it closes a mill.
    #[inline]
    fn outcomes(
        &self,
        after: u32,
        to: Square,
        theirs: u32,
        removable_now: u32,
        scratch: &mut Vec<u32>,
        f: &mut impl Visit,
    ) -> bool {
        let mills = self.layout.mills_at(Bitboard(after), to);
        if mills == 0 {
            f(after, theirs, false)
        } else if !self.rules.remove_per_mill && !self.rules.may_pass {
            if removable_now == 0 {
                f(after, theirs, false)
            } else {
                Bitboard(removable_now)
                    .into_iter()
                    .any(|r| f(after, theirs ^ r.bit().0, true))
            }
        } else {
            let k = if self.rules.remove_per_mill { mills } else { 1 };
            scratch.clear();
            self.removal_outcomes(k, theirs, scratch);
            scratch.sort_unstable();
            scratch.dedup();
            scratch.iter().any(|&o| f(after, o, o != theirs))
        }
    }

    /// The sets `theirs` can be left as by `left` removals, each chosen
    /// after the previous one (any prefix of them under `MayPass`).
    fn removal_outcomes(&self, left: u32, theirs: u32, out: &mut Vec<u32>) {
        let can = if left == 0 { 0 } else { self.removable(theirs) };
        if can == 0 || self.rules.may_pass {
            out.push(theirs);
        }
        for r in Bitboard(can) {
            self.removal_outcomes(left - 1, theirs ^ r.bit().0, out);
        }
    }

    /// Each set `moved` may have been before a slide (a flight with
    /// `fly`) that removed nothing, the other side being on `other`:
    /// a stone goes back to an empty point it could have come from,
    /// unless arriving closed a mill that had to remove something.
    pub(super) fn unslides(&self, moved: u32, other: u32, fly: bool, mut f: impl FnMut(u32)) {
        let empty = !(moved | other) & Bitboard::FULL.0;
        // A mill closed by that move removed nothing only if nothing could be.
        let silent_mill = self.rules.may_pass || self.removable(other) == 0;
        for to in Bitboard(moved) {
            if !silent_mill && self.layout.mills_at(Bitboard(moved), to) > 0 {
                continue;
            }
            let froms = if fly {
                empty
            } else {
                self.layout.adjacent[to.index()].0 & empty
            };
            for from in Bitboard(froms) {
                f(moved ^ to.bit().0 ^ from.bit().0);
            }
        }
    }
}
