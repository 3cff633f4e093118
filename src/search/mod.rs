//! Finding the best move: iterative deepening alpha-beta over the rules
//! core. Knows nothing of the protocol: limits come in as `Limits`,
//! progress goes out through a callback.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::rules::{Game, Move, MoveList};

/// A score from the side to move's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Hundredths of a piece.
    Cp(i32),
    /// A forced win in this many own moves (negative: a forced loss).
    Mate(i32),
}

/// The clock of a timed game, in milliseconds.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Clock {
    pub time: [u64; 2],
    pub inc: [u64; 2],
    pub moves_to_go: Option<u32>,
}

/// What ends a search (besides `stop`). Empty limits mean: until stopped.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    /// Search until stopped; never return before `stop`.
    pub infinite: bool,
    /// Only these root moves (all when empty).
    pub searchmoves: Vec<Move>,
}

/// Signals from the front end to a running search.
#[derive(Default, Debug)]
pub struct Control {
    /// Stop now and return the best move found.
    pub stop: AtomicBool,
    /// Pondering: search as if infinite until cleared (ponderhit), then
    /// apply the time limits from that moment.
    pub ponder: AtomicBool,
}

impl Control {
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// One progress report (the `info` line of a completed iteration).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub multipv: u32,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    pub time_ms: u64,
    pub pv: Vec<Move>,
}

/// What a finished search returns.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Outcome {
    /// `None` only when the side to move has no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub nodes: u64,
}

/// Search settings a front end may change.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Settings {
    pub hash_mb: usize,
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead_ms: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead_ms: 30,
        }
    }
}

/// The search with its state kept between moves (transposition table).
pub struct Searcher {
    settings: Settings,
}

impl Searcher {
    pub fn new(settings: Settings) -> Searcher {
        Searcher { settings }
    }

    pub fn settings(&self) -> Settings {
        self.settings
    }

    /// Applies new settings (resizing the table if `hash_mb` changed).
    pub fn configure(&mut self, settings: Settings) {
        self.settings = settings;
    }

    /// Forgets everything learnt (transposition table, histories).
    pub fn clear(&mut self) {}

    /// Searches the game's current position within `limits`, reporting each
    /// completed iteration to `report`.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &Control,
        report: &mut dyn FnMut(&Info),
    ) -> Outcome {
        // Placeholder until the real search lands: the first legal move.
        let _ = (limits, control, report);
        let mut list = MoveList::new();
        game.legal_moves(&mut list);
        Outcome {
            best: list.as_slice().first().copied(),
            ponder: None,
            score: Score::Cp(0),
            nodes: 0,
        }
    }
}
