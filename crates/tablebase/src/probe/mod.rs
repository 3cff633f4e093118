//! Reading the tables (`tables`: a position's value and each move's, with
//! the move-count draws applied to stored values by `clock`), the
//! opening books cut from them (`book`), the two together (`exact`) and
//! the totals of the tables on disk (`stats`), and two solutions of one
//! game under different draw rules against each other (`compare`).

pub mod book;
pub(crate) mod clock;
pub(crate) mod compare;
pub(crate) mod exact;
pub(crate) mod stats;
pub(crate) mod tables;
