//! The predecessors of a settled position (un-moves) and what they
//! learn from it: the distance passes' half of the solver.

use std::sync::atomic::Ordering;

use crate::format::file;
use crate::format::index;
use crate::generator::buckets::{Buckets, Entry, LATE, LATE_LOSS, LOST, Settled, entry, split};
use crate::generator::solver::{CODE, ONE, Solver, UNKNOWN};
use crate::value::{Probe, Value};

impl<'a> Solver<'a> {
    /// The first half of settling what follows from position `e` having
    /// been settled: its predecessors into `preds` (see `predecessors`;
    /// their states being loaded), and for `update_predecessors` their
    /// table, whether `e` is lost and the other side's stones in them;
    /// `None` when it has no predecessors.
    pub(crate) fn gather_predecessors(&self, e: Entry, preds: &mut Vec<u64>) -> Option<Settled> {
        let (t, mine, theirs) = split(e);
        let p = self.other(t)?;
        self.predecessors(p, mine, theirs, preds);
        Some(Settled {
            p,
            lost: e & LOST != 0,
            other: mine,
        })
    }

    /// The second half: a position settled at distance `d` makes its
    /// predecessors `preds` win (if it is lost) or lose one escape (if it
    /// is won).
    pub(crate) fn update_predecessors(
        &self,
        Settled { p, lost, other }: Settled,
        d: u16,
        preds: &mut Vec<u64>,
        out: &mut Buckets,
    ) {
        let states = &self.state[p];
        // Plain loads first: independent, so their cache misses overlap,
        // and most predecessors at later distances are settled already.
        preds.retain(|&x| states[(x >> 24) as usize].load(Ordering::Relaxed) & CODE == UNKNOWN);
        let win = Probe {
            value: Value::Win,
            plies: d + 1,
        }
        .code() as u32;
        let loss = Probe {
            value: Value::Loss,
            plies: d + 1,
        }
        .code() as u32;
        for &x in preds.iter() {
            let (q, before) = (x >> 24, (x & 0xff_ffff) as u32);
            let state = &states[q as usize];
            if lost {
                let settled = state
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| {
                        (s & CODE == UNKNOWN).then_some(s | win)
                    })
                    .is_ok();
                if settled {
                    out.push(d + 1, entry(p, before, other, false));
                }
                continue;
            }
            // A loss leaving the pair more slowly settles it later.
            let late = self
                .exit_plies
                .get(p)
                .map(|x| x[q as usize].load(Ordering::Relaxed))
                .filter(|&plies| plies > d + 1);
            let late_flag = late.is_some();
            // Unsettled positions count at least one open successor.
            let r = state.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| {
                (s & CODE == UNKNOWN).then(|| {
                    let n = s - ONE;
                    if n < ONE && !late_flag { n | loss } else { n }
                })
            });
            if matches!(r, Ok(s) if s - ONE < ONE) {
                let lost = entry(p, before, other, true);
                match late {
                    Some(plies) => out.push(plies, lost | LATE | LATE_LOSS),
                    None => out.push(d + 1, lost),
                }
            }
        }
    }

    /// The distinct positions in table `p` from which the side that has
    /// just moved (`theirs`) reached (`mine`, `theirs`) without placing or
    /// removing anything: each as its slot (from bit 24) and the mover's
    /// stones there (below).
    fn predecessors(&self, p: usize, mine: u32, theirs: u32, out: &mut Vec<u64>) {
        out.clear();
        let fly = self.mover.flies(self.members[p]);
        let (ix, states) = (&self.ix[p], &self.state[p]);
        self.mover.unslides(theirs, mine, fly, |before| {
            let q = ix.index(before, mine);
            // Loading while the next index is computed.
            file::prefetch(&states[q as usize]);
            out.push(q << 24 | before as u64);
        });
        out.sort_unstable();
        out.dedup_by(|a, b| *a >> 24 == *b >> 24);
    }
}

/// Whether `set` is the least of its images under the symmetries `stab`.
pub(crate) fn least_image(set: u32, stab: u16) -> bool {
    let mut m = stab;
    while m != 0 {
        if index::apply_sym(m.trailing_zeros() as usize, set) < set {
            return false;
        }
        m &= m - 1;
    }
    true
}
