//! The `morris` engine: the search, the headless session over the search,
//! the tables and the books, and the protocol's command loop.
//!
//! Layers, in order: each imports only the layers before it (the rules
//! and the tablebases are crates of their own below this one).

// An item is public only when the crate's API holds it.
#![warn(unreachable_pub)]

// Finding moves: alpha-beta, evaluation, time, bench.
pub mod search;

// The headless engine: a session over the search, the tables and books.
pub mod engine;

// The engine's command loop and the protocol's wire format.
pub mod protocol;
