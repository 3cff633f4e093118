//! The move-count draws applied to stored values: a win or loss that
//! converts only past a draw limit, counted from a position's clock (or
//! from clock 0, where a compact table stores it), is a draw.

use morris_rules::{Color, Position, Rules};

use crate::sector::Sector;
use crate::value::{Probe, Value};

/// A win or loss that converts only after a draw limit is a draw. A value
/// without a distance (a compact table's) is left as it is: under draw
/// limits it is already the value at clock 0 (`Tablebases::probe`).
pub(crate) fn apply_clock(rules: &Rules, probe: Probe, clock: u16, three_each: bool) -> Probe {
    let mut limit = rules.no_capture_moves;
    if three_each && rules.endgame_moves > 0 && (limit == 0 || rules.endgame_moves < limit) {
        limit = rules.endgame_moves;
    }
    if probe.value != Value::Draw
        && probe.plies > 0
        && probe.distance().is_some()
        && limit > 0
        && clock as u32 + probe.plies as u32 > limit as u32
    {
        Probe::DRAW
    } else {
        probe
    }
}

/// A value stored in sector `sub`'s full table as it is at clock 0, where
/// every placement and removal leaves the game: a movement win or loss
/// converting only past a draw limit is a draw (a placement table stores
/// values at clock 0 already, the next placement restarting the clock).
/// This is what a compact table stores under draw limits.
pub(crate) fn at_clock_zero(rules: &Rules, sub: Sector, probe: Probe) -> Probe {
    if sub.placing() {
        probe
    } else {
        apply_clock(rules, probe, 0, sub.mine == 3 && sub.theirs == 3)
    }
}

/// A stored value under the move-count draws, from the position's clock,
/// (`Tablebases::probe`, `Book::probe`): while stones are in hand the next
/// placement restarts the clock, so only a limit reached now draws.
pub(crate) fn with_clock(rules: &Rules, pos: &Position, p: Probe) -> Probe {
    if pos.in_hand(Color::White) + pos.in_hand(Color::Black) != 0 {
        return if pos.move_count_draw(rules).is_some() {
            Probe::DRAW
        } else {
            p
        };
    }
    let three_each = Color::BOTH.iter().all(|&c| pos.material(c) == 3);
    apply_clock(rules, p, pos.clock(), three_each)
}
