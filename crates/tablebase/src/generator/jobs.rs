//! The solution as jobs for a scheduler: one job for each group of tables
//! the generator solves together (a movement pair, a placement sector, a
//! `Lasker` pair), in `tb plan`'s order, with the jobs whose tables it
//! reads, what it costs, and the state of its tables on disk. A job is
//! the only writer of its tables, so jobs of one folder can run at the
//! same time on different machines sharing it.

use std::path::{Path, PathBuf};

use crate::error::TablebaseError;
use crate::fingerprint::PlacementFingerprint;
use crate::format::codec::ValueLayout;
use crate::format::file;
use crate::generator::coded::planes_path;
use crate::generator::generate;
use crate::generator::generate::{GenerateOptions, Generated, Phase};
use crate::generator::placement;
use crate::generator::plan;
use crate::generator::verify;
use crate::generator::verify::Checked;
use crate::probe::tables::Tablebases;
use crate::sector::Sector;
use morris_rules::Rules;

/// The staging folder of `tb generate --compact` under the tables' root.
pub const STAGING: &str = "compact-build";

/// One job: tables solved together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The tables it writes; the first names the job.
    pub tables: Vec<Sector>,
    /// The tables it reads.
    pub reads: Vec<Sector>,
    /// The jobs of the plan that write what it reads (all earlier ones).
    pub after: Vec<usize>,
}

impl Job {
    /// The job's name: its first table.
    pub fn name(&self) -> Sector {
        self.tables[0]
    }

    /// Slots of the tables it writes.
    pub fn slots(&self) -> u64 {
        self.tables.iter().map(|&s| placement::slots(s)).sum()
    }
}

/// A table's state on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableState {
    /// There, for these rules, and every block matches its checksum.
    Valid,
    /// There but unusable: why.
    Damaged(String),
    /// No file (for the compact solution's jobs: not coded yet).
    Missing,
}

/// What running a job did.
#[derive(Debug)]
pub enum Ran {
    /// Its tables were there and valid: nothing to do.
    Present,
    /// Its tables were built, then checked on `sample` sampled positions
    /// each (`Jobs::run`).
    Built {
        /// What generating each table did.
        generated: Vec<Generated>,
        /// Each table's check, in the order of `Job::tables`.
        checked: Vec<Checked>,
    },
}

/// The jobs of a solution: the plan of `tb plan` for a root folder.
#[derive(Clone, Debug)]
pub struct Jobs {
    root: PathBuf,
    rules: Rules,
    fingerprint: PlacementFingerprint,
    /// In solving order.
    pub list: Vec<Job>,
    /// Tables jobs read that no job of the plan writes: the movement
    /// tables, in a plan of the placement phase alone.
    pub outside: Vec<Sector>,
    /// The jobs of the compact solution (`plan_compact`): a job is done
    /// when its tables are coded.
    compact: bool,
}

impl Jobs {
    /// The jobs that solve `phase` of the game under `rules` into `root`.
    pub fn plan(root: &Path, rules: &Rules, phase: Phase) -> Result<Jobs, TablebaseError> {
        if phase == Phase::Movement {
            crate::fingerprint::covers(rules)?;
        } else {
            crate::fingerprint::placement_covers(rules)?;
        }
        let fingerprint = PlacementFingerprint::of(rules);
        let (mrules, prules) = (fingerprint.movement.rules(), fingerprint.rules());
        let mut groups: Vec<(Vec<Sector>, Vec<Sector>)> = Vec::new();
        if phase != Phase::Placement {
            for pair in plan::plan(rules, &plan::up_to(rules.pieces)) {
                let tables = if pair.mine == pair.theirs {
                    vec![pair]
                } else {
                    vec![pair, pair.swapped()]
                };
                groups.push((tables, plan::dependencies(&mrules, pair)));
            }
        }
        if phase != Phase::Movement {
            for pair in placement::plan(rules).pairs {
                let reads = placement::dependencies(&prules, &pair);
                groups.push((pair, reads));
            }
        }
        let mut list: Vec<Job> = Vec::new();
        let mut outside = Vec::new();
        for (tables, mut reads) in groups {
            reads.sort();
            reads.dedup();
            let mut after = Vec::new();
            for &r in &reads {
                match list.iter().position(|j| j.tables.contains(&r)) {
                    Some(i) => after.push(i),
                    None => outside.push(r),
                }
            }
            after.sort_unstable();
            after.dedup();
            list.push(Job {
                tables,
                reads,
                after,
            });
        }
        outside.sort();
        outside.dedup();
        Ok(Jobs {
            root: root.to_path_buf(),
            rules: *rules,
            fingerprint,
            list,
            outside,
            compact: false,
        })
    }

    /// The jobs of the compact solution of the game under `rules` under
    /// `root` (`tb generate --compact`): the whole game's, in the staging
    /// folder, each done when its tables are coded.
    pub fn plan_compact(root: &Path, rules: &Rules) -> Result<Jobs, TablebaseError> {
        Ok(Jobs {
            compact: true,
            ..Jobs::plan(&root.join(STAGING), rules, Phase::All)?
        })
    }

    /// Whether these are the jobs of the compact solution.
    pub fn compact(&self) -> bool {
        self.compact
    }

    /// The job that writes table `s`.
    pub fn find(&self, s: Sector) -> Result<usize, TablebaseError> {
        self.list
            .iter()
            .position(|j| j.tables.contains(&s))
            .ok_or(TablebaseError::NotInPlan(s))
    }

    /// The rules folder: the movement tables', holding the placement tables' folder.
    pub fn folder(&self) -> PathBuf {
        self.root.join(self.fingerprint.movement.dir_name())
    }

    /// The placement tables' folder, inside `folder`.
    pub fn placement_folder(&self) -> PathBuf {
        self.folder().join(self.fingerprint.dir_name())
    }

    /// The folder of table `s`'s file.
    pub fn dir(&self, s: Sector) -> PathBuf {
        if s.placing() {
            self.placement_folder()
        } else {
            self.folder()
        }
    }

    /// Table `s`'s file.
    pub fn path(&self, s: Sector) -> PathBuf {
        file::table_path(&self.dir(s), s)
    }

    /// Table `s`'s state on disk (every block of it read and checked; of
    /// the compact solution's jobs, whether it is coded).
    pub fn state(&self, s: Sector) -> TableState {
        if self.compact {
            return if planes_path(&self.dir(s), s).exists() {
                TableState::Valid
            } else {
                TableState::Missing
            };
        }
        let text = if s.placing() {
            self.fingerprint.text()
        } else {
            self.fingerprint.movement.text()
        };
        match file::TableFile::open(&self.path(s), s, &text) {
            Ok(t) if t.check_all() => TableState::Valid,
            Ok(_) => TableState::Damaged("its values do not match its checksum".to_string()),
            Err(TablebaseError::Io { error, .. })
                if error.kind() == std::io::ErrorKind::NotFound =>
            {
                TableState::Missing
            }
            Err(TablebaseError::BadTable { problem, .. }) => {
                TableState::Damaged(problem.to_string())
            }
            Err(e) => TableState::Damaged(e.to_string()),
        }
    }

    /// Whether every table of job `i` is there and valid.
    pub fn done(&self, i: usize) -> bool {
        self.list[i]
            .tables
            .iter()
            .all(|&s| self.state(s) == TableState::Valid)
    }

    /// Bytes of memory job `i` needs: 4 a slot of the tables it writes for
    /// their state while solving, up to 8 more for the positions queued by
    /// distance in a pair solved by distance, the tables it reads (mapped whole: their size on disk, or
    /// a byte a slot if not there yet) and 256 MiB for the rest.
    pub fn memory(&self, i: usize) -> u64 {
        let job = &self.list[i];
        let reads: u64 = job
            .reads
            .iter()
            .map(|&s| {
                std::fs::metadata(self.path(s)).map_or_else(
                    |_| {
                        file::file_len(
                            ValueLayout::Byte.bytes(placement::slots(s)).unwrap_or(0) as usize
                        )
                    },
                    |m| m.len(),
                )
            })
            .sum();
        // Only pairs solved by distance (movement, `Lasker`) queue positions.
        let per_slot = if job.tables.iter().all(|s| s.placing()) && !self.rules.lasker {
            4
        } else {
            12
        };
        per_slot * job.slots() + reads + (256 << 20)
    }

    /// Runs job `i`: builds its tables unless they are all there and
    /// valid, after checking that every table it reads is, then opens
    /// what it wrote again and recomputes `sample` random positions of
    /// each table from their successors. A table that fails that check is
    /// removed (`TablebaseError::Unverified`).
    pub fn run(
        &self,
        i: usize,
        options: &GenerateOptions,
        sample: u64,
    ) -> Result<Ran, TablebaseError> {
        let job = &self.list[i];
        let generated = generate::generate_pair(&self.root, &self.rules, &job.tables, options)?;
        if generated.is_empty() {
            return Ok(Ran::Present);
        }
        let rules = self.fingerprint.rules();
        let tbs = Tablebases::open(&self.root, &rules);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(options.threads.max(1))
            .build()?;
        let mut checked = Vec::new();
        for &s in &job.tables {
            let c = verify::check_table(&tbs, &rules, &pool, s, Some(sample));
            if !c.ok() {
                drop(tbs);
                for &t in &job.tables {
                    let _ = std::fs::remove_file(self.path(t));
                }
                let detail = c.examples.first().cloned().unwrap_or_default();
                return Err(TablebaseError::Unverified {
                    table: s,
                    mismatches: c.mismatches,
                    detail,
                });
            }
            checked.push(c);
        }
        Ok(Ran::Built { generated, checked })
    }
}
