//! `morris`: a Nine Men's Morris engine and its tools.
//!
//! Layers, in order: each imports only the layers before it. The rules,
//! the tablebases and the engine (search, session, protocol) are crates
//! of their own (`crates/`), re-exported here under their layer names;
//! the tools are this crate's, and the command line on top of them is
//! the binary's (`src/cli/`).

// An item is public only when the crate's API holds it.
#![warn(missing_docs, unreachable_pub)]

// The game: board, moves, notation, rule options, positions, set-ups.
pub use morris_rules as rules;

// Solved endgames: generation, files, probing.
pub use morris_tablebase as tablebase;

// Finding moves, the headless engine, and its command loop.
pub use morris_engine::{engine, protocol, search};

// Matches between engine processes, game records, openings, analysis.
pub mod tools;
