//! Finding the best move: iterative deepening alpha-beta over the rules
//! core. Knows nothing of the protocol: limits come in as `Limits`,
//! progress goes out through a callback.
//!
//! - `worker`: one search thread. Principal variation search with
//!   aspiration windows, depth in whole turns; every node applies the end
//!   rules in the order of docs/rules.md 8.8, repetition over the
//!   game history and the search path; wins and losses score as distances.
//!   Its root (`worker/root.rs`: iterative deepening, aspiration windows)
//!   apart from its nodes; the node kinds, windows and the cutoffs taken
//!   before a node's moves (`node`), scores as distances and their public
//!   form (`score`), what the threads share (`shared`), the main thread's
//!   clock and reports (`main_thread`), a root move's lines (`root_move`).
//! - `tt`: the lock-free table shared by the threads (Lazy SMP).
//! - `ordering`, `eval`, `time`: move order, static evaluation, clock.
//! - `tb`: table values as scores, probed at interior nodes of every phase
//!   the tables cover. At a covered root (tables, else an opening book)
//!   only the moves that keep the value are searched (`RootValues`), and
//!   the score reported is the table's.
//! - `searcher`: the threads of one search and the answer picked; this
//!   file holds the vocabulary they share (limits, scores, settings).
//! - `bench`: the fixed benchmark whose node count signs the search.

pub mod bench;
pub mod eval;
mod main_thread;
mod node;
mod ordering;
mod root_move;
mod score;
mod searcher;
mod shared;
mod tb;
mod time;
mod tt;
mod worker;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use morris_rules::Move;

pub use eval::Weights;
pub use searcher::{ExactKnowledge, Searcher};
pub use tt::TableAllocError;

/// Deepest search path, in plies (one ply = one whole turn).
pub(crate) const MAX_PLY: usize = 128;

/// A score from the side to move's point of view.
///
/// Mate counts: a game won `p` plies (turns of either side) from the root
/// is `Mate((p + 1) / 2)`, the number of own moves including the winning
/// one: `Mate(1)` = we win with our next move. A loss `p` plies away is
/// `Mate(-(p / 2))`, the number of own moves still to play: `Mate(-1)` =
/// whatever we play, the opponent's answer wins. `Mate(0)` is a root that
/// is already lost (no legal move).
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
    /// Each side's time left (`wtime`, `btime`), by `Color::index`: white
    /// first.
    pub time: [u64; 2],
    /// Each side's increment per move (`winc`, `binc`), white first.
    pub inc: [u64; 2],
    /// `movestogo`: moves left until the next time control (`None`: the
    /// time is shared as if 30 were left).
    pub moves_to_go: Option<u32>,
}

/// What ends a search (besides `stop`). Empty limits mean: until stopped.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct Limits {
    /// The deepest iteration, in plies (whole turns), taken as 1 to
    /// `MAX_PLY` - 1.
    pub depth: Option<u32>,
    /// Stop after about this many nodes, all threads together (exactly
    /// with one thread).
    pub nodes: Option<u64>,
    /// Think this long, less the move overhead (`Settings::move_overhead_ms`).
    pub movetime: Option<Duration>,
    /// A game clock: the search budgets its own share of the side to
    /// move's time and never uses it all.
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
    /// Whether `stop` has been asked for.
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// One progress report (the `info` line of a completed iteration).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Info {
    /// The iteration completed, in plies (whole turns).
    pub depth: u32,
    /// The deepest ply this line's search reached (at least `depth`).
    pub seldepth: u32,
    /// The line's rank among the best lines (`MultiPV`), from 1.
    pub multipv: u32,
    /// The line's score as reported: while pieces are placed, the mean of
    /// this iteration's and the last one's (protocol.md, `go`).
    pub score: Score,
    /// Nodes searched so far, all threads together.
    pub nodes: u64,
    /// Nodes searched per second since the search started.
    pub nps: u64,
    /// Permille of the transposition table in use.
    pub hashfull: u32,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// The line: its first move, then the replies and moves expected.
    pub pv: Vec<Move>,
    /// Tablebase probes that answered.
    pub tbhits: u64,
}

/// What a finished search returns.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchOutcome {
    /// `None` only when the side to move has no legal move.
    pub best: Option<Move>,
    /// The reply expected to `best`, to ponder on (`None` when unknown).
    pub ponder: Option<Move>,
    /// The score reported for `best`, from the side to move's point of
    /// view.
    pub score: Score,
    /// Nodes searched, all threads together.
    pub nodes: u64,
    /// Whether the opening book (not the tables) gave the root's values
    /// and so chose the moves searched.
    pub from_book: bool,
}

/// Search settings a front end may change. The optional techniques are on
/// by default where self-play found them to gain, off where it did not
/// (docs/experiments.md has the matches).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Settings {
    /// `Hash`: the transposition table's size in MB (2^20 bytes).
    pub hash_mb: usize,
    /// `Threads`: search threads (Lazy SMP).
    pub threads: usize,
    /// `MultiPV`: the number of best lines searched and reported.
    pub multipv: usize,
    /// `Move Overhead`: milliseconds kept in reserve per move for
    /// communication delays.
    pub move_overhead_ms: u64,
    /// Playing strength 0..=20; below 20 the search is shallower and picks
    /// among the best few moves with noise.
    pub skill: u8,
    /// `UCI_LimitStrength`: play at `elo` instead of at `skill`.
    pub limit_strength: bool,
    /// `UCI_Elo`, used when `limit_strength` is on (see `skill_for_elo`).
    pub elo: u32,
    /// Null-move pruning in the sliding phase (off by default).
    pub null_move: bool,
    /// Late move reductions of quiet moves (on).
    pub lmr: bool,
    /// Quiescence search over mill-closing moves at the horizon (off: the
    /// evaluation's threat terms already see pending mills).
    pub quiescence: bool,
    /// One more ply after a mill is closed (off).
    pub mill_extension: bool,
    /// Reverse futility pruning near the horizon (off).
    pub futility: bool,
    /// Late move pruning: at non-PV nodes of depth 1-4, quiet moves after
    /// the first 4/7/12/19 are not searched (off: it reaches a depth with
    /// far fewer nodes, but plays no better).
    pub late_move_pruning: bool,
    /// Internal iterative reduction: a node of depth 4 or more without a
    /// table move is searched one ply shallower (on).
    pub iir: bool,
    /// The weights of the static evaluation's terms.
    pub weights: Weights,
}

impl Settings {
    /// The skill level played: `skill`, or the one matching `elo` when
    /// the strength is limited.
    fn effective_skill(&self) -> u8 {
        if self.limit_strength {
            skill_for_elo(self.elo)
        } else {
            self.skill.min(20)
        }
    }
}

/// Measured strength of skill levels: (skill, Elo), from matches of
/// neighbouring levels at 200,000 nodes a move (scripts/skill-ladder.sh,
/// docs/experiments.md). The scale's zero is arbitrary: Skill 0 is set at
/// 1000.
const SKILL_ELO: [(u8, u32); 11] = [
    (0, 1000),
    (2, 1135),
    (4, 1345),
    (6, 1505),
    (8, 1648),
    (10, 1783),
    (12, 1883),
    (14, 2030),
    (16, 2119),
    (18, 2242),
    (20, 2373),
];

/// The weakest `UCI_Elo`: Skill 0's.
pub(crate) const ELO_MIN: u32 = SKILL_ELO[0].1;
/// The strongest `UCI_Elo`: Skill 20's, full strength.
pub(crate) const ELO_MAX: u32 = SKILL_ELO[SKILL_ELO.len() - 1].1;

/// The skill level whose measured strength is nearest to `elo`, between
/// the calibrated levels by linear interpolation.
fn skill_for_elo(elo: u32) -> u8 {
    let elo = elo.clamp(ELO_MIN, ELO_MAX);
    for pair in SKILL_ELO.windows(2) {
        let ((s0, e0), (s1, e1)) = (pair[0], pair[1]);
        if elo <= e1 {
            let t = (elo - e0) as f64 / (e1 - e0) as f64;
            return (s0 as f64 + t * (s1 - s0) as f64).round() as u8;
        }
    }
    20
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead_ms: 30,
            skill: 20,
            limit_strength: false,
            elo: ELO_MAX,
            null_move: false,
            lmr: true,
            quiescence: false,
            mill_extension: false,
            futility: false,
            late_move_pruning: false,
            iir: true,
            weights: Weights::DEFAULT,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_maps_onto_skill_monotonically_and_clamps() {
        assert_eq!(skill_for_elo(0), 0);
        assert_eq!(skill_for_elo(ELO_MIN), 0);
        assert_eq!(skill_for_elo(ELO_MAX), 20);
        assert_eq!(skill_for_elo(u32::MAX), 20);
        for (skill, elo) in SKILL_ELO {
            assert_eq!(skill_for_elo(elo), skill);
        }
        let skills: Vec<u8> = (ELO_MIN..=ELO_MAX).map(skill_for_elo).collect();
        assert!(skills.windows(2).all(|w| w[0] <= w[1]));
        assert!(skills.contains(&10));
    }
}
