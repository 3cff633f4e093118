//! Building the small tables without being asked: the engine (and
//! `morris analyze`) make the tables for the current rules up to a stone
//! count when they are missing or unusable, one pair at a time in
//! dependency order, on one thread at low priority, so a search can use
//! each table as soon as it is written.
//!
//! Several processes sharing a folder build each table once: a pair is
//! built only under its lock file (`5-4.lock`, created exclusively, holding
//! the builder's process id); the others wait for the table to appear. A
//! lock whose process is gone, or older than `STALE_AFTER`, is taken over.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::error::{Faults, TableFault, TableProblem, TablebaseError};
use crate::fingerprint::Fingerprint;
use crate::format::file::{TableFile, table_path};
use crate::generator::generate::{GenerateOptions, generate};
use crate::generator::plan::{plan, up_to};
use crate::sector::Subspace;
use morris_rules::Rules;

/// The default largest stone count a side to build.
const DEFAULT_MAX: u8 = 5;
/// The largest stone count a side a table has.
pub const MAX: u8 = 12;
/// A lock older than this is taken over even if its process seems alive
/// (its id may have been reused).
const STALE_AFTER: Duration = Duration::from_secs(12 * 3600);
/// How often a process waiting for another's table looks again.
const POLL: Duration = Duration::from_millis(100);

/// The default of `TablebaseAuto`: `$MORRIS_TB_AUTO` when it holds a
/// number (the test suite sets 0), else `DEFAULT_MAX`.
pub fn default_max() -> u8 {
    std::env::var("MORRIS_TB_AUTO")
        .ok()
        .and_then(|v| v.trim().parse::<u8>().ok())
        .map_or(DEFAULT_MAX, |n| n.min(MAX))
}

/// The largest stone count a side worth building for `rules` when `max` is
/// asked: none (0) under `MillReform` or rules the tables do not cover
/// (`covers`), or when `max` is below 3 (the smallest table is 3 against
/// 3); never more than the pieces a side has.
pub fn effective_max(rules: &Rules, max: u8) -> u8 {
    if rules.mill_reform || max < 3 || crate::fingerprint::covers(rules).is_err() {
        0
    } else {
        max.min(rules.pieces)
    }
}

/// What a build reports as it goes.
#[derive(Debug)]
pub enum Event {
    /// Some tables are missing: building starts (once per build).
    Started {
        /// The rules folder the tables go into.
        dir: PathBuf,
        /// The largest stone count a side to build (`effective_max`).
        max: u8,
    },
    /// A table on disk is unusable (it is rebuilt).
    Fault(TableFault),
    /// A table is usable now, built here or by another process.
    Ready(Subspace),
    /// Every table is there (only after `Started`): how many were
    /// missing, their size, and how many of them this process built.
    Finished {
        /// The largest stone count a side built, as in `Started`.
        max: u8,
        /// Tables that were missing or unusable and are ready now.
        tables: usize,
        /// Their total size on disk.
        bytes: u64,
        /// Tables this process generated.
        built_here: usize,
        /// Wall time of the whole build, from its first check of the disk.
        seconds: f64,
    },
    /// Building stopped; the tables made so far are used.
    Failed(TablebaseError),
}

/// Builds the tables for `rules` with up to `max` stones a side that are
/// missing from `root` or unusable, until done, failed or `cancel`led.
pub fn build(
    root: &Path,
    rules: &Rules,
    max: u8,
    faults: &Faults,
    cancel: &AtomicBool,
    mut event: impl FnMut(Event),
) {
    let max = effective_max(rules, max);
    if max == 0 {
        return;
    }
    let fp = Fingerprint::of(rules);
    let dir = root.join(fp.dir_name());
    let fp_text = fp.text();
    let usable = |s: Subspace| {
        let path = table_path(&dir, s);
        match TableFile::open(&path, s, &fp_text) {
            // A large table is checked whole here, in the background.
            Ok(table) if table.check_all() => true,
            Ok(_) => {
                faults.report(TableFault {
                    path,
                    problem: TableProblem::Checksum.to_string(),
                });
                false
            }
            Err(e) => {
                if path.exists()
                    && let Some(fault) = TableFault::of(&e)
                {
                    faults.report(fault);
                }
                false
            }
        }
    };
    let start = Instant::now();
    let (mut started, mut tables, mut bytes, mut built_here) = (false, 0, 0, 0);
    for pair in plan(&fp.rules(), &up_to(max)) {
        let members = if pair.mine == pair.theirs {
            vec![pair]
        } else {
            vec![pair, pair.swapped()]
        };
        let missing: Vec<Subspace> = members.into_iter().filter(|&s| !usable(s)).collect();
        if missing.is_empty() {
            continue;
        }
        if !started {
            started = true;
            event(Event::Started {
                dir: dir.clone(),
                max,
            });
        }
        for fault in faults.take() {
            event(Event::Fault(fault));
        }
        if let Err(error) = fs::create_dir_all(&dir) {
            return event(Event::Failed(TablebaseError::Io { path: dir, error }));
        }
        let lock_path = dir.join(format!("{pair}.lock"));
        loop {
            if cancel.load(Ordering::Relaxed) {
                return;
            }
            match Lock::acquire(&lock_path) {
                Err(error) => {
                    return event(Event::Failed(TablebaseError::Io {
                        path: lock_path,
                        error,
                    }));
                }
                Ok(None) => {
                    std::thread::sleep(POLL);
                    if missing.iter().all(|&s| usable(s)) {
                        break;
                    }
                }
                Ok(Some(_lock)) => {
                    // Whatever another process finished meanwhile is kept.
                    let options = GenerateOptions {
                        threads: 1,
                        wdl: false,
                        ..GenerateOptions::default()
                    };
                    match generate(root, rules, &[pair], &options) {
                        Ok(made) => built_here += made.len(),
                        Err(e) => return event(Event::Failed(e)),
                    }
                    break;
                }
            }
        }
        for s in missing {
            let path = table_path(&dir, s);
            bytes += fs::metadata(&path).map_or(0, |m| m.len());
            tables += 1;
            faults.forget(&path);
            event(Event::Ready(s));
        }
    }
    if started {
        event(Event::Finished {
            max,
            tables,
            built_here,
            bytes,
            seconds: start.elapsed().as_secs_f64(),
        });
    }
}

/// A build in a background thread, cancelled when dropped (it stops after
/// the pair it is solving).
pub struct Background {
    cancel: Arc<AtomicBool>,
    ready: Arc<AtomicUsize>,
}

impl Background {
    /// Starts `build` in a thread of its own at low priority.
    pub fn spawn(
        root: PathBuf,
        rules: Rules,
        max: u8,
        faults: Arc<Faults>,
        mut event: impl FnMut(Event) + Send + 'static,
    ) -> io::Result<Background> {
        let cancel = Arc::new(AtomicBool::new(false));
        let ready = Arc::new(AtomicUsize::new(0));
        let (c, r) = (Arc::clone(&cancel), Arc::clone(&ready));
        std::thread::Builder::new()
            .name("tablebase-auto".into())
            .spawn(move || {
                lower_priority();
                build(&root, &rules, max, &faults, &c, |e| {
                    if let Event::Ready(_) = e {
                        r.fetch_add(1, Ordering::SeqCst);
                    }
                    event(e);
                });
            })?;
        Ok(Background { cancel, ready })
    }

    /// How many tables have become usable since the start: when it
    /// changes, a `Tablebases::refreshed` sees more.
    pub fn ready(&self) -> usize {
        self.ready.load(Ordering::SeqCst)
    }
}

impl Drop for Background {
    fn drop(&mut self) {
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// The lowest scheduling priority for the calling thread (and the worker
/// threads it starts, which inherit it), so building never slows a search.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: plain system calls on the calling thread's own id.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 19);
    }
}

/// A held lock file, removed when dropped.
struct Lock(PathBuf);

impl Lock {
    /// Takes the lock at `path`: `None` while another live process holds it.
    fn acquire(path: &Path) -> io::Result<Option<Lock>> {
        for _ in 0..2 {
            match OpenOptions::new().write(true).create_new(true).open(path) {
                Ok(mut f) => {
                    let lock = Lock(path.to_path_buf());
                    writeln!(f, "{}", std::process::id())?;
                    return Ok(Some(lock));
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                    if !stale(path) {
                        return Ok(None);
                    }
                    let _ = fs::remove_file(path);
                }
                Err(e) => return Err(e),
            }
        }
        Ok(None)
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
    }
}

/// Whether the lock at `path` is left from a process that is gone.
fn stale(path: &Path) -> bool {
    let age = fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.elapsed().ok())
        .unwrap_or_default();
    match fs::read_to_string(path).map(|t| t.trim().parse::<u32>()) {
        Ok(Ok(pid)) => !crate::format::atomic::process_alive(pid) || age > STALE_AFTER,
        // Just created, the id not written yet; or unreadable for long.
        Ok(Err(_)) | Err(_) => age > Duration::from_secs(10),
    }
}

impl Event {
    /// The line telling the user (`None` for `Ready`); an error starts
    /// with `error: `.
    pub fn message(&self) -> Option<String> {
        Some(match self {
            Event::Started { dir, max } => format!(
                "tablebase: building the missing tables up to {max} stones a side in {}",
                dir.display()
            ),
            Event::Fault(fault) => format!("error: {fault}"),
            Event::Ready(_) => return None,
            Event::Finished {
                max,
                tables,
                bytes,
                built_here,
                seconds,
            } => format!(
                "tablebase: the tables up to {max} stones a side are ready after {seconds:.1} s: \
                 {tables} tables, {:.1} MB, {built_here} built here",
                *bytes as f64 / 1e6
            ),
            Event::Failed(e) => {
                format!("error: tablebase: cannot build the tables ({e}); playing on without them")
            }
        })
    }
}
