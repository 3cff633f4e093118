//! The placement pass: the forward pass that solves a placement sector
//! with no move inside it, group by group of the other side's stones.

use std::sync::atomic::Ordering;

use crate::format::file;
use crate::format::index;
use crate::format::index::{PointMap, Prepared, StoneSets};
use crate::generator::exits::{Child, Exits, entered, exit_rank, ranked_exit, through};
use crate::generator::predecessors::least_image;
use crate::generator::solver::{LOST_NOW, ONE, Solver, Worker};
use crate::probe::tables::SubspaceTable;
use crate::progress::Progress;
use crate::sector::Sector;
use morris_rules::Bitboard;

impl<'a> Solver<'a> {
    /// The forward pass over placement sector `t` when no move stays in it
    /// (not `Lasker`), grouped by the other side's stones: every quiet
    /// placement of a group leads into one block of the next sector's
    /// table, and every removal into one block per removed stone, so the
    /// reads stay in the caches (in slot order they fall all over those
    /// tables, a miss each). Each position class is written once, at its
    /// canonical slot; the slots no class reaches stay padding.
    pub(crate) fn placement_pass(&self, t: usize, message: String) {
        let sector = self.members[t];
        let (m, n) = (sector.mine as usize, sector.theirs as usize);
        let sets = StoneSets::get(n);
        let per_group = index::binom(24 - n, m);
        let placed = (sector.theirs_hand, sector.mine_hand - 1);
        let quiet = Sector::with_hands(sector.theirs, sector.mine + 1, placed.0, placed.1);
        // None when such a placement fills the board (`exit` values it).
        let quiet = (quiet.placing() || m + 1 + n < 24)
            .then(|| self.lower.table(quiet))
            .flatten();
        let removal = Sector::with_hands(
            sector.theirs.max(1) - 1,
            sector.mine + 1,
            placed.0,
            placed.1,
        );
        // None when a removal ends the game, or none can happen (no mill
        // of the mover's yet): `exit` again.
        let removal = (n > 0 && m + 1 >= 3 && removal.mine_material() >= 3)
            .then(|| self.lower.table(removal))
            .flatten();
        let children = [
            quiet.and_then(|q| Child::new(&self.rules, q, false)),
            removal.and_then(|r| Child::new(&self.rules, r, true)),
        ];
        let len = sets.classes.len() as u64 * per_group;
        self.pass(message, len, sets.classes.len(), |group, worker| {
            let theirs = sets.classes[group];
            self.placement_group(
                t,
                theirs,
                sets.stabiliser(group) & !1,
                (quiet, removal),
                &children,
                worker,
            );
            self.progress.report(Progress::Advanced(per_group));
        });
    }

    /// `placement_pass` for the positions of sector `t` with the other
    /// side on canonical set `theirs`, whose other symmetries are `stab`;
    /// the tables of its quiet and removing placements, and the same as
    /// `Child`ren unless they store win, draw or loss only (by whether they
    /// remove).
    fn placement_group(
        &self,
        t: usize,
        theirs: u32,
        stab: u16,
        (quiet, removal): (Option<&'a SubspaceTable>, Option<&'a SubspaceTable>),
        children: &[Option<Child<'a>>; 2],
        worker: &mut Worker<'a>,
    ) {
        let sector = self.members[t];
        let (ix, state) = (&self.ix[t], &self.state[t]);
        let placed = (sector.theirs_hand, sector.mine_hand - 1);
        let maps = worker
            .maps
            .get_or_insert_with(|| Box::new(std::array::from_fn(|_| PointMap::new())));
        let (spread, rest) = maps.split_first_mut().expect("maps");
        let (quiet_map, removal_maps) = rest.split_first_mut().expect("maps");
        // The mover's sets are the subsets of the free points, spread
        // from the combinations of as many bits.
        let free = !theirs & Bitboard::FULL.0;
        let mut points = [0u32; 24];
        for (i, p) in Bitboard(free).into_iter().enumerate() {
            points[i] = p.bit().0;
        }
        spread.fill(|i| points[i]);
        // Each child table's index with the other side fixed, by a map where
        // the child's canonical set has no other symmetry.
        let quiet = quiet.map(|table| {
            let prepared = table.index.prepare(theirs);
            let fast = prepared.fill_map(quiet_map);
            (table, prepared, fast)
        });
        let removable_now = self.mover.removable(theirs);
        let removals: [Option<(Prepared, bool)>; 24] = std::array::from_fn(|sq| {
            let table = removal?;
            (removable_now & (1 << sq) != 0).then(|| {
                let prepared = table.index.prepare(theirs ^ (1 << sq));
                let fast = prepared.fill_map(&mut removal_maps[sq]);
                (prepared, fast)
            })
        });
        let reads = &mut worker.reads;
        let child_reads = &mut worker.child_reads;
        let scratch = &mut worker.scratch;
        let m = sector.mine as u32;
        let mut x: u32 = (1 << m) - 1;
        for _ in 0..index::binom(24 - sector.theirs as usize, m as usize) {
            let mine = spread.apply(x);
            if m > 0 {
                x = index::next_combination(x);
            }
            // Of the images fixing `theirs`, the least stands for them all.
            if stab != 0 && !least_image(mine, stab) {
                continue;
            }
            let slot = ix.index(mine, theirs);
            let v = &state[slot as usize];
            file::prefetch(v);
            let mut moves = 0;
            let mut exits = Exits::default();
            reads.clear();
            child_reads.clear();
            self.mover
                .placements(mine, theirs, scratch, &mut |me, opp, removed| {
                    moves += 1;
                    let changed = theirs ^ opp;
                    // A slot of the quiet child table, or of the removal one.
                    let child = if changed == 0 {
                        quiet.as_ref().map(|(table, prepared, fast)| {
                            let slot = if *fast {
                                prepared.base() + index::rank(quiet_map.apply(me)) as u64
                            } else {
                                prepared.index(me)
                            };
                            (*table, slot)
                        })
                    } else if changed.is_power_of_two()
                        && let (Some(table), Some((prepared, fast))) =
                            (removal, &removals[changed.trailing_zeros() as usize])
                    {
                        let slot = if *fast {
                            let map = &removal_maps[changed.trailing_zeros() as usize];
                            prepared.base() + index::rank(map.apply(me)) as u64
                        } else {
                            prepared.index(me)
                        };
                        Some((table, slot))
                    } else {
                        None
                    };
                    let Some((table, slot)) = child else {
                        return self.leave(me, opp, removed, placed, &mut exits, reads);
                    };
                    table.file.prefetch(slot);
                    if children[removed as usize].is_some() {
                        child_reads.push((removed, slot));
                    } else {
                        reads.push((table, slot, removed));
                    }
                    false
                });
            let mut best = 0;
            if exits.win != Some(1) {
                for &(table, slot, removed) in reads.iter() {
                    let child = entered(&self.rules, table, slot)
                        .expect("dependencies are checked before solving");
                    exits.add(through(child, removed));
                }
                for &(removed, slot) in child_reads.iter() {
                    if let Some(child) = &children[removed as usize] {
                        best = best.max(child.read(slot));
                    }
                }
            }
            let best = exits.best().map_or(0, exit_rank).max(best);
            let code = match ranked_exit(best) {
                Some(p) => p.code() as u32,
                // No move: a full board (see `init_class`).
                None if self.rules.blocked == morris_rules::Blocked::Loss => LOST_NOW.code() as u32,
                None => ONE,
            };
            v.store(code, Ordering::Relaxed);
        }
    }
}
