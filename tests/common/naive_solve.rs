//! An independent solver of reduced games, to check the tablebases
//! against. It shares no code with crates/rules or crates/tablebase: the board
//! comes from tests/common/naive.rs (point names and lines written from
//! docs/rules.md), the moves are generated here by plain loops over
//! point masks, and positions reach the engine only as position strings.
//! No symmetry reduction: every state reachable from the start is its
//! own node.
//!
//! A state is a `u64`: white's points (bits 0..24), black's (24..48),
//! white's and black's stones in hand (4 bits each from 48), the side to
//! move (bit 56).
//!
//! Values mean what the tables store: win, draw or loss for the side to
//! move and the distance in plies to the next removal or the end of the
//! game. A removal counts 1 whatever follows; a move that removes nothing
//! into a position at distance d counts d + 1; a win takes the least such
//! distance, a loss the greatest; a side that cannot move, or has fewer
//! than 3 stones, has lost in 0.

use std::collections::HashMap;

use morris::rules::{Blocked, Flying, MillRemoval, Rules};

use super::naive::{Geometry, NAMES, RANKS, index_of};

pub type State = u64;

const POINTS: u32 = (1 << 24) - 1;
const SIDE_BIT: u64 = 1 << 56;
/// A line mask no set of points completes.
const NO_LINE: u32 = u32::MAX;

pub fn pack(stones: [u32; 2], hands: [u32; 2], side: usize) -> State {
    debug_assert!(hands[0] < 16 && hands[1] < 16 && stones[0] & stones[1] == 0);
    stones[0] as u64
        | (stones[1] as u64) << 24
        | (hands[0] as u64) << 48
        | (hands[1] as u64) << 52
        | if side == 1 { SIDE_BIT } else { 0 }
}

pub fn stones(s: State, c: usize) -> u32 {
    (s >> (24 * c)) as u32 & POINTS
}

pub fn hand(s: State, c: usize) -> u32 {
    (s >> (48 + 4 * c)) as u32 & 15
}

pub fn side(s: State) -> usize {
    (s & SIDE_BIT != 0) as usize
}

/// Stones on the board plus in hand.
pub fn material(s: State, c: usize) -> u32 {
    stones(s, c).count_ones() + hand(s, c)
}

/// Whether stones are still in hand (the placement phase).
pub fn in_placement(s: State) -> bool {
    hand(s, 0) + hand(s, 1) > 0
}

/// Whether the side to move has already lost by material.
pub fn lost_by_material(s: State) -> bool {
    material(s, side(s)) < 3
}

/// The points of a mask, lowest first.
fn points(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let p = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            p
        })
    })
}

/// A value for the side to move, as the tables mean it (module doc).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Val {
    Win(u16),
    Draw,
    Loss(u16),
}

impl Val {
    /// The value of a move for its mover, from the value `self` of the
    /// position it leads to (for the opponent).
    pub fn through(self, removal: bool) -> Val {
        let step = |d: u16| if removal { 1 } else { d + 1 };
        match self {
            Val::Loss(d) => Val::Win(step(d)),
            Val::Win(d) => Val::Loss(step(d)),
            Val::Draw => Val::Draw,
        }
    }

    /// The value of a position from the values of its moves (for the
    /// mover): the quickest win, else a draw, else the slowest loss; lost
    /// in 0 without moves.
    pub fn best(moves: impl IntoIterator<Item = Val>) -> Val {
        let mut best = Val::Loss(0);
        for v in moves {
            best = match (best, v) {
                (Val::Win(a), Val::Win(b)) => Val::Win(a.min(b)),
                (Val::Win(a), _) => Val::Win(a),
                (_, Val::Win(b)) => Val::Win(b),
                (Val::Draw, _) | (_, Val::Draw) => Val::Draw,
                (Val::Loss(a), Val::Loss(b)) => Val::Loss(a.max(b)),
            };
        }
        best
    }

    /// The dense solver's stored form: 0 not known yet.
    pub(super) fn code(self) -> u16 {
        match self {
            Val::Draw => 1,
            Val::Win(d) => 2 + 2 * d,
            Val::Loss(d) => 3 + 2 * d,
        }
    }

    pub(super) fn from_code(c: u16) -> Option<Val> {
        match c {
            0 => None,
            1 => Some(Val::Draw),
            c if c % 2 == 0 => Some(Val::Win((c - 2) / 2)),
            c => Some(Val::Loss((c - 3) / 2)),
        }
    }
}

/// A stored value as the naive solver writes values.
impl From<morris::tablebase::Probe> for Val {
    fn from(p: morris::tablebase::Probe) -> Val {
        use morris::tablebase::Value;
        match p.value {
            Value::Win => Val::Win(p.plies),
            Value::Draw => Val::Draw,
            Value::Loss => Val::Loss(p.plies),
        }
    }
}

impl std::fmt::Display for Val {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Val::Win(d) => write!(f, "win in {d}"),
            Val::Draw => write!(f, "draw"),
            Val::Loss(d) => write!(f, "loss in {d}"),
        }
    }
}

/// One legal move: its text (docs/rules.md 4 notation), the state it leads to
/// and whether it removed a stone.
#[derive(Clone, Debug)]
pub struct NamedMove {
    pub text: String,
    pub child: State,
    pub removal: bool,
}

/// The rules the naive solver plays: the board of the variant, `Pieces`,
/// `Lasker` and flying; everything else at its docs/rules.md 2 default (checked).
#[derive(Clone, Debug)]
pub struct Game {
    pub pieces: u32,
    lasker: bool,
    flying: Flying,
    fly_at: u32,
    /// Lines through each point, as masks (at most three; the rest
    /// `NO_LINE`).
    lines_at: [[u32; 3]; 24],
    adjacent: [u32; 24],
    /// The points of each rank as position strings list them (`RANKS`).
    ranks: Vec<Vec<usize>>,
}

impl Game {
    pub fn new(rules: &Rules) -> Game {
        assert_eq!(rules.mill_removal, MillRemoval::Protected);
        assert!(!rules.remove_per_mill && !rules.may_pass && !rules.mill_reform);
        assert_eq!(rules.blocked, Blocked::Loss);
        assert_eq!(rules.min_pieces, 3);
        assert!(rules.pieces < 12, "a full board is not played here");
        let geo = Geometry::new(rules.diagonals);
        let mask = |ps: &[usize]| ps.iter().fold(0u32, |m, &p| m | 1 << p);
        let mut lines_at = [[NO_LINE; 3]; 24];
        for l in &geo.lines {
            for &p in l {
                let free = lines_at[p].iter().position(|&m| m == NO_LINE);
                lines_at[p][free.expect("at most three lines a point")] = mask(l);
            }
        }
        let mut adjacent = [0; 24];
        for (p, a) in adjacent.iter_mut().enumerate() {
            *a = mask(&geo.adjacent[p]);
        }
        Game {
            pieces: rules.pieces as u32,
            lasker: rules.lasker,
            flying: rules.flying,
            fly_at: rules.fly_at as u32,
            lines_at,
            adjacent,
            ranks: RANKS
                .iter()
                .map(|names| names.iter().map(|n| index_of(n)).collect())
                .collect(),
        }
    }

    /// The empty board, `Pieces` in each hand, white to move.
    pub fn start(&self) -> State {
        pack([0, 0], [self.pieces; 2], 0)
    }

    fn can_fly(&self, s: State, c: usize) -> bool {
        let on = |c: usize| stones(s, c).count_ones();
        match self.flying {
            Flying::Off => false,
            Flying::Three => hand(s, c) == 0 && on(c) <= self.fly_at,
            Flying::Both => {
                hand(s, 0) == 0 && hand(s, 1) == 0 && (on(0) <= self.fly_at || on(1) <= self.fly_at)
            }
        }
    }

    /// Whether `stones` complete a line through `p`.
    fn mill_at(&self, stones: u32, p: usize) -> bool {
        self.lines_at[p].into_iter().any(|l| l & !stones == 0)
    }

    /// The stones of `theirs` a mill may remove (`MillRemoval` protected):
    /// those outside mills, or any if all are in mills.
    fn removable(&self, theirs: u32) -> u32 {
        let free = points(theirs)
            .filter(|&p| !self.mill_at(theirs, p))
            .fold(0, |m, p| m | 1 << p);
        if free == 0 { theirs } else { free }
    }

    /// Calls `f(from, to, removed, child)` for every legal move of the
    /// side to move: `from` None for a placement, `removed` the stone a
    /// mill took, `child` the state after it.
    fn each_move(&self, s: State, mut f: impl FnMut(Option<usize>, usize, Option<usize>, State)) {
        let me = side(s);
        let (mine, theirs) = (stones(s, me), stones(s, 1 - me));
        let empty = !(mine | theirs) & POINTS;
        let hands = [hand(s, 0), hand(s, 1)];
        let mut turn = |from: Option<usize>, to: usize| {
            let mut h = hands;
            let after = match from {
                Some(p) => mine & !(1 << p) | 1 << to,
                None => {
                    h[me] -= 1;
                    mine | 1 << to
                }
            };
            let child = |t: u32| {
                let mut st = [0; 2];
                st[me] = after;
                st[1 - me] = t;
                pack(st, h, 1 - me)
            };
            let can = if self.mill_at(after, to) {
                self.removable(theirs)
            } else {
                0
            };
            if can == 0 {
                f(from, to, None, child(theirs));
            }
            for r in points(can) {
                f(from, to, Some(r), child(theirs & !(1 << r)));
            }
        };
        let slides = |turn: &mut dyn FnMut(Option<usize>, usize), fly: bool| {
            for from in points(mine) {
                let to = if fly {
                    empty
                } else {
                    self.adjacent[from] & empty
                };
                for t in points(to) {
                    turn(Some(from), t);
                }
            }
        };
        if hands[me] > 0 {
            for t in points(empty) {
                turn(None, t);
            }
            if self.lasker {
                slides(&mut turn, false);
            }
        } else {
            slides(&mut turn, self.can_fly(s, me));
        }
    }

    /// Every legal move, named as docs/rules.md 4 writes it.
    pub fn named_moves(&self, s: State) -> Vec<NamedMove> {
        let mut out = Vec::new();
        self.each_move(s, |from, to, removed, child| {
            let mut text = match from {
                Some(f) => format!("{}-{}", NAMES[f], NAMES[to]),
                None => NAMES[to].to_string(),
            };
            if let Some(r) = removed {
                text.push('x');
                text.push_str(NAMES[r]);
            }
            out.push(NamedMove {
                text,
                child,
                removal: removed.is_some(),
            });
        });
        out
    }

    /// The states after each legal move, with whether it removed.
    pub fn moves(&self, s: State, out: &mut Vec<(State, bool)>) {
        out.clear();
        self.each_move(s, |_, _, removed, child| {
            out.push((child, removed.is_some()))
        });
    }

    /// Every state from which the side that has just moved reached `s`
    /// by a legal move that removed nothing (a placement or a slide or
    /// fly), whether or not that state is reachable from the start.
    pub fn predecessors(&self, s: State, out: &mut Vec<State>) {
        out.clear();
        let x = side(s);
        let y = 1 - x;
        let (ys, xs) = (stones(s, y), stones(s, x));
        let empty = !(ys | xs) & POINTS;
        let mut st = [0; 2];
        st[x] = xs;
        for t in points(ys) {
            // Arriving on t closed a mill: then it removed, if it could.
            if self.mill_at(ys, t) && self.removable(xs) != 0 {
                continue;
            }
            let mut h = [hand(s, 0), hand(s, 1)];
            h[y] += 1;
            st[y] = ys & !(1 << t);
            out.push(pack(st, h, y));
            h[y] -= 1;
            for f in points(empty) {
                st[y] = ys & !(1 << t) | 1 << f;
                let p = pack(st, h, y);
                let adjacent = self.adjacent[f] & 1 << t != 0;
                let legal = if h[y] > 0 {
                    self.lasker && adjacent
                } else {
                    adjacent || self.can_fly(p, y)
                };
                if legal {
                    out.push(p);
                }
            }
        }
    }

    /// The position string of a state (clock 0).
    pub fn fen(&self, s: State) -> String {
        self.fen_at(s, 0)
    }

    /// The position string of a state with `clock` plies since the last
    /// placement or removal.
    pub fn fen_at(&self, s: State, clock: u16) -> String {
        let mut out = String::with_capacity(48);
        for (r, points) in self.ranks.iter().enumerate() {
            if r > 0 {
                out.push('/');
            }
            let mut run = 0;
            for &p in points {
                let c = if stones(s, 0) >> p & 1 == 1 {
                    'W'
                } else if stones(s, 1) >> p & 1 == 1 {
                    'B'
                } else {
                    run += 1;
                    continue;
                };
                if run > 0 {
                    out.push(char::from(b'0' + run));
                    run = 0;
                }
                out.push(c);
            }
            if run > 0 {
                out.push(char::from(b'0' + run));
            }
        }
        // The move number: placements so far, two a full move.
        let placed = 2 * self.pieces - hand(s, 0) - hand(s, 1);
        let fullmove = 1 + (placed + side(s) as u32) / 2;
        out.push_str(&format!(
            " {} {} {} {clock} {fullmove}",
            if side(s) == 0 { 'w' } else { 'b' },
            hand(s, 0),
            hand(s, 1)
        ));
        out
    }
}

/// Binomial coefficients up to 24.
fn binomials() -> [[u64; 25]; 25] {
    let mut c = [[0u64; 25]; 25];
    for n in 0..25 {
        c[n][0] = 1;
        for k in 1..=n {
            c[n][k] = c[n - 1][k - 1] + c[n - 1][k];
        }
    }
    c
}

/// A slot for every state with at most `Pieces` stones of each colour on
/// board and in hand: per (stones, hands, side) a block of
/// C(24, white) x C(24, black) slots, each colour's points ranked by the
/// combinatorial number system. (Not a reduction: distinct states get
/// distinct slots, and some slots hold no state.)
pub(super) struct Dense {
    pieces: usize,
    binom: [[u64; 25]; 25],
    offsets: Vec<u64>,
    pub(super) size: u64,
}

impl Dense {
    pub(super) fn new(pieces: u32) -> Dense {
        let p = pieces as usize;
        let binom = binomials();
        let mut offsets = Vec::new();
        let mut size = 0;
        for config in 0..(p + 1).pow(4) * 2 {
            offsets.push(size);
            let (wc, bc, wh, bh) = Self::split(p, config);
            if wc + wh <= p && bc + bh <= p {
                size += binom[24][wc] * binom[24][bc];
            }
        }
        Dense {
            pieces: p,
            binom,
            offsets,
            size,
        }
    }

    fn split(p: usize, config: usize) -> (usize, usize, usize, usize) {
        let c = config / 2;
        let n = p + 1;
        (c / n.pow(3), c / n.pow(2) % n, c / n % n, c % n)
    }

    fn rank(&self, mask: u32) -> u64 {
        points(mask)
            .enumerate()
            .map(|(i, p)| self.binom[p][i + 1])
            .sum()
    }

    pub(super) fn slot(&self, s: State) -> usize {
        let n = self.pieces + 1;
        let (w, b) = (stones(s, 0), stones(s, 1));
        let (wc, bc) = (w.count_ones() as usize, b.count_ones() as usize);
        let config =
            (((wc * n + bc) * n + hand(s, 0) as usize) * n + hand(s, 1) as usize) * 2 + side(s);
        (self.offsets[config] + self.rank(w) * self.binom[24][bc] + self.rank(b)) as usize
    }
}

/// Every state reachable from the start, the start first (breadth first).
pub fn reachable(game: &Game) -> Vec<State> {
    let dense = Dense::new(game.pieces);
    let mut seen = vec![false; dense.size as usize];
    seen[dense.slot(game.start())] = true;
    let mut states = vec![game.start()];
    let mut moves = Vec::new();
    let mut i = 0;
    while i < states.len() {
        let s = states[i];
        i += 1;
        if lost_by_material(s) {
            continue;
        }
        game.moves(s, &mut moves);
        for &(c, _) in &moves {
            let k = dense.slot(c);
            if !seen[k] {
                seen[k] = true;
                states.push(c);
            }
        }
    }
    states
}

/// A whole game solved from its start: every reachable state and its value.
pub struct Solution {
    dense: Dense,
    /// `Val::code` of each slot; `UNREACHED` for slots of no reachable
    /// state, `UNKNOWN` while solving.
    values: Vec<u16>,
    /// Every state reachable from the start, the start first.
    pub states: Vec<State>,
}

const UNREACHED: u16 = 0;
const UNKNOWN: u16 = u16::MAX;

impl Solution {
    /// The value of a reachable state.
    pub fn value(&self, s: State) -> Val {
        self.known(s).expect("a reachable, solved state")
    }

    fn known(&self, s: State) -> Option<Val> {
        match self.values[self.dense.slot(s)] {
            UNREACHED | UNKNOWN => None,
            c => Val::from_code(c),
        }
    }
}

/// Solves the whole game from its start by retrograde analysis over the
/// explicit graph of reachable states (small `Pieces` only: one slot per
/// state with up to `Pieces` stones a side, see `Dense`). Material groups
/// (total stones of both sides) are solved smallest first, since a removal
/// always leads into a smaller one; within a group, positions lost in d
/// make their predecessors won in d + 1, and a position whose moves all
/// lead to positions won for the opponent is lost in one more than the
/// slowest. What is left is drawn. Then every `check_every`-th state (and
/// every one with stones in hand) is checked to get its value from its
/// moves' values by `Val::best`: the solution is the game's fixpoint.
pub fn solve(game: &Game, check_every: usize) -> Solution {
    let dense = Dense::new(game.pieces);
    assert!(dense.size < 1 << 27, "too many slots for the dense solver");
    let mut sol = Solution {
        values: vec![UNREACHED; dense.size as usize],
        dense,
        states: reachable(game),
    };
    // Each state's moves that remove nothing, plus a mark for having a
    // removal (those are looked at again below).
    const REMOVES: u8 = 0x80;
    let mut open = vec![0u8; sol.values.len()];
    let mut moves = Vec::new();
    for &s in &sol.states {
        let k = sol.dense.slot(s);
        sol.values[k] = UNKNOWN;
        if lost_by_material(s) {
            continue;
        }
        game.moves(s, &mut moves);
        let mut info = 0u8;
        for &(_, removal) in &moves {
            if removal {
                info |= REMOVES;
            } else {
                info += 1;
            }
        }
        assert!(moves.len() < REMOVES as usize, "few moves");
        open[k] = info;
    }
    let mut groups: Vec<Vec<State>> = Vec::new();
    for &s in &sol.states {
        let m = (material(s, 0) + material(s, 1)) as usize;
        if groups.len() <= m {
            groups.resize(m + 1, Vec::new());
        }
        groups[m].push(s);
    }
    let mut preds = Vec::new();
    for group in &groups {
        let mut levels: Vec<Vec<State>> = vec![Vec::new(), Vec::new()];
        for &s in group {
            let k = sol.dense.slot(s);
            let quiet = (open[k] & !REMOVES) as u32;
            let known = if lost_by_material(s) || open[k] == 0 {
                Some(Val::Loss(0)) // by material, or no legal move
            } else if open[k] & REMOVES == 0 {
                None
            } else {
                game.moves(s, &mut moves);
                let removals = Val::best(moves.iter().filter(|m| m.1).map(|&(c, _)| {
                    sol.known(c)
                        .expect("removals lead into a group solved before")
                        .through(true)
                }));
                if matches!(removals, Val::Win(_)) || quiet == 0 {
                    Some(removals)
                } else {
                    // A drawn removal is an open move that never closes.
                    open[k] = (quiet + (removals == Val::Draw) as u32) as u8;
                    None
                }
            };
            match known {
                Some(v) => {
                    sol.values[k] = v.code();
                    if let Val::Win(d) | Val::Loss(d) = v {
                        levels[d as usize].push(s);
                    }
                }
                None => open[k] &= !REMOVES,
            }
        }
        let mut d = 0;
        while d < levels.len() {
            let level = std::mem::take(&mut levels[d]);
            for &c in &level {
                let lost = matches!(sol.known(c), Some(Val::Loss(_)));
                game.predecessors(c, &mut preds);
                for &p in &preds {
                    let k = sol.dense.slot(p);
                    if sol.values[k] != UNKNOWN {
                        continue; // not reachable, or settled
                    }
                    let next = if lost {
                        Some(Val::Win(d as u16 + 1))
                    } else {
                        open[k] -= 1;
                        (open[k] == 0).then_some(Val::Loss(d as u16 + 1))
                    };
                    if let Some(v) = next {
                        sol.values[k] = v.code();
                        if levels.len() <= d + 1 {
                            levels.push(Vec::new());
                        }
                        levels[d + 1].push(p);
                    }
                }
            }
            d += 1;
        }
        for &s in group {
            let k = sol.dense.slot(s);
            if sol.values[k] == UNKNOWN {
                sol.values[k] = Val::Draw.code();
            }
        }
    }
    for (i, &s) in sol.states.iter().enumerate() {
        if lost_by_material(s) || (i % check_every != 0 && hand(s, 0) + hand(s, 1) == 0) {
            continue;
        }
        game.moves(s, &mut moves);
        let from_moves = Val::best(moves.iter().map(|&(c, r)| sol.value(c).through(r)));
        assert_eq!(
            sol.value(s),
            from_moves,
            "naive solver: {} is not the fixpoint",
            game.fen(s)
        );
    }
    sol
}

/// The placement phase solved by memoised search (no `Lasker`: every
/// placement uses up a stone, so the graph has no cycles), down to the
/// positions with both hands empty, whose values `boundary` gives.
pub struct PlacementSolver<'a, F: Fn(State) -> Val> {
    game: &'a Game,
    boundary: F,
    memo: HashMap<State, Val>,
}

impl<'a, F: Fn(State) -> Val> PlacementSolver<'a, F> {
    pub fn new(game: &'a Game, boundary: F) -> Self {
        assert!(!game.lasker, "Lasker placement has cycles: use solve");
        PlacementSolver {
            game,
            boundary,
            memo: HashMap::new(),
        }
    }

    /// States solved so far (boundary ones included).
    pub fn solved(&self) -> usize {
        self.memo.len()
    }

    pub fn value(&mut self, s: State) -> Val {
        if lost_by_material(s) {
            return Val::Loss(0);
        }
        if let Some(&v) = self.memo.get(&s) {
            return v;
        }
        let v = if hand(s, 0) + hand(s, 1) == 0 {
            (self.boundary)(s)
        } else {
            let mut moves = Vec::new();
            self.game.moves(s, &mut moves);
            Val::best(moves.into_iter().map(|(c, r)| self.value(c).through(r)))
        };
        self.memo.insert(s, v);
        v
    }
}
