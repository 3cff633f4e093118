//! The coach: whether it is on, and its judgement of the player's last
//! move against the exact values known before it (tables or book). The
//! board hands it those values; its words on the page are `view.rs`'s.

use crate::rules::Move;
use crate::tablebase::{Known, Source, Value as TbValue};

/// The coach (on unless turned off) and its note on the player's last
/// move, kept until the player's next move.
pub(super) struct Coach {
    enabled: bool,
    note: Option<CoachNote>,
}

impl Coach {
    pub(super) fn new() -> Coach {
        Coach {
            enabled: true,
            note: None,
        }
    }

    pub(super) fn enabled(&self) -> bool {
        self.enabled
    }

    pub(super) fn note(&self) -> Option<&CoachNote> {
        self.note.as_ref()
    }

    /// Turns the coach on or off (which drops its note).
    pub(super) fn set_enabled(&mut self, enabled: bool) {
        self.enabled = enabled;
        if !enabled {
            self.note = None;
        }
    }

    /// Judges the player's move `mv`, which made ply `ply`, against the
    /// values `known` before it (none: nothing to say).
    pub(super) fn judge(&mut self, known: Option<&Known>, mv: Move, ply: usize) {
        self.note = known.and_then(|k| CoachNote::of(k, mv, ply));
    }

    /// The moves after ply `keep` were taken back.
    pub(super) fn forget_after(&mut self, keep: usize) {
        self.note = self.note.take().filter(|n| n.ply <= keep);
    }

    /// A new game: no note.
    pub(super) fn clear(&mut self) {
        self.note = None;
    }
}

/// Orders values for the side that has them: a win above a draw above a
/// loss.
fn rank(value: TbValue) -> u8 {
    match value {
        TbValue::Win => 2,
        TbValue::Draw => 1,
        TbValue::Loss => 0,
    }
}

/// The coach's word on a move of the player that gave value away: a win
/// it threw away or a draw it turned into a loss, and the moves that kept
/// the value, as the tables or the book know them.
#[derive(Clone, Debug)]
pub(super) struct CoachNote {
    /// The move's ply (the game's moves up to and including it).
    pub(super) ply: usize,
    pub(super) mv: Move,
    pub(super) before: TbValue,
    pub(super) after: TbValue,
    pub(super) better: Vec<Move>,
    pub(super) source: Source,
}

impl CoachNote {
    /// The note on `mv`, played at ply `ply` from the position `known`
    /// describes; none when it kept the best value or is not known.
    fn of(known: &Known, mv: Move, ply: usize) -> Option<CoachNote> {
        let best = known
            .moves
            .iter()
            .map(|m| m.probe.value)
            .max_by_key(|&v| rank(v))?;
        let played = known.moves.iter().find(|m| m.mv == mv)?.probe.value;
        (rank(played) < rank(best)).then(|| CoachNote {
            ply,
            mv,
            before: best,
            after: played,
            better: known
                .moves
                .iter()
                .filter(|m| m.probe.value == best)
                .map(|m| m.mv)
                .collect(),
            source: known.source,
        })
    }
}
