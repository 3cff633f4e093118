//! The generator: runs over the plan of tables, one pair at a time (this
//! file), and the method of the solver of a pair (`solver` with
//! `predecessors`, `exits` and `buckets`; `placement_pass`).
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
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Instant;

use rayon::ThreadPool;
use rayon::prelude::*;

use crate::error::TablebaseError;
use crate::fingerprint::{Fingerprint, PlacementFingerprint};
use crate::format::codec::ValueLayout;
use crate::format::file::Header;
use crate::format::index::Indexer;
use crate::format::summary::Summary;
use crate::format::{atomic, file};
use crate::generator::plan::{dependencies, plan, up_to};
use crate::generator::solver::{CODE, PADDING, Solver};
use crate::probe::clock::at_clock_zero;
use crate::probe::tables::Tablebases;
use crate::progress::{Progress, Reporter};
use crate::sector::{Sector, Subspace};
use crate::value::{Probe, Value};
use morris_rules::Rules;

/// How to run the generator.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// Worker threads.
    pub threads: usize,
    /// Where each pass's progress and a line for each pair solved go.
    pub progress: Reporter,
    /// Store win/draw/loss only (`ValueLayout::Wdl`), a fifth of the disk:
    /// under move-count draws each position's value at clock 0 (as compact
    /// tables hold it), which is all that a table reading it needs, since
    /// removals and placements enter a table at clock 0.
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
    /// Its totals, as written into its header.
    pub summary: Summary,
    /// Its file's size on disk.
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
    crate::fingerprint::covers(rules)?;
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
    atomic::remove_stale_temporaries(&dir);
    let done = run.solve_all(&pairs, |lower, pair| {
        for dep in dependencies(&fp.rules(), pair[0]) {
            usable(lower, dep, true, TablebaseError::Missing)?;
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
        crate::fingerprint::placement_covers(rules)?;
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
    let plan = crate::generator::placement::plan(rules);
    {
        let lower = Tablebases::open(root, &prules);
        for &sub in &plan.movement {
            usable(&lower, sub, options.wdl, TablebaseError::MovementMissing)?;
        }
    }
    let text = fp.text();
    let run = Run::new(root, &dir, &text, &prules, options)?;
    atomic::remove_stale_temporaries(&dir);
    done.extend(run.solve_all(&plan.pairs, |lower, pair| {
        for dep in crate::generator::placement::dependencies(&prules, pair) {
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
        crate::fingerprint::placement_covers(rules)?;
        let dir = root.join(pfp.movement.dir_name()).join(pfp.dir_name());
        (dir, pfp.text(), pfp.rules())
    } else {
        crate::fingerprint::covers(rules)?;
        let dir = root.join(pfp.movement.dir_name());
        (dir, pfp.movement.text(), pfp.movement.rules())
    };
    let run = Run::new(root, &dir, &text, &rules, options)?;
    for &s in members {
        atomic::remove_temporaries_of(&file::table_path(&dir, s));
    }
    run.solve_all(&[members.to_vec()], |lower, pair| {
        let deps = if placing {
            crate::generator::placement::dependencies(&rules, pair)
        } else {
            dependencies(&rules, pair[0])
        };
        for dep in deps {
            usable(lower, dep, options.wdl || !placing, TablebaseError::Missing)?;
        }
        Ok(())
    })
}

/// Whether table `sub` can serve a run that stores distances or not
/// (`wdl`): it must be there whole, and have distances unless the run
/// stores none. A movement table's distance restarts at each removal, the
/// only move that leaves it, so movement tables are read with `wdl` true;
/// a placement's distance is counted through the tables it leads into.
fn usable(
    lower: &Tablebases,
    sub: Sector,
    wdl: bool,
    missing: fn(Sector) -> TablebaseError,
) -> Result<(), TablebaseError> {
    match lower.table(sub) {
        Some(t) if t.file.check_all() => {
            if !wdl && t.file.header.layout == ValueLayout::Wdl {
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
                .map(|&s| crate::generator::placement::slots(s))
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
                let (summary, bytes, layout) = self.pool.install(|| {
                    finish(
                        &solver.ix[t],
                        &solver.state[t],
                        self.wdl.then_some((&self.rules, sub)),
                    )
                });
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

/// The summary and file bytes of solved codes: with `wdl` (the rules and
/// the table's sector) the values at clock 0 without distances (the
/// summary too, which such a table cannot show). Runs on the caller's
/// pool: tables reach gigabytes.
fn finish(
    ix: &Indexer,
    codes: &[AtomicU32],
    wdl: Option<(&Rules, Sector)>,
) -> (Summary, Vec<u8>, ValueLayout) {
    let at_zero = |code: u32| match wdl {
        Some((rules, sector)) if code != PADDING => {
            at_clock_zero(rules, sector, Probe::from_code(code as u16)).code() as u32
        }
        _ => code,
    };
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
                let code = at_zero(code);
                max = max.max(code);
                let mut p = Probe::from_code(code as u16);
                if wdl.is_some() && p.value != Value::Draw {
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
        code => at_zero(code) as u16,
    };
    debug_assert_eq!(codes.len() as u64, ix.size());
    let layout = match (wdl.is_some(), max) {
        (true, _) => ValueLayout::Wdl,
        (false, 0..=255) => ValueLayout::Byte,
        (false, _) => ValueLayout::Word,
    };
    let bytes = if layout == ValueLayout::Byte {
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
