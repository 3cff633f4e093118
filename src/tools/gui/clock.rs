//! The clocks of a timed game, kept by the server: what each side has
//! left, charged while its side is to move and the game is played, with
//! the increment after each move. Apart from the game so that their
//! arithmetic reads in one place; when they run is the board's call.

use std::time::Instant;

use crate::rules::Color;
use crate::tools::matches::engine_spec::{TimeControl, TimeControlError};

/// A game's clock: base time and increment per move, both sides.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct ClockSetting {
    pub base_ms: u64,
    pub inc_ms: u64,
}

impl ClockSetting {
    /// `SECONDS[+INCREMENT]`, as `morris match --tc` reads it.
    pub(super) fn parse(text: &str) -> Result<ClockSetting, TimeControlError> {
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
    setting: ClockSetting,
    left: [u64; 2],
    since: Option<Instant>,
}

impl Clocks {
    pub(super) fn new(setting: ClockSetting) -> Clocks {
        Clocks {
            setting,
            left: [setting.base_ms; 2],
            since: None,
        }
    }

    pub(super) fn setting(&self) -> ClockSetting {
        self.setting
    }

    /// The milliseconds `side` has left, as of the last charge.
    pub(super) fn left(&self, side: Color) -> u64 {
        self.left[side as usize]
    }

    /// The side to move's clock runs.
    pub(super) fn running(&self) -> bool {
        self.since.is_some()
    }

    /// The increment, after a move of `side`.
    pub(super) fn add_increment(&mut self, side: Color) {
        self.left[side as usize] += self.setting.inc_ms;
    }

    /// Charges the time used since the last look to `side`, the side to
    /// move; true when its clock has just reached zero (and stops).
    pub(super) fn charge(&mut self, side: Color) -> bool {
        let Some(since) = self.since else {
            return false;
        };
        let now = Instant::now();
        let used = now.duration_since(since).as_millis() as u64;
        let left = &mut self.left[side as usize];
        *left = left.saturating_sub(used);
        self.since = (*left > 0).then_some(now);
        *left == 0
    }

    /// Runs the clock of the side to move, or stops it.
    pub(super) fn run(&mut self, running: bool) {
        self.since = match (running, self.since) {
            (true, Some(since)) => Some(since),
            (true, None) => Some(Instant::now()),
            (false, _) => None,
        };
    }
}
