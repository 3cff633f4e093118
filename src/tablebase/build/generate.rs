//! The generator.
//!
//! Sectors `w-b+x-y` and `b-w+y-x` are solved together when a move that
//! neither places nor removes leads from one to the other (the movement
//! phase, and `Lasker` slides with stones in hand); the moves that leave
//! the pair (removals, placements) lead into sectors solved before. Under
//! the other rules a placement sector has no such moves: it is solved by
//! one forward pass. Solving a pair:
//!
//! 1. Every canonical position is generated forward once on bare stone
//!    sets (`bits`). The moves leaving the pair are valued from the tables
//!    they lead into (a removal leaving fewer than 3 stones in all wins,
//!    a placement filling the board ends the game by `BoardFull`); no
//!    legal move makes it lost in 0 (or a draw under `Blocked=draw`). A
//!    position with no move inside the pair takes the best of those
//!    values; the others keep a count of their distinct successor classes
//!    in the pair (plus one that never goes away if a move leaving the
//!    pair draws or wins), and the distance of that win, or of the
//!    slowest loss leaving the pair.
//! 2. By distance, in buckets: the predecessors of each position lost in
//!    d become wins in d + 1 (unless a move leaving the pair wins
//!    sooner: that position's own bucket settles it first); each position
//!    won in d takes one off its predecessors' counts, and one reaching
//!    zero is lost in d + 1, or later if a move leaving the pair loses
//!    more slowly (all its moves lose, the slowest last). Predecessors come
//!    from un-moves: a stone of the side that just moved goes back to an
//!    empty point it could have come from, unless arriving formed a mill
//!    that had to remove something.
//! 3. What is left is drawn.
//!
//! Both passes share the work between threads through atomics: counts
//! and values change only by atomic decrement and compare-and-swap from
//! "unknown", so each position is settled exactly once.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU16, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use rayon::ThreadPool;
use rayon::prelude::*;

use crate::rules::{Bitboard, BoardFull, Rules};
use crate::tablebase::build::bits::Mover;
use crate::tablebase::build::plan::{dependencies, plan, up_to};
use crate::tablebase::build::states::{States, Zeroed};
use crate::tablebase::error::TablebaseError;
use crate::tablebase::fingerprint::{Fingerprint, PlacementFingerprint};
use crate::tablebase::format::codec::Layout;
use crate::tablebase::format::file;
use crate::tablebase::format::file::Header;
use crate::tablebase::format::index;
use crate::tablebase::format::index::{Indexer, PointMap, Prepared, StoneSets};
use crate::tablebase::format::summary::Summary;
use crate::tablebase::probe::tables::{SubspaceTable, Tablebases, apply_clock};
use crate::tablebase::progress::{Progress, Reporter};
use crate::tablebase::sector::{Sector, Subspace};
use crate::tablebase::value::{Probe, Value};

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
    /// Where each pass's progress and a line for each pair solved go.
    pub progress: Reporter,
    /// Store win/draw/loss only (`Layout::Wdl`), a fifth of the disk.
    pub wdl: bool,
}

impl Default for GenerateOptions {
    fn default() -> Self {
        GenerateOptions {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            progress: Reporter::default(),
            wdl: false,
        }
    }
}

/// What generating one table did.
#[derive(Clone, Debug)]
pub struct Generated {
    /// Its sector (a movement subspace or a placement sector).
    pub subspace: Sector,
    pub summary: Summary,
    pub bytes: u64,
    /// Its share of its pair's solving time.
    pub seconds: f64,
}

impl Generated {
    /// Positions (up to symmetry) solved per second of wall time.
    pub fn rate(&self) -> f64 {
        self.summary.positions as f64 / self.seconds.max(1e-9)
    }
}

/// Which tables `generate_game` makes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    /// The movement-phase subspaces (no stones in hand).
    Movement,
    /// The placement sectors reachable from the start (needs the movement tables).
    Placement,
    /// Both, movement first.
    All,
}

impl std::str::FromStr for Phase {
    type Err = String;

    fn from_str(text: &str) -> Result<Phase, String> {
        match text.to_ascii_lowercase().as_str() {
            "movement" => Ok(Phase::Movement),
            "placement" => Ok(Phase::Placement),
            "all" => Ok(Phase::All),
            _ => Err(format!("expected movement, placement or all, not '{text}'")),
        }
    }
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
    crate::tablebase::fingerprint::covers(rules)?;
    let fp = Fingerprint::of(rules);
    let dir = root.join(fp.dir_name());
    let pairs: Vec<Vec<Sector>> = plan(rules, targets)
        .into_iter()
        .map(|pair| {
            if pair.mine == pair.theirs {
                vec![pair]
            } else {
                vec![pair, pair.swapped()]
            }
        })
        .collect();
    let text = fp.text();
    let run = Run::new(root, &dir, &text, &fp.rules(), options)?;
    file::remove_stale_temporaries(&dir);
    let done = run.solve_all(&pairs, |lower, pair| {
        for dep in dependencies(&fp.rules(), pair[0]) {
            usable(lower, dep, options.wdl, TablebaseError::Missing)?;
        }
        Ok(())
    })?;
    Ok(done)
}

/// Builds every table the game under `rules` needs from its start
/// position (`Pieces` stones in hand each) that is missing from `root`:
/// for `Phase::Movement` the movement subspaces up to `Pieces` a side, for
/// `Phase::Placement` the placement sectors reachable from the start,
/// children first (the movement tables must be there: `TablebaseError::
/// MovementMissing` otherwise), for `Phase::All` both.
pub fn generate_game(
    root: &Path,
    rules: &Rules,
    phase: Phase,
    options: &GenerateOptions,
) -> Result<Vec<Generated>, TablebaseError> {
    if phase != Phase::Movement {
        crate::tablebase::fingerprint::placement_covers(rules)?;
    }
    let mut done = Vec::new();
    if phase != Phase::Placement {
        done = generate(root, rules, &up_to(rules.pieces), options)?;
    }
    if phase == Phase::Movement {
        return Ok(done);
    }
    let fp = PlacementFingerprint::of(rules);
    let prules = fp.rules();
    let dir = root.join(fp.movement.dir_name()).join(fp.dir_name());
    let plan = crate::tablebase::build::placement::plan(rules);
    {
        let lower = Tablebases::open(root, &prules);
        for &sub in &plan.movement {
            usable(&lower, sub, options.wdl, TablebaseError::MovementMissing)?;
        }
    }
    let text = fp.text();
    let run = Run::new(root, &dir, &text, &prules, options)?;
    file::remove_stale_temporaries(&dir);
    done.extend(run.solve_all(&plan.pairs, |lower, pair| {
        for dep in crate::tablebase::build::placement::dependencies(&prules, pair) {
            usable(lower, dep, options.wdl, TablebaseError::Missing)?;
        }
        Ok(())
    })?);
    Ok(done)
}

/// Builds the tables of one pair (`members`: a movement pair, a placement
/// sector, or a `Lasker` pair, as `placement::plan` and `plan` group
/// them) unless they are all there and whole. Every table it reads must
/// be there and whole (`TablebaseError::Missing` otherwise). Only this
/// pair's own stale temporaries are removed, so that jobs building other
/// tables of the same folder at the same time, on other machines, are
/// left alone.
pub(crate) fn generate_pair(
    root: &Path,
    rules: &Rules,
    members: &[Sector],
    options: &GenerateOptions,
) -> Result<Vec<Generated>, TablebaseError> {
    let pfp = PlacementFingerprint::of(rules);
    let placing = members.iter().any(|s| s.placing());
    let (dir, text, rules) = if placing {
        crate::tablebase::fingerprint::placement_covers(rules)?;
        let dir = root.join(pfp.movement.dir_name()).join(pfp.dir_name());
        (dir, pfp.text(), pfp.rules())
    } else {
        crate::tablebase::fingerprint::covers(rules)?;
        let dir = root.join(pfp.movement.dir_name());
        (dir, pfp.movement.text(), pfp.movement.rules())
    };
    let run = Run::new(root, &dir, &text, &rules, options)?;
    for &s in members {
        file::remove_temporaries_of(&file::table_path(&dir, s));
    }
    run.solve_all(&[members.to_vec()], |lower, pair| {
        let deps = if placing {
            crate::tablebase::build::placement::dependencies(&rules, pair)
        } else {
            dependencies(&rules, pair[0])
        };
        for dep in deps {
            usable(lower, dep, options.wdl, TablebaseError::Missing)?;
        }
        Ok(())
    })
}

/// Whether table `sub` can serve a run that stores distances or not
/// (`wdl`): it must be there whole, and have distances unless the run
/// stores none (a distance is counted through every table below).
fn usable(
    lower: &Tablebases,
    sub: Sector,
    wdl: bool,
    missing: fn(Sector) -> TablebaseError,
) -> Result<(), TablebaseError> {
    match lower.table(sub) {
        Some(t) if t.file.check_all() => {
            if !wdl && t.file.header.layout == Layout::Wdl {
                Err(TablebaseError::NoDistances(sub))
            } else {
                Ok(())
            }
        }
        _ => Err(missing(sub)),
    }
}

/// One generator run: the folder it writes, the threads and where its
/// progress goes.
struct Run<'a> {
    root: &'a Path,
    dir: &'a Path,
    fingerprint: &'a str,
    rules: Rules,
    pool: ThreadPool,
    progress: Reporter,
    wdl: bool,
}

impl<'a> Run<'a> {
    fn new(
        root: &'a Path,
        dir: &'a Path,
        fingerprint: &'a str,
        rules: &Rules,
        options: &GenerateOptions,
    ) -> Result<Run<'a>, TablebaseError> {
        if options.wdl && (rules.endgame_moves != 0 || rules.no_capture_moves != 0) {
            return Err(TablebaseError::WdlWithDrawLimits);
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads.max(1))
            .build()?;
        Ok(Run {
            root,
            dir,
            fingerprint,
            rules: *rules,
            pool,
            progress: options.progress.clone(),
            wdl: options.wdl,
        })
    }

    /// Solves the pairs not on disk yet, in order, after `check` finds
    /// what each needs; a line per pair with its time and throughput.
    fn solve_all(
        &self,
        pairs: &[Vec<Sector>],
        check: impl Fn(&Tablebases, &[Sector]) -> Result<(), TablebaseError>,
    ) -> Result<Vec<Generated>, TablebaseError> {
        let mut done = Vec::new();
        let missing: Vec<bool> = pairs
            .iter()
            .map(|members| {
                !members.iter().all(|&s| {
                    file::TableFile::open(&file::table_path(self.dir, s), s, self.fingerprint)
                        .is_ok_and(|t| t.check_all())
                })
            })
            .collect();
        let slots = |members: &[Sector]| -> u64 {
            members
                .iter()
                .map(|&s| crate::tablebase::build::placement::slots(s))
                .sum()
        };
        let total: u64 = pairs
            .iter()
            .zip(&missing)
            .filter(|(_, m)| **m)
            .map(|(p, _)| slots(p))
            .sum();
        let (run_start, mut solved) = (Instant::now(), 0u64);
        for (i, members) in pairs.iter().enumerate() {
            if !missing[i] {
                continue;
            }
            // A fresh prober sees the tables written so far.
            let lower = Tablebases::open_resident(self.root, &self.rules);
            check(&lower, members)?;
            let names: Vec<String> = members.iter().map(|s| s.to_string()).collect();
            let title = format!("[{}/{}] {}", i + 1, pairs.len(), names.join(" + "));
            let start = Instant::now();
            let solver = Solver::new(
                &self.rules,
                members,
                &lower,
                &self.pool,
                &self.progress,
                &title,
            )?;
            let forward = solver.solve();
            let seconds = start.elapsed().as_secs_f64();
            let mut positions = 0;
            for (t, &sub) in members.iter().enumerate() {
                let (summary, bytes, layout) = self
                    .pool
                    .install(|| finish(&solver.ix[t], &solver.state[t], self.wdl));
                positions += summary.positions;
                let header = Header {
                    subspace: sub,
                    layout,
                    slots: solver.ix[t].size(),
                    checksum: 0, // set by write_table
                    summary,
                    fingerprint: self.fingerprint.to_string(),
                };
                let path = file::table_path(self.dir, sub);
                file::write_table(&path, header, &bytes)?;
                done.push(Generated {
                    subspace: sub,
                    summary,
                    bytes: file::file_len(bytes.len()),
                    seconds: seconds / members.len() as f64,
                });
            }
            solved += slots(members);
            let left = run_start.elapsed().as_secs_f64() / solved as f64 * (total - solved) as f64;
            self.progress.report(Progress::Done(&format!(
                "{title} solved in {seconds:.1} s (forward pass {:.1} s), {:.0} positions/s; \
                 {:.1}% of the slots done, eta {}",
                forward.as_secs_f64(),
                positions as f64 / seconds.max(1e-9),
                100.0 * solved as f64 / total.max(1) as f64,
                clock_time(left)
            )));
        }
        self.progress.report(Progress::Finished);
        Ok(done)
    }
}

/// Seconds as `h:mm:ss`.
fn clock_time(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

/// The summary and file bytes of solved codes: win/draw/loss only if
/// `wdl` (the summary without distances, which such a table cannot show).
/// Runs on the caller's pool: tables reach gigabytes.
fn finish(ix: &Indexer, codes: &[AtomicU32], wdl: bool) -> (Summary, Vec<u8>, Layout) {
    const CHUNK: usize = 1 << 16;
    let (s, max) = codes
        .par_chunks(CHUNK)
        .map(|chunk| {
            let (mut s, mut max) = (Summary::default(), 0);
            for c in chunk {
                let code = c.load(Ordering::Relaxed) & CODE;
                if code == PADDING {
                    continue;
                }
                max = max.max(code);
                let mut p = Probe::from_code(code as u16);
                if wdl && p.value != Value::Draw {
                    p.plies = Probe::NO_DISTANCE;
                }
                s.count(p);
            }
            (s, max)
        })
        .reduce(
            || (Summary::default(), 0),
            |(mut a, x), (b, y)| {
                a.merge(&b);
                (a, x.max(y))
            },
        );
    let plain = |c: &AtomicU32| match c.load(Ordering::Relaxed) & CODE {
        PADDING => 0,
        code => code as u16,
    };
    debug_assert_eq!(codes.len() as u64, ix.size());
    let layout = match (wdl, max) {
        (true, _) => Layout::Wdl,
        (false, 0..=255) => Layout::Byte,
        (false, _) => Layout::Word,
    };
    let bytes = if layout == Layout::Byte {
        let mut bytes = vec![0u8; codes.len()];
        bytes
            .par_chunks_mut(CHUNK)
            .zip(codes.par_chunks(CHUNK))
            .for_each(|(out, chunk)| {
                for (o, c) in out.iter_mut().zip(chunk) {
                    *o = plain(c) as u8;
                }
            });
        bytes
    } else {
        layout.encode(codes.iter().map(plain))
    };
    (s, bytes, layout)
}

/// What one worker thread keeps through a pass: the entries it settled,
/// and scratch for predecessors.
#[derive(Default)]
struct Worker<'t> {
    found: Buckets,
    preds: Vec<u64>,
    /// The next entry's predecessors, while `preds` are updated.
    next_preds: Vec<u64>,
    /// For `placement_group`: the spreading map, the quiet child's map,
    /// one per removed point; the tables to read; removal scratch.
    maps: Option<Box<[PointMap; 26]>>,
    reads: Vec<(&'t SubspaceTable, u64, bool)>,
    /// For `placement_group`: the slots of the quiet child (false) and
    /// removal child (true) tables to read through their `Child` ranks.
    child_reads: Vec<(bool, u64)>,
    scratch: Vec<u32>,
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

/// Settled entries by the distance at which their predecessors hear of
/// them. Each worker files its own as it settles them (it knows their
/// distances), so no serial pass reloads their states to sort them.
#[derive(Default)]
struct Buckets(Vec<Vec<Entry>>);

impl Buckets {
    fn push(&mut self, d: u16, e: Entry) {
        let d = d as usize;
        if self.0.len() <= d {
            self.0.resize_with(d + 1, Vec::new);
        }
        self.0[d].push(e);
    }

    /// Moves the entries of `other` into these.
    fn merge(&mut self, other: Buckets) {
        if self.0.len() < other.0.len() {
            self.0.resize_with(other.0.len(), Vec::new);
        }
        for (mine, mut theirs) in self.0.iter_mut().zip(other.0) {
            if mine.is_empty() {
                *mine = theirs;
            } else {
                mine.append(&mut theirs);
            }
        }
    }
}

/// A position settled in a distance pass whose predecessors are gathered:
/// their table, whether it is lost (else won), and the stones of the side
/// not moving in them.
#[derive(Clone, Copy)]
struct Settled {
    p: usize,
    lost: bool,
    other: u32,
}

/// Settled positions a worker takes at a time in a distance pass.
const CHUNK: usize = 4096;

/// A settled position in the pair: the stones of its side to move (bits
/// 0..24) and of the other side (24..48), its table (from bit 48), and
/// whether it is lost. Its predecessors follow from the stones without
/// decoding a slot, and the value without loading its state.
type Entry = u64;
const TABLE_SHIFT: u32 = 48;
const LOST: Entry = 1 << 61;
/// Marks an entry to settle when its bucket comes if still unknown, at
/// the distance of its best move leaving the pair: a win, or with `LATE_LOSS`
/// (and `LOST`) a loss.
const LATE: Entry = 1 << 63;
const LATE_LOSS: Entry = 1 << 62;

fn entry(t: usize, mover: u32, other: u32, lost: bool) -> Entry {
    (t as u64) << TABLE_SHIFT | (other as u64) << 24 | mover as u64 | if lost { LOST } else { 0 }
}

/// The table of an entry and its stones: the side to move's, the other's.
fn split(e: Entry) -> (usize, u32, u32) {
    (
        (e >> TABLE_SHIFT & 3) as usize,
        (e & 0xff_ffff) as u32,
        (e >> 24 & 0xff_ffff) as u32,
    )
}

/// The mover's result of a move into a position whose side to move has
/// `child`; `removed`: the move removed a stone (a conversion).
pub(super) fn through(child: Probe, removed: bool) -> Probe {
    let plies = if removed { 1 } else { child.plies_before() };
    match child.value {
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
}

/// The value a table stores for a position entered by a move that
/// placed or removed (clock 0): under the move-count draws a movement
/// table's win or loss may be a draw there.
///
/// A win/draw/loss-only table's win or loss counts as converting at once:
/// the values solved from it are right, their distances are not, and the
/// run that reads it stores none (`usable`).
pub(super) fn entered(rules: &Rules, table: &SubspaceTable, slot: u64) -> Option<Probe> {
    Some(on_entry(
        rules,
        table.file.header.subspace,
        table.file.code(slot)?,
    ))
}

/// `entered` for the code stored in a slot of sector `s`'s table.
fn on_entry(rules: &Rules, s: Sector, code: u16) -> Probe {
    let mut stored = Probe::from_code(code);
    if stored.distance().is_none() {
        stored.plies = 0;
    }
    if s.placing() {
        stored
    } else {
        apply_clock(rules, stored, 0, s.mine == 3 && s.theirs == 3)
    }
}

/// The best of some moves' results, collected one by one.
#[derive(Default)]
struct Exits {
    /// The fastest win.
    win: Option<u16>,
    draw: bool,
    /// The slowest loss.
    loss: Option<u16>,
}

impl Exits {
    fn add(&mut self, p: Probe) {
        match p.value {
            Value::Win => self.win = Some(self.win.map_or(p.plies, |w| w.min(p.plies))),
            Value::Draw => self.draw = true,
            Value::Loss => self.loss = Some(self.loss.map_or(p.plies, |l| l.max(p.plies))),
        }
    }

    /// The best result; `None` without moves.
    fn best(&self) -> Option<Probe> {
        if let Some(plies) = self.win {
            Some(Probe {
                value: Value::Win,
                plies,
            })
        } else if self.draw {
            Some(Probe::DRAW)
        } else {
            self.loss.map(|plies| Probe {
                value: Value::Loss,
                plies,
            })
        }
    }
}

/// `Exits`'s order as a number: the best of some results is the one of
/// greatest rank (0: no result).
fn exit_rank(p: Probe) -> u32 {
    match p.value {
        Value::Win => 3 << 16 | (0xffff - p.plies as u32),
        Value::Draw => 2 << 16,
        Value::Loss => 1 << 16 | p.plies as u32,
    }
}

/// The result of `exit_rank`; `None` for 0.
fn ranked_exit(rank: u32) -> Option<Probe> {
    let plies = (rank & 0xffff) as u16;
    match rank >> 16 {
        0 => None,
        1 => Some(Probe {
            value: Value::Loss,
            plies,
        }),
        2 => Some(Probe::DRAW),
        _ => Some(Probe {
            value: Value::Win,
            plies: 0xffff - plies,
        }),
    }
}

/// A child table of a placement sector that stores one or two bytes a
/// slot, read without decoding: by stored code, the rank (`exit_rank`) of
/// the mover's result of a move into it (`entered`, then `through`). The
/// placement pass reads tens of children a position, and their blocks
/// were all checked before solving (`usable`).
struct Child<'t> {
    data: &'t [u8],
    /// Two bytes a slot (`Layout::Word`), else one.
    wide: bool,
    /// By every `u16` code, so that no read needs a bounds check; the
    /// few codes a table holds stay in cache.
    rank: Box<[u32; 1 << 16]>,
}

impl<'t> Child<'t> {
    /// `None` for a win/draw/loss-only table.
    fn new(rules: &Rules, table: &'t SubspaceTable, removed: bool) -> Option<Child<'t>> {
        let wide = match table.file.header.layout {
            Layout::Byte => false,
            Layout::Word => true,
            Layout::Wdl => return None,
        };
        let s = table.file.header.subspace;
        let mut rank: Box<[u32; 1 << 16]> = vec![0; 1 << 16].try_into().expect("length");
        for (code, r) in rank.iter_mut().enumerate() {
            *r = exit_rank(through(on_entry(rules, s, code as u16), removed));
        }
        Some(Child {
            data: table.file.data(),
            wide,
            rank,
        })
    }

    /// The rank of the result of a move into `slot`.
    #[inline]
    fn read(&self, slot: u64) -> u32 {
        let s = slot as usize;
        let code = if self.wide {
            u16::from_le_bytes([self.data[2 * s], self.data[2 * s + 1]])
        } else {
            self.data[s] as u16
        };
        self.rank[code as usize]
    }
}

/// Where a move leaving the pair leads.
enum Exit<'t> {
    /// The game ends or its value is known without a table: the value for
    /// the side to move there.
    Known(Probe),
    /// A slot of a table solved before.
    Read(&'t SubspaceTable, u64),
}

struct Solver<'a> {
    rules: Rules,
    mover: Mover,
    ix: Vec<Indexer>,
    state: Vec<States<AtomicU32>>,
    /// Only for pairs whose moves leave at distances other than 1 (`Lasker`
    /// placement pairs), per slot of a position not settled by the forward
    /// pass: the distance of its fastest win leaving the pair, or of its
    /// slowest loss leaving the pair (0: none).
    exit_plies: Vec<States<AtomicU16>>,
    /// Whether some move stays in the pair (else one forward pass solves it).
    cyclic: bool,
    lower: &'a Tablebases,
    members: Vec<Sector>,
    pool: &'a ThreadPool,
    /// Shows each pass's progress, after the title.
    progress: &'a Reporter,
    title: &'a str,
}

impl<'a> Solver<'a> {
    fn new(
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
    fn other(&self, t: usize) -> Option<usize> {
        let to = self.members[t].swapped();
        self.members.iter().position(|&s| s == to)
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
    fn solve(&self) -> Duration {
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
            let len = current.len();
            if len > 0 {
                let plies = d as u16;
                let message = format!("distance {d}");
                let found = self.pass(message, len as u64, len.div_ceil(CHUNK), |piece, worker| {
                    let chunk = &current[piece * CHUNK..len.min((piece + 1) * CHUNK)];
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
    fn exit(&self, me: u32, opp: u32, hands: (u8, u8)) -> Exit<'a> {
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
    fn leave(
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
                crate::rules::Blocked::Loss => self.settle(t, slot, stones, LOST_NOW, out),
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

    /// The forward pass over placement sector `t` when no move stays in it
    /// (not `Lasker`), grouped by the other side's stones: every quiet
    /// placement of a group leads into one block of the next sector's
    /// table, and every removal into one block per removed stone, so the
    /// reads stay in the caches (in slot order they fall all over those
    /// tables, a miss each). Each position class is written once, at its
    /// canonical slot; the slots no class reaches stay padding.
    fn placement_pass(&self, t: usize, message: String) {
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
                None if self.rules.blocked == crate::rules::Blocked::Loss => LOST_NOW.code() as u32,
                None => ONE,
            };
            v.store(code, Ordering::Relaxed);
        }
    }

    /// Stores a value found by the forward pass; in a pair with moves in
    /// it, the position's predecessors hear of it at its distance.
    /// `(mine, theirs)`: its stones.
    fn settle(&self, t: usize, slot: u64, (mine, theirs): (u32, u32), p: Probe, out: &mut Buckets) {
        self.state[t][slot as usize].store(p.code() as u32, Ordering::Relaxed);
        if self.cyclic {
            out.push(p.plies, entry(t, mine, theirs, p.value == Value::Loss));
        }
    }

    /// The first half of settling what follows from position `e` having
    /// been settled: its predecessors into `preds` (see `predecessors`;
    /// their states being loaded), and for `update_predecessors` their
    /// table, whether `e` is lost and the other side's stones in them;
    /// `None` when it has no predecessors.
    fn gather_predecessors(&self, e: Entry, preds: &mut Vec<u64>) -> Option<Settled> {
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
    fn update_predecessors(
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
fn least_image(set: u32, stab: u16) -> bool {
    let mut m = stab;
    while m != 0 {
        if index::apply_sym(m.trailing_zeros() as usize, set) < set {
            return false;
        }
        m &= m - 1;
    }
    true
}

const LOST_NOW: Probe = Probe {
    value: Value::Loss,
    plies: 0,
};

#[cfg(test)]
mod tests {
    use super::*;

    /// Results with distances at the edges of what the tables hold.
    fn probes() -> Vec<Probe> {
        let mut all = vec![Probe::DRAW];
        for plies in [0, 1, 2, 3, 7, 100, 255, 1000, Probe::NO_DISTANCE] {
            for value in [Value::Win, Value::Loss] {
                all.push(Probe { value, plies });
            }
        }
        all
    }

    /// The placement pass takes the best of its children by the greatest
    /// `exit_rank`: that must be `Exits`'s best, for every pair of results.
    #[test]
    fn exit_ranks_order_results_as_exits_does() {
        assert_eq!(ranked_exit(0), None);
        for a in probes() {
            assert_eq!(ranked_exit(exit_rank(a)), Some(a));
            for b in probes() {
                let mut exits = Exits::default();
                exits.add(a);
                exits.add(b);
                assert_eq!(
                    ranked_exit(exit_rank(a).max(exit_rank(b))),
                    exits.best(),
                    "{a:?} and {b:?}"
                );
            }
        }
    }

    /// Buckets merged from workers hold every entry at its distance.
    #[test]
    fn buckets_merge_by_distance() {
        let (mut a, mut b) = (Buckets::default(), Buckets::default());
        a.push(2, 20);
        b.push(0, 1);
        b.push(2, 21);
        b.push(5, 50);
        a.merge(b);
        assert_eq!(
            a.0,
            vec![vec![1], vec![], vec![20, 21], vec![], vec![], vec![50]]
        );
    }
}
