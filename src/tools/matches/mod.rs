//! Engine-vs-engine matches: engines as child processes, the runner that
//! referees their games, the openings they start from, and the statistics
//! of the result (Elo, LOS, SPRT).

pub(super) mod elo;
pub(super) mod engine_process;
pub(super) mod engine_spec;
pub(super) mod game;
pub(super) mod openings;
pub(super) mod runner;
pub(super) mod schedule;
