//! Games judged after the fact: the analysis of a record's moves by the
//! search and the tables, and puzzles cut from the mistakes it finds.

pub(super) mod analyze;
pub(super) mod puzzles;
