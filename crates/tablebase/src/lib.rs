//! Tablebases: the movement phase, and the placement phase on top of it.
//!
//! A sector `w-b+x-y` holds every position with `w` stones on the board
//! for the side to move and `b` for the other, `x` and `y` in their hands
//! (`Sector`; the game is colour-symmetric, so who moved first does not
//! matter). A sector with both hands empty is a movement subspace `w-b`
//! (3 <= w, b). Each position stores win/loss/draw for the side to move
//! and the distance in plies to the next conversion: the next removal,
//! or the end of the game (a blocked side, a full board). Subspaces `w-b`
//! and `b-w` are solved together by retrograde analysis (`generate`),
//! after the smaller subspaces their removals lead into; a removal
//! leaving fewer than 3 stones (board plus hand) wins.
//!
//! Placement sectors (some stone in hand) store the same code: a removal
//! into a position lost for the opponent is a win in 1, any other move
//! (a placement, or a `Lasker` slide) into a position of distance d
//! gives d + 1, on through the placements into the movement tables'
//! distance at clock 0 (a placement restarts the clock); wins take the
//! fastest, losses the slowest. A placement filling the board ends the
//! game by `BoardFull` (before `Blocked`). Under docs/rules.md Part I a
//! placement empties a hand by one, so each sector is one forward pass
//! over its positions, reading the sectors it leads into (`placement`
//! lists those reachable from the start, children first); under `Lasker`
//! a slide keeps the hands, so `w-b+x-y` and `b-w+y-x` are solved
//! together by retrograde analysis, the placements and removals being
//! exits of known value and distance. `generate_game` makes every table a
//! game needs, `Phase` by phase.
//!
//! Placement tables lie in a folder inside the movement tables' rules
//! folder, named by the two options they add (`PlacementFingerprint`):
//! `placement-standard-fulldraw/4-3+2-2.mtb` (or `-lasker-`,
//! `-fullloss`); `Pieces` is no part of it, since the hands are in the
//! sector, so a game with fewer pieces shares the full game's sectors.
//! They hold under `placement_covers`: the movement tables' rules, the
//! placement options of docs/rules.md 16 at their defaults, and under
//! `Lasker` both move-count draws off (its slides advance the clock).
//!
//! The tables depend only on the rules that matter once every piece is
//! on the board (`Fingerprint`). `MillReform` is treated as off (its bans
//! would multiply the positions); positions carrying bans are not probed.
//! `Repetition` cannot change a value (optimal play never repeats within a
//! phase). `EndgameMoves`/`NoCaptureMoves` are part of the fingerprint:
//! a removal counts as winning only if the position it leads to (clock 0)
//! is still won under them, so the stored distance is the distance to a
//! conversion that keeps the result, and `Tablebases::probe` turns a win
//! or loss whose conversion comes after the draw limit (from the
//! position's clock) into a draw. That is exact, as a distance-to-zeroing
//! table with chess's fifty-move rule is.
//!
//! The compact solution of a small game (three stones each), built and
//! then probed as the search probes it:
//!
//! ```
//! use morris_rules::{Game, Position, RuleOptionId, Rules};
//! use morris_tablebase::{GenerateOptions, Tablebases, Value, build_solution};
//!
//! let mut rules = Rules::default();
//! rules.set_option(RuleOptionId::Pieces, "3").unwrap();
//! let dir = std::env::temp_dir().join(format!("morris-doc-{}", std::process::id()));
//! build_solution(&dir, &rules, &GenerateOptions::default()).unwrap();
//!
//! let tbs = Tablebases::open(&dir, &rules); // reads nothing yet
//! let start = Position::start(&rules);
//! assert_eq!(tbs.probe(&start).unwrap().value, Value::Draw);
//! let mut game = Game::new(rules, start);
//! for token in ["d2", "d6", "b4", "f4", "b2"] {
//!     game.play_text(token).unwrap();
//! }
//! // White threatens b6 and f2 at once: Black, to move, has lost.
//! assert_eq!(tbs.probe(game.position()).unwrap().value, Value::Loss);
//! let best = tbs.best_move(game.position()); // fastest win, or a draw, or longest loss
//! assert!(best.is_some());
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```
//!
//! The complete solutions live in the default folder (`default_dir`), where
//! `morris tb generate --compact` writes them.
//!
//! `probe` is `None` outside the tables: `MillReform` bans or other
//! rule-set state, fewer than 3 stones, a game over, rules not covered, or
//! a table not generated or unusable. Tables
//! are mapped and checked against their checksums on first use (a large
//! one block by block) and kept; a file that fails is never used and
//! reported once (`take_faults`). A
//! `Tablebases` opened before a table was made does not see it
//! (`refreshed` gives one that does). `auto` builds the small tables in
//! the background.
//!
//! Sizes, standard rules: up to 5 stones a side 62 M positions, 67 MB;
//! up to 7, 1.78 G positions, 2.4 GB, and 4.2 GB of memory to solve the
//! largest pair (7-6/6-7: 4 bytes a slot while solving); all of 9 about
//! 8.9 G positions, 10-16 GB (a table whose distances pass 126 plies
//! takes 2 bytes a position), and 8 GB of memory for 9-8/8-9 with the
//! tables it reads. Placement sectors (`morris tb plan --phase placement`
//! prints each with its slots) for the standard game: see docs/placement-tables.md;
//! solving one needs 4 bytes a slot (6 under `Lasker`) plus the mapped
//! tables it reads.
//!
//! The module has three parts, each using only the ones before it and the
//! vocabulary (`value`, `sector`, `fingerprint`, `error`, `progress`):
//! `format` (the table file, its index and value layouts), `probe`
//! (reading the tables and the books) and `generator` (the retrograde
//! solver, its plans, verification, the background builder, cluster
//! jobs). Above them
//! `open_tables` owns the tables a long-lived process keeps open. All of
//! them are private: what the rest of the engine uses is re-exported here.
//!
//! The API, by what a caller does with it:
//! - probing, all a front end needs: [`Tablebases`] (`open`, `probe`,
//!   `moves`, `best_move`), [`Probe`], [`Value`], [`MoveProbe`], the
//!   tables with the book behind them ([`Known`], [`Source`], [`book`]),
//!   the folder ([`default_dir`]) and the tables a long-lived process
//!   keeps open ([`OpenTables`]);
//! - the rules the tables serve and where a position lies in them
//!   ([`Fingerprint`], [`covers`], [`Sector`], [`Subspace`]);
//! - generating: [`build_solution`] (the compact solution in one
//!   resumable run), [`generate_game`], [`generate`], [`compress`],
//!   [`verify`], the plan and the cluster's jobs ([`plan`], [`Jobs`]), the
//!   background builder ([`auto`]);
//! - statistics and comparisons of tables on disk, and the files' layout
//!   ([`table_path`], [`Indexer`], [`HEADER_LEN`]) for tools and tests that
//!   read or damage them;
//! - errors: [`TablebaseError`], and [`TableFault`] for a file found
//!   unusable while probing.

// An item is public only when the crate's API holds it.
#![warn(missing_docs, unreachable_pub)]

mod error;
mod fingerprint;
mod folder;
mod format;
mod generator;
mod open_tables;
mod probe;
mod progress;
mod sector;
mod value;

// Probing: what a front end needs to ask the tables and books.
pub use folder::{NoDefaultDir, default_dir};
pub use open_tables::{Building, OpenTables};
pub use probe::book;
pub use probe::exact::{Known, Source};
pub use probe::tables::{MoveProbe, Tablebases, preference};
pub use value::{Probe, Value};

// The rules the tables serve, and where positions lie in them.
pub use fingerprint::{Fingerprint, NotCovered, PlacementFingerprint, covers, placement_covers};
pub use sector::{Sector, SectorError, Subspace, position, sector_position};

// Generating: solving, coding, planning, checking, the cluster's jobs.
pub use generator::compress::{CompactCheck, CompressStep, Compressed, check_compact, compress};
pub use generator::generate::{GenerateOptions, Generated, Phase, generate, generate_game};
pub use generator::jobs::{Job, Jobs, Ran, STAGING, TableState};
pub use generator::plan::{plan, up_to};
pub use generator::sample::{ProbeBench, probe_bench, sample};
pub use generator::solution::{
    Solution, SolutionState, build_solution, build_solution_job, solution_files, solution_state,
};
pub use generator::verify::{Checked, verify};
pub use generator::{auto, placement};
pub use progress::{Progress, Reporter};

// Reading the tables whole: statistics and comparisons between rules.
pub use probe::compare::{Changes, CompareError, compare_on_disk, format_changes};
pub use probe::stats::{TableSummary, format_summaries, summaries_on_disk};

// The files themselves: names, layout, index, writing safely.
pub use format::atomic::{remove_temporaries_being_written, temporaries};
pub use format::codec::ValueLayout;
pub use format::file::{HEADER_LEN, file_len, prefetch, table_path};
pub use format::index::Indexer;
pub use format::summary::Summary;

// What goes wrong.
pub use error::{Faults, TableFault, TableProblem, TablebaseError};
