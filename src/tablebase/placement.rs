//! Which placement sectors a game needs, in the order they are solved.
//!
//! From sector `m-t+a-b` (side to move first) a placement leads to
//! `t-k-(m+1)+b-(a-1)` (k stones removed, as many as the mills the
//! placement can close), and under `Lasker`, or with an empty hand, a
//! slide leads to `t-k-m+b-a`. A sector whose side to move has fewer than
//! 3 stones in all ends the game; one with both hands empty is a movement
//! subspace. A placement always empties a hand by one, so sectors solved
//! by fewer stones in hand, then fewer on the board, come after all they
//! lead into (a `Lasker` slide without removal stays in the pair
//! `m-t+a-b` / `t-m+b-a`, solved together).

use std::collections::BTreeSet;

use super::Sector;
use super::generate::max_removals;
use super::index::Indexer;
use crate::rules::Rules;

/// Most stones a move leaving the mover with `stones` on the board can
/// remove: a mill needs 3 of them, two mills through one point 5, three
/// (with diagonals) 7.
fn removals(rules: &Rules, stones: u8) -> u8 {
    let mills = match stones {
        0..=2 => 0,
        3..=4 => 1,
        5..=6 => 2,
        _ if rules.diagonals => 3,
        _ => 2,
    };
    mills.min(max_removals(rules))
}

/// The sectors the moves from `s` lead to, as seen by the opponent who
/// then moves, except those where the game is over; the pair's own
/// partner (`s.swapped()`, by a slide that removes nothing) included.
pub fn children(rules: &Rules, s: Sector) -> Vec<Sector> {
    let mut out = Vec::new();
    if s.mine as usize + s.theirs as usize >= 24 {
        return out;
    }
    let mut add = |board: u8, hand_after: u8, k: u8| {
        if k > s.theirs {
            return;
        }
        let child = Sector::with_hands(s.theirs - k, board, s.theirs_hand, hand_after);
        // The side to move there keeps at least 3 stones in all; a full
        // board after a placement ends the game (`BoardFull`).
        let full = child.mine as usize + child.theirs as usize == 24 && !child.placing();
        if child.mine_material() >= 3 && !full {
            out.push(child);
        }
    };
    if s.mine_hand > 0 {
        for k in 0..=removals(rules, s.mine + 1) {
            add(s.mine + 1, s.mine_hand - 1, k);
        }
    }
    if (s.mine_hand == 0 || rules.lasker) && s.mine > 0 {
        for k in 0..=removals(rules, s.mine) {
            add(s.mine, s.mine_hand, k);
        }
    }
    out
}

/// The tables a game needs.
pub struct Plan {
    /// Placement sectors in solving order, each pair together.
    pub pairs: Vec<Vec<Sector>>,
    /// The movement subspaces they lead into.
    pub movement: Vec<Sector>,
}

impl Plan {
    /// Every placement sector, in solving order.
    pub fn sectors(&self) -> impl Iterator<Item = Sector> + '_ {
        self.pairs.iter().flatten().copied()
    }
}

/// The placement sectors reachable from the start of a game under `rules`
/// (`Pieces` in each hand), and the movement subspaces they lead into.
pub fn plan(rules: &Rules) -> Plan {
    let start = Sector::with_hands(0, 0, rules.pieces, rules.pieces);
    let mut seen = BTreeSet::from([start]);
    let mut stack = vec![start];
    while let Some(s) = stack.pop() {
        if !s.placing() {
            continue;
        }
        for c in children(rules, s) {
            if seen.insert(c) {
                stack.push(c);
            }
        }
    }
    let movement = seen.iter().copied().filter(|s| !s.placing()).collect();
    let key = |s: &Sector| {
        (
            s.mine_hand + s.theirs_hand,
            s.mine + s.theirs,
            (*s).max(s.swapped()),
            *s != (*s).max(s.swapped()),
        )
    };
    let mut placing: Vec<Sector> = seen.into_iter().filter(|s| s.placing()).collect();
    placing.sort_by_key(key);
    let mut pairs: Vec<Vec<Sector>> = Vec::new();
    for s in placing {
        match pairs.last_mut() {
            Some(pair) if rules.lasker && pair[0] == s.swapped() => pair.push(s),
            _ => pairs.push(vec![s]),
        }
    }
    Plan { pairs, movement }
}

/// The sectors solving `pair` reads (every child outside the pair).
pub fn dependencies(rules: &Rules, pair: &[Sector]) -> Vec<Sector> {
    let mut deps: Vec<Sector> = pair
        .iter()
        .flat_map(|&s| children(rules, s))
        .filter(|c| !pair.contains(c))
        .collect();
    deps.sort();
    deps.dedup();
    deps
}

/// Slots of a sector's table (canonical positions plus padding).
pub fn slots(s: Sector) -> u64 {
    Indexer::new(s.mine as usize, s.theirs as usize).size()
}
