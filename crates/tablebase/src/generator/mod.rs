//! Making the tables: the order they are solved in (`plan`, `placement`),
//! the generator's driver (`generate`) over the retrograde solver of a
//! pair (`solver`, with its entries and buckets in `buckets`, the moves
//! leaving the pair in `exits` and the un-moves in `predecessors`) and
//! the placement pass (`placement_pass`), on the bitboard successors of `bits` and the
//! solving state of `states`; checking them (`verify`, `sample`), the
//! compact tables made from the full ones (`compress`, over the coded
//! planes of `coded`), the whole compact solution in one run
//! (`solution`), the
//! background builder (`auto`), the job list a cluster shares (`jobs`)
//! and the opening books (`book`).

pub mod auto;
pub(crate) mod bits;
mod book;
mod buckets;
mod coded;
pub(crate) mod compress;
mod exits;
pub(crate) mod generate;
pub(crate) mod jobs;
pub mod placement;
mod placement_pass;
pub(crate) mod plan;
mod predecessors;
pub(crate) mod sample;
pub(crate) mod solution;
mod solver;
pub(crate) mod states;
pub(crate) mod verify;
