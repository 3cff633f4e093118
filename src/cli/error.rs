//! Why a command of the command line failed: the library's typed errors,
//! or a message of the command line's own; `run` prints it after
//! `morris: `.

use morris::rules::{FenError, RulesError, SetupError};
use morris::tablebase::TablebaseError;
use morris::tools::SprtError;
use morris::tools::{EngineSpecError, TimeControlError};
use morris::tools::{EntryError, InputError};

/// Why a command failed: the library's typed errors, or a message of the
/// command line's own.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Fen(#[from] FenError),
    #[error(transparent)]
    Tablebase(#[from] TablebaseError),
    #[error(transparent)]
    NotCovered(#[from] morris::tablebase::NotCovered),
    #[error(transparent)]
    Sector(#[from] morris::tablebase::SectorError),
    #[error(transparent)]
    Input(#[from] InputError),
    #[error(transparent)]
    Opening(#[from] EntryError),
    #[error(transparent)]
    Sprt(#[from] SprtError),
    #[error(transparent)]
    EngineSpec(#[from] EngineSpecError),
    #[error(transparent)]
    TimeControl(#[from] TimeControlError),
    #[error("{0}; name one with --dir")]
    NoDefaultDir(#[from] morris::tablebase::NoDefaultDir),
    #[error("{0}")]
    Message(String),
}

impl From<String> for CliError {
    fn from(message: String) -> CliError {
        CliError::Message(message)
    }
}

impl From<&str> for CliError {
    fn from(message: &str) -> CliError {
        CliError::Message(message.to_string())
    }
}
