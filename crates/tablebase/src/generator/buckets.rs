//! Settled positions as entries (table, stones, lost), filed by the
//! distance at which their predecessors hear of them.

/// Settled entries by the distance at which their predecessors hear of
/// them. Each worker files its own as it settles them (it knows their
/// distances), so no serial pass reloads their states to sort them.
///
/// A distance's entries are blocks of at most `BLOCK` entries: the
/// largest pairs settle hundreds of millions of positions in their forward
/// pass, and one growing list would hold up to twice its entries while
/// it grows, and copy them again when the workers' lists are merged;
/// blocks are filled once and merged by moving them.
#[derive(Default)]
pub(crate) struct Buckets(pub(crate) Vec<Vec<Vec<Entry>>>);

/// Entries a block (8 MiB).
const BLOCK: usize = 1 << 20;

impl Buckets {
    pub(crate) fn push(&mut self, d: u16, e: Entry) {
        let d = d as usize;
        if self.0.len() <= d {
            self.0.resize_with(d + 1, Vec::new);
        }
        let blocks = &mut self.0[d];
        match blocks.last_mut() {
            // A block grows as a list up to `BLOCK`, then the next starts.
            Some(b) if b.len() < BLOCK => b.push(e),
            _ => {
                let mut b = Vec::with_capacity(if blocks.is_empty() { 16 } else { BLOCK });
                b.push(e);
                blocks.push(b);
            }
        }
    }

    /// Moves the entries of `other` into these.
    pub(crate) fn merge(&mut self, other: Buckets) {
        if self.0.len() < other.0.len() {
            self.0.resize_with(other.0.len(), Vec::new);
        }
        for (mine, theirs) in self.0.iter_mut().zip(other.0) {
            mine.extend(theirs);
        }
    }
}

/// A position settled in a distance pass whose predecessors are gathered:
/// their table, whether it is lost (else won), and the stones of the side
/// not moving in them.
#[derive(Clone, Copy)]
pub(crate) struct Settled {
    pub(crate) p: usize,
    pub(crate) lost: bool,
    pub(crate) other: u32,
}

/// Settled positions a worker takes at a time in a distance pass.
pub(crate) const CHUNK: usize = 4096;

/// A settled position in the pair: the stones of its side to move (bits
/// 0..24) and of the other side (24..48), its table (from bit 48), and
/// whether it is lost. Its predecessors follow from the stones without
/// decoding a slot, and the value without loading its state.
pub(crate) type Entry = u64;
const TABLE_SHIFT: u32 = 48;
pub(crate) const LOST: Entry = 1 << 61;
/// Marks an entry to settle when its bucket comes if still unknown, at
/// the distance of its best move leaving the pair: a win, or with `LATE_LOSS`
/// (and `LOST`) a loss.
pub(crate) const LATE: Entry = 1 << 63;
pub(crate) const LATE_LOSS: Entry = 1 << 62;

pub(crate) fn entry(t: usize, mover: u32, other: u32, lost: bool) -> Entry {
    (t as u64) << TABLE_SHIFT | (other as u64) << 24 | mover as u64 | if lost { LOST } else { 0 }
}

/// The table of an entry and its stones: the side to move's, the other's.
pub(crate) fn split(e: Entry) -> (usize, u32, u32) {
    (
        (e >> TABLE_SHIFT & 3) as usize,
        (e & 0xff_ffff) as u32,
        (e >> 24 & 0xff_ffff) as u32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Buckets merged from workers hold every entry at its distance.
    #[test]
    fn buckets_merge_by_distance() {
        let (mut a, mut b) = (Buckets::default(), Buckets::default());
        a.push(2, 20);
        b.push(0, 1);
        b.push(2, 21);
        b.push(5, 50);
        a.merge(b);
        let flat: Vec<Vec<Entry>> = a.0.iter().map(|blocks| blocks.concat()).collect();
        assert_eq!(
            flat,
            vec![vec![1], vec![], vec![20, 21], vec![], vec![], vec![50]]
        );
    }

    /// A distance's entries fill blocks of `BLOCK` in order.
    #[test]
    fn entries_fill_whole_blocks() {
        let mut a = Buckets::default();
        for e in 0..(2 * BLOCK + 3) as Entry {
            a.push(1, e);
        }
        let lens: Vec<usize> = a.0[1].iter().map(Vec::len).collect();
        assert_eq!(lens, vec![BLOCK, BLOCK, 3]);
        assert!(
            a.0[1]
                .concat()
                .iter()
                .enumerate()
                .all(|(i, &e)| e == i as Entry)
        );
    }
}
