//! The tools around the engine: engine-vs-engine matches, game records,
//! match statistics and analysis. Their command lines are in `cli`.

pub mod analyze;
pub mod elo;
pub mod engine_process;
pub mod gui;
pub mod input;
pub mod match_runner;
pub mod openings;
pub mod record;
pub mod slurm;
