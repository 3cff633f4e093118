//! `tb generate --compact`: the compact solution of the whole game in one
//! resumable run, without ever holding the full solution on disk.
//!
//! The jobs of the plan (`Jobs`: movement pairs, then placement sectors,
//! each after the tables it reads) are solved one by one into a staging
//! folder (`STAGING` under the root) as win/draw/loss tables (under
//! move-count draws, values at clock 0: all that the tables above read,
//! since a removal or a placement enters a table at clock 0). Each table
//! solved is coded at once into its planes (`coded`, a `.mtp` file), and a
//! full table is deleted as soon as every table that reads it has its
//! planes. Under move-count draws a movement table's planes hold its
//! values with the clock not applied and the positions the clock draws
//! (`compress`), so a movement pair is solved with distances, coded, and
//! only then stored as its values at clock 0. Then the kinds of all
//! tables are chosen together from the planes' sizes, each compact table
//! is written from its planes into the rules folder, and the staging
//! folder is removed.
//!
//! Each step's output is written atomically and each step is skipped when
//! its output is there, so a run killed at any moment loses at most the
//! table in progress; the planes, the kinds and so the compact files are
//! the same as an uninterrupted run's (the coding is deterministic).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rayon::prelude::*;

use crate::error::TablebaseError;
use crate::fingerprint::PlacementFingerprint;
use crate::format::codec::ValueLayout;
use crate::format::compact::Kind;
use crate::format::file::{Header, write_table};
use crate::format::summary::Summary;
use crate::generator::coded::{Coded, code_planes, planes_path};
use crate::generator::compress::{Compressed, choose_kinds, write_kind};
use crate::generator::generate::{GenerateOptions, Phase, generate_pair};
use crate::generator::jobs::{Jobs, STAGING};
use crate::probe::clock::at_clock_zero;
use crate::probe::tables::{SubspaceTable, Tablebases};
use crate::progress::{Progress, Reporter};
use crate::sector::Sector;
use crate::value::{Probe, Value};
use morris_rules::Rules;

/// What a finished run made.
#[derive(Clone, Debug)]
pub struct Solution {
    /// Every compact table written, in the plan's order.
    pub tables: Vec<Compressed>,
    /// Tables solved by this run (not found solved or coded by an earlier one).
    pub solved: usize,
}

/// The state of the compact solution of some rules on disk (`tb status`).
#[derive(Clone, Debug)]
pub struct SolutionState {
    /// The tables of the plan.
    pub tables: usize,
    /// Those whose compact table is there, whole, and its bytes.
    pub present: usize,
    /// Their compact files' total size on disk.
    pub bytes: u64,
    /// Those missing or damaged.
    pub missing: Vec<Sector>,
    /// Tables solved and coded by an unfinished `tb generate --compact`.
    pub coded: usize,
}

impl SolutionState {
    /// Whether every table of the plan is there and whole.
    pub fn whole(&self) -> bool {
        self.missing.is_empty()
    }
}

/// The compact solution of the game under `rules` (from its start, as
/// `Jobs::plan` with `Phase::All`): which tables are there and whole.
pub fn solution_state(root: &Path, rules: &Rules) -> Result<SolutionState, TablebaseError> {
    let jobs = Jobs::plan(root, rules, Phase::All)?;
    let staged = Jobs::plan(&root.join(STAGING), rules, Phase::All)?;
    let tbs = Tablebases::open(root, &PlacementFingerprint::of(rules).rules());
    let mut state = SolutionState {
        tables: 0,
        present: 0,
        bytes: 0,
        missing: Vec::new(),
        coded: 0,
    };
    for s in jobs.list.iter().flat_map(|j| j.tables.iter().copied()) {
        state.tables += 1;
        match tbs.compact(s).filter(|c| c.file.check_all()) {
            Some(c) => {
                state.present += 1;
                state.bytes += c.file.len() as u64;
            }
            None => state.missing.push(s),
        }
        state.coded += planes_path(&staged.dir(s), s).exists() as usize;
    }
    Ok(state)
}

/// The number of tables of the compact solution of the game under
/// `rules` whose file is under `root`, and of tables in its plan, looked
/// up without reading any (for a front end's word on what it plays from);
/// `None` for rules the tables do not cover.
pub fn solution_files(root: &Path, rules: &Rules) -> Option<(usize, usize)> {
    let jobs = Jobs::plan(root, rules, Phase::All).ok()?;
    let all = jobs.list.iter().flat_map(|j| j.tables.iter());
    let present = all
        .clone()
        .filter(|&&s| crate::format::compact::compact_path(&jobs.dir(s), s).exists())
        .count();
    Some((present, all.count()))
}

/// Builds the compact solution of the game under `rules` under `root`
/// (see the module's comment), on `options.threads` threads, reporting to
/// `options.progress` (`options.wdl` is not read: the staged tables never
/// hold distances for long).
pub fn build_solution(
    root: &Path,
    rules: &Rules,
    options: &GenerateOptions,
) -> Result<Solution, TablebaseError> {
    let build = Build::new(root, rules)?;
    let state = solution_state(root, rules)?;
    if state.whole() && state.coded == 0 {
        return Ok(Solution {
            tables: Vec::new(),
            solved: 0,
        });
    }
    let steps = Steps::new(&options.progress, &build.jobs, &|s| build.coded(s));
    let mut solved = 0;
    for i in 0..build.jobs.list.len() {
        solved += build.job(i, options, &steps)?;
    }
    let tables = build.assemble(&steps)?;
    Ok(Solution { tables, solved })
}

/// One job of the compact solution's plan (`Jobs::plan_compact`), named
/// by one of its tables, for a scheduler: its tables solved and coded
/// (the tables it reads must be there), and the tables no job still to
/// come reads deleted. The number of tables solved (0 when they were
/// coded already).
pub fn build_solution_job(
    root: &Path,
    rules: &Rules,
    name: Sector,
    options: &GenerateOptions,
) -> Result<usize, TablebaseError> {
    let build = Build::new(root, rules)?;
    let i = build.jobs.find(name)?;
    let steps = Steps::new(&options.progress, &build.jobs, &|s| build.coded(s));
    build.job(i, options, &steps)
}

/// A run's plan and folders.
struct Build<'a> {
    root: &'a Path,
    rules: &'a Rules,
    /// The generator's rules (`PlacementFingerprint::rules`).
    prules: Rules,
    fingerprint: PlacementFingerprint,
    staging: PathBuf,
    /// The plan in the staging folder, and in the rules folder.
    jobs: Jobs,
    finals: Jobs,
    /// Which jobs read each table.
    readers: HashMap<Sector, Vec<usize>>,
}

impl<'a> Build<'a> {
    fn new(root: &'a Path, rules: &'a Rules) -> Result<Build<'a>, TablebaseError> {
        let staging = root.join(STAGING);
        let jobs = Jobs::plan(&staging, rules, Phase::All)?;
        let mut readers: HashMap<Sector, Vec<usize>> = HashMap::new();
        for (i, j) in jobs.list.iter().enumerate() {
            for &r in &j.reads {
                readers.entry(r).or_default().push(i);
            }
        }
        Ok(Build {
            root,
            rules,
            prules: PlacementFingerprint::of(rules).rules(),
            fingerprint: PlacementFingerprint::of(rules),
            finals: Jobs::plan(root, rules, Phase::All)?,
            staging,
            jobs,
            readers,
        })
    }

    fn text(&self, s: Sector) -> String {
        if s.placing() {
            self.fingerprint.text()
        } else {
            self.fingerprint.movement.text()
        }
    }

    fn planes(&self, s: Sector) -> PathBuf {
        planes_path(&self.jobs.dir(s), s)
    }

    fn coded(&self, s: Sector) -> bool {
        self.planes(s).exists()
    }

    /// Job `i`: solved unless its tables are coded, coded, under the
    /// move-count draws its movement tables stored at clock 0, then the
    /// tables no job still to come reads deleted. The tables solved.
    fn job(
        &self,
        i: usize,
        options: &GenerateOptions,
        steps: &Steps,
    ) -> Result<usize, TablebaseError> {
        let job = &self.jobs.list[i];
        if job.tables.iter().all(|&s| self.coded(s)) {
            return Ok(0);
        }
        let phase = if job.tables[0].placing() {
            "placement sectors"
        } else {
            "movement tables"
        };
        let names = job
            .tables
            .iter()
            .map(Sector::to_string)
            .collect::<Vec<_>>()
            .join(" + ");
        steps.start(phase, i, &names);
        // Under the move-count draws a movement table is coded from its
        // distances, then stored at clock 0.
        let wdl = !self.rules.move_count_draws() || job.tables[0].placing();
        let quiet = GenerateOptions {
            threads: options.threads,
            progress: steps.inner(),
            wdl,
        };
        let solved = generate_pair(&self.staging, self.rules, &job.tables, &quiet)?.len();
        let tbs = Tablebases::open(&self.staging, &self.prules);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads.max(1))
            .build()?;
        for &s in &job.tables {
            let table = tbs
                .table(s)
                .filter(|t| t.file.check_all())
                .ok_or(TablebaseError::Missing(s))?;
            if !self.coded(s) {
                let c = pool.install(|| code_planes(table, s, &self.prules))?;
                c.write(&self.planes(s), s, &self.text(s))?;
            }
            if !wdl && table.file.header.layout != ValueLayout::Wdl {
                pool.install(|| store_at_clock_zero(&self.jobs.path(s), table, s, &self.prules))?;
            }
        }
        drop(tbs);
        steps.done(i, &names, job.slots());
        for &r in job.reads.iter().chain(&job.tables) {
            let read_by = self.readers.get(&r).map_or(&[][..], Vec::as_slice);
            if self.coded(r)
                && read_by
                    .iter()
                    .all(|&k| self.jobs.list[k].tables.iter().all(|&t| self.coded(t)))
            {
                remove(&self.jobs.path(r))?;
            }
        }
        Ok(solved)
    }

    /// The kinds of all tables chosen from their planes' sizes, each
    /// compact table written, the staging folder removed.
    fn assemble(&self, steps: &Steps) -> Result<Vec<Compressed>, TablebaseError> {
        let sectors: Vec<Sector> = self
            .jobs
            .list
            .iter()
            .flat_map(|j| j.tables.iter().copied())
            .collect();
        steps.phase("choosing each table's planes");
        let mut sizes = HashMap::new();
        for &s in &sectors {
            let c = Coded::read(&self.planes(s), s, &self.text(s))?;
            sizes.insert(s, c.kind_bytes());
        }
        let kinds: HashMap<Sector, Kind> = choose_kinds(&sectors, &sizes, self.rules.lasker);
        steps.phase("writing the compact tables");
        let mut tables = Vec::new();
        for &s in &sectors {
            let c = Coded::read(&self.planes(s), s, &self.text(s))?;
            let path = crate::format::compact::compact_path(&self.finals.dir(s), s);
            tables.push(write_kind(&path, s, &c, kinds[&s], &self.text(s))?);
        }
        remove_dir(&self.jobs.folder())?;
        let _ = std::fs::remove_dir(&self.staging);
        let _ = self.root;
        steps.finished();
        Ok(tables)
    }
}

/// Writes `table` (sector `sector`'s, with distances) again at `path` as
/// its win/draw/loss values at clock 0 (`at_clock_zero`): what the tables
/// entering it (by a removal or the last placement) read.
fn store_at_clock_zero(
    path: &Path,
    table: &SubspaceTable,
    sector: Sector,
    rules: &Rules,
) -> Result<(), TablebaseError> {
    let at_zero = |slot: u64| {
        let stored = Probe::from_code(table.file.code(slot).unwrap_or(0));
        at_clock_zero(rules, sector, stored)
    };
    let summary = (0..table.index.classes())
        .into_par_iter()
        .map(|class| {
            let mut s = Summary::default();
            table
                .index
                .for_each_in_class(class, |slot, _, _, canonical| {
                    if canonical {
                        let mut p = at_zero(slot);
                        if p.value != Value::Draw {
                            p.plies = Probe::NO_DISTANCE;
                        }
                        s.count(p);
                    }
                });
            s
        })
        .reduce(Summary::default, |mut a, b| {
            a.merge(&b);
            a
        });
    let size = table.index.size();
    let bytes = ValueLayout::Wdl.encode((0..size as usize).map(|slot| at_zero(slot as u64).code()));
    let header = Header {
        subspace: sector,
        layout: ValueLayout::Wdl,
        slots: size,
        checksum: 0, // set by write_table
        summary,
        fingerprint: table.file.header.fingerprint.clone(),
    };
    write_table(path, header, &bytes)
}

/// Seconds as `h:mm:ss`.
fn clock(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    format!("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
}

fn remove(path: &Path) -> Result<(), TablebaseError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(TablebaseError::Io {
            path: path.to_path_buf(),
            error: e,
        }),
        _ => Ok(()),
    }
}

fn remove_dir(path: &PathBuf) -> Result<(), TablebaseError> {
    match std::fs::remove_dir_all(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(TablebaseError::Io {
            path: path.clone(),
            error: e,
        }),
        _ => Ok(()),
    }
}

/// The run's progress: a line for each table done with the share of the
/// slots done and the time left (from this run's pace), and the
/// generator's pass bars titled with the job and that estimate.
struct Steps<'a> {
    to: &'a Reporter,
    /// The title of the job under way, for the generator's bars.
    title: Arc<Mutex<String>>,
    start: Instant,
    jobs: usize,
    total: u64,
    /// Slots coded before this run, and by it.
    before: u64,
    done: Mutex<u64>,
}

impl<'a> Steps<'a> {
    fn new(to: &'a Reporter, jobs: &Jobs, coded: &dyn Fn(Sector) -> bool) -> Steps<'a> {
        let slots = |s: &Sector| crate::generator::placement::slots(*s);
        let all = jobs.list.iter().flat_map(|j| j.tables.iter());
        Steps {
            to,
            title: Arc::default(),
            start: Instant::now(),
            jobs: jobs.list.len(),
            total: all.clone().map(slots).sum(),
            before: all.filter(|&&s| coded(s)).map(slots).sum(),
            done: Mutex::new(0),
        }
    }

    /// The reporter the generator gets: its passes under the job's title,
    /// its own lines left out (this run says when a table is done).
    fn inner(&self) -> Reporter {
        let (to, title) = (self.to.clone(), Arc::clone(&self.title));
        Reporter::new(move |p| {
            if let Progress::Pass { title: pass, len } = p {
                let job = title.lock().expect("title").clone();
                // Past the generator's own count and names of its pair
                // ("[1/1] 4-3 + 3-4 "): the pass.
                let pass = pass
                    .find(|c: char| c.is_ascii_alphabetic())
                    .map_or(pass, |at| &pass[at..]);
                to.report(Progress::Pass {
                    title: &format!("{job}: {pass}"),
                    len,
                });
            } else if let Progress::Advanced(n) = p {
                to.report(Progress::Advanced(n));
            }
        })
    }

    fn phase(&self, what: &str) {
        *self.title.lock().expect("title") = what.to_string();
        self.to
            .report(Progress::Done(&format!("compact solution: {what}")));
    }

    fn eta(&self) -> String {
        let done = *self.done.lock().expect("done");
        let left = self.total - self.before - done.min(self.total - self.before);
        if done == 0 {
            return "unknown".to_string();
        }
        clock(self.start.elapsed().as_secs_f64() / done as f64 * left as f64)
    }

    /// Job `job` (`names`, of the `phase`) starts.
    fn start(&self, phase: &str, job: usize, names: &str) {
        *self.title.lock().expect("title") = format!(
            "[{phase} {}/{}, eta {}] {names}",
            job + 1,
            self.jobs,
            self.eta()
        );
    }

    /// Job `job` (`names`, with `slots` slots) is solved and coded.
    fn done(&self, job: usize, names: &str, slots: u64) {
        let done = {
            let mut done = self.done.lock().expect("done");
            *done += slots;
            self.before + *done
        };
        self.to.report(Progress::Done(&format!(
            "[{}/{}] {names} solved and coded: {:.1}% of the slots done, {} elapsed, eta {}",
            job + 1,
            self.jobs,
            100.0 * done as f64 / self.total.max(1) as f64,
            clock(self.start.elapsed().as_secs_f64()),
            self.eta()
        )));
    }

    fn finished(&self) {
        self.to.report(Progress::Finished);
    }
}
