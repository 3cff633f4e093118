//! The tools around the engine: engine-vs-engine matches (`morris match`),
//! game records, match statistics and analysis (`morris analyze`).

pub mod analyze;
pub mod engine_process;
pub mod match_cli;
pub mod match_runner;
pub mod openings;
pub mod record;
pub mod stats;
