//! The root of one search thread: iterative deepening, aspiration
//! windows and the root moves' search.

use std::sync::atomic::Ordering;

use morris_rules::Color;

use super::Worker;
use crate::search::main_thread::Main;
use crate::search::node::{NonPv, Pv, View, Window};
use crate::search::root_move::RootMove;
use crate::search::score::{INF, MATE_BOUND, shown_score};
use crate::search::shared::Shared;

impl Worker {
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
    pub(crate) fn iterate(&mut self, sh: &Shared, main: Option<Main>) {
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
