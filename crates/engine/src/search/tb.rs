//! Tablebase values as search scores.
//!
//! A table win is proven but its distance counts plies to the next
//! conversion, not to the end of the game, so it is no mate score: it
//! scores below every mate and above every evaluation, quicker
//! conversions higher.

use morris_tablebase::{Probe, Value};

/// Score of a table win converting now; a win converting in `d` plies
/// scores `TB_WIN - d`.
const TB_WIN: i32 = 20_000;

/// The search score of a table value, side to move's view.
#[inline]
pub(super) fn score(probe: Probe) -> i32 {
    match probe.value {
        Value::Win => TB_WIN - plies(probe),
        Value::Loss => -(TB_WIN - plies(probe)),
        Value::Draw => 0,
    }
}

/// The plies a table value scores by; a win/draw/loss-only table's counts
/// as a slower conversion than any the distance tables hold.
fn plies(probe: Probe) -> i32 {
    probe.distance().map_or(NO_DISTANCE_PLIES, i32::from)
}

/// Longer than any distance to conversion of the supported rules.
const NO_DISTANCE_PLIES: i32 = 1_000;

/// Below every table score's size (searched ones included), above every
/// evaluation's.
pub(super) const TB_FLOOR: i32 = TB_WIN - 2 * NO_DISTANCE_PLIES;
