//! Errors of the files the tools read (openings, positions to analyse):
//! each names the file and, where there is one, the line.

use super::records::record::RecordError;
use crate::rules::{Outcome, SetupError};

/// A position or opening that cannot be used.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum EntryError {
    /// The position string or a move cannot be read, or cannot be played
    /// under the rules.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// The set-up ends the game: an opening must leave something to play.
    #[error("the game is already over ({0})")]
    Over(Outcome),
}

/// A file (or standard input) that cannot be used, and where.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The file cannot be read.
    #[error("{name}: {source}")]
    Read {
        /// The file's path, as the message shows it.
        name: String,
        /// Why reading failed.
        source: std::io::Error,
    },
    /// A game record in it cannot be read or replayed (or, for
    /// `analyze --out`, written in the dialect asked for).
    #[error("{name}: {source}")]
    Record {
        /// The file's path, or `standard input`.
        name: String,
        /// The line and what is wrong there.
        source: RecordError,
    },
    /// An entry of a game record, which starts on `line`.
    #[error("{name}: game at line {line}: {source}")]
    Game {
        /// The file's path.
        name: String,
        /// The line its record starts on, from 1.
        line: usize,
        /// Why its opening cannot be used.
        source: EntryError,
    },
    /// A line of a file of one position or opening a line.
    #[error("{name}: line {line}: {source}")]
    Line {
        /// The file's path, or `standard input`.
        name: String,
        /// The line, from 1.
        line: usize,
        /// Why the position or opening on it cannot be used.
        source: EntryError,
    },
    /// Nothing to use: `what` names what was looked for.
    #[error("{name}: no {what} found")]
    Empty {
        /// The file's path, or `standard input`.
        name: String,
        /// `openings`, `positions` or `game record`.
        what: &'static str,
    },
}
