//! The retrograde generator.
//!
//! Subspaces `w-b` and `b-w` are solved together, since a move that
//! removes nothing leads from one to the other; removals lead into smaller
//! subspaces, solved before. Solving a pair:
//!
//! 1. Every canonical position is generated forward once with the rules
//!    core. A removal that wins (opponent below 3 stones, or into a lost
//!    position of a smaller table) makes it a win in 1; no legal move makes
//!    it lost in 0 (or a draw under `Blocked=draw`); otherwise it keeps a
//!    count of its distinct successor classes in the pair (plus one that
//!    never goes away if some removal leads to a draw).
//! 2. Breadth first by distance: the predecessors of each position lost
//!    in d become wins in d + 1; each position won in d takes one off its
//!    predecessors' counts, and one reaching zero is lost in d + 1 (all
//!    its moves lose, the slowest last). Predecessors come from un-moves:
//!    a stone of the side that just moved goes back to an empty point it
//!    could have come from, unless arriving formed a mill that had to
//!    remove something.
//! 3. What is left is drawn.
//!
//! Both passes share the work between threads through atomics: counts
//! and values change only by atomic decrement and compare-and-swap from
//! "unknown", so each position is settled exactly once.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressFinish, ProgressStyle};
use rayon::ThreadPool;
use rayon::prelude::*;

use super::error::TablebaseError;
use super::file::{self, Header};
use super::index::Indexer;
use super::probe::{SubspaceTable, Tablebases, apply_clock};
use super::summary::Summary;
use super::{Fingerprint, Probe, Subspace, Value};
use crate::rules::movegen::removable;
use crate::rules::{Bitboard, Color, Flying, Layout, Position, Rules};

/// Slot value while solving: not settled yet (draw when solving ends).
const UNKNOWN: u32 = 0;
/// Slot value of padding (not a canonical position); written as 0.
const PADDING: u32 = 1;
/// A slot's state while solving packs its value code (these bits) with
/// the count of its successor classes not yet known to be won by the
/// opponent (the bits above, in units of `ONE`): one cache line and one
/// atomic operation per update.
const CODE: u32 = 0xffff;
const ONE: u32 = 1 << 16;

/// How to run the generator.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// Worker threads.
    pub threads: usize,
    /// Progress bars on stderr (when it is a terminal).
    pub progress: bool,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            progress: false,
        }
    }
}

/// What generating one subspace did.
#[derive(Clone, Debug)]
pub struct Generated {
    pub subspace: Subspace,
    pub summary: Summary,
    pub bytes: u64,
    pub seconds: f64,
}

/// Most stones one removing move can take with these rules.
fn max_removals(rules: &Rules) -> u8 {
    if rules.remove_per_mill { 3 } else { 1 }
}

/// The subspaces solving `sub`'s pair needs first.
fn dependencies(rules: &Rules, sub: Subspace) -> Vec<Subspace> {
    let mut deps = Vec::new();
    for s in [sub, sub.swapped()] {
        for k in 1..=max_removals(rules) {
            if s.theirs >= 3 + k {
                deps.push(Subspace::new(s.theirs - k, s.mine));
            }
        }
    }
    deps
}

/// The pairs to solve for `targets`, dependencies first, each pair named
/// by its member with more stones to move.
pub fn plan(rules: &Rules, targets: &[Subspace]) -> Vec<Subspace> {
    let mut todo: Vec<Subspace> = Vec::new();
    let mut stack: Vec<Subspace> = targets.to_vec();
    while let Some(s) = stack.pop() {
        let key = if s.mine >= s.theirs { s } else { s.swapped() };
        if !todo.contains(&key) {
            todo.push(key);
            stack.extend(dependencies(rules, key));
        }
    }
    todo.sort_by_key(|s| (s.mine + s.theirs, s.mine, s.theirs));
    todo
}

/// Every subspace with both sides between 3 and `max` stones.
pub fn up_to(max: u8) -> Vec<Subspace> {
    (3..=max)
        .flat_map(|a| (3..=max).map(move |b| Subspace::new(a, b)))
        .collect()
}

/// Builds the tables `targets` need that are missing from the rules
/// folder under `root`, in dependency order. Tables already there (whole,
/// for these rules) are kept, so an interrupted run resumes (run one
/// generator per folder: it clears the temporaries other runs left).
pub fn generate(
    root: &Path,
    rules: &Rules,
    targets: &[Subspace],
    options: &GenerateOptions,
) -> Result<Vec<Generated>, TablebaseError> {
    super::covers(rules)?;
    let fp = Fingerprint::of(rules);
    let dir = root.join(fp.dir_name());
    let fp_text = fp.text();
    let pairs = plan(rules, targets);
    file::remove_stale_temporaries(&dir);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(options.threads.max(1))
        .build()?;
    // One bar, on stderr when it is a terminal, shows each pass in turn;
    // a line above it stays for each pair solved.
    let target = if options.progress {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(0), target)
        .with_style(
            ProgressStyle::with_template(
                "{msg} {wide_bar} {human_pos}/{human_len} positions, eta {eta}",
            )
            .expect("valid template"),
        )
        .with_finish(ProgressFinish::AndClear);
    let mut done = Vec::new();
    for (i, &pair) in pairs.iter().enumerate() {
        let members = if pair.mine == pair.theirs {
            vec![pair]
        } else {
            vec![pair, pair.swapped()]
        };
        let present = members.iter().all(|&s| {
            file::TableFile::open(&file::table_path(&dir, s), s, &fp_text)
                .is_ok_and(|t| t.check_all())
        });
        if present {
            continue;
        }
        // A fresh prober sees the tables written so far.
        let lower = Tablebases::open(root, &fp.rules());
        for dep in dependencies(&fp.rules(), pair) {
            if lower.table(dep).is_none_or(|t| !t.file.check_all()) {
                return Err(TablebaseError::Missing(dep));
            }
        }
        let names: Vec<String> = members.iter().map(|s| s.to_string()).collect();
        let title = format!("[{}/{}] {}", i + 1, pairs.len(), names.join(" + "));
        let start = Instant::now();
        let solver = Solver::new(&fp.rules(), &members, &lower, &pool, &bar, &title);
        let forward = solver.solve();
        let codes = &solver.state;
        let seconds = start.elapsed().as_secs_f64();
        for (t, &sub) in members.iter().enumerate() {
            let (summary, bytes, width) = finish(&solver.ix[t], &codes[t]);
            let header = Header {
                subspace: sub,
                width,
                slots: solver.ix[t].size(),
                checksum: file::values_checksum(&bytes),
                summary,
                fingerprint: fp_text.clone(),
            };
            let path = file::table_path(&dir, sub);
            file::write_table(&path, &header, &bytes)?;
            done.push(Generated {
                subspace: sub,
                summary,
                bytes: file::file_len(bytes.len()),
                seconds: seconds / members.len() as f64,
            });
        }
        bar.println(format!(
            "{title} solved in {seconds:.1} s (forward pass {:.1} s)",
            forward.as_secs_f64()
        ));
    }
    bar.finish_and_clear();
    Ok(done)
}

/// The summary and file bytes of solved codes.
fn finish(ix: &Indexer, codes: &[AtomicU32]) -> (Summary, Vec<u8>, u8) {
    let mut s = Summary::default();
    let mut max = 0;
    for c in codes {
        let code = c.load(Ordering::Relaxed) & CODE;
        if code == PADDING {
            continue;
        }
        max = max.max(code);
        s.count(Probe::from_code(code as u16));
    }
    let plain = |c: &AtomicU32| match c.load(Ordering::Relaxed) & CODE {
        PADDING => 0,
        code => code as u16,
    };
    debug_assert_eq!(codes.len() as u64, ix.size());
    if max <= 255 {
        (s, codes.iter().map(|c| plain(c) as u8).collect(), 1)
    } else {
        let bytes = codes.iter().flat_map(|c| plain(c).to_le_bytes()).collect();
        (s, bytes, 2)
    }
}

/// What one worker thread keeps through a pass: the entries it settled,
/// and scratch for predecessors.
#[derive(Default)]
struct Worker {
    found: Vec<Entry>,
    preds: Vec<u64>,
}

/// Settled positions a worker takes at a time in a distance pass.
const CHUNK: usize = 4096;

/// A position in the pair: table number in the top bits, slot below.
type Entry = u64;
const SLOT_BITS: u32 = 48;

fn entry(t: usize, slot: u64) -> Entry {
    (t as u64) << SLOT_BITS | slot
}

fn split(e: Entry) -> (usize, u64) {
    ((e >> SLOT_BITS) as usize, e & ((1 << SLOT_BITS) - 1))
}

/// The position with `mine` to move against `theirs`, in the movement phase.
pub fn position(mine: u32, theirs: u32) -> Position {
    Position::new(
        [Bitboard(mine), Bitboard(theirs)],
        [0, 0],
        Color::White,
        0,
        1,
        [0, 0],
    )
}

struct Solver<'a> {
    rules: Rules,
    layout: &'static Layout,
    ix: Vec<Indexer>,
    state: Vec<Vec<AtomicU32>>,
    lower: &'a Tablebases,
    members: Vec<Subspace>,
    pool: &'a ThreadPool,
    /// Shows each pass's progress, after the title.
    bar: &'a ProgressBar,
    title: &'a str,
}

impl<'a> Solver<'a> {
    fn new(
        rules: &Rules,
        members: &[Subspace],
        lower: &'a Tablebases,
        pool: &'a ThreadPool,
        bar: &'a ProgressBar,
        title: &'a str,
    ) -> Solver<'a> {
        let ix: Vec<Indexer> = members
            .iter()
            .map(|s| Indexer::new(s.mine as usize, s.theirs as usize))
            .collect();
        let state = ix
            .iter()
            .map(|i| (0..i.size()).map(|_| AtomicU32::new(UNKNOWN)).collect())
            .collect();
        Solver {
            rules: *rules,
            layout: rules.layout(),
            ix,
            state,
            lower,
            members: members.to_vec(),
            pool,
            bar,
            title,
        }
    }

    /// The table the opponent moves in after a non-removing move from `t`.
    fn other(&self, t: usize) -> usize {
        if self.ix.len() == 1 { 0 } else { 1 - t }
    }

    /// Runs `work(piece, worker)` over pieces `0..pieces` on the pool,
    /// showing `message` and a bar to `len` positions; returns the entries
    /// the workers settled. Pieces go one at a time to whichever thread is
    /// free, so a preempted thread's share is taken over; each thread
    /// keeps one growing entry list (few large allocations).
    fn pass(
        &self,
        message: String,
        len: u64,
        pieces: usize,
        work: impl Fn(usize, &mut Worker) + Sync,
    ) -> Vec<Entry> {
        self.bar.set_message(format!("{} {message}", self.title));
        self.bar.set_length(len);
        self.bar.reset();
        let workers: Vec<Mutex<Worker>> = (0..self.pool.current_num_threads())
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
        let found: Vec<Vec<Entry>> = workers
            .into_iter()
            .map(|w| w.into_inner().expect("worker state").found)
            .collect();
        found.concat()
    }

    /// Solves the pair; returns the time the forward pass took.
    fn solve(&self) -> Duration {
        let start = Instant::now();
        // Initial settled positions: lost in 0 go first, wins and losses in 1 next.
        let mut level0 = Vec::new();
        let mut level1 = Vec::new();
        for t in 0..self.ix.len() {
            let ix = &self.ix[t];
            let message = format!("forward pass over {}", self.members[t]);
            let found = self.pass(message, ix.size(), ix.classes(), |class, worker| {
                self.init_class(t, class, &mut worker.found);
                self.bar.inc(ix.per_class());
            });
            for e in found {
                let (t, slot) = split(e);
                if self.state[t][slot as usize].load(Ordering::Relaxed) == LOST_NOW.code() as u32 {
                    level0.push(e);
                } else {
                    level1.push(e);
                }
            }
        }
        let forward = start.elapsed();
        let mut current = level0;
        let mut pending = level1;
        let mut d: u16 = 0;
        while !current.is_empty() || !pending.is_empty() {
            let (message, len) = (format!("distance {d}"), current.len());
            let found = self.pass(message, len as u64, len.div_ceil(CHUNK), |piece, worker| {
                let chunk = &current[piece * CHUNK..len.min((piece + 1) * CHUNK)];
                for &e in chunk {
                    self.settle_predecessors(e, d, &mut worker.preds, &mut worker.found);
                }
                self.bar.inc(chunk.len() as u64);
            });
            pending.extend(found);
            current = std::mem::take(&mut pending);
            d += 1;
        }
        forward
    }

    /// Forward pass over the slots of one mover class of table `t`.
    fn init_class(&self, t: usize, class: usize, out: &mut Vec<Entry>) {
        let mut succ: Vec<u64> = Vec::with_capacity(128);
        let mut removals: Vec<(&SubspaceTable, u64)> = Vec::with_capacity(64);
        let other = self.other(t);
        let mine_count = self.ix[t].mine as u8;
        self.ix[t].for_each_in_class(class, |slot, mine, theirs, canonical| {
            let v = &self.state[t][slot as usize];
            if !canonical {
                v.store(PADDING, Ordering::Relaxed);
                return;
            }
            let mut moves = 0;
            let mut wins = false;
            succ.clear();
            removals.clear();
            // Every quiet successor has the opponent to move on `theirs`.
            let quiet = self.ix[other].prepare(theirs);
            self.successors(mine, theirs, &mut |me, opp, removed| {
                moves += 1;
                if !removed {
                    succ.push(quiet.index(me));
                    return false;
                }
                let left = opp.count_ones() as u8;
                if left < 3 {
                    wins = true;
                    return true;
                }
                let table = self
                    .lower
                    .table(Subspace::new(left, mine_count))
                    .expect("dependencies are checked before solving");
                removals.push((table, table.index.index(opp, me)));
                false
            });
            // The smaller tables' values, read in one go so that their
            // cache misses overlap.
            let mut drawn_removal = false;
            if !wins {
                for &(table, slot) in &removals {
                    // The removed-into position starts its clock at 0; the
                    // move-count draws decide whether it is still won.
                    let three_each = table.index.mine == 3 && table.index.theirs == 3;
                    let stored = Probe::from_code(
                        table
                            .file
                            .code(slot)
                            .expect("dependencies are checked before solving"),
                    );
                    match apply_clock(&self.rules, stored, 0, three_each).value {
                        Value::Loss => wins = true,
                        Value::Draw => drawn_removal = true,
                        Value::Win => {}
                    }
                }
            }
            if moves == 0 {
                match self.rules.blocked {
                    crate::rules::Blocked::Loss => {
                        v.store(LOST_NOW.code() as u32, Ordering::Relaxed);
                        out.push(entry(t, slot));
                    }
                    // Never counted down: stays a draw. (The other values
                    // are not covered: `covers`.)
                    crate::rules::Blocked::Draw
                    | crate::rules::Blocked::Pass
                    | crate::rules::Blocked::RemoveMove
                    | crate::rules::Blocked::RemovePass
                    | crate::rules::Blocked::BothRemove => v.store(ONE, Ordering::Relaxed),
                }
                return;
            }
            if wins {
                v.store(WIN_NOW.code() as u32, Ordering::Relaxed);
                out.push(entry(t, slot));
                return;
            }
            succ.sort_unstable();
            succ.dedup();
            let count = succ.len() + drawn_removal as usize;
            if count == 0 {
                // Every move removes into a lost position.
                v.store(LOST_NEXT.code() as u32, Ordering::Relaxed);
                out.push(entry(t, slot));
            } else {
                v.store(count as u32 * ONE, Ordering::Relaxed);
            }
        });
    }

    /// Calls `f(mine, theirs, removed)` with the stone sets after each
    /// legal move of `mine` to move against `theirs` (mover's stones
    /// first), each distinct outcome once; stops when `f` returns true.
    /// The same moves as the rules core's generator, without building
    /// positions (`verify` checks the tables against the rules core).
    fn successors(&self, mine: u32, theirs: u32, f: &mut impl FnMut(u32, u32, bool) -> bool) {
        let fly_at = self.rules.fly_at as u32;
        let (n_mine, n_theirs) = (mine.count_ones(), theirs.count_ones());
        let fly = match self.rules.flying {
            Flying::Off => false,
            Flying::Three => n_mine <= fly_at,
            Flying::Both => n_mine <= fly_at || n_theirs <= fly_at,
        };
        let empty = !(mine | theirs) & Bitboard::FULL.0;
        let removable_now = removable(self.layout, self.rules.mill_removal, Bitboard(theirs));
        let mut outcomes: Vec<u32> = Vec::new();
        for from in Bitboard(mine) {
            let targets = if fly {
                empty
            } else {
                self.layout.adjacent[from.index()].0 & empty
            };
            for to in Bitboard(targets) {
                let after = mine ^ from.bit().0 ^ to.bit().0;
                let mills = self.layout.mills_at(Bitboard(after), to);
                let stop = if mills == 0 {
                    f(after, theirs, false)
                } else if !self.rules.remove_per_mill && !self.rules.may_pass {
                    if removable_now.is_empty() {
                        f(after, theirs, false)
                    } else {
                        removable_now
                            .into_iter()
                            .any(|r| f(after, theirs ^ r.bit().0, true))
                    }
                } else {
                    let k = if self.rules.remove_per_mill { mills } else { 1 };
                    outcomes.clear();
                    self.removal_outcomes(k, theirs, &mut outcomes);
                    outcomes.sort_unstable();
                    outcomes.dedup();
                    outcomes.iter().any(|&o| f(after, o, o != theirs))
                };
                if stop {
                    return;
                }
            }
        }
    }

    /// The sets `theirs` can be left as by `left` removals, each chosen
    /// after the previous one (any prefix of them under `MayPass`).
    fn removal_outcomes(&self, left: u32, theirs: u32, out: &mut Vec<u32>) {
        let can = if left == 0 {
            Bitboard::EMPTY
        } else {
            removable(self.layout, self.rules.mill_removal, Bitboard(theirs))
        };
        if can.is_empty() || self.rules.may_pass {
            out.push(theirs);
        }
        for r in can {
            self.removal_outcomes(left - 1, theirs ^ r.bit().0, out);
        }
    }

    /// Settles what follows from position `e` having been settled at
    /// distance `d`: its predecessors win (if it is lost) or lose one
    /// escape (if it is won).
    fn settle_predecessors(&self, e: Entry, d: u16, preds: &mut Vec<u64>, out: &mut Vec<Entry>) {
        let (t, slot) = split(e);
        let code = (self.state[t][slot as usize].load(Ordering::Relaxed) & CODE) as u16;
        let lost = Probe::from_code(code).value == Value::Loss;
        let (mine, theirs) = self.ix[t].position(slot);
        let p = self.other(t);
        let states = &self.state[p];
        self.predecessors(p, mine, theirs, preds);
        // Plain loads first: independent, so their cache misses overlap,
        // and most predecessors at later distances are settled already.
        preds.retain(|&q| states[q as usize].load(Ordering::Relaxed) & CODE == UNKNOWN);
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
        for &q in preds.iter() {
            let state = &states[q as usize];
            let settled = if lost {
                state
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| {
                        (s & CODE == UNKNOWN).then_some(s | win)
                    })
                    .is_ok()
            } else {
                // Unsettled positions count at least one open successor.
                let r = state.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |s| {
                    (s & CODE == UNKNOWN).then(|| {
                        let n = s - ONE;
                        if n < ONE { n | loss } else { n }
                    })
                });
                matches!(r, Ok(s) if s - ONE < ONE)
            };
            if settled {
                out.push(entry(p, q));
            }
        }
    }

    /// Slots in table `p` of the distinct positions from which the side
    /// that has just moved (`theirs`) reached (`mine`, `theirs`) without
    /// removing anything.
    fn predecessors(&self, p: usize, mine: u32, theirs: u32, out: &mut Vec<u64>) {
        out.clear();
        let (n_mine, n_theirs) = (mine.count_ones(), theirs.count_ones());
        let fly_at = self.rules.fly_at as u32;
        let fly = match self.rules.flying {
            Flying::Off => false,
            Flying::Three => n_theirs <= fly_at,
            Flying::Both => n_theirs <= fly_at || n_mine <= fly_at,
        };
        let empty = !(mine | theirs) & Bitboard::FULL.0;
        // A mill closed by that move removed nothing only if nothing could be.
        let silent_mill = self.rules.may_pass
            || removable(self.layout, self.rules.mill_removal, Bitboard(mine)).is_empty();
        for to in Bitboard(theirs) {
            if !silent_mill && self.layout.mills_at(Bitboard(theirs), to) > 0 {
                continue;
            }
            let froms = if fly {
                empty
            } else {
                self.layout.adjacent[to.index()].0 & empty
            };
            for from in Bitboard(froms) {
                let before = theirs ^ to.bit().0 ^ from.bit().0;
                out.push(self.ix[p].index(before, mine));
            }
        }
        out.sort_unstable();
        out.dedup();
    }
}

const LOST_NOW: Probe = Probe {
    value: Value::Loss,
    plies: 0,
};
const WIN_NOW: Probe = Probe {
    value: Value::Win,
    plies: 1,
};
const LOST_NEXT: Probe = Probe {
    value: Value::Loss,
    plies: 1,
};
