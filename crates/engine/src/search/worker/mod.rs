//! One search thread: iterative deepening over principal variation
//! search, with the game's end rules applied at every node.

use std::sync::atomic::Ordering;

use morris_rules::{
    Bitboard, Blocked, BoardFull, GameResult, Move, MoveSink, Position, Removals, Rules, Square,
};
use morris_tablebase::Value;

use super::MAX_PLY;
use super::eval::evaluate_with;
use super::main_thread::Main;
use super::node::{NodeKind, NonPv, Pv, View, Window, late_move_pruned, table_cutoff};
use super::ordering::{self, MoveOrdering};
use super::root_move::RootMove;
use super::score::{INF, MATE, MATE_BOUND, to_tt};
use super::shared::{Shared, tt_key};
use super::tb;
use super::tt::Bound;

mod root;

/// Reverse futility margin per ply of depth: about a piece.
const FUTILITY_MARGIN: i32 = 110;

pub(super) struct Worker {
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
    pub(super) fn new(id: usize) -> Worker {
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
    pub(super) fn reset(&mut self, sh: &Shared) {
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
                if m.out_of_time() {
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
