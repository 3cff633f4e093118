//! The clocks of a timed game, kept by the server: what each side has
//! left, charged while its side is to move and the game is played, with
//! the increment after each move. Apart from the game so that their
//! arithmetic reads in one place.

use std::time::Instant;

use crate::tools::engine_process::{TimeControl, TimeControlError};

use super::board::State;
use super::scheduler::Kind;

/// A game's clock: base time and increment per move, both sides.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ClockSetting {
    pub base_ms: u64,
    pub inc_ms: u64,
}

impl ClockSetting {
    /// `SECONDS[+INCREMENT]`, as `morris match --tc` reads it.
    pub fn parse(text: &str) -> Result<ClockSetting, TimeControlError> {
        match TimeControl::parse_clock(text)? {
            TimeControl::Clock { base_ms, inc_ms } => Ok(ClockSetting { base_ms, inc_ms }),
            other => unreachable!("parse_clock gave {other}"),
        }
    }
}

/// The clocks of a timed game: what each side has left, and since when
/// the side to move's clock runs (none when stopped).
#[derive(Clone, Copy, Debug)]
pub(super) struct Clocks {
    pub(super) setting: ClockSetting,
    pub(super) left: [u64; 2],
    pub(super) since: Option<Instant>,
}

impl State {
    pub(super) fn reset_clocks(&mut self, setting: Option<ClockSetting>) {
        self.clocks = setting.map(|setting| Clocks {
            setting,
            left: [setting.base_ms; 2],
            since: None,
        });
    }

    /// Charges the time used since the last look to the side to move; a
    /// clock at zero loses the game (and stops the search).
    pub(super) fn tick(&mut self) {
        let side = self.game.position().side_to_move();
        let Some(c) = &mut self.clocks else { return };
        let Some(since) = c.since else { return };
        let now = Instant::now();
        let used = now.duration_since(since).as_millis() as u64;
        c.left[side as usize] = c.left[side as usize].saturating_sub(used);
        c.since = Some(now);
        if c.left[side as usize] == 0 && self.time_loss.is_none() && self.game.outcome().is_none() {
            c.since = None;
            self.time_loss = Some(side);
            if self.search.as_ref().is_some_and(|s| s.kind == Kind::Play) {
                self.cancel();
            }
        }
    }

    /// Runs the clock of the side to move while the game is played (not
    /// over, paused or analysed), and stops it otherwise.
    pub(super) fn run_clock(&mut self) {
        let running = self.over().is_none() && !self.paused && self.analysis.is_none();
        if let Some(c) = &mut self.clocks {
            c.since = match (running, c.since) {
                (true, Some(since)) => Some(since),
                (true, None) => Some(Instant::now()),
                (false, _) => None,
            };
        }
    }
}
