//! The tablebase's errors.

use std::collections::HashSet;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::sector::Subspace;

/// What went wrong reading, writing or building tables.
#[derive(Debug, thiserror::Error)]
pub enum TablebaseError {
    /// A table file could not be read, mapped, written or removed, or a
    /// lock file or a folder of the tables (the rules folder, the staging
    /// folder) could not be made, read or removed.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file or folder the operation was on.
        path: PathBuf,
        /// What the system reported.
        error: io::Error,
    },
    /// A table file is not the table it should be.
    #[error("{}: {problem}", path.display())]
    BadTable {
        /// The table file (full, compact or coded planes).
        path: PathBuf,
        /// What is wrong with it.
        problem: TableProblem,
    },
    /// A table the one being solved depends on.
    #[error("table {0} is missing or damaged")]
    Missing(Subspace),
    /// A movement table the placement tables lead into.
    #[error(
        "movement table {0} is missing or damaged: make the movement tables first \
         (morris tb generate --phase movement, same rules and options)"
    )]
    MovementMissing(Subspace),
    /// A table with no distances under a run that stores them.
    #[error(
        "table {0} stores win/draw/loss only: the tables above it need its distances \
         (generate them with --wdl too, or remove it and generate it again)"
    )]
    NoDistances(Subspace),
    /// Compact movement tables under move-count draws are coded from
    /// values with distances.
    #[error(
        "table {0} stores win/draw/loss only: under the move-count draws a compact movement \
         table is made from a table with distances (morris tb generate without --wdl)"
    )]
    CompactNeedsDistances(Subspace),
    /// `--wdl` with a move-count draw limit, whose draws depend on the distance.
    #[error(
        "win/draw/loss-only tables need EndgameMoves=0 and NoCaptureMoves=0: \
         under a move-count limit a value depends on the distance"
    )]
    WdlWithDrawLimits,
    /// A table no job of the plan writes.
    #[error("{0} is not a table of these rules' plan (`morris tb plan` lists them)")]
    NotInPlan(Subspace),
    /// A table written and then found wrong on recomputing some positions.
    #[error(
        "table {table} was written but {mismatches} sampled positions disagree with their \
         successors ({detail}); its files were removed: run the job again, and report it \
         if it fails again"
    )]
    Unverified {
        /// The table that failed the check (every table of its job is
        /// removed).
        table: Subspace,
        /// The sampled positions whose stored value differs from the one
        /// recomputed from their successors.
        mismatches: u64,
        /// The first mismatch described (the position, its stored value
        /// and what its successors give), or why the table cannot be used.
        detail: String,
    },
    /// The rules are ones the tables do not hold under (`covers`, or
    /// `placement_covers` for the placement tables).
    #[error(transparent)]
    NotCovered(#[from] crate::fingerprint::NotCovered),
    /// The slot states of the tables being solved did not fit in memory.
    #[error("not enough memory for the states of the tables being solved")]
    OutOfMemory,
    /// The pool of worker threads could not be built.
    #[error("cannot start the worker threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
}

/// Why a table file does not serve.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum TableProblem {
    /// The file is shorter than a header or does not start with the magic
    /// of its kind of file.
    #[error("not a morris tablebase file")]
    NotATable,
    /// The file is in a format version this build does not read.
    #[error("format version {found}, expected {expected}")]
    Version {
        /// The version the file is in.
        found: u32,
        /// The version this build reads.
        expected: u32,
    },
    /// The header names another sector (held here) than the one looked for.
    #[error("holds subspace {0}")]
    OtherSubspace(Subspace),
    /// The header's fingerprint text (held here) is not that of the rules
    /// the table was opened for.
    #[error("made for other rules ({0})")]
    OtherRules(String),
    /// The header's value-layout tag (held here) is no `ValueLayout`.
    #[error("bad value width {0}")]
    Width(u8),
    /// The file's length or layout does not agree with its header (cut
    /// short, or bytes to spare).
    #[error("truncated")]
    Truncated,
    /// Some bytes do not match the checksum kept for them (or a compact
    /// or planes file's layout does not hold together).
    #[error("its values do not match its checksum")]
    Checksum,
}

/// A table file on disk that is not used, as the engine reports it.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("tablebase {} is damaged ({problem}); searching without it", path.display())]
pub struct TableFault {
    /// The table file.
    pub path: PathBuf,
    /// What is wrong with it (a `TableProblem`, or why it cannot be read).
    pub problem: String,
}

impl TableFault {
    /// The fault of an error opening a table (`None` for other errors).
    pub fn of(error: &TablebaseError) -> Option<TableFault> {
        let (path, problem) = match error {
            TablebaseError::Io { path, error } => (path, error.to_string()),
            TablebaseError::BadTable { path, problem } => (path, problem.to_string()),
            TablebaseError::Missing(_)
            | TablebaseError::MovementMissing(_)
            | TablebaseError::CompactNeedsDistances(_)
            | TablebaseError::NoDistances(_)
            | TablebaseError::WdlWithDrawLimits
            | TablebaseError::NotInPlan(_)
            | TablebaseError::Unverified { .. }
            | TablebaseError::NotCovered(_)
            | TablebaseError::OutOfMemory
            | TablebaseError::Threads(_) => return None,
        };
        Some(TableFault {
            path: path.clone(),
            problem,
        })
    }
}

/// The table faults found and not yet reported, each file once: filled
/// when a table is first opened (never on the probe path), drained by
/// whoever tells the user.
#[derive(Default, Debug)]
pub struct Faults(Mutex<FaultLog>);

#[derive(Default, Debug)]
struct FaultLog {
    seen: HashSet<PathBuf>,
    pending: Vec<TableFault>,
}

impl Faults {
    /// Records a fault unless its file was reported before.
    pub fn report(&self, fault: TableFault) {
        let mut log = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if log.seen.insert(fault.path.clone()) {
            log.pending.push(fault);
        }
    }

    /// The faults not handed out yet.
    pub fn take(&self) -> Vec<TableFault> {
        let mut log = self.0.lock().unwrap_or_else(|e| e.into_inner());
        std::mem::take(&mut log.pending)
    }

    /// Forgets a file (rebuilt): a new fault in it is reported again.
    pub(crate) fn forget(&self, path: &Path) {
        let mut log = self.0.lock().unwrap_or_else(|e| e.into_inner());
        log.seen.remove(path);
    }
}
