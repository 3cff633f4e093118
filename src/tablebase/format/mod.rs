//! The table file: its header, mapping and checksums (`file`), the index
//! of a sector's positions (`index`), the values' layouts (`codec`) and
//! the totals a header keeps (`summary`).

pub(crate) mod codec;
pub(crate) mod file;
pub(crate) mod index;
pub(crate) mod summary;
