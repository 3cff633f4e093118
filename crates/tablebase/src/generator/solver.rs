//! The retrograde solver of one pair of tables (see `generate` for the
//! method): its state, the forward pass of a pair with moves inside it,
//! the distance passes and the predecessors (un-moves).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU16, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use rayon::ThreadPool;
use rayon::prelude::*;

use crate::error::TablebaseError;
use crate::format::index::{Indexer, PointMap};
use crate::generator::bits::Mover;
use crate::generator::buckets::{Buckets, CHUNK, Entry, LATE, LATE_LOSS, entry, split};
use crate::generator::exits::{Exit, Exits, entered, through};
use crate::generator::states::{States, Zeroed};
use crate::probe::tables::{SubspaceTable, Tablebases};
use crate::progress::{Progress, Reporter};
use crate::sector::Sector;
use crate::value::{Probe, Value};
use morris_rules::{Bitboard, BoardFull, Rules};

/// Slot value while solving: not settled yet (draw when solving ends).
pub(crate) const UNKNOWN: u32 = 0;
/// Slot value of padding (not a canonical position); written as 0.
pub(crate) const PADDING: u32 = 1;
/// A slot's state while solving packs its value code (these bits) with
/// the count of its successor classes not yet known to be won by the
/// opponent (the bits above, in units of `ONE`): one cache line and one
/// atomic operation per update.
pub(crate) const CODE: u32 = 0xffff;
pub(crate) const ONE: u32 = 1 << 16;

/// What one worker thread keeps through a pass: the entries it settled,
/// and scratch for predecessors.
#[derive(Default)]
pub(crate) struct Worker<'t> {
    pub(crate) found: Buckets,
    pub(crate) preds: Vec<u64>,
    /// The next entry's predecessors, while `preds` are updated.
    pub(crate) next_preds: Vec<u64>,
    /// For `placement_group`: the spreading map, the quiet child's map,
    /// one per removed point; the tables to read; removal scratch.
    pub(crate) maps: Option<Box<[PointMap; 26]>>,
    pub(crate) reads: Vec<(&'t SubspaceTable, u64, bool)>,
    /// For `placement_group`: the slots of the quiet child (false) and
    /// removal child (true) tables to read through their `Child` ranks.
    pub(crate) child_reads: Vec<(bool, u64)>,
    pub(crate) scratch: Vec<u32>,
}

/// A position of the forward pass between generating its moves and
/// valuing them (`Solver::init_class`): its slot and stones, its moves,
/// its quiet successors counted and indexed, the best of its moves
/// leaving the pair valued so far, and the slots below still to read.
#[derive(Default)]
struct Pending<'t> {
    slot: u64,
    stones: (u32, u32),
    moves: u32,
    distinct: usize,
    exits: Exits,
    succ: Vec<u64>,
    reads: Vec<(&'t SubspaceTable, u64, bool)>,
}

pub(crate) struct Solver<'a> {
    pub(crate) rules: Rules,
    pub(crate) mover: Mover,
    pub(crate) ix: Vec<Indexer>,
    pub(crate) state: Vec<States<AtomicU32>>,
    /// Only for pairs whose moves leave at distances other than 1 (`Lasker`
    /// placement pairs), per slot of a position not settled by the forward
    /// pass: the distance of its fastest win leaving the pair, or of its
    /// slowest loss leaving the pair (0: none).
    pub(crate) exit_plies: Vec<States<AtomicU16>>,
    /// Whether some move stays in the pair (else one forward pass solves it).
    pub(crate) cyclic: bool,
    pub(crate) lower: &'a Tablebases,
    pub(crate) members: Vec<Sector>,
    pub(crate) pool: &'a ThreadPool,
    /// Shows each pass's progress, after the title.
    pub(crate) progress: &'a Reporter,
    pub(crate) title: &'a str,
}

impl<'a> Solver<'a> {
    pub(crate) fn new(
        rules: &Rules,
        members: &[Sector],
        lower: &'a Tablebases,
        pool: &'a ThreadPool,
        progress: &'a Reporter,
        title: &'a str,
    ) -> Result<Solver<'a>, TablebaseError> {
        let ix: Vec<Indexer> = members
            .iter()
            .map(|s| Indexer::new(s.mine as usize, s.theirs as usize))
            .collect();
        let placing = members[0].placing();
        let cyclic = !placing || rules.lasker;
        // The placement pass writes canonical slots only: the rest is padding.
        let fresh = if cyclic { UNKNOWN } else { PADDING };
        fn states<T: Zeroed>(len: u64) -> Result<States<T>, TablebaseError> {
            States::zeroed(len as usize).ok_or(TablebaseError::OutOfMemory)
        }
        let state = ix
            .iter()
            .map(|i| {
                let state = states(i.size())?;
                if fresh != UNKNOWN {
                    // On all threads: the first touch of each page also
                    // has the kernel clear it.
                    pool.install(|| {
                        state
                            .par_iter()
                            .with_min_len(1 << 16)
                            .for_each(|v: &AtomicU32| v.store(fresh, Ordering::Relaxed))
                    });
                }
                Ok(state)
            })
            .collect::<Result<_, TablebaseError>>()?;
        let exit_plies = if placing && cyclic {
            ix.iter()
                .map(|i| states(i.size()))
                .collect::<Result<_, _>>()?
        } else {
            Vec::new()
        };
        Ok(Solver {
            rules: *rules,
            mover: Mover::new(rules),
            ix,
            state,
            exit_plies,
            cyclic,
            lower,
            members: members.to_vec(),
            pool,
            progress,
            title,
        })
    }

    /// The table the opponent moves in after a slide from `t` that
    /// removes nothing; `None` when `t` has no such moves (a side to move
    /// without stones on the board, the pair then solved alone).
    pub(crate) fn other(&self, t: usize) -> Option<usize> {
        let to = self.members[t].swapped();
        self.members.iter().position(|&s| s == to)
    }

    /// Runs `work(piece, worker)` over pieces `0..pieces` on the pool,
    /// showing `message` and a bar to `len` positions; returns the entries
    /// the workers settled. Pieces go one at a time to whichever thread is
    /// free, so a preempted thread's share is taken over; each thread
    /// keeps one growing entry list (few large allocations).
    pub(crate) fn pass(
        &self,
        message: String,
        len: u64,
        pieces: usize,
        work: impl Fn(usize, &mut Worker<'a>) + Sync,
    ) -> Buckets {
        self.progress.report(Progress::Pass {
            title: &format!("{} {message}", self.title),
            len,
        });
        let workers: Vec<Mutex<Worker<'a>>> = (0..self.pool.current_num_threads())
            .map(|_| Mutex::default())
            .collect();
        self.pool.install(|| {
            (0..pieces)
                .into_par_iter()
                .with_max_len(1)
                .for_each(|piece| {
                    let thread = rayon::current_thread_index().expect("runs in the pool");
                    // Each thread locks only its own: never contended.
                    let mut worker = workers[thread].lock().expect("worker state");
                    work(piece, &mut worker);
                })
        });
        let mut found = Buckets::default();
        for w in workers {
            found.merge(w.into_inner().expect("worker state").found);
        }
        found
    }

    /// Solves the pair; returns the time the forward pass took.
    pub(crate) fn solve(&self) -> Duration {
        let start = Instant::now();
        let mut buckets = Buckets::default();
        for t in 0..self.ix.len() {
            let ix = &self.ix[t];
            let message = format!("forward pass over {}", self.members[t]);
            if !self.cyclic {
                self.placement_pass(t, message);
                continue;
            }
            let found = self.pass(message, ix.size(), ix.classes(), |class, worker| {
                self.init_class(t, class, &mut worker.found);
                self.progress.report(Progress::Advanced(ix.per_class()));
            });
            buckets.merge(found);
        }
        let forward = start.elapsed();
        let mut d = 0;
        while d < buckets.0.len() {
            let current = std::mem::take(&mut buckets.0[d]);
            let pieces: Vec<&[Entry]> = current.iter().flat_map(|b| b.chunks(CHUNK)).collect();
            let len: usize = current.iter().map(Vec::len).sum();
            if len > 0 {
                let plies = d as u16;
                let message = format!("distance {d}");
                let found = self.pass(message, len as u64, pieces.len(), |piece, worker| {
                    let chunk = pieces[piece];
                    // Each entry's predecessors are found (and their states
                    // start loading) before the previous entry's are
                    // updated, so those loads overlap with work.
                    let mut pending = None;
                    // One step past the last entry updates its predecessors.
                    for k in 0..=chunk.len() {
                        let next = chunk
                            .get(k)
                            .filter(|&&e| e & LATE == 0 || self.settle_late(e, plies))
                            .and_then(|&e| self.gather_predecessors(e, &mut worker.next_preds));
                        if let Some(settled) = pending {
                            self.update_predecessors(
                                settled,
                                plies,
                                &mut worker.preds,
                                &mut worker.found,
                            );
                        }
                        std::mem::swap(&mut worker.preds, &mut worker.next_preds);
                        pending = next;
                    }
                    self.progress.report(Progress::Advanced(chunk.len() as u64));
                });
                buckets.merge(found);
            }
            d += 1;
        }
        forward
    }

    /// Settles a late entry at distance `d` if nothing settled it sooner.
    fn settle_late(&self, e: Entry, d: u16) -> bool {
        let (t, mover, other) = split(e);
        let slot = self.ix[t].index(mover, other);
        let value = if e & LATE_LOSS != 0 {
            Value::Loss
        } else {
            Value::Win
        };
        let code = Probe { value, plies: d }.code() as u32;
        self.state[t][slot as usize]
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| {
                (s & CODE == UNKNOWN).then_some(s | code)
            })
            .is_ok()
    }

    /// Where a move leaving the pair leads: `opp` to move against `me`,
    /// with `hands` (opp's, me's) in hand.
    #[inline]
    pub(crate) fn exit(&self, me: u32, opp: u32, hands: (u8, u8)) -> Exit<'a> {
        let (n_opp, n_me) = (opp.count_ones() as u8, me.count_ones() as u8);
        if n_opp + hands.0 < 3 {
            return Exit::Known(LOST_NOW);
        }
        if hands == (0, 0) && me | opp == Bitboard::FULL.0 {
            // Only a placement fills the board: `BoardFull` ends the game.
            return Exit::Known(match self.rules.board_full {
                BoardFull::Loss => LOST_NOW,
                _ => Probe::DRAW,
            });
        }
        let table = self
            .lower
            .table(Sector::with_hands(n_opp, n_me, hands.0, hands.1))
            .expect("dependencies are checked before solving");
        Exit::Read(table, table.index.index(opp, me))
    }

    /// Values a move leaving the pair (see `exit`), or notes the table
    /// slot to read; whether nothing can beat what is found (a win in 1).
    #[inline]
    pub(crate) fn leave(
        &self,
        me: u32,
        opp: u32,
        removed: bool,
        hands: (u8, u8),
        exits: &mut Exits,
        reads: &mut Vec<(&'a SubspaceTable, u64, bool)>,
    ) -> bool {
        match self.exit(me, opp, hands) {
            Exit::Known(p) => {
                exits.add(through(p, removed));
                exits.win == Some(1)
            }
            Exit::Read(table, slot) => {
                table.file.prefetch(slot);
                reads.push((table, slot, removed));
                false
            }
        }
    }

    /// Forward pass over the slots of one mover class of table `t`. Each
    /// position's moves are generated (its reads of the tables below
    /// started) before the previous position is valued, so those reads'
    /// cache misses overlap with work.
    fn init_class(&self, t: usize, class: usize, out: &mut Buckets) {
        let mut scratch: Vec<u32> = Vec::new();
        let other = self.other(t);
        let sector = self.members[t];
        let slides = sector.mine_hand == 0 || self.rules.lasker;
        let places = sector.mine_hand > 0;
        let fly = self.mover.flies(sector);
        debug_assert!(!slides || other.is_some() || sector.mine == 0);
        // The hands after a slide, and after a placement (the opponent's first).
        let slid = (sector.theirs_hand, sector.mine_hand);
        let placed = (sector.theirs_hand, sector.mine_hand.saturating_sub(1));
        // The table of the placements that remove nothing (none when such
        // a placement fills the board).
        let child = Sector::with_hands(sector.theirs, sector.mine + 1, placed.0, placed.1);
        let quiet_placements = (places && (child.placing() || child.mine + child.theirs < 24))
            .then(|| self.lower.table(child))
            .flatten();
        // The position being generated, and the one waiting to be valued.
        let mut work: [Pending<'a>; 2] = Default::default();
        let mut waiting = false;
        self.ix[t].for_each_in_class(class, |slot, mine, theirs, canonical| {
            if !canonical {
                self.state[t][slot as usize].store(PADDING, Ordering::Relaxed);
                return;
            }
            let [next, previous] = &mut work;
            next.slot = slot;
            next.stones = (mine, theirs);
            next.moves = 0;
            // Quiet successors counted without indexing them (see below).
            next.distinct = 0;
            next.exits = Exits::default();
            next.succ.clear();
            next.reads.clear();
            let Pending {
                moves,
                distinct,
                exits,
                succ,
                reads,
                ..
            } = next;
            let mut stopped = false;
            if let Some(other) = other.filter(|_| slides) {
                // Every quiet successor has the opponent to move on
                // `theirs`. Distinct slides leave distinct stone sets,
                // so two of them reach one slot only through a
                // symmetry fixing `theirs`: when none does, each is a
                // successor of its own and needs no index.
                let quiet = self.ix[other].prepare(theirs);
                let direct = quiet.unique();
                stopped =
                    self.mover
                        .slides(mine, theirs, fly, &mut scratch, &mut |me, opp, removed| {
                            *moves += 1;
                            if removed {
                                self.leave(me, opp, true, slid, exits, reads)
                            } else {
                                if direct {
                                    *distinct += 1;
                                } else {
                                    succ.push(quiet.index(me));
                                }
                                false
                            }
                        });
            }
            if places && !stopped {
                // Those all have the opponent to move on `theirs`.
                let quiet = quiet_placements.map(|q| (q, q.index.prepare(theirs)));
                self.mover
                    .placements(mine, theirs, &mut scratch, &mut |me, opp, removed| {
                        *moves += 1;
                        match &quiet {
                            Some((table, ix)) if !removed => {
                                let slot = ix.index(me);
                                table.file.prefetch(slot);
                                reads.push((table, slot, false));
                                false
                            }
                            _ => self.leave(me, opp, removed, placed, exits, reads),
                        }
                    });
            }
            if waiting {
                self.value_position(t, previous, out);
            }
            std::mem::swap(next, previous);
            waiting = true;
        });
        if waiting {
            self.value_position(t, &mut work[1], out);
        }
    }

    /// The forward pass's value of a position of table `t` whose moves
    /// are generated: settled, or its count of open successors.
    fn value_position(&self, t: usize, position: &mut Pending<'a>, out: &mut Buckets) {
        let Pending {
            slot,
            stones,
            moves,
            distinct,
            ref mut exits,
            ref mut succ,
            ref reads,
        } = *position;
        let v = &self.state[t][slot as usize];
        // The other tables' values, read in one go so that their cache
        // misses overlap.
        if exits.win != Some(1) {
            for &(table, slot, removed) in reads {
                let child = entered(&self.rules, table, slot)
                    .expect("dependencies are checked before solving");
                exits.add(through(child, removed));
            }
        }
        if moves == 0 {
            match self.rules.blocked {
                morris_rules::Blocked::Loss => self.settle(t, slot, stones, LOST_NOW, out),
                // Never counted down: stays a draw. (The other values
                // are not covered: `covers`.)
                morris_rules::Blocked::Draw
                | morris_rules::Blocked::Pass
                | morris_rules::Blocked::RemoveMove
                | morris_rules::Blocked::RemovePass
                | morris_rules::Blocked::BothRemove => v.store(ONE, Ordering::Relaxed),
            }
            return;
        }
        succ.sort_unstable();
        succ.dedup();
        let inside = distinct + succ.len();
        let best = exits.best();
        match exits.win {
            // No move in the pair wins faster than in 1.
            Some(w) if inside == 0 || w <= 1 => {
                return self.settle(t, slot, stones, best.expect("a win"), out);
            }
            _ => {}
        }
        let open = inside + (exits.win.is_some() || exits.draw) as usize;
        if open == 0 {
            // Every move leaves the pair and loses.
            return self.settle(t, slot, stones, best.expect("moves"), out);
        }
        v.store(open as u32 * ONE, Ordering::Relaxed);
        if inside == 0 {
            // Drawn by a move leaving the pair.
            return;
        }
        if let Some(plies) = exits.win.or(exits.loss)
            && let Some(p) = self.exit_plies.get(t)
        {
            p[slot as usize].store(plies, Ordering::Relaxed);
            if exits.win.is_some() {
                out.push(plies, entry(t, stones.0, stones.1, false) | LATE);
            }
        }
    }

    /// Stores a value found by the forward pass; in a pair with moves in
    /// it, the position's predecessors hear of it at its distance.
    /// `(mine, theirs)`: its stones.
    pub(crate) fn settle(
        &self,
        t: usize,
        slot: u64,
        (mine, theirs): (u32, u32),
        p: Probe,
        out: &mut Buckets,
    ) {
        self.state[t][slot as usize].store(p.code() as u32, Ordering::Relaxed);
        if self.cyclic {
            out.push(p.plies, entry(t, mine, theirs, p.value == Value::Loss));
        }
    }
}

pub(crate) const LOST_NOW: Probe = Probe {
    value: Value::Loss,
    plies: 0,
};
