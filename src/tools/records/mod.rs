//! Game records: our PGN-style dialect and the dialects of the other
//! public mill apps (PlayOK's point numbers, Sanmill's rule sets and
//! position string), one reader and one writer each.

pub(super) mod dialect;
pub(super) mod playok;
pub(super) mod read;
pub(super) mod record;
pub(super) mod sanmill_pgn;
