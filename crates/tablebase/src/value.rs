//! A table's value for the side to move: the result and the plies to the
//! next conversion, and the 16-bit code the tables store it as.

/// Result for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Value {
    /// The side to move wins with best play.
    Win,
    /// Best play draws.
    Draw,
    /// The side to move loses with best play.
    Loss,
}

/// A tablebase value: the result and, for a win or loss, the plies to the
/// next conversion (0 for a side that is blocked now).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Probe {
    /// The result for the side to move.
    pub value: Value,
    /// Plies to the next conversion: 0 for a draw, `NO_DISTANCE` from a
    /// table or book that stores none.
    pub plies: u16,
}

impl Probe {
    /// A draw (code 0).
    pub const DRAW: Probe = Probe {
        value: Value::Draw,
        plies: 0,
    };

    /// The distance of a win or loss read from a win/draw/loss-only table
    /// (`tb generate --wdl`), which stores none. It orders after every real
    /// distance (the slowest win, the longest loss) and its code still fits
    /// in 16 bits.
    pub(crate) const NO_DISTANCE: u16 = 0x7ffe;

    /// The plies to the next conversion, unless the table stores none.
    #[inline]
    pub fn distance(self) -> Option<u16> {
        (self.plies != Probe::NO_DISTANCE).then_some(self.plies)
    }

    /// The distance one ply before reaching this value by a move that does
    /// not convert: one more, or still none.
    #[inline]
    pub(crate) fn plies_before(self) -> u16 {
        match self.distance() {
            Some(d) => d + 1,
            None => Probe::NO_DISTANCE,
        }
    }

    /// The stored code: 0 draw, `2d + 1` win in d, `2d + 2` loss in d.
    #[inline]
    pub fn from_code(code: u16) -> Probe {
        match code {
            0 => Probe::DRAW,
            c if c & 1 == 1 => Probe {
                value: Value::Win,
                plies: (c - 1) / 2,
            },
            c => Probe {
                value: Value::Loss,
                plies: (c - 2) / 2,
            },
        }
    }

    /// The code a table stores for this value (the inverse of
    /// `from_code`).
    #[inline]
    pub fn code(self) -> u16 {
        match self.value {
            Value::Draw => 0,
            Value::Win => 2 * self.plies + 1,
            Value::Loss => 2 * self.plies + 2,
        }
    }
}

/// Words a player reads right: the distance counts the plies, the coming
/// one included, to the next removal (by either side) or the end of the
/// game, so 1 is this ply's own removal, and a loss in 1 still loses.
impl std::fmt::Display for Probe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.value, self.distance()) {
            (Value::Win, Some(0)) => write!(f, "win, the game is over"),
            (Value::Loss, Some(0)) => write!(f, "loss, no legal move"),
            (Value::Win, Some(1)) => write!(f, "win, removes or ends the game now"),
            (Value::Loss, Some(1)) => write!(f, "loss, even after removing now"),
            (Value::Win, Some(d)) => write!(f, "win, removal or end in {d} plies"),
            (Value::Loss, Some(d)) => write!(f, "loss, removal or end in {d} plies"),
            (Value::Win, None) => write!(f, "win"),
            (Value::Loss, None) => write!(f, "loss"),
            (Value::Draw, _) => write!(f, "draw"),
        }
    }
}
