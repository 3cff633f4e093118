//! Errors of the files the tools read (openings, positions to analyse):
//! each names the file and, where there is one, the line.

use super::records::record::RecordError;
use crate::rules::{Outcome, SetupError};

/// A position or opening that cannot be used.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum EntryError {
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("the game is already over ({0})")]
    Over(Outcome),
}

/// A file (or standard input) that cannot be used, and where.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{name}: {source}")]
    Read {
        name: String,
        source: std::io::Error,
    },
    #[error("{name}: {source}")]
    Record { name: String, source: RecordError },
    /// An entry of a game record, which starts on `line`.
    #[error("{name}: game at line {line}: {source}")]
    Game {
        name: String,
        line: usize,
        source: EntryError,
    },
    #[error("{name}: line {line}: {source}")]
    Line {
        name: String,
        line: usize,
        source: EntryError,
    },
    /// Nothing to use: `what` names what was looked for.
    #[error("{name}: no {what} found")]
    Empty { name: String, what: &'static str },
}
