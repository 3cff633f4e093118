//! Per-subspace totals, read from the table headers.

use std::path::Path;

use super::Subspace;
use super::Tablebases;
use super::file::Summary;
use crate::rules::Rules;

/// One table's totals and size on disk.
#[derive(Clone, Debug)]
pub struct TableStats {
    pub subspace: Subspace,
    pub summary: Summary,
    pub bytes: u64,
}

/// The totals of every table on disk for `rules` under `root`.
pub fn stats(root: &Path, rules: &Rules) -> Vec<TableStats> {
    let tbs = Tablebases::open(root, rules);
    tbs.available()
        .into_iter()
        .filter_map(|sub| {
            let t = tbs.table(sub)?;
            Some(TableStats {
                subspace: sub,
                summary: t.file.header.summary,
                bytes: t.file.data().len() as u64 + super::file::HEADER_LEN as u64,
            })
        })
        .collect()
}

/// The totals as a text table, one line per subspace.
pub fn format(rows: &[TableStats]) -> String {
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
