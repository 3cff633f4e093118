//! Making the tables: the order they are solved in (`plan`, `placement`),
//! the retrograde solver and the placement passes (`generate`, on the
//! bitboard successors of `bits` and the solving state of `states`),
//! checking them (`verify`, `sample`), the background builder (`auto`),
//! the job list a cluster shares (`jobs`) and the opening books (`book`).

pub mod auto;
pub(crate) mod bits;
mod book;
pub(crate) mod generate;
pub(crate) mod jobs;
pub mod placement;
pub(crate) mod plan;
pub(crate) mod sample;
pub(crate) mod states;
pub(crate) mod verify;
