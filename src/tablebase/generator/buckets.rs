//! Settled positions as entries (table, stones, lost), filed by the
//! distance at which their predecessors hear of them.

/// Settled entries by the distance at which their predecessors hear of
/// them. Each worker files its own as it settles them (it knows their
/// distances), so no serial pass reloads their states to sort them.
#[derive(Default)]
pub(crate) struct Buckets(pub(crate) Vec<Vec<Entry>>);

impl Buckets {
    pub(crate) fn push(&mut self, d: u16, e: Entry) {
        let d = d as usize;
        if self.0.len() <= d {
            self.0.resize_with(d + 1, Vec::new);
        }
        self.0[d].push(e);
    }

    /// Moves the entries of `other` into these.
    pub(crate) fn merge(&mut self, other: Buckets) {
        if self.0.len() < other.0.len() {
            self.0.resize_with(other.0.len(), Vec::new);
        }
        for (mine, mut theirs) in self.0.iter_mut().zip(other.0) {
            if mine.is_empty() {
                *mine = theirs;
            } else {
                mine.append(&mut theirs);
            }
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
        assert_eq!(
            a.0,
            vec![vec![1], vec![], vec![20, 21], vec![], vec![], vec![50]]
        );
    }
}
