//! `tb compress`: the compact tables (`format::compact`) made from the
//! full ones.
//!
//! Each table stores its loss plane, its win plane, or both (`Kind`); one
//! plane is enough when every successor's table stores the same plane,
//! since one ply of successors' bits gives the rest. Losses are cheap where
//! the mover is the stronger side (there are hardly any), wins where the
//! mover is far weaker; balanced tables cost about the same either way.
//! So every plane of every table is coded first, then the kinds are chosen,
//! smallest first from the tables below, then improved table by table
//! while the constraints allow, and the chosen planes are written.

use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::rules::Rules;
use crate::tablebase::error::{TableProblem, TablebaseError};
use crate::tablebase::fingerprint::PlacementFingerprint;
use crate::tablebase::format::compact::{Kind, SLOTS, encode_block, write_compact};
use crate::tablebase::format::file::file_len;
use crate::tablebase::probe::tables::{SubspaceTable, Tablebases};
use crate::tablebase::sector::Sector;
use crate::tablebase::value::{Probe, Value};

/// What compressing one table made.
#[derive(Clone, Debug)]
pub struct Compressed {
    pub sector: Sector,
    pub slots: u64,
    /// The planes stored: `losses`, `wins` or `both`.
    pub kind: &'static str,
    /// The full table's bytes on disk, and the compact one's.
    pub full_bytes: u64,
    pub compact_bytes: u64,
}

/// What `compress` reports as it goes.
#[derive(Clone, Debug)]
pub enum CompressStep {
    /// A table's planes are coded: the bytes each kind would take (loss
    /// plane, win plane, both).
    Coded {
        sector: Sector,
        slots: u64,
        bytes: [u64; 3],
    },
    /// A compact table is written.
    Written(Compressed),
}

/// One table's coded planes: losses, wins, and wins where losses are
/// stored too (free where the loss plane says loss).
struct Coded {
    slots: u64,
    full_bytes: u64,
    losses: Vec<Vec<u8>>,
    wins: Vec<Vec<u8>>,
    wins_beside: Vec<Vec<u8>>,
}

impl Coded {
    fn bytes(&self, kind: Kind) -> u64 {
        let size = |blocks: &[Vec<u8>]| blocks.iter().map(|b| b.len() as u64).sum::<u64>();
        match kind {
            Kind::Losses => size(&self.losses),
            Kind::Wins => size(&self.wins),
            Kind::Both => size(&self.losses) + size(&self.wins_beside),
        }
    }
}

/// Writes the compact table of every full table on disk for `rules` under
/// `root` into the same folders under `out` (which may be `root`: compact
/// tables are read only where no full table is), on `threads` threads.
/// Compact tables hold win/draw/loss only, so the rules must have no
/// move-count draws.
pub fn compress(
    root: &Path,
    out: &Path,
    rules: &Rules,
    threads: usize,
    mut progress: impl FnMut(&CompressStep),
) -> Result<Vec<Compressed>, TablebaseError> {
    if rules.endgame_moves != 0 || rules.no_capture_moves != 0 {
        return Err(TablebaseError::WdlWithDrawLimits);
    }
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
        let c = pool.install(|| code_planes(table));
        progress(&CompressStep::Coded {
            sector,
            slots: c.slots,
            bytes: Kind::ALL.map(|k| c.bytes(k)),
        });
        coded.insert(sector, c);
    }
    let kinds = choose_kinds(&sectors, &coded, rules.lasker);
    let mut done = Vec::new();
    for &sector in &sectors {
        let (c, kind) = (&coded[&sector], kinds[&sector]);
        let (losses, wins) = match kind {
            Kind::Losses => (Some(&c.losses[..]), None),
            Kind::Wins => (None, Some(&c.wins[..])),
            Kind::Both => (Some(&c.losses[..]), Some(&c.wins_beside[..])),
        };
        let table = tbs.table(sector).expect("opened above");
        let compact_bytes = write_compact(
            &written.compact_path(sector),
            sector,
            c.slots,
            table.file.header.summary,
            tbs.fingerprint_of(sector),
            losses,
            wins,
        )?;
        let made = Compressed {
            sector,
            slots: c.slots,
            kind: match kind {
                Kind::Losses => "losses",
                Kind::Wins => "wins",
                Kind::Both => "both",
            },
            full_bytes: c.full_bytes,
            compact_bytes,
        };
        done.push(made.clone());
        progress(&CompressStep::Written(made));
    }
    Ok(done)
}

/// The coded blocks of a table's planes. A padding slot takes the bits
/// before it, so that it continues its runs.
fn code_planes(table: &SubspaceTable) -> Coded {
    let size = table.index.size();
    let padding: Vec<AtomicU64> = (0..size.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    (0..table.index.classes())
        .into_par_iter()
        .for_each(|class| {
            table
                .index
                .for_each_in_class(class, |slot, _, _, canonical| {
                    if !canonical {
                        padding[(slot / 64) as usize].fetch_or(1 << (slot % 64), Ordering::Relaxed);
                    }
                });
        });
    let is_padding =
        |slot: u64| padding[(slot / 64) as usize].load(Ordering::Relaxed) >> (slot % 64) & 1 == 1;
    type Blocks = (Vec<u8>, Vec<u8>, Vec<u8>);
    let blocks: Vec<Blocks> = (0..size.div_ceil(SLOTS as u64))
        .into_par_iter()
        .map(|b| {
            let first = b * SLOTS as u64;
            let len = (size - first).min(SLOTS as u64) as usize;
            let (mut losses, mut wins, mut beside) =
                (vec![false; len], vec![false; len], vec![false; len]);
            let (mut loss, mut win, mut win_beside) = (false, false, false);
            for i in 0..len {
                let slot = first + i as u64;
                if !is_padding(slot) {
                    // Checked whole before.
                    let value = Probe::from_code(table.file.code(slot).unwrap_or(0)).value;
                    loss = value == Value::Loss;
                    win = value == Value::Win;
                    if !loss {
                        win_beside = win;
                    }
                }
                (losses[i], wins[i], beside[i]) = (loss, win, win_beside);
            }
            (
                encode_block(len, |i| losses[i]),
                encode_block(len, |i| wins[i]),
                encode_block(len, |i| beside[i]),
            )
        })
        .collect();
    let mut coded = Coded {
        slots: size,
        full_bytes: file_len(table.file.data().len()),
        losses: Vec::with_capacity(blocks.len()),
        wins: Vec::with_capacity(blocks.len()),
        wins_beside: Vec::with_capacity(blocks.len()),
    };
    for (l, w, b) in blocks {
        coded.losses.push(l);
        coded.wins.push(w);
        coded.wins_beside.push(b);
    }
    coded
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

/// The kind of every table: each group (a table with its mirror when they
/// lead into each other) takes its cheapest kinds that read the kinds
/// chosen below, then each group is changed where that is cheaper and
/// every table it reads and every table reading it still agree.
fn choose_kinds(
    sectors: &[Sector],
    coded: &HashMap<Sector, Coded>,
    lasker: bool,
) -> HashMap<Sector, Kind> {
    let succ: HashMap<Sector, Vec<Sector>> = sectors
        .iter()
        .map(|&s| {
            let next = successors(s, lasker)
                .into_iter()
                .filter(|n| coded.contains_key(n))
                .collect();
            (s, next)
        })
        .collect();
    let mut pred: HashMap<Sector, Vec<Sector>> = HashMap::new();
    for (&s, next) in &succ {
        for &n in next {
            pred.entry(n).or_default().push(s);
        }
    }
    // Groups in the order of `sectors` (the tables below first).
    let mut groups: Vec<Vec<Sector>> = Vec::new();
    let mut grouped = std::collections::HashSet::new();
    for &s in sectors {
        if !grouped.insert(s) {
            continue;
        }
        let mirror = Sector::with_hands(s.theirs, s.mine, s.theirs_hand, s.mine_hand);
        let mutual = mirror != s
            && succ[&s].contains(&mirror)
            && succ.get(&mirror).is_some_and(|m| m.contains(&s));
        if mutual && grouped.insert(mirror) {
            groups.push(vec![s, mirror]);
        } else {
            groups.push(vec![s]);
        }
    }
    let mut kinds: HashMap<Sector, Kind> = HashMap::new();
    // Whether `s` of kind `k` agrees with every decided neighbour.
    let agrees = |kinds: &HashMap<Sector, Kind>, s: Sector, k: Kind| {
        succ[&s]
            .iter()
            .all(|n| kinds.get(n).is_none_or(|&nk| k.reads(nk)))
            && pred.get(&s).is_none_or(|ps| {
                ps.iter()
                    .all(|p| kinds.get(p).is_none_or(|&pk| pk.reads(k)))
            })
    };
    let best = |kinds: &mut HashMap<Sector, Kind>, group: &[Sector]| {
        for s in group {
            kinds.remove(s);
        }
        let choices: Vec<Vec<Kind>> = match group.len() {
            1 => Kind::ALL.iter().map(|&k| vec![k]).collect(),
            _ => Kind::ALL
                .iter()
                .flat_map(|&a| Kind::ALL.iter().map(move |&b| vec![a, b]))
                .collect(),
        };
        let mut chosen: Option<(u64, Vec<Kind>)> = None;
        for choice in choices {
            let mut trial = kinds.clone();
            let mut ok = true;
            for (&s, &k) in group.iter().zip(&choice) {
                ok &= agrees(&trial, s, k);
                trial.insert(s, k);
            }
            // Within the group, both ways.
            ok &= group
                .iter()
                .zip(&choice)
                .all(|(&s, &k)| agrees(&trial, s, k));
            if !ok {
                continue;
            }
            let cost: u64 = group
                .iter()
                .zip(&choice)
                .map(|(s, &k)| coded[s].bytes(k))
                .sum();
            if chosen.as_ref().is_none_or(|(c, _)| cost < *c) {
                chosen = Some((cost, choice));
            }
        }
        let (_, choice) = chosen.expect("both planes everywhere always agree");
        for (&s, k) in group.iter().zip(choice) {
            kinds.insert(s, k);
        }
    };
    for group in &groups {
        best(&mut kinds, group);
    }
    for _ in 0..3 {
        for group in groups.iter().rev() {
            best(&mut kinds, group);
        }
    }
    kinds
}

/// What comparing one compact table with its full table found.
#[derive(Clone, Debug)]
pub struct CompactCheck {
    pub sector: Sector,
    pub positions: u64,
    pub mismatches: u64,
    /// A few mismatching or unreadable positions, described.
    pub examples: Vec<String>,
}

/// Compares `per_table` well-spread positions of every full table under
/// `root` with the compact tables under `out` (another folder: under the
/// same one the full tables would answer), value by value.
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
        let index = crate::tablebase::format::index::Indexer::new(
            sector.mine as usize,
            sector.theirs as usize,
        );
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
                            .map(|c| Probe::from_code(c).value)
                    };
                    let (want, read) = (value(&full), value(&compact));
                    let wrong = want.is_none() || read != want;
                    let example = wrong.then(|| {
                        let fen = crate::tablebase::sector::sector_position(sector, mine, theirs)
                            .to_fen(&rules);
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
