//! The headless engine, between the search and its front ends: a
//! `Session` owns the rules, the game, the searcher, the tables, the
//! books and the engine options, so that the protocol's loop only parses
//! and prints, and the tools (`analyze`, `solve`, the board) wire
//! nothing themselves.
//!
//! - `session`: the engine's state and its requests (options, position,
//!   `go` with callbacks, `stop`, a blocking search for tools).
//! - `oracle`: what is known exactly without search (tables, books).
//! - `options`: the engine options and what setting each asks for.
//! - `notice`: the news a session gives unasked.

mod notice;
mod options;
mod oracle;
mod session;

pub use notice::Notice;
pub use options::{Applied, BookSource, EngineOption, EngineOptionError, OptionType};
pub use oracle::{Oracle, Replies, tables_folder};
pub use session::{Answer, Notify, SearchLost, Session, SessionError};
