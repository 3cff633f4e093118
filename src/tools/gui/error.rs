//! Why a request to the board failed, and its HTTP status. A file of its
//! own so that the game's bookkeeping (`game.rs`) can refuse a request
//! without importing the board that answers it.

use crate::rules::{MoveError, RulesError, SetupError};
use crate::tools::matches::engine_spec::TimeControlError;
use crate::tools::records::record::RecordError;

/// Why a request to the board failed; `status` is its HTTP status.
#[derive(Debug, thiserror::Error)]
pub(super) enum BoardError {
    #[error("{0}")]
    BadRequest(String),
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(transparent)]
    Move(#[from] MoveError),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error(transparent)]
    Clock(#[from] TimeControlError),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    Engine(String),
}

impl BoardError {
    pub(super) fn status(&self) -> u16 {
        match self {
            BoardError::BadRequest(_)
            | BoardError::Rules(_)
            | BoardError::Move(_)
            | BoardError::Setup(_)
            | BoardError::Record(_)
            | BoardError::Clock(_) => 400,
            BoardError::Conflict(_) => 409,
            BoardError::Engine(_) => 502,
        }
    }
}
