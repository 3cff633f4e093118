//! `morris`: a Nine Men's Morris engine and its tools.
//!
//! Layers, each knowing only those below it: `rules` (the game), `search`
//! (finding moves), `tablebase` (solved endgames), then `protocol` and the
//! command-line tools.

pub mod cli;
pub mod protocol;
pub mod rules;
pub mod search;
pub mod tablebase;
pub mod tools;
