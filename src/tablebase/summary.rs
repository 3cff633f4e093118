//! Per-subspace totals: counted while solving and verifying, kept in the
//! table headers, read back and printed by `morris tb stats`.

use std::path::Path;

use super::file::file_len;
use super::{Probe, Subspace, Tablebases, Value};
use crate::rules::Rules;

/// A subspace's totals, kept in its table's header.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Summary {
    /// Positions up to symmetry (canonical slots).
    pub positions: u64,
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    /// Longest win and loss, in plies.
    pub longest_win: u16,
    pub longest_loss: u16,
}

impl Summary {
    /// Counts one position's value.
    pub fn count(&mut self, p: Probe) {
        self.positions += 1;
        match p.value {
            Value::Win => {
                self.wins += 1;
                self.longest_win = self.longest_win.max(p.plies);
            }
            Value::Loss => {
                self.losses += 1;
                self.longest_loss = self.longest_loss.max(p.plies);
            }
            Value::Draw => self.draws += 1,
        }
    }

    /// Adds the totals of another part of the same table.
    pub fn merge(&mut self, other: &Summary) {
        self.positions += other.positions;
        self.wins += other.wins;
        self.losses += other.losses;
        self.draws += other.draws;
        self.longest_win = self.longest_win.max(other.longest_win);
        self.longest_loss = self.longest_loss.max(other.longest_loss);
    }
}

/// One table's totals and size on disk.
#[derive(Clone, Debug)]
pub struct TableSummary {
    pub subspace: Subspace,
    pub summary: Summary,
    pub bytes: u64,
}

/// The totals of every table on disk for `rules` under `root`.
pub fn on_disk(root: &Path, rules: &Rules) -> Vec<TableSummary> {
    let tbs = Tablebases::open(root, rules);
    tbs.available()
        .into_iter()
        .filter_map(|sub| {
            let t = tbs.table(sub)?;
            Some(TableSummary {
                subspace: sub,
                summary: t.file.header.summary,
                bytes: file_len(t.file.data().len()),
            })
        })
        .collect()
}

/// The totals as a text table, one line per subspace.
pub fn format(rows: &[TableSummary]) -> String {
    let mut out = format!(
        "{:>8} {:>14} {:>14} {:>14} {:>14} {:>8} {:>8} {:>12}\n",
        "subspace", "positions", "wins", "losses", "draws", "max win", "max loss", "bytes"
    );
    for r in rows {
        let s = &r.summary;
        out.push_str(&format!(
            "{:>8} {:>14} {:>14} {:>14} {:>14} {:>8} {:>8} {:>12}\n",
            r.subspace.to_string(),
            s.positions,
            s.wins,
            s.losses,
            s.draws,
            s.longest_win,
            s.longest_loss,
            r.bytes
        ));
    }
    out
}
