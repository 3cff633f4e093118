//! Every integration test in one binary: one link of the library and its
//! dependencies instead of one per test file, so the test command builds in
//! half the time. Each file of `tests/` is a module here; `common/` holds
//! what they share.

mod common;

mod analyze;
mod blind_spots;
mod book;
mod browser;
mod cli_unix;
mod cluster;
mod compact;
mod differential;
mod game_over;
mod gui;
mod layers;
#[path = "match.rs"]
mod matches;
mod move_limits;
mod notation_fen;
mod perfect_match;
mod perft;
mod placement;
mod protocol;
mod readme;
mod records;
mod rule_options;
mod rulesets;
mod rulesets_differential;
mod rulesets_perft;
mod search;
mod solution;
mod solve;
mod tablebase;
mod tablebase_auto;
mod tablebase_integrity;
mod tablebase_search;
mod wdl;
