//! A table's totals, counted while solving and verifying and kept in its
//! header.

use crate::value::{Probe, Value};

/// A subspace's totals, kept in its table's header.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Summary {
    /// Positions up to symmetry (canonical slots).
    pub positions: u64,
    /// Positions won for the side to move.
    pub wins: u64,
    /// Positions lost for the side to move.
    pub losses: u64,
    /// Positions drawn.
    pub draws: u64,
    /// Longest win and loss, in plies.
    pub longest_win: u16,
    /// The longest loss, in plies (0 where the values have no distances).
    pub longest_loss: u16,
}

impl Summary {
    /// Counts one position's value.
    pub fn count(&mut self, p: Probe) {
        self.positions += 1;
        match p.value {
            Value::Win => {
                self.wins += 1;
                self.longest_win = self.longest_win.max(p.distance().unwrap_or(0));
            }
            Value::Loss => {
                self.losses += 1;
                self.longest_loss = self.longest_loss.max(p.distance().unwrap_or(0));
            }
            Value::Draw => self.draws += 1,
        }
    }

    /// Adds the totals of another part of the same table.
    pub(crate) fn merge(&mut self, other: &Summary) {
        self.positions += other.positions;
        self.wins += other.wins;
        self.losses += other.losses;
        self.draws += other.draws;
        self.longest_win = self.longest_win.max(other.longest_win);
        self.longest_loss = self.longest_loss.max(other.longest_loss);
    }
}
