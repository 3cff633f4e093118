//! `tb compress`: the compact tables (`format::compact`) made from the
//! full ones.
//!
//! Each table stores its loss plane, its win plane, or both (`Kind`); one
//! plane is enough when every successor's table stores the same plane,
//! since one ply of successors' bits gives the rest. Losses are cheap where
//! the mover is the stronger side (there are hardly any), wins where the
//! mover is far weaker; balanced tables cost about the same either way.
//! So every plane of every table is coded first, then the kinds of all
//! tables are chosen together, the fewest bytes in all under those
//! constraints (a minimum cut), and the chosen planes are written.

use std::collections::HashMap;
use std::path::Path;

use rayon::prelude::*;

use crate::error::{TableProblem, TablebaseError};
use crate::fingerprint::PlacementFingerprint;
use crate::format::compact::{Kind, write_compact};
use crate::generator::coded::{Coded, code_planes};
use crate::probe::clock::at_clock_zero;
use crate::probe::tables::Tablebases;
use crate::sector::Sector;
use crate::value::Probe;
use morris_rules::Rules;

/// What compressing one table made.
#[derive(Clone, Debug)]
pub struct Compressed {
    /// The sector whose table was compressed.
    pub sector: Sector,
    /// Its slots (canonical positions plus padding).
    pub slots: u64,
    /// The planes stored: `losses`, `wins` or `both`, and `+ drawn` for a
    /// movement table under move-count draws.
    pub kind: &'static str,
    /// The full table's bytes on disk, and the compact one's.
    pub full_bytes: u64,
    /// The compact file's bytes, header included.
    pub compact_bytes: u64,
}

/// What `compress` reports as it goes.
#[derive(Clone, Debug)]
pub enum CompressStep {
    /// A table's planes are coded: the bytes each kind would take (loss
    /// plane, win plane, both).
    Coded {
        /// The sector whose table's planes were coded.
        sector: Sector,
        /// Its slots (canonical positions plus padding).
        slots: u64,
        /// Coded bytes of the loss plane, the win plane and both, in that
        /// order, each counting the drawn plane if there is one.
        bytes: [u64; 3],
    },
    /// A compact table is written.
    Written(Compressed),
}

/// Writes the compact table of every full table on disk for `rules` under
/// `root` into the same folders under `out` (which may be `root`: compact
/// tables are read only where no full table is), on `threads` threads.
///
/// Compact tables hold win/draw/loss only. Under move-count draws
/// (`EndgameMoves`, `NoCaptureMoves`) they hold the values at clock 0
/// (`at_clock_zero`). A placement leads to clock 0 only, so a placement
/// table stores its planes as without the draws. A movement table's moves
/// that remove nothing lead to clock 1, whose values its clock-0 ones do
/// not give, so it stores the planes of its stored values (the clock not
/// applied: the full tables must hold distances), which one ply of
/// successors completes, and a drawn plane for what the clock changes at
/// clock 0.
pub fn compress(
    root: &Path,
    out: &Path,
    rules: &Rules,
    threads: usize,
    mut progress: impl FnMut(&CompressStep),
) -> Result<Vec<Compressed>, TablebaseError> {
    let rules = PlacementFingerprint::of(rules).rules();
    let tbs = Tablebases::open(root, &rules);
    let written = Tablebases::open(out, &rules);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()?;
    let sectors = tbs.available();
    let mut coded = HashMap::new();
    for &sector in &sectors {
        let table = tbs
            .table(sector)
            .filter(|t| t.file.check_all())
            .ok_or_else(|| TablebaseError::BadTable {
                path: tbs.table_path(sector),
                problem: TableProblem::Checksum,
            })?;
        let c = pool.install(|| code_planes(table, sector, &rules))?;
        progress(&CompressStep::Coded {
            sector,
            slots: c.slots,
            bytes: c.kind_bytes(),
        });
        coded.insert(sector, c);
    }
    let sizes = coded.iter().map(|(&s, c)| (s, c.kind_bytes())).collect();
    let kinds = choose_kinds(&sectors, &sizes, rules.lasker);
    let mut done = Vec::new();
    for &sector in &sectors {
        let made = write_kind(
            &written.compact_path(sector),
            sector,
            &coded[&sector],
            kinds[&sector],
            tbs.fingerprint_of(sector),
        )?;
        done.push(made.clone());
        progress(&CompressStep::Written(made));
    }
    Ok(done)
}

/// Writes sector `sector`'s compact table of kind `kind` from its coded
/// planes.
pub(crate) fn write_kind(
    path: &Path,
    sector: Sector,
    c: &Coded,
    kind: Kind,
    fingerprint: &str,
) -> Result<Compressed, TablebaseError> {
    let (losses, wins, drawn) = c.planes(kind);
    let compact_bytes = write_compact(
        path,
        sector,
        c.slots,
        c.summary,
        fingerprint,
        losses,
        wins,
        drawn,
    )?;
    Ok(Compressed {
        sector,
        slots: c.slots,
        kind: match (kind, c.drawn.is_some()) {
            (Kind::Losses, false) => "losses",
            (Kind::Wins, false) => "wins",
            (Kind::Both, false) => "both",
            (Kind::Losses, true) => "losses + drawn",
            (Kind::Wins, true) => "wins + drawn",
            (Kind::Both, true) => "both + drawn",
        },
        full_bytes: c.full_bytes,
        compact_bytes,
    })
}

/// The tables a position of `s` can move into (a superset: every sector
/// one placement, slide or removal leads to, side to move first).
fn successors(s: Sector, lasker: bool) -> Vec<Sector> {
    let mut next = Vec::new();
    let (me, them) = (s.mine, s.theirs);
    let (hand, their_hand) = (s.mine_hand, s.theirs_hand);
    let mut after = |mine: u8, mine_hand: u8| {
        // The opponent moves next, with or without a stone removed.
        for theirs in [them, them.wrapping_sub(1)] {
            if theirs <= 12 {
                next.push(Sector::with_hands(theirs, mine, their_hand, mine_hand));
            }
        }
    };
    if hand > 0 {
        after(me + 1, hand - 1);
    }
    if hand == 0 || lasker {
        after(me, hand);
    }
    next
}

/// The kinds of all tables that together take the fewest bytes, as a
/// minimum cut. Each table has two binary variables, `p` (it stores no
/// loss plane) and `q` (it stores the win plane): `losses` is (0, 0),
/// `wins` (1, 1), `both` (0, 1), and (1, 0) stores nothing. A table
/// without the win plane needs its successors' loss planes (not `q_x = 0`
/// with `p_y = 1`), one without the loss plane their win planes (not
/// `p_x = 1` with `q_y = 0`). Every cost and constraint is then submodular,
/// so a minimum s-t cut gives the exact optimum.
pub(crate) fn choose_kinds(
    sectors: &[Sector],
    sizes: &HashMap<Sector, [u64; 3]>,
    lasker: bool,
) -> HashMap<Sector, Kind> {
    let at: HashMap<Sector, usize> = sectors.iter().enumerate().map(|(i, &s)| (s, i)).collect();
    let n = sectors.len();
    // Nodes: p of table i is 2i, q is 2i + 1, then the source and the sink.
    let (source, sink) = (2 * n, 2 * n + 1);
    let mut cut = Cut::new(2 * n + 2);
    let forbid = |cut: &mut Cut, zero: usize, one: usize| cut.edge(zero, one, Cut::INFINITE);
    for (i, s) in sectors.iter().enumerate() {
        let [l, w, b] = sizes[s].map(|bytes| bytes as i64);
        let (p, q) = (2 * i, 2 * i + 1);
        // E(p, q) = l + (w - b) p + (b - l) q, and (1, 0) forbidden.
        for (node, cost) in [(p, w - b), (q, b - l)] {
            if cost >= 0 {
                cut.edge(source, node, cost as u64);
            } else {
                cut.edge(node, sink, cost.unsigned_abs());
            }
        }
        forbid(&mut cut, q, p);
        for next in successors(*s, lasker) {
            if let Some(&j) = at.get(&next) {
                forbid(&mut cut, q, 2 * j);
                forbid(&mut cut, 2 * j + 1, p);
            }
        }
    }
    let zero = cut.source_side(source, sink);
    let kinds: HashMap<Sector, Kind> = sectors
        .iter()
        .enumerate()
        .map(|(i, &s)| {
            let kind = match (!zero[2 * i], !zero[2 * i + 1]) {
                (false, false) => Kind::Losses,
                (true, true) => Kind::Wins,
                _ => Kind::Both,
            };
            (s, kind)
        })
        .collect();
    for (s, kind) in &kinds {
        for next in successors(*s, lasker) {
            assert!(
                kinds.get(&next).is_none_or(|&k| kind.reads(k)),
                "{s} ({kind:?}) cannot read {next}"
            );
        }
    }
    kinds
}

/// A flow network for a minimum s-t cut (Edmonds-Karp: a few hundred
/// nodes here).
struct Cut {
    /// Per node, its edges (indices into `to` and `capacity`); edge `e ^ 1`
    /// is the reverse of edge `e`.
    edges: Vec<Vec<usize>>,
    to: Vec<usize>,
    capacity: Vec<u64>,
}

impl Cut {
    const INFINITE: u64 = u64::MAX / 4;

    fn new(nodes: usize) -> Cut {
        Cut {
            edges: vec![Vec::new(); nodes],
            to: Vec::new(),
            capacity: Vec::new(),
        }
    }

    /// An edge `from -> to`, cut (paid) when `from` is on the source side
    /// and `to` on the sink side.
    fn edge(&mut self, from: usize, to: usize, capacity: u64) {
        for (a, b, c) in [(from, to, capacity), (to, from, 0)] {
            self.edges[a].push(self.to.len());
            self.to.push(b);
            self.capacity.push(c);
        }
    }

    /// Pushes a maximum flow, then says which nodes stay on the source's
    /// side of the minimum cut.
    fn source_side(&mut self, source: usize, sink: usize) -> Vec<bool> {
        loop {
            let mut via = vec![usize::MAX; self.edges.len()];
            let mut seen = vec![false; self.edges.len()];
            let mut queue = std::collections::VecDeque::from([source]);
            seen[source] = true;
            while let Some(u) = queue.pop_front() {
                for &e in &self.edges[u] {
                    let v = self.to[e];
                    if !seen[v] && self.capacity[e] > 0 {
                        seen[v] = true;
                        via[v] = e;
                        queue.push_back(v);
                    }
                }
            }
            if !seen[sink] {
                return seen;
            }
            let mut push = u64::MAX;
            let mut v = sink;
            while v != source {
                push = push.min(self.capacity[via[v]]);
                v = self.to[via[v] ^ 1];
            }
            let mut v = sink;
            while v != source {
                self.capacity[via[v]] -= push;
                self.capacity[via[v] ^ 1] += push;
                v = self.to[via[v] ^ 1];
            }
        }
    }
}

/// What comparing one compact table with its full table found.
#[derive(Clone, Debug)]
pub struct CompactCheck {
    /// The sector whose tables were compared.
    pub sector: Sector,
    /// Positions compared: the sampled slots that are canonical (padding
    /// is skipped).
    pub positions: u64,
    /// Those whose compact value differs from the full table's, or that
    /// the full table cannot give.
    pub mismatches: u64,
    /// A few mismatching or unreadable positions, described.
    pub examples: Vec<String>,
}

/// Compares `per_table` well-spread positions of every full table under
/// `root` with the compact tables under `out` (another folder: under the
/// same one the full tables would answer), value by value (at clock 0
/// under move-count draws).
pub fn check_compact(
    root: &Path,
    out: &Path,
    rules: &Rules,
    per_table: u64,
    threads: usize,
    mut progress: impl FnMut(&CompactCheck),
) -> Result<Vec<CompactCheck>, TablebaseError> {
    let rules = PlacementFingerprint::of(rules).rules();
    let (full, compact) = (
        Tablebases::open(root, &rules),
        Tablebases::open(out, &rules),
    );
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()?;
    let mut done = Vec::new();
    for sector in full.available() {
        let index =
            crate::format::index::Indexer::new(sector.mine as usize, sector.theirs as usize);
        let found = pool.install(|| {
            (0..per_table)
                .into_par_iter()
                .filter_map(|k| {
                    let slot = (k + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) % index.size();
                    let (mine, theirs) = index.position(slot);
                    (index.index(mine, theirs) == slot).then_some((mine, theirs))
                })
                .map(|(mine, theirs)| {
                    let value = |tbs: &Tablebases| {
                        tbs.code(sector, mine, theirs)
                            .map(|c| at_clock_zero(&rules, sector, Probe::from_code(c)).value)
                    };
                    let (want, read) = (value(&full), value(&compact));
                    let wrong = want.is_none() || read != want;
                    let example = wrong.then(|| {
                        let fen =
                            crate::sector::sector_position(sector, mine, theirs).to_fen(&rules);
                        format!("{fen}: full {want:?}, compact {read:?}")
                    });
                    (1u64, wrong as u64, example)
                })
                .fold(
                    || (0u64, 0u64, Vec::new()),
                    |(n, m, mut ex), (a, b, e)| {
                        ex.extend(e.filter(|_| ex.len() < 5));
                        (n + a, m + b, ex)
                    },
                )
                .reduce(
                    || (0, 0, Vec::new()),
                    |(n, m, mut ex), (a, b, e)| {
                        ex.extend(e);
                        ex.truncate(5);
                        (n + a, m + b, ex)
                    },
                )
        });
        let c = CompactCheck {
            sector,
            positions: found.0,
            mismatches: found.1,
            examples: found.2,
        };
        progress(&c);
        done.push(c);
    }
    Ok(done)
}
