//! One search thread: iterative deepening over principal variation
//! search, with the game's end rules applied at every node.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::time::Instant;

use morris_rules::{
    Bitboard, Blocked, BoardFull, Color, GameResult, Move, MoveSink, Position, Removals, Rules,
    Square,
};
use morris_tablebase::{Tablebases, Value};

use super::eval::evaluate_with;
use super::ordering::{self, MoveOrdering};
use super::tb;
use super::time::TimeManager;
use super::tt::{Bound, Hit, TranspositionTable};
use super::{Control, Info, MAX_PLY, Score, Settings};

const INF: i32 = 32_000;
/// Score of a win on the spot; a win `p` plies from the root is `MATE - p`.
pub const MATE: i32 = 31_000;
/// Scores at least this far from zero are wins or losses.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;
/// Reverse futility margin per ply of depth: about a piece.
const FUTILITY_MARGIN: i32 = 110;
/// Moves tried at a non-PV node of depth d before late quiet moves are
/// pruned (index d, 1..=4).
const LATE_MOVES: [usize; 5] = [0, 4, 7, 12, 19];

/// What all threads of one search share.
pub struct Shared<'a> {
    pub rules: Rules,
    /// Mixed into table keys so entries of other rules never match.
    pub rules_key: u64,
    pub root: Position,
    pub tt: &'a TranspositionTable,
    pub control: &'a Control,
    /// Set by the main thread to end the helpers.
    pub abort: AtomicBool,
    /// Nodes per thread, published every few thousand nodes.
    pub nodes: Vec<AtomicU64>,
    pub settings: Settings,
    pub max_depth: i32,
    pub node_limit: Option<u64>,
    /// Repetition keys of the game since the last irreversible move, root last.
    pub history: Vec<u64>,
    pub root_moves: Vec<Move>,
    /// Lines searched per iteration (MultiPV, more for a weakened Skill).
    pub lines: usize,
    /// The root is already drawn by a counting rule: report 0.
    pub root_draw: bool,
    /// Endgame tables for these rules, if any.
    pub tb: Option<&'a Tablebases>,
    /// Whether a table draw ends a node. Not at a drawn root: there the
    /// search looks past draws for the line that sets the opponent the
    /// most problems (table wins and losses still end nodes).
    pub tb_draws: bool,
    /// Whether a table win or loss without a distance (`tb generate
    /// --wdl`) ends a node. Not at a root won or lost by such tables: the
    /// root keeps only the moves that keep the value, and the search plays
    /// on among them, its evaluation making the progress a distance would
    /// (with every node a table hit it could not tell a winning removal
    /// from a repetition).
    pub tb_undistanced: bool,
    pub tbhits: AtomicU64,
}

impl Shared<'_> {
    pub fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// What only the main thread does: keep time, decide when to stop, report.
pub struct Main {
    tm: TimeManager,
    started: Instant,
    pondering: bool,
    infinite: bool,
    tx: Sender<Info>,
    /// Decaying count of best-move changes between iterations.
    changes: f64,
    last_best: Option<Move>,
    last_score: i32,
}

impl Main {
    pub fn new(tm: TimeManager, pondering: bool, infinite: bool, tx: Sender<Info>) -> Main {
        Main {
            tm,
            started: Instant::now(),
            pondering,
            infinite,
            tx,
            changes: 0.0,
            last_best: None,
            last_score: 0,
        }
    }

    /// Notices a ponderhit: the clock starts now.
    fn poll_ponder(&mut self, control: &Control) {
        if self.pondering && !control.ponder.load(Ordering::Relaxed) {
            self.pondering = false;
            self.tm.restart(Instant::now());
        }
    }

    /// Whether limits (not stop) still apply: neither infinite nor pondering.
    fn limited(&self) -> bool {
        !self.infinite && !self.pondering
    }
}

/// The kind of a node, as a type: each kind gets its own compiled search,
/// with the kind's tests folded away.
trait NodeKind {
    /// On the principal variation: an open window, and the line is kept.
    const PV: bool;
}

/// A node of the principal variation.
struct Pv;

/// Any other node: searched with a null window, only whether its score
/// passes it matters.
struct NonPv;

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
struct Window {
    alpha: i32,
    beta: i32,
}

impl Window {
    /// The null window just above `bound`: whether a score exceeds it.
    fn null(bound: i32) -> Window {
        Window {
            alpha: bound,
            beta: bound + 1,
        }
    }

    /// The same window from the other side (the child's view).
    fn flip(self) -> Window {
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
struct View {
    flip: bool,
}

impl View {
    #[inline(always)]
    fn of(pos: &Position, child: &Position) -> View {
        View {
            flip: child.side_to_move() != pos.side_to_move(),
        }
    }

    /// The parent's window in the child's view.
    #[inline(always)]
    fn window(self, w: Window) -> Window {
        if self.flip { w.flip() } else { w }
    }

    /// The child's score in the parent's view.
    #[inline(always)]
    fn score(self, s: i32) -> i32 {
        if self.flip { -s } else { s }
    }
}

/// A root move with what the last search of it found.
#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub prev: i32,
    /// The score reported for its line (`shown_score`).
    pub shown: i32,
    pub pv: Vec<Move>,
    pub seldepth: usize,
}

pub struct Worker {
    id: usize,
    pub nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Repetition keys: the game history, then the search path.
    keys: Vec<u64>,
    root_index: usize,
    /// Ply of the position after the latest null move on the path (0: none);
    /// repetitions are not looked for across it, and it passes no more.
    null_ply: usize,
    /// The move lists of all nodes on the path, one segment each.
    moves: Vec<(Move, i32)>,
    ordering: Box<MoveOrdering>,
    pv: Vec<[Move; MAX_PLY + 2]>,
    pv_len: [usize; MAX_PLY + 2],
    lmr: Box<[[u8; 64]; 64]>,
    pub root_moves: Vec<RootMove>,
    /// The lines of the last completed iteration.
    pub best: Vec<RootMove>,
    pub completed_depth: i32,
    /// Depth of the current iteration (extensions stop at twice it).
    root_depth: usize,
    /// The main thread's duties, while it searches (none on helpers).
    main: Option<Main>,
}

/// The placeholder filling unused PV slots (a1-a1, never a legal move).
const NO_MOVE: Move = Move::slide(Square::ALL[0], Square::ALL[0]);

impl Worker {
    pub fn new(id: usize) -> Worker {
        // Reductions grow with the logarithms of depth and move number; the
        // divisor is self-play's choice (docs/experiments.md). They ignore
        // the history: placements share 24 history slots, which fill up in
        // long searches.
        let mut lmr = Box::new([[0u8; 64]; 64]);
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (d as f64).ln() * (i as f64).ln() / 1.5) as u8;
            }
        }
        Worker {
            id,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            keys: Vec::with_capacity(4096),
            root_index: 0,
            null_ply: 0,
            moves: Vec::with_capacity(1 << 16),
            ordering: MoveOrdering::new(),
            pv: vec![[NO_MOVE; MAX_PLY + 2]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            lmr,
            root_moves: Vec::new(),
            best: Vec::new(),
            completed_depth: 0,
            root_depth: 0,
            main: None,
        }
    }

    /// Gets ready for a new search of `sh.root`.
    pub fn reset(&mut self, sh: &Shared) {
        self.nodes = 0;
        self.seldepth = 0;
        self.stopped = false;
        self.keys.clear();
        self.keys.extend_from_slice(&sh.history);
        self.root_index = self.keys.len() - 1;
        self.null_ply = 0;
        self.moves.clear();
        self.ordering.clear();
        self.best.clear();
        self.completed_depth = 0;
        // Root moves start in ordering order, the table's move first.
        let tt_move = sh.tt.probe(tt_key(sh, &sh.root)).and_then(|h| h.mv);
        let mut scored = Vec::with_capacity(sh.root_moves.len());
        let mut scorer = self
            .ordering
            .scorer(&sh.root, &sh.rules, 0, tt_move, &mut scored);
        for &mv in &sh.root_moves {
            scorer.push(mv);
        }
        // Stable: equal scores keep the generator's order (determinism).
        scored.sort_by_key(|&(_, s)| std::cmp::Reverse(s));
        self.root_moves = scored
            .into_iter()
            .map(|(mv, _)| RootMove {
                mv,
                score: -INF,
                prev: -INF,
                shown: -INF,
                pv: vec![mv],
                seldepth: 0,
            })
            .collect();
    }

    /// Counts a node and says whether the search must unwind. Always
    /// inlined, as `terminal`: both run at every node.
    #[inline(always)]
    fn enter(&mut self, sh: &Shared, ply: usize) -> bool {
        if self.stopped {
            return true;
        }
        if let Some(limit) = sh.node_limit
            && self.id == 0
            && sh.nodes.len() == 1
            && self.nodes >= limit
        {
            self.stopped = true;
            return true;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if self.nodes & 1023 == 0 {
            sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if sh.control.stopped() || sh.abort.load(Ordering::Relaxed) {
                self.stopped = true;
            }
            if let Some(m) = self.main.as_mut() {
                m.poll_ponder(sh.control);
                if m.limited() && m.tm.out_of_time() {
                    self.stopped = true;
                }
                if let Some(limit) = sh.node_limit
                    && sh.nodes.len() > 1
                    && sh.total_nodes() >= limit
                {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    /// The score of a position the rules have ended (docs/rules.md 8.8 order).
    #[inline(always)]
    fn terminal(&self, sh: &Shared, pos: &Position, ply: usize) -> Option<i32> {
        let rules = &sh.rules;
        let me = pos.side_to_move();
        let loss = -MATE + ply as i32;
        if rules.extended() {
            let ended = pos.outcome_without_history(rules, pos.count_moves(rules) > 0);
            if let Some(o) = ended {
                return Some(match o.result {
                    GameResult::Win(c) if c == me => -loss,
                    GameResult::Win(_) => loss,
                    GameResult::Draw => 0,
                });
            }
        } else {
            let min = rules.min_pieces as u32;
            if pos.material(me) < min {
                return Some(loss);
            }
            if pos.material(!me) < min {
                return Some(-loss);
            }
            if pos.clock() == 0 && pos.occupied() == Bitboard::FULL {
                // The other values are rule-set options (the branch above).
                return Some(match rules.board_full {
                    BoardFull::Loss => loss,
                    BoardFull::Draw
                    | BoardFull::FirstLoses
                    | BoardFull::RemoveFirst
                    | BoardFull::RemoveSecond
                    | BoardFull::RemoveOne => 0,
                });
            }
            if !has_move(pos, rules) {
                return Some(match rules.blocked {
                    Blocked::Loss => loss,
                    Blocked::Draw
                    | Blocked::Pass
                    | Blocked::RemoveMove
                    | Blocked::RemovePass
                    | Blocked::BothRemove => 0,
                });
            }
        }
        if rules.repetition && self.is_repetition(pos, ply) {
            return Some(0);
        }
        if pos.move_count_draw(rules).is_some() {
            return Some(0);
        }
        None
    }

    /// A draw by repetition: a second occurrence inside the search tree (the
    /// side that repeated could repeat again), or a third in all.
    fn is_repetition(&self, pos: &Position, ply: usize) -> bool {
        let cur = self.keys.len() - 1;
        let mut limit = (pos.clock() as usize).min(cur);
        if self.null_ply > 0 {
            limit = limit.min(ply - self.null_ply);
        }
        let key = self.keys[cur];
        let mut seen = 0;
        let mut back = 2;
        while back <= limit {
            let i = cur - back;
            if self.keys[i] == key {
                if i > self.root_index {
                    return true;
                }
                seen += 1;
                if seen >= 2 {
                    return true;
                }
            }
            back += 2;
        }
        false
    }

    fn eval(&self, sh: &Shared, pos: &Position) -> i32 {
        evaluate_with(pos, &sh.rules, &sh.settings.weights)
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = self.pv_len[ply + 1];
        head[ply][0] = mv;
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// Puts the legal moves of `pos`, scored for ordering, on the move stack.
    fn push_moves(
        &mut self,
        sh: &Shared,
        pos: &Position,
        ply: usize,
        tt_move: Option<Move>,
        mills_only: bool,
    ) -> (usize, usize) {
        let start = self.moves.len();
        let mut scorer = self
            .ordering
            .scorer(pos, &sh.rules, ply, tt_move, &mut self.moves);
        if mills_only {
            pos.generate_into(&sh.rules, &mut Removals(&mut scorer));
        } else {
            pos.generate_into(&sh.rules, &mut scorer);
        }
        (start, self.moves.len())
    }

    /// Moves the best-scored move of `idx..end` to `idx`.
    #[inline]
    fn pick(&mut self, idx: usize, end: usize) -> (Move, i32) {
        let moves = &mut self.moves[idx..end];
        let mut best = 0;
        let mut best_score = moves[0].1;
        for (j, &(_, s)) in moves.iter().enumerate().skip(1) {
            if s > best_score {
                best = j;
                best_score = s;
            }
        }
        moves.swap(0, best);
        moves[0]
    }

    /// Principal variation search of a node `depth` plies above the
    /// horizon: the end rules and tables, the table's entry, the cut-offs
    /// before any move, the moves, the table's new entry.
    fn negamax<N: NodeKind>(
        &mut self,
        sh: &Shared,
        pos: &Position,
        depth: i32,
        ply: usize,
        w: Window,
    ) -> i32 {
        if depth <= 0 {
            return self.qsearch(sh, pos, ply, w);
        }
        if let Some(s) = self.open_node(sh, pos, ply) {
            return s;
        }
        if let Some(p) = sh.tb.and_then(|tb| tb.probe(pos)) {
            sh.tbhits.fetch_add(1, Ordering::Relaxed);
            let ends = match (p.value, p.distance()) {
                (Value::Draw, _) => sh.tb_draws,
                (_, None) => sh.tb_undistanced,
                (_, Some(_)) => true,
            };
            if ends {
                return tb::score(p);
            }
        }
        if ply >= MAX_PLY {
            return self.eval(sh, pos);
        }
        // No score here can beat a win with the next move or lose faster
        // than now.
        let w = Window {
            alpha: w.alpha.max(-MATE + ply as i32),
            beta: w.beta.min(MATE - ply as i32 - 1),
        };
        if w.alpha >= w.beta {
            return w.alpha;
        }

        let key = tt_key(sh, pos);
        let hit = sh.tt.probe(key);
        if let Some(s) = hit.and_then(|hit| table_cutoff::<N>(hit, depth, ply, w)) {
            return s;
        }
        let tt_move = hit.and_then(|hit| hit.mv);
        // No table move: this node was not searched before, or not deep
        // enough to matter; search it a ply shallower.
        let depth = if sh.settings.iir && depth >= 4 && tt_move.is_none() {
            depth - 1
        } else {
            depth
        };
        if let Some(s) = self.futility_cutoff::<N>(sh, pos, depth, w.beta) {
            return s;
        }
        if let Some(s) = self.null_move_cutoff::<N>(sh, pos, depth, ply, w.beta) {
            return s;
        }
        let Some((best, best_move)) = self.search_moves::<N>(sh, pos, depth, ply, w, tt_move)
        else {
            return 0;
        };
        let bound = if best >= w.beta {
            Bound::Lower
        } else if best > w.alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        sh.tt
            .store(key, best_move.or(tt_move), to_tt(best, ply), depth, bound);
        best
    }

    /// Starts a node: counts it, and scores it at once when the search must
    /// unwind (0) or the rules have ended the game.
    #[inline(always)]
    fn open_node(&mut self, sh: &Shared, pos: &Position, ply: usize) -> Option<i32> {
        self.pv_len[ply] = 0;
        if self.enter(sh, ply) {
            return Some(0);
        }
        self.terminal(sh, pos, ply)
    }

    /// Reverse futility: near the horizon, far above beta stays above.
    #[inline(always)]
    fn futility_cutoff<N: NodeKind>(
        &self,
        sh: &Shared,
        pos: &Position,
        depth: i32,
        beta: i32,
    ) -> Option<i32> {
        if sh.settings.futility && !N::PV && depth <= 3 && beta.abs() < MATE_BOUND {
            let eval = self.eval(sh, pos);
            if eval - FUTILITY_MARGIN * depth >= beta {
                return Some(eval);
            }
        }
        None
    }

    /// Null move: in the sliding phase a pass is rarely better than every
    /// move; while placing or flying it is no test at all. Not right after
    /// another pass.
    #[inline(always)]
    fn null_move_cutoff<N: NodeKind>(
        &mut self,
        sh: &Shared,
        pos: &Position,
        depth: i32,
        ply: usize,
        beta: i32,
    ) -> Option<i32> {
        let rules = &sh.rules;
        let me = pos.side_to_move();
        if !(sh.settings.null_move
            && !rules.extended()
            && !N::PV
            && self.null_ply != ply
            && depth >= 3
            && beta.abs() < MATE_BOUND
            && pos.in_hand(me) == 0
            && pos.in_hand(!me) == 0
            && !pos.can_fly(rules, me)
            && !pos.can_fly(rules, !me)
            && self.eval(sh, pos) >= beta)
        {
            return None;
        }
        let r = 2 + depth / 4;
        let child = pos.pass();
        self.keys.push(child.repetition_key());
        let saved = self.null_ply;
        self.null_ply = ply + 1;
        let s = -self.negamax::<NonPv>(
            sh,
            &child,
            depth - 1 - r,
            ply + 1,
            Window::null(beta - 1).flip(),
        );
        self.null_ply = saved;
        self.keys.pop();
        if self.stopped {
            return Some(0);
        }
        (s >= beta).then_some(if s >= MATE_BOUND { beta } else { s })
    }

    /// The move loop: the first move with the node's window, the others by
    /// `search_later`. The best score and the move that raised alpha, or
    /// `None` when the search was stopped.
    #[inline(always)]
    fn search_moves<N: NodeKind>(
        &mut self,
        sh: &Shared,
        pos: &Position,
        depth: i32,
        ply: usize,
        mut w: Window,
        tt_move: Option<Move>,
    ) -> Option<(i32, Option<Move>)> {
        let rules = &sh.rules;
        let (start, end) = self.push_moves(sh, pos, ply, tt_move, false);
        let mut best = -INF;
        let mut best_move = None;
        // Whether the move at `idx` was already picked (for its prefetch).
        let mut picked = false;
        for i in 0..end - start {
            let idx = start + i;
            let (mv, order) = if picked {
                self.moves[idx]
            } else {
                self.pick(idx, end)
            };
            picked = false;
            let quiet = if Some(mv) == tt_move {
                !ordering::is_tactical(pos, rules, mv)
            } else {
                order < ordering::BLOCK
            };
            if late_move_pruned::<N>(sh, depth, i, quiet, best) {
                self.moves[idx].1 = 0;
                continue;
            }
            let child = pos.make(rules, mv);
            if depth > 1 {
                picked = self.prefetch_children(sh, pos, &child, depth, idx, end);
            }
            self.keys.push(child.repetition_key());
            let (new_depth, r) = self.move_depth::<N>(sh, depth, ply, i, mv, quiet);
            let view = View::of(pos, &child);
            let s = if i == 0 {
                view.score(self.search_child::<N>(sh, &child, new_depth, ply + 1, view.window(w)))
            } else {
                self.search_later::<N>(sh, &child, new_depth, r, ply + 1, w, view)
            };
            self.keys.pop();
            if self.stopped {
                self.moves.truncate(start);
                return None;
            }
            // From here on the slot only says whether the move was quiet.
            self.moves[idx].1 = quiet as i32;
            if s > best {
                best = s;
                if s > w.alpha {
                    best_move = Some(mv);
                    if N::PV {
                        self.update_pv(ply, mv);
                    }
                    if s >= w.beta {
                        if quiet {
                            self.ordering
                                .reward(pos, ply, depth, mv, &self.moves[start..idx]);
                        }
                        break;
                    }
                    w.alpha = s;
                }
            }
        }
        self.moves.truncate(start);
        Some((best, best_move))
    }

    /// Starts loading the table entry of `child`, and at depth 2 that of
    /// the next sibling too; returns whether that sibling was picked.
    #[inline(always)]
    fn prefetch_children(
        &mut self,
        sh: &Shared,
        pos: &Position,
        child: &Position,
        depth: i32,
        idx: usize,
        end: usize,
    ) -> bool {
        sh.tt.prefetch(tt_key(sh, child));
        // The child probes at once, too soon for this prefetch to hide its
        // miss; but near the leaves its search takes a few microseconds,
        // time to load the next sibling's entry (picking that move now does
        // not change the order).
        if depth == 2 && idx + 1 < end {
            let (next, _) = self.pick(idx + 1, end);
            sh.tt.prefetch(tt_key(sh, &pos.make(&sh.rules, next)));
            return true;
        }
        false
    }

    /// The depth the `i`th move of a node is searched to, and the late
    /// move reduction it is tried with first.
    #[inline(always)]
    fn move_depth<N: NodeKind>(
        &self,
        sh: &Shared,
        depth: i32,
        ply: usize,
        i: usize,
        mv: Move,
        quiet: bool,
    ) -> (i32, i32) {
        // Removals are few in a game, so extending them cannot run away.
        let extend =
            sh.settings.mill_extension && mv.num_removals() > 0 && ply < 2 * self.root_depth;
        let new_depth = depth - 1 + extend as i32;
        // Quiet moves from the fourth on, killers aside, are reduced more
        // the deeper the node and the later the move, less on the PV.
        let mut r = 0;
        if sh.settings.lmr && depth >= 3 && i >= 3 && quiet && !self.ordering.is_killer(ply, mv) {
            r = self.lmr[depth.min(63) as usize][i.min(63)] as i32;
            if N::PV {
                r -= 1;
            }
            r = r.clamp(0, new_depth - 1);
        }
        (new_depth, r)
    }

    /// A move after the first, at child ply `ply`: a null-window search,
    /// reduced by `r` plies; if it beats alpha, again at full depth, and at
    /// a PV node with the full window.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn search_later<N: NodeKind>(
        &mut self,
        sh: &Shared,
        child: &Position,
        new_depth: i32,
        r: i32,
        ply: usize,
        w: Window,
        view: View,
    ) -> i32 {
        let scout = view.window(Window::null(w.alpha));
        let mut s = view.score(self.search_child::<NonPv>(sh, child, new_depth - r, ply, scout));
        if s > w.alpha && r > 0 {
            s = view.score(self.negamax::<NonPv>(sh, child, new_depth, ply, scout));
        }
        if s > w.alpha && s < w.beta && N::PV {
            s = view.score(self.negamax::<Pv>(sh, child, new_depth, ply, view.window(w)));
        }
        s
    }

    /// `negamax`, calling the horizon search straight away at depth 0:
    /// most children are leaves, and this saves them a call.
    #[inline(always)]
    fn search_child<N: NodeKind>(
        &mut self,
        sh: &Shared,
        pos: &Position,
        depth: i32,
        ply: usize,
        w: Window,
    ) -> i32 {
        if depth <= 0 {
            self.qsearch(sh, pos, ply, w)
        } else {
            self.negamax::<N>(sh, pos, depth, ply, w)
        }
    }

    /// Resolves mills in the making: only mill-closing moves are searched,
    /// the side to move may stand on the evaluation instead.
    fn qsearch(&mut self, sh: &Shared, pos: &Position, ply: usize, mut w: Window) -> i32 {
        if let Some(s) = self.open_node(sh, pos, ply) {
            return s;
        }
        let stand = self.eval(sh, pos);
        if ply >= MAX_PLY || !sh.settings.quiescence || stand >= w.beta {
            return stand;
        }
        w.alpha = w.alpha.max(stand);
        let (start, end) = self.push_moves(sh, pos, ply, None, true);
        let mut best = stand;
        for idx in start..end {
            let (mv, _) = self.pick(idx, end);
            let child = pos.make(&sh.rules, mv);
            self.keys.push(child.repetition_key());
            let view = View::of(pos, &child);
            let s = view.score(self.qsearch(sh, &child, ply + 1, view.window(w)));
            self.keys.pop();
            if self.stopped {
                self.moves.truncate(start);
                return 0;
            }
            if s > best {
                best = s;
                if s > w.alpha {
                    w.alpha = s;
                    if s >= w.beta {
                        break;
                    }
                }
            }
        }
        self.moves.truncate(start);
        best
    }

    /// Searches the root moves from `pv_idx` on (the earlier ones are the
    /// better MultiPV lines of this iteration).
    fn root_search(&mut self, sh: &Shared, depth: i32, mut w: Window, pv_idx: usize) -> i32 {
        let mut best = -INF;
        for i in pv_idx..self.root_moves.len() {
            let mv = self.root_moves[i].mv;
            let child = sh.root.make(&sh.rules, mv);
            self.keys.push(child.repetition_key());
            let view = View::of(&sh.root, &child);
            let s = if i == pv_idx {
                view.score(self.negamax::<Pv>(sh, &child, depth - 1, 1, view.window(w)))
            } else {
                let scout = view.window(Window::null(w.alpha));
                let s = view.score(self.negamax::<NonPv>(sh, &child, depth - 1, 1, scout));
                if s > w.alpha && s < w.beta {
                    view.score(self.negamax::<Pv>(sh, &child, depth - 1, 1, view.window(w)))
                } else {
                    s
                }
            };
            self.keys.pop();
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_idx || s > w.alpha {
                rm.score = s;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(mv);
                rm.pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
            } else {
                rm.score = -INF;
            }
            best = best.max(s);
            if s > w.alpha {
                w.alpha = s;
                if s >= w.beta {
                    break;
                }
            }
        }
        best
    }

    /// Stable insertion sort of the root moves in `range`, best first.
    fn sort_root(&mut self, range: impl std::slice::SliceIndex<[RootMove], Output = [RootMove]>) {
        let rms = &mut self.root_moves[range];
        for i in 1..rms.len() {
            let mut j = i;
            while j > 0 && rms[j].score > rms[j - 1].score {
                rms.swap(j, j - 1);
                j -= 1;
            }
        }
    }

    /// Iterative deepening until a limit, `stop`, or the main thread ends
    /// it; `main` is given to the main thread, for the search's duration.
    pub fn iterate(&mut self, sh: &Shared, main: Option<Main>) {
        self.main = main;
        let lines = sh.lines.min(self.root_moves.len()).max(1);
        // Helpers start one iteration apart so threads spread over depths.
        let first = 1 + (self.id % 2) as i32;
        for depth in first..=sh.max_depth {
            self.root_depth = depth as usize;
            for pv_idx in 0..lines {
                self.seldepth = 0;
                // While placing, scores swing by about half a piece between
                // odd and even depths, so this window often fails once;
                // centring it elsewhere did not pay (docs/experiments.md).
                let prev = self.root_moves[pv_idx].prev;
                let mut delta = 25;
                let (mut a, mut b) = if depth >= 4 && prev.abs() < MATE_BOUND && prev > -INF {
                    ((prev - delta).max(-INF), (prev + delta).min(INF))
                } else {
                    (-INF, INF)
                };
                loop {
                    let s = self.root_search(sh, depth, Window { alpha: a, beta: b }, pv_idx);
                    self.sort_root(pv_idx..);
                    if self.stopped {
                        break;
                    }
                    if s <= a {
                        b = (a + b) / 2;
                        a = (s - delta).max(-INF);
                    } else if s >= b {
                        b = (s + delta).min(INF);
                    } else {
                        break;
                    }
                    delta += delta;
                }
                if self.stopped {
                    break;
                }
                // The lines found so far, best first: a later line may
                // score above an earlier one, whose window it never met.
                self.sort_root(..=pv_idx);
            }
            if self.stopped {
                break;
            }
            for rm in &mut self.root_moves {
                rm.prev = rm.score;
            }
            let placing = Color::BOTH.into_iter().any(|c| sh.root.in_hand(c) > 0);
            for (k, rm) in self.root_moves[..lines].iter_mut().enumerate() {
                rm.shown = match self.best.get(k) {
                    Some(before) if placing => shown_score(rm.score, before.score),
                    _ => rm.score,
                };
            }
            self.completed_depth = depth;
            self.best.clear();
            self.best.extend_from_slice(&self.root_moves[..lines]);
            if let Some(m) = self.main.as_mut() {
                sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
                m.report(sh, &self.best, depth);
                if m.iteration_ends_search(sh, &self.best[0], self.root_moves.len(), depth) {
                    break;
                }
            }
        }
        sh.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        // Ends the reports.
        self.main = None;
    }
}

impl Main {
    /// Sends the lines of a completed iteration.
    fn report(&self, sh: &Shared, best: &[RootMove], depth: i32) {
        let nodes = sh.total_nodes();
        let elapsed = self.started.elapsed();
        let time_ms = elapsed.as_millis() as u64;
        // From microseconds: a shallow search finishes within a millisecond.
        let nps = (nodes as u128 * 1_000_000 / elapsed.as_micros().max(1)) as u64;
        let hashfull = sh.tt.hashfull();
        for (i, rm) in best.iter().take(sh.settings.multipv.max(1)).enumerate() {
            let _ = self.tx.send(Info {
                depth: depth as u32,
                seldepth: rm.seldepth.max(depth as usize) as u32,
                multipv: i as u32 + 1,
                score: if sh.root_draw {
                    Score::Cp(0)
                } else {
                    to_score(rm.shown)
                },
                nodes,
                nps,
                hashfull,
                time_ms,
                pv: rm.pv.clone(),
                tbhits: sh.tbhits.load(Ordering::Relaxed),
            });
        }
    }

    /// After a completed iteration: whether to start no other, from its
    /// best line and the number of root moves.
    fn iteration_ends_search(
        &mut self,
        sh: &Shared,
        best: &RootMove,
        root_moves: usize,
        depth: i32,
    ) -> bool {
        let m = self;
        m.poll_ponder(sh.control);
        // A proven result: deeper iterations cannot change it.
        let mate_plies = MATE - best.score.abs();
        if best.score.abs() >= MATE_BOUND && depth > mate_plies {
            return true;
        }
        if !m.limited() {
            return false;
        }
        if root_moves == 1 && m.tm.is_timed() {
            return true;
        }
        let changed = m.last_best.is_some_and(|b| b != best.mv);
        m.changes = m.changes * 0.5 + changed as u32 as f64;
        let mut instability = 1.0 + 0.6 * m.changes;
        if m.last_best.is_some() && best.score < m.last_score - 30 {
            instability *= 1.4;
        }
        m.last_best = Some(best.mv);
        m.last_score = best.score;
        m.tm.enough(instability)
    }
}

/// The stored score, if the table's entry decides the node: deep enough,
/// with a bound on the right side of the window (never at a PV node, whose
/// line must be searched).
#[inline(always)]
fn table_cutoff<N: NodeKind>(hit: Hit, depth: i32, ply: usize, w: Window) -> Option<i32> {
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
fn late_move_pruned<N: NodeKind>(
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

/// Whether the side to move has any legal move, without listing them.
fn has_move(pos: &Position, rules: &Rules) -> bool {
    let me = pos.side_to_move();
    let empty = pos.empty();
    if empty.is_empty() {
        return false;
    }
    if pos.bans(me) != 0 {
        return pos.count_moves(rules) > 0;
    }
    if pos.in_hand(me) > 0 || pos.can_fly(rules, me) {
        return true;
    }
    rules.layout().slides(pos.pieces(me), empty).moves > 0
}

/// The table key: the position's hash, plus the move-count clock when a
/// move-count draw rule is on (the result depends on it), plus the rules.
#[inline]
pub fn tt_key(sh: &Shared, pos: &Position) -> u64 {
    let mut key = pos.hash() ^ sh.rules_key;
    if sh.rules.move_count_draws() {
        key ^= (pos.clock() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    key
}

/// Mate scores are stored relative to the node, not the root.
fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// The public form of an internal score (see `Score` for the mate count).
/// The score reported for a line while placing: the mean of this
/// iteration's and the last one's scores of the line of that rank. An
/// iteration whose horizon ends on one side's placement sees that side a
/// piece further on than the next iteration does, so raw scores swing by
/// about half a piece between odd and even depths; their mean does not.
/// The search itself (and so every move chosen) uses the raw scores. Table
/// and mate scores are reported as found.
fn shown_score(score: i32, before: i32) -> i32 {
    let heuristic = |s: i32| s.abs() < tb::TB_FLOOR;
    if heuristic(score) && heuristic(before) {
        (score + before).div_euclid(2)
    } else {
        score
    }
}

pub fn to_score(s: i32) -> Score {
    if s >= MATE_BOUND {
        Score::Mate((MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        Score::Mate(-((MATE + s + 1) / 2))
    } else {
        Score::Cp(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_own_moves() {
        assert_eq!(to_score(MATE - 1), Score::Mate(1));
        assert_eq!(to_score(MATE - 3), Score::Mate(2));
        assert_eq!(to_score(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(to_score(-(MATE - 4)), Score::Mate(-2));
        assert_eq!(to_score(250), Score::Cp(250));
        for s in [MATE - 5, -(MATE - 6), 17] {
            assert_eq!(from_tt(to_tt(s, 3), 3), s);
        }
    }
}
