//! `morris`: a Nine Men's Morris engine and its tools.
//!
//! Layers, in order: each imports only the layers before it. The
//! command line on top of them is the binary's (`src/cli/`).

// The game: board, moves, notation, rule options, positions, set-ups.
pub mod rules;

// Solved endgames: generation, files, probing.
pub mod tablebase;

// Finding moves: alpha-beta, evaluation, time, bench.
pub mod search;

// The headless engine: a session over the search, the tables and books.
pub mod engine;

// The engine's command loop and the protocol's wire format.
pub mod protocol;

// Matches between engine processes, game records, openings, analysis.
pub mod tools;
