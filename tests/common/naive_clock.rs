//! The move-count draws (docs/rules.md 6.4, 6.5, 8.7) solved naively, on
//! the naive game of `naive_solve` (its moves, no symmetry, positions
//! met only as position strings). The clock is part of the state here:
//! a value is computed for a state *and* a clock, by plain backward
//! induction over the plies left before the limit, never from a distance
//! and a threshold as the tables do.
//!
//! One clock counts the plies since the last placement or removal;
//! `EndgameMoves` is in force while both sides have exactly three stones
//! (board plus hand), `NoCaptureMoves` always, and a game is drawn as
//! soon as the clock reaches the limit in force, after the checks for
//! too few stones and no legal move (docs/rules.md 8.8). Values carry
//! the tables' distance (plies to the next removal or the end of the
//! game): within a limit the fastest win and the slowest loss are the
//! ones the clock allows.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use super::naive_solve::{Dense, Game, State, Val, hand, in_placement, lost_by_material, material};

/// `EndgameMoves` and `NoCaptureMoves`, 0 for off.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub endgame: u16,
    pub no_capture: u16,
}

impl Limits {
    /// The clock at which the game is drawn in `s`, if any limit is in force.
    pub fn of(self, s: State) -> Option<u16> {
        let three_each = material(s, 0) == 3 && material(s, 1) == 3;
        let mut limit = (self.no_capture > 0).then_some(self.no_capture);
        if three_each && self.endgame > 0 {
            limit = Some(limit.map_or(self.endgame, |n| n.min(self.endgame)));
        }
        limit
    }
}

/// A whole game's values at every clock, by layers: `layers[k]` holds the
/// value of each state with both hands empty when `k` plies are left
/// before the limit, and `placement` each state with stones in hand (whose
/// clock is always 0: every ply there places). Small games only (`Dense`).
pub struct ClockedWhole {
    limits: Limits,
    dense: Dense,
    layers: Vec<Vec<u16>>,
    placement: HashMap<State, Val>,
}

impl ClockedWhole {
    /// Solves every state of `states` (a closed set: all reachable states
    /// of the game). Each movement state must have a limit in force.
    pub fn solve(game: &Game, states: &[State], limits: Limits) -> ClockedWhole {
        let dense = Dense::new(game.pieces);
        let mut moves = Vec::new();
        let mut groups: Vec<Vec<State>> = Vec::new();
        for &s in states {
            if lost_by_material(s) || in_placement(s) {
                continue;
            }
            let m = (material(s, 0) + material(s, 1)) as usize;
            if groups.len() <= m {
                groups.resize(m + 1, Vec::new());
            }
            groups[m].push(s);
        }
        let deepest = states
            .iter()
            .filter(|&&s| !in_placement(s) && !lost_by_material(s))
            .map(|&s| {
                limits
                    .of(s)
                    .expect("a limit in force in every movement state")
            })
            .max()
            .unwrap_or(0);
        let mut w = ClockedWhole {
            limits,
            layers: vec![vec![0; dense.size as usize]; deepest as usize + 1],
            dense,
            placement: HashMap::new(),
        };
        // Removals lead into smaller groups: solve those first, every layer.
        for group in &groups {
            for k in 0..=deepest {
                for &s in group {
                    let v = w.movement_value(game, s, k, &mut moves);
                    let slot = w.dense.slot(s);
                    w.layers[k as usize][slot] = v.code();
                }
            }
        }
        // Each placement uses up a stone: fewer stones in hand first.
        let mut placing: Vec<State> = states
            .iter()
            .copied()
            .filter(|&s| in_placement(s) && !lost_by_material(s))
            .collect();
        placing.sort_by_key(|&s| hand(s, 0) + hand(s, 1));
        for s in placing {
            game.moves(s, &mut moves);
            let v = Val::best(moves.iter().map(|&(c, r)| w.at(c, 0).through(r)));
            w.placement.insert(s, v);
        }
        w
    }

    /// The value of movement state `s` with `left` plies before its limit
    /// (`left` above the limit reads as the limit: the clock is never
    /// negative).
    fn movement_value(
        &self,
        game: &Game,
        s: State,
        left: u16,
        moves: &mut Vec<(State, bool)>,
    ) -> Val {
        game.moves(s, moves);
        if moves.is_empty() {
            return Val::Loss(0);
        }
        let limit = self.limits.of(s).expect("a limit");
        let left = left.min(limit);
        if left == 0 {
            return Val::Draw;
        }
        Val::best(moves.iter().map(|&(c, removal)| {
            if removal {
                self.at(c, 0).through(true)
            } else {
                self.layer(c, left - 1).through(false)
            }
        }))
    }

    fn layer(&self, s: State, left: u16) -> Val {
        Val::from_code(self.layers[left as usize][self.dense.slot(s)])
            .unwrap_or_else(|| panic!("state {s:#x} with {left} plies left is not solved yet"))
    }

    /// The value of a solved state at `clock`.
    pub fn at(&self, s: State, clock: u16) -> Val {
        if lost_by_material(s) {
            return Val::Loss(0);
        }
        if in_placement(s) {
            assert_eq!(clock, 0, "placement states are at clock 0");
            return *self.placement.get(&s).expect("a solved placement state");
        }
        let limit = self.limits.of(s).expect("a limit");
        self.layer(s, limit.saturating_sub(clock))
    }
}

/// A multiplicative hash for the memo's millions of small keys, where
/// SipHash's strength buys nothing.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn write_u16(&mut self, x: u16) {
        self.write_u64(x as u64);
    }
}

/// Values at a state and clock by memoised search, for games too big to
/// solve whole: every limit must be in force and small, since a search
/// from clock 0 looks as many plies ahead as the limit (and again from
/// every removal it meets).
pub struct ClockedSearch<'a> {
    game: &'a Game,
    limits: Limits,
    memo: HashMap<(State, u16), Val, BuildHasherDefault<Mix>>,
}

impl<'a> ClockedSearch<'a> {
    pub fn new(game: &'a Game, limits: Limits) -> ClockedSearch<'a> {
        ClockedSearch {
            game,
            limits,
            memo: HashMap::default(),
        }
    }

    /// States searched so far.
    pub fn searched(&self) -> usize {
        self.memo.len()
    }

    pub fn value(&mut self, s: State, clock: u16) -> Val {
        if lost_by_material(s) {
            return Val::Loss(0);
        }
        if let Some(&v) = self.memo.get(&(s, clock)) {
            return v;
        }
        let mut moves = Vec::new();
        self.game.moves(s, &mut moves);
        let limit = self.limits.of(s);
        let v = if moves.is_empty() {
            Val::Loss(0)
        } else if limit.is_some_and(|l| clock >= l) {
            Val::Draw
        } else {
            assert!(
                limit.is_some() || in_placement(s),
                "ClockedSearch needs a limit in force in every movement state"
            );
            let placing = in_placement(s);
            Val::best(moves.into_iter().map(|(c, removal)| {
                // A placement or a removal restarts the clock.
                let next = if removal || placing { 0 } else { clock + 1 };
                self.value(c, next).through(removal)
            }))
        };
        self.memo.insert((s, clock), v);
        v
    }
}
