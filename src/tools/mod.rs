//! The tools around the engine, by what they are: engine-vs-engine
//! matches (`matches`), game records (`records`), games judged after the
//! fact (`analysis`), the board in the browser (`gui`), the cluster
//! (`slurm`), and the errors of input files (`input`). Their command lines
//! are in `cli`. The files are private; what the command line uses is
//! re-exported here.

mod analysis;
mod gui;
mod input;
mod matches;
mod records;
mod slurm;

pub use analysis::analyze::{
    GameSummary, Item, Marks, analyse, change_mark, items_from_text, json_output, position_item,
    text_output,
};
pub use analysis::puzzles::{Criteria, Puzzle, export as export_puzzles, find as find_puzzles};
pub use gui::Gui;
pub use input::{EntryError, InputError};
pub use matches::elo::{Sprt, SprtDecision, SprtError, Tally, format_elo};
pub use matches::engine_spec::{
    EngineSpec, EngineSpecError, Proto, TimeControl, TimeControlError, strength_note,
};
pub use matches::game::GameReport;
pub use matches::openings::{Opening, load_openings};
pub use matches::runner::{MatchError, MatchOutcome, Standings, run_match};
pub use matches::schedule::{MatchConfig, schedule_games};
pub use records::dialect::RecordDialect;
pub use records::read::parse_records;
pub use records::record::{Record, RecordError, result_text};
pub use slurm::{
    JobSettings, Queued, SlurmError, queued_jobs, submit_compact_finish, submit_jobs, waiting_jobs,
};
