//! Two solutions of one game under different draw rules, table by table:
//! what the move-count draws change (`morris tb compare`). A draw rule
//! only ends games early in a draw, so under it a position can only keep
//! its value or turn a win or a loss into a draw; any other change is
//! counted apart, as a bug.

use std::path::Path;

use crate::probe::book::rules_text;
use crate::probe::clock::at_clock_zero;
use crate::probe::stats::fold_canonical;
use crate::probe::tables::Tablebases;
use crate::sector::Sector;
use crate::value::{Probe, Value};
use morris_rules::Rules;

/// A table's positions (or several tables') whose value at clock 0
/// differs between the two rule sets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Canonical positions compared.
    pub positions: u64,
    /// Won under the base rules, drawn under the compared ones.
    pub wins_drawn: u64,
    /// Lost under the base rules, drawn under the compared ones.
    pub losses_drawn: u64,
    /// Any other change (a draw that became a win or a loss, a win that
    /// became a loss): impossible, so a bug in one of the solutions.
    pub other: u64,
    /// The slot of the first such change met, to look at.
    pub other_slot: Option<u64>,
}

impl Changes {
    fn merge(mut self, b: Changes) -> Changes {
        self.positions += b.positions;
        self.wins_drawn += b.wins_drawn;
        self.losses_drawn += b.losses_drawn;
        self.other += b.other;
        self.other_slot = self.other_slot.or(b.other_slot);
        self
    }
}

/// Why two solutions cannot be compared table by table.
#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    /// No table of the compared rules is there under both rule sets.
    #[error("no table for {rules} under {dir}")]
    NoTables {
        /// The compared rules, as text (`book::rules_text`).
        rules: String,
        /// The two rules folders looked in, as `A and B`.
        dir: String,
    },
    /// A table (held here) present for both rule sets fails its
    /// checksum in one of them.
    #[error("table {0} is damaged in one of the two solutions")]
    Damaged(Sector),
}

/// Every table present under `root` for both `rules` and `base`, in the
/// order of `rules`' tables (movement subspaces, then placement sectors),
/// with the positions whose value at clock 0 differs; each table is read
/// once, on all threads.
pub fn compare_on_disk(
    root: &Path,
    rules: &Rules,
    base: &Rules,
) -> Result<Vec<(Sector, Changes)>, CompareError> {
    let ours = Tablebases::open(root, rules);
    let theirs = Tablebases::open(root, base);
    let mut rows = Vec::new();
    for sector in ours.available() {
        let (Some(a), Some(b)) = (ours.table(sector), theirs.table(sector)) else {
            continue;
        };
        let damaged = || CompareError::Damaged(sector);
        if !b.file.check_all() {
            return Err(damaged());
        }
        let row = fold_canonical(
            a,
            |c: &mut Changes, slot, here| {
                c.positions += 1;
                let code = b.file.code(slot).expect("checked above");
                let there = at_clock_zero(base, sector, Probe::from_code(code)).value;
                match (there, here.value) {
                    (t, h) if t == h => {}
                    (Value::Win, Value::Draw) => c.wins_drawn += 1,
                    (Value::Loss, Value::Draw) => c.losses_drawn += 1,
                    _ => {
                        c.other += 1;
                        c.other_slot.get_or_insert(slot);
                    }
                }
            },
            Changes::merge,
            |code| at_clock_zero(rules, sector, Probe::from_code(code)),
        )
        .ok_or_else(damaged)?;
        rows.push((sector, row));
    }
    if rows.is_empty() {
        return Err(CompareError::NoTables {
            rules: rules_text(rules),
            dir: format!("{} and {}", ours.dir().display(), theirs.dir().display()),
        });
    }
    Ok(rows)
}

/// The rows as a text table, with a line of totals.
pub fn format_changes(rows: &[(Sector, Changes)]) -> String {
    let line = |name: &str, c: &Changes| {
        format!(
            "{:>12} {:>14} {:>14} {:>14} {:>10}\n",
            name, c.positions, c.wins_drawn, c.losses_drawn, c.other
        )
    };
    let mut out = format!(
        "{:>12} {:>14} {:>14} {:>14} {:>10}\n",
        "sector", "positions", "win -> draw", "loss -> draw", "other"
    );
    let mut total = Changes::default();
    for (sector, c) in rows {
        out += &line(&sector.to_string(), c);
        total = total.merge(*c);
    }
    out += &line("total", &total);
    out
}
