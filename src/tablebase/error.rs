//! The tablebase's errors.

use std::io;
use std::path::PathBuf;

use super::Subspace;

/// What went wrong reading, writing or building tables.
#[derive(Debug, thiserror::Error)]
pub enum TablebaseError {
    /// A table file could not be read, mapped or written.
    #[error("{}: {error}", path.display())]
    Io { path: PathBuf, error: io::Error },
    /// A table file is not the table it should be.
    #[error("{}: {problem}", path.display())]
    BadTable {
        path: PathBuf,
        problem: TableProblem,
    },
    #[error("expected a subspace like 5-4, not '{0}'")]
    SubspaceSyntax(String),
    #[error("subspace {0}: stone counts run from 3 to 12")]
    StoneCount(String),
    /// A table the one being solved depends on.
    #[error("table {0} is missing or damaged")]
    Missing(Subspace),
    #[error("cannot start the worker threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
}

/// Why a table file does not serve.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum TableProblem {
    #[error("not a morris tablebase file")]
    NotATable,
    #[error("format version {found}, expected {expected}")]
    Version { found: u32, expected: u32 },
    #[error("holds subspace {0}")]
    OtherSubspace(Subspace),
    #[error("made for other rules ({0})")]
    OtherRules(String),
    #[error("bad value width {0}")]
    Width(u8),
    #[error("truncated")]
    Truncated,
}
