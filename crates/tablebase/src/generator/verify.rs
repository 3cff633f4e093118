//! Checking stored tables: checksum, header totals, and every value
//! recomputed from its successors' stored values.

use std::path::Path;

use rayon::prelude::*;

use crate::error::{TableProblem, TablebaseError};
use crate::fingerprint::PlacementFingerprint;
use crate::format::summary::Summary;
use crate::generator::exits::through;
use crate::probe::clock::apply_clock;
use crate::probe::tables::{Tablebases, preference};
use crate::sector::Sector;
use crate::sector::sector_position;
use crate::value::{Probe, Value};
use morris_rules::{Blocked, Color, GameResult, MoveList, Rules};

/// What checking one table found.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The sector of the table checked.
    pub subspace: Sector,
    /// Every block matches its checksum (false too when the table cannot
    /// be opened at all).
    pub checksum_ok: bool,
    /// The header's totals match the values (true, unchecked, with a
    /// sample).
    pub summary_ok: bool,
    /// Positions recomputed: every canonical one, or with a sample those
    /// of the sampled slots that are canonical.
    pub positions: u64,
    /// Positions whose stored value differs from the one their
    /// successors give (a table without distances is checked on the
    /// result alone); 1 when the table cannot be used.
    pub mismatches: u64,
    /// A few mismatching positions, described.
    pub examples: Vec<String>,
}

impl Checked {
    /// Whether the table passed: checksum, totals and every position
    /// checked.
    pub fn ok(&self) -> bool {
        self.checksum_ok && self.summary_ok && self.mismatches == 0
    }
}

/// The value of `mine` to move against `theirs` with the hands of sector
/// `sector`, computed from the stored values of its successors by the
/// rules core's moves (the move-count draws applied to the movement
/// positions that placements and removals lead into, whose clocks restart).
pub(crate) fn recompute(
    tbs: &Tablebases,
    rules: &Rules,
    list: &mut MoveList,
    sector: Sector,
    mine: u32,
    theirs: u32,
) -> Option<Probe> {
    let pos = sector_position(sector, mine, theirs);
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
        // The successor's value for its side to move (Black).
        let after = match next.outcome_without_history(rules, true) {
            Some(end) => match end.result {
                GameResult::Win(Color::White) => Probe {
                    value: Value::Loss,
                    plies: 0,
                },
                GameResult::Win(Color::Black) => Probe {
                    value: Value::Win,
                    plies: 0,
                },
                GameResult::Draw => Probe::DRAW,
            },
            None => {
                let stored = tbs.probe_table(&next)?;
                let movement = next.in_hand(Color::White) + next.in_hand(Color::Black) == 0;
                if movement && next.clock() == 0 {
                    let three_each = Color::BOTH.iter().all(|&c| next.material(c) == 3);
                    apply_clock(rules, stored, 0, three_each)
                } else {
                    stored
                }
            }
        };
        let p = through(after, mv.num_removals() > 0);
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
    #[allow(clippy::too_many_arguments)]
    fn check(
        &mut self,
        tbs: &Tablebases,
        rules: &Rules,
        list: &mut MoveList,
        stored: Probe,
        sector: Sector,
        mine: u32,
        theirs: u32,
    ) {
        self.summary.count(stored);
        let want = recompute(tbs, rules, list, sector, mine, theirs);
        // A win/draw/loss-only table is checked on the result alone.
        let agrees = match (want, stored.distance()) {
            (Some(w), None) => w.value == stored.value,
            (w, _) => w == Some(stored),
        };
        if !agrees {
            self.mismatches += 1;
            if self.examples.len() < EXAMPLES {
                let fen = sector_position(sector, mine, theirs).to_fen(rules);
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
    let rules = PlacementFingerprint::of(rules).rules();
    let tbs = Tablebases::open(root, &rules);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()?;
    let mut out = Vec::new();
    for sub in tbs.available() {
        let c = check_table(&tbs, &rules, &pool, sub, sample);
        progress(&c);
        out.push(c);
    }
    Ok(out)
}

/// Checks table `sub` of `tbs` (opened for the generator's `rules`), as
/// `verify` does.
pub(crate) fn check_table(
    tbs: &Tablebases,
    rules: &Rules,
    pool: &rayon::ThreadPool,
    sub: Sector,
    sample: Option<u64>,
) -> Checked {
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
        return Checked {
            subspace: sub,
            checksum_ok: false,
            summary_ok: false,
            positions: 0,
            mismatches: 1,
            examples,
        };
    };
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
                    found.check(tbs, rules, list, stored(slot), sub, mine, theirs);
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
                            found.check(tbs, rules, list, stored(slot), sub, mine, theirs);
                        }
                    });
                found
            })
            .reduce(Found::default, Found::merge),
    });
    Checked {
        subspace: sub,
        // Opening checked it.
        checksum_ok: true,
        summary_ok: sample.is_some() || found.summary == table.file.header.summary,
        positions: found.summary.positions,
        mismatches: found.mismatches,
        examples: found.examples,
    }
}
