//! How long to think: an optimum time (checked between iterations, scaled
//! by how unsettled the search is) and a maximum (checked inside the
//! search) that never reaches the clock.

use std::time::{Duration, Instant};

use super::Limits;
use morris_rules::Color;

/// Moves a game is assumed to last from here when the clock does not say
/// (a mill game rarely runs past 40 moves each after the opening).
const DEFAULT_MOVES_TO_GO: u64 = 30;

#[derive(Clone, Copy, Debug)]
pub(super) struct TimeManager {
    start: Instant,
    optimum: Option<Duration>,
    maximum: Option<Duration>,
}

impl TimeManager {
    pub(super) fn new(
        limits: &Limits,
        side: Color,
        overhead_ms: u64,
        start: Instant,
    ) -> TimeManager {
        let mut optimum: Option<u64> = None;
        let mut maximum: Option<u64> = None;
        if let Some(clock) = limits.clock {
            let time = clock.time[side.index()];
            let inc = clock.inc[side.index()];
            // Keep a reserve for the overhead on this and later moves.
            let avail = time.saturating_sub(overhead_ms).saturating_sub(time / 50);
            let mtg = clock
                .moves_to_go
                .map_or(DEFAULT_MOVES_TO_GO, |m| (m as u64).clamp(1, 60));
            let share = avail / mtg + inc * 3 / 4;
            let cap = if mtg == 1 { avail * 9 / 10 } else { avail / 2 };
            let opt = share.min(cap);
            optimum = Some(opt);
            maximum = Some((opt * 4).min(if mtg == 1 { cap } else { avail * 7 / 10 }));
        }
        if let Some(mt) = limits.movetime {
            let mt = (mt.as_millis() as u64).saturating_sub(overhead_ms).max(1);
            // A fixed time per move is for using up: no soft limit of its own.
            optimum = optimum.map(|o| o.min(mt));
            maximum = Some(maximum.map_or(mt, |m| m.min(mt)));
        }
        TimeManager {
            start,
            optimum: optimum.map(|o| Duration::from_millis(o.max(1))),
            maximum: maximum.map(|m| Duration::from_millis(m.max(1))),
        }
    }

    /// Counts the time from now (at a ponderhit).
    pub(super) fn restart(&mut self, now: Instant) {
        self.start = now;
    }

    pub(super) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub(super) fn is_timed(&self) -> bool {
        self.maximum.is_some()
    }

    /// Past the hard limit: stop at once.
    pub(super) fn out_of_time(&self) -> bool {
        self.maximum.is_some_and(|m| self.elapsed() >= m)
    }

    /// Whether to start no further iteration. `instability` is 1.0 for a
    /// settled search and grows when the best move changes or the score drops.
    pub(super) fn enough(&self, instability: f64) -> bool {
        let Some(opt) = self.optimum else {
            return false;
        };
        let target = opt.mul_f64(instability.clamp(0.5, 2.5));
        // The next iteration takes a few times longer than the last ones.
        self.elapsed() >= target.mul_f64(0.55) || self.out_of_time()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    #[test]
    fn limits_stay_inside_the_clock() {
        let limits = Limits {
            clock: Some(Clock {
                time: [1000, 1000],
                inc: [0, 0],
                moves_to_go: None,
            }),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Color::White, 30, Instant::now());
        let max = tm.maximum.unwrap().as_millis();
        assert!(max > 0 && max < 700, "{max}");
        let limits = Limits {
            movetime: Some(Duration::from_millis(200)),
            ..Limits::default()
        };
        let tm = TimeManager::new(&limits, Color::Black, 30, Instant::now());
        assert_eq!(tm.maximum, Some(Duration::from_millis(170)));
        let tm = TimeManager::new(&Limits::default(), Color::Black, 30, Instant::now());
        assert!(!tm.is_timed() && !tm.enough(1.0));
    }
}
