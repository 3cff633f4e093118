//! The table file: its header, mapping and checksums (`file`), written
//! whole or not at all (`atomic`), the
//! compact one-bit-a-slot file (`compact`) and its blocks' code (`runs`),
//! the index
//! of a sector's positions (`index`), the values' layouts (`codec`) and
//! the totals a header keeps (`summary`).

pub(crate) mod atomic;
pub(crate) mod codec;
pub(crate) mod compact;
pub(crate) mod file;
pub(crate) mod index;
pub(crate) mod runs;
pub(crate) mod summary;
