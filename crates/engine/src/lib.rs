//! The `morris` engine: the search, the headless session over the search,
//! the tables and the books, and the protocol's command loop.
//!
//! Layers, in order: each imports only the layers before it (the rules
//! and the tablebases are crates of their own below this one).
//!
//! A game played through the headless engine, `Session`, as the protocol
//! and the tools play it:
//!
//! ```
//! use morris_engine::engine::Session;
//! use morris_engine::search::Limits;
//! use morris_rules::{Game, Position};
//!
//! let mut session = Session::new(|notice| eprintln!("{notice}"));
//! // No tables: the answers do not depend on the machine's.
//! session.set_option("TablebasePath", Some("<empty>")).unwrap();
//! session.set_option("Hash", Some("16")).unwrap();
//! let rules = *session.rules();
//! let mut game = Game::new(rules, Position::start(&rules));
//! let limits = Limits { depth: Some(4), ..Limits::default() };
//! for _ in 0..12 {
//!     session.set_game(game.clone());
//!     let answer = session.search(&limits, &mut |_info| {});
//!     game.play(answer.best.expect("a move while placing"));
//! }
//! assert_eq!(game.moves().len(), 12);
//! assert!(game.outcome().is_none());
//! ```

// An item is public only when the crate's API holds it.
#![warn(missing_docs, unreachable_pub)]

// Finding moves: alpha-beta, evaluation, time, bench.
pub mod search;

// The headless engine: a session over the search, the tables and books.
pub mod engine;

// The engine's command loop and the protocol's wire format.
pub mod protocol;
