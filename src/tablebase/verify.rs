//! Checking stored tables: checksum, header totals, and every value
//! recomputed from its successors' stored values.

use std::path::Path;

use rayon::prelude::*;

use super::error::{TableProblem, TablebaseError};
use super::generate::position;
use super::probe::{Tablebases, apply_clock, preference};
use super::summary::Summary;
use super::{Fingerprint, Probe, Subspace, Value};
use crate::rules::{Blocked, Color, MoveList, Rules};

/// What checking one table found.
#[derive(Clone, Debug)]
pub struct Checked {
    pub subspace: Subspace,
    pub checksum_ok: bool,
    /// The header's totals match the values.
    pub summary_ok: bool,
    pub positions: u64,
    pub mismatches: u64,
    /// A few mismatching positions, described.
    pub examples: Vec<String>,
}

impl Checked {
    pub fn ok(&self) -> bool {
        self.checksum_ok && self.summary_ok && self.mismatches == 0
    }
}

/// The value of `mine` to move against `theirs` computed from the stored
/// values of its successors (the move-count draws applied to the
/// positions removals lead into, whose clocks restart).
pub fn recompute(
    tbs: &Tablebases,
    rules: &Rules,
    list: &mut MoveList,
    mine: u32,
    theirs: u32,
) -> Option<Probe> {
    let pos = position(mine, theirs);
    pos.legal_moves(rules, list);
    if list.is_empty() {
        return Some(match rules.blocked {
            Blocked::Loss => Probe {
                value: Value::Loss,
                plies: 0,
            },
            // The other values are not covered (`covers`).
            Blocked::Draw
            | Blocked::Pass
            | Blocked::RemoveMove
            | Blocked::RemovePass
            | Blocked::BothRemove => Probe::DRAW,
        });
    }
    let mut best: Option<Probe> = None;
    for &mv in list.iter() {
        let next = pos.make(rules, mv);
        let (me, opp) = (next.pieces(Color::White), next.pieces(Color::Black));
        let p = if opp.count() < 3 {
            Probe {
                value: Value::Win,
                plies: 1,
            }
        } else {
            let sub = Subspace::new(opp.count() as u8, me.count() as u8);
            let stored = Probe::from_code(tbs.code(sub, opp.0, me.0)?);
            let converts = mv.num_removals() > 0;
            // After a removal the clock restarts: the move-count draws
            // decide whether the new position is still won.
            let after = if converts {
                apply_clock(rules, stored, 0, opp.count() == 3 && me.count() == 3)
            } else {
                stored
            };
            let plies = if converts { 1 } else { after.plies + 1 };
            match after.value {
                Value::Draw => Probe::DRAW,
                Value::Win => Probe {
                    value: Value::Loss,
                    plies,
                },
                Value::Loss => Probe {
                    value: Value::Win,
                    plies,
                },
            }
        };
        if best.is_none_or(|b| preference(p) > preference(b)) {
            best = Some(p);
        }
    }
    best
}

/// What checking part of a table found.
#[derive(Default)]
struct Found {
    summary: Summary,
    mismatches: u64,
    /// The first few mismatches, in slot order.
    examples: Vec<String>,
}

const EXAMPLES: usize = 5;

impl Found {
    /// Checks the stored value of one canonical position.
    fn check(
        &mut self,
        tbs: &Tablebases,
        rules: &Rules,
        list: &mut MoveList,
        stored: Probe,
        mine: u32,
        theirs: u32,
    ) {
        self.summary.count(stored);
        let want = recompute(tbs, rules, list, mine, theirs);
        if want != Some(stored) {
            self.mismatches += 1;
            if self.examples.len() < EXAMPLES {
                let fen = position(mine, theirs).to_fen(rules);
                self.examples
                    .push(format!("{fen}: stored {stored}, successors give {want:?}"));
            }
        }
    }

    /// The findings of this part followed by those of the next.
    fn merge(mut self, next: Found) -> Found {
        self.summary.merge(&next.summary);
        self.mismatches += next.mismatches;
        self.examples.extend(next.examples);
        self.examples.truncate(EXAMPLES);
        self
    }
}

/// Checks every table on disk for `rules` under `root`, on `threads`
/// worker threads. With `sample`, checks that many random positions of
/// each table instead of all (and not the header totals).
pub fn verify(
    root: &Path,
    rules: &Rules,
    threads: usize,
    sample: Option<u64>,
    mut progress: impl FnMut(&Checked),
) -> Result<Vec<Checked>, TablebaseError> {
    let rules = Fingerprint::of(rules).rules();
    let tbs = Tablebases::open(root, &rules);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()?;
    let mut out = Vec::new();
    for sub in tbs.available() {
        let opened = tbs.table(sub);
        let Some(table) = opened.filter(|t| t.file.check_all()) else {
            let examples = match opened {
                Some(_) => vec![format!("cannot be used: {}", TableProblem::Checksum)],
                None => tbs
                    .take_faults()
                    .into_iter()
                    .map(|f| format!("cannot be used: {}", f.problem))
                    .collect(),
            };
            let c = Checked {
                subspace: sub,
                checksum_ok: false,
                summary_ok: false,
                positions: 0,
                mismatches: 1,
                examples,
            };
            progress(&c);
            out.push(c);
            continue;
        };
        let (tbs, rules) = (&tbs, &rules);
        let stored = |slot| Probe::from_code(table.file.code(slot).expect("checked above"));
        let found = pool.install(|| match sample {
            Some(n) => (0..n)
                .into_par_iter()
                .map_init(MoveList::new, |list, k| {
                    let mut found = Found::default();
                    // A well-spread pseudo-random slot for each k.
                    let slot = (k + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) % table.index.size();
                    let (mine, theirs) = table.index.position(slot);
                    if table.index.index(mine, theirs) == slot {
                        found.check(tbs, rules, list, stored(slot), mine, theirs);
                    }
                    found
                })
                .reduce(Found::default, Found::merge),
            None => (0..table.index.classes())
                .into_par_iter()
                .map_init(MoveList::new, |list, class| {
                    let mut found = Found::default();
                    table
                        .index
                        .for_each_in_class(class, |slot, mine, theirs, canonical| {
                            if canonical {
                                found.check(tbs, rules, list, stored(slot), mine, theirs);
                            }
                        });
                    found
                })
                .reduce(Found::default, Found::merge),
        });
        let c = Checked {
            subspace: sub,
            // Opening checked it.
            checksum_ok: true,
            summary_ok: sample.is_some() || found.summary == table.file.header.summary,
            positions: found.summary.positions,
            mismatches: found.mismatches,
            examples: found.examples,
        };
        progress(&c);
        out.push(c);
    }
    Ok(out)
}
