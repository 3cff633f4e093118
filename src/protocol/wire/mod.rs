//! The text of the engine protocol in both directions: the commands a
//! front end sends (read by the engine, written by the match runner) and
//! the engine's replies (written by the engine, read by the match runner).

pub mod command;
pub mod gbgp;
