//! The main thread's duties during a search: keep time, decide when to
//! stop, report each completed iteration.

use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::time::Instant;

use morris_rules::Move;

use super::root_move::RootMove;
use super::score::{MATE, MATE_BOUND, to_score};
use super::shared::Shared;
use super::time::TimeManager;
use super::{Control, Info, Score};

/// What only the main thread does: keep time, decide when to stop, report.
pub(super) struct Main {
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
    pub(super) fn new(tm: TimeManager, pondering: bool, infinite: bool, tx: Sender<Info>) -> Main {
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
    pub(super) fn poll_ponder(&mut self, control: &Control) {
        if self.pondering && !control.ponder.load(Ordering::Relaxed) {
            self.pondering = false;
            self.tm.restart(Instant::now());
        }
    }

    /// Whether the time is up, where limits (not stop) apply.
    pub(super) fn out_of_time(&self) -> bool {
        self.limited() && self.tm.out_of_time()
    }

    /// Whether limits (not stop) still apply: neither infinite nor pondering.
    pub(super) fn limited(&self) -> bool {
        !self.infinite && !self.pondering
    }
}

impl Main {
    /// Sends the lines of a completed iteration.
    pub(super) fn report(&self, sh: &Shared, best: &[RootMove], depth: i32) {
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
    pub(super) fn iteration_ends_search(
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
