//! The tools around the engine: engine-vs-engine matches, game records,
//! match statistics and analysis. Their command lines are in `cli`. The
//! files are private; what the command line uses is re-exported here.

mod analyze;
mod elo;
mod engine_process;
mod gui;
mod input;
mod match_runner;
mod openings;
mod playok;
mod puzzles;
mod record;
mod sanmill_pgn;
mod slurm;

pub use analyze::{
    Item, Marks, Summary, analyse, change_mark, items_from_text, json_output, position_item,
    text_output,
};
pub use elo::{Sprt, SprtDecision, SprtError, Tally, format_elo};
pub use engine_process::{
    EngineSpec, EngineSpecError, Proto, TimeControl, TimeControlError, strength_note,
};
pub use gui::Gui;
pub use input::{EntryError, InputError};
pub use match_runner::{
    GameReport, MatchConfig, MatchError, MatchOutcome, Standings, run_match, schedule_games,
};
pub use openings::{Opening, load_openings};
pub use puzzles::{Criteria, Puzzle, export as export_puzzles, find as find_puzzles};
pub use record::{Dialect, Record, RecordError, parse_records, result_text};
pub use slurm::{
    Queued, Settings, SlurmError, queued_jobs, submit_compact_finish, submit_jobs, waiting_jobs,
};
