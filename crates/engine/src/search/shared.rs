//! What all threads of one search share, and the table key they use.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use morris_rules::{Move, Position, Rules};
use morris_tablebase::Tablebases;

use super::tt::TranspositionTable;
use super::{Control, Settings};

/// What all threads of one search share.
pub(super) struct Shared<'a> {
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
    pub(super) fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// The table key: the position's hash, plus the move-count clock when a
/// move-count draw rule is on (the result depends on it), plus the rules.
#[inline]
pub(super) fn tt_key(sh: &Shared, pos: &Position) -> u64 {
    let mut key = pos.hash() ^ sh.rules_key;
    if sh.rules.move_count_draws() {
        key ^= (pos.clock() as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    key
}
