//! Per-subspace totals: counted while solving and verifying, kept in the
//! table headers; `morris tb stats` prints them as the engine plays them,
//! at clock 0 under the move-count draws.

use std::path::Path;

use crate::format::codec::ValueLayout;
use crate::format::file::file_len;
use crate::format::summary::Summary;
use rayon::prelude::*;

use crate::probe::clock::at_clock_zero;
use crate::probe::tables::SubspaceTable;
use crate::probe::tables::Tablebases;
use crate::sector::Sector;
use crate::value::Probe;
use morris_rules::Rules;

/// One table's totals and size on disk.
#[derive(Clone, Debug)]
pub struct TableSummary {
    /// The table's sector (a movement subspace or a placement sector).
    pub subspace: Sector,
    /// The values as stored (the header's totals): distances to the next
    /// conversion, whatever the move-count draws.
    pub stored: Summary,
    /// The values at clock 0 under the rules' move-count draws: what
    /// probing, and so the search, gives a position entered by a removal.
    /// A stored win or loss whose conversion comes after the draw limit
    /// is a draw here. (A placement table stores these already: every
    /// placement restarts the clock.)
    pub at_clock_zero: Summary,
    /// The file's size on disk (a full table, else a compact one).
    pub bytes: u64,
    /// Whether the table stores distances (not `ValueLayout::Wdl`).
    pub distances: bool,
}

/// The totals of every table on disk for `rules` under `root` (full or
/// compact), movement
/// subspaces then placement sectors; the values at clock 0 are counted
/// over each movement table (in parallel).
pub fn summaries_on_disk(root: &Path, rules: &Rules) -> Vec<TableSummary> {
    let tbs = Tablebases::open(root, rules);
    tbs.on_disk()
        .into_iter()
        .filter_map(|sub| {
            let Some(t) = tbs.table(sub) else {
                // A compact table holds no distances, so no limit (it
                // needs none) changes its values at clock 0.
                let c = tbs.compact(sub)?;
                return Some(TableSummary {
                    subspace: sub,
                    stored: c.file.header.summary,
                    at_clock_zero: c.file.header.summary,
                    bytes: c.file.len() as u64,
                    distances: false,
                });
            };
            Some(TableSummary {
                subspace: sub,
                stored: t.file.header.summary,
                at_clock_zero: summary_at_clock_zero(t, sub, rules)?,
                bytes: file_len(t.file.data().len()),
                distances: t.file.header.layout != ValueLayout::Wdl,
            })
        })
        .collect()
}

/// The totals of a table's canonical positions with the move-count draws
/// applied at clock 0; `None` if a block of it is damaged.
fn summary_at_clock_zero(table: &SubspaceTable, sub: Sector, rules: &Rules) -> Option<Summary> {
    if sub.placing() {
        return table.file.check_all().then_some(table.file.header.summary);
    }
    fold_canonical(
        table,
        |total: &mut Summary, _, probe| total.count(probe),
        |mut a, b| {
            a.merge(&b);
            a
        },
        |code| at_clock_zero(rules, sub, Probe::from_code(code)),
    )
}

/// Folds `add` over the canonical positions of a table (their slot and
/// value as `value` reads the stored code), class by class on all
/// threads, merging the classes' totals by `merge`; `None` if a block of
/// the table is damaged.
pub(crate) fn fold_canonical<T: Default + Send>(
    table: &SubspaceTable,
    add: impl Fn(&mut T, u64, Probe) + Sync,
    merge: impl Fn(T, T) -> T + Sync,
    value: impl Fn(u16) -> Probe + Sync,
) -> Option<T> {
    (0..table.index.classes())
        .into_par_iter()
        .map(|class| {
            let mut s = Some(T::default());
            table
                .index
                .for_each_in_class(class, |slot, _, _, canonical| {
                    if !canonical {
                        return;
                    }
                    match (s.as_mut(), table.file.code(slot)) {
                        (Some(total), Some(code)) => add(total, slot, value(code)),
                        _ => s = None,
                    }
                });
            s
        })
        .reduce(|| Some(T::default()), |a, b| Some(merge(a?, b?)))
}

/// The totals as a text table, one line per sector: the values at clock
/// 0, and how many stored wins and losses the move-count draws turn into
/// draws there.
pub fn format_summaries(rows: &[TableSummary]) -> String {
    let mut out = format!(
        "{:>12} {:>14} {:>14} {:>14} {:>14} {:>8} {:>8} {:>14} {:>12}\n",
        "sector",
        "positions",
        "wins",
        "losses",
        "draws",
        "max win",
        "max loss",
        "limit draws",
        "bytes"
    );
    for r in rows {
        let s = &r.at_clock_zero;
        let decided = |s: &Summary| s.wins + s.losses;
        let longest = |d: u16| match r.distances {
            true => d.to_string(),
            false => "-".to_string(),
        };
        out.push_str(&format!(
            "{:>12} {:>14} {:>14} {:>14} {:>14} {:>8} {:>8} {:>14} {:>12}\n",
            r.subspace.to_string(),
            s.positions,
            s.wins,
            s.losses,
            s.draws,
            longest(s.longest_win),
            longest(s.longest_loss),
            decided(&r.stored) - decided(s),
            r.bytes
        ));
    }
    out
}
