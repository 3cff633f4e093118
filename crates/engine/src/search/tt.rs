//! The transposition table, shared by all search threads without locks.
//!
//! Buckets of four entries fill one cache line. Each entry is two atomic
//! words: the data and the key XOR the data, so a torn write (two threads
//! storing at once) reads back as a key mismatch instead of wrong data.

use std::sync::atomic::{AtomicU64, Ordering};

use memmap2::MmapMut;

use morris_rules::Move;

/// What a stored score says about the true score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Bound {
    /// The true score is at most this.
    Upper = 1,
    /// The true score is at least this.
    Lower = 2,
    Exact = 3,
}

/// One entry read back.
#[derive(Clone, Copy, Debug)]
pub(super) struct Hit {
    pub mv: Option<Move>,
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
}

const ENTRIES: usize = 4;

#[repr(align(64))]
struct Bucket {
    /// Pairs of (key ^ data, data).
    words: [AtomicU64; 2 * ENTRIES],
}

/// The memory for a table of the size asked for could not be had.
#[derive(Debug, thiserror::Error)]
#[error("cannot allocate {mb} MB for the hash table: {source}")]
pub struct TableAllocError {
    /// The size asked for, in MB (2^20 bytes).
    pub mb: usize,
    /// Why the system refused the memory.
    pub source: std::io::Error,
}

/// The entries live in anonymous memory mapped for the table: zeroed by
/// the system page by page as first touched (so a large table costs nothing
/// until used), and advised to use huge pages, since probes land at random
/// and 4 KiB pages make nearly every probe a TLB miss as well as a cache
/// miss (bench: about 5% faster).
pub(super) struct TranspositionTable {
    memory: MmapMut,
    len: usize,
    generation: u64,
}

// Data word layout: move (27 bits), score (16), depth (8), bound (2),
// generation (6).
const MOVE_BITS: u64 = (1 << 27) - 1;
const SCORE_SHIFT: u32 = 27;
const DEPTH_SHIFT: u32 = 43;
const BOUND_SHIFT: u32 = 51;
const GEN_SHIFT: u32 = 53;
const GEN_MASK: u64 = 63;

fn pack(mv: Option<Move>, score: i32, depth: i32, bound: Bound, generation: u64) -> u64 {
    // A turn with more than three removals does not fit: stored as none.
    let mv = mv.map_or(0, Move::raw);
    let mv = if mv > MOVE_BITS { 0 } else { mv };
    mv | ((score as i16 as u16 as u64) << SCORE_SHIFT)
        | ((depth.clamp(0, 255) as u64) << DEPTH_SHIFT)
        | ((bound as u64) << BOUND_SHIFT)
        | ((generation & GEN_MASK) << GEN_SHIFT)
}

fn depth_of(data: u64) -> i32 {
    ((data >> DEPTH_SHIFT) & 255) as i32
}

fn generation_of(data: u64) -> u64 {
    (data >> GEN_SHIFT) & GEN_MASK
}

impl TranspositionTable {
    /// A table of `mb` megabytes, or an error if the memory cannot be had
    /// (a front end may ask for more than the machine has).
    pub(super) fn new(mb: usize) -> Result<TranspositionTable, TableAllocError> {
        let len = (mb.max(1) << 20) / std::mem::size_of::<Bucket>();
        let mut memory = MmapMut::map_anon(len * std::mem::size_of::<Bucket>())
            .map_err(|source| TableAllocError { mb, source })?;
        #[cfg(target_os = "linux")]
        let _ = memory.advise(memmap2::Advice::HugePage);
        // The kernel hands out (and zeroes) pages on first touch; touching
        // them all now keeps that out of the first search (on this virtual
        // machine 0.5 s of the first move's time at 256 MB).
        memory.fill(0);
        Ok(TranspositionTable {
            memory,
            len,
            generation: 0,
        })
    }

    fn buckets(&self) -> &[Bucket] {
        // SAFETY: the mapping is page-aligned (more than `Bucket`'s 64),
        // holds `len` buckets, lives as long as `self`, and all-zero bytes
        // are a valid `Bucket` (atomics at 0). Entries are only changed
        // through the atomics, or through `&mut self` in `clear`.
        unsafe { std::slice::from_raw_parts(self.memory.as_ptr().cast::<Bucket>(), self.len) }
    }

    /// Forgets every entry.
    pub(super) fn clear(&mut self) {
        self.memory.fill(0);
        self.generation = 0;
    }

    /// Starts a new search: older entries become preferred victims.
    pub(super) fn new_search(&mut self) {
        self.generation = (self.generation + 1) & GEN_MASK;
    }

    fn bucket(&self, key: u64) -> &Bucket {
        let buckets = self.buckets();
        let i = ((key as u128 * buckets.len() as u128) >> 64) as usize;
        &buckets[i]
    }

    /// Starts loading the bucket of `key` into the cache.
    #[inline]
    pub(super) fn prefetch(&self, key: u64) {
        morris_tablebase::prefetch(self.bucket(key));
    }

    pub(super) fn probe(&self, key: u64) -> Option<Hit> {
        let b = self.bucket(key);
        for e in 0..ENTRIES {
            let data = b.words[2 * e + 1].load(Ordering::Relaxed);
            let check = b.words[2 * e].load(Ordering::Relaxed);
            if data != 0 && check ^ data == key {
                let bound = match (data >> BOUND_SHIFT) & 3 {
                    1 => Bound::Upper,
                    2 => Bound::Lower,
                    _ => Bound::Exact,
                };
                return Some(Hit {
                    mv: Move::from_raw(data & MOVE_BITS).filter(|m| m.raw() != 0),
                    score: ((data >> SCORE_SHIFT) as u16) as i16 as i32,
                    depth: depth_of(data),
                    bound,
                });
            }
        }
        None
    }

    pub(super) fn store(&self, key: u64, mv: Option<Move>, score: i32, depth: i32, bound: Bound) {
        let b = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for e in 0..ENTRIES {
            let data = b.words[2 * e + 1].load(Ordering::Relaxed);
            let check = b.words[2 * e].load(Ordering::Relaxed);
            if data == 0 {
                victim = e;
                break;
            }
            if check ^ data == key {
                // Same position: keep a deeper result of this search, and
                // the old move when the new result has none.
                if bound != Bound::Exact
                    && depth + 2 < depth_of(data)
                    && generation_of(data) == self.generation
                {
                    return;
                }
                let mv = mv.or_else(|| Move::from_raw(data & MOVE_BITS));
                let new = pack(mv, score, depth, bound, self.generation);
                b.words[2 * e].store(key ^ new, Ordering::Relaxed);
                b.words[2 * e + 1].store(new, Ordering::Relaxed);
                return;
            }
            let age = ((self.generation + 64 - generation_of(data)) & GEN_MASK) as i32;
            let worth = depth_of(data) - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = e;
            }
        }
        let new = pack(mv, score, depth, bound, self.generation);
        b.words[2 * victim].store(key ^ new, Ordering::Relaxed);
        b.words[2 * victim + 1].store(new, Ordering::Relaxed);
    }

    /// Permille of a sample of entries written by the current search.
    pub(super) fn hashfull(&self) -> u32 {
        let buckets = self.buckets();
        let n = buckets.len().min(250);
        let used: usize = buckets[..n]
            .iter()
            .map(|b| {
                (0..ENTRIES)
                    .filter(|&e| {
                        let data = b.words[2 * e + 1].load(Ordering::Relaxed);
                        data != 0 && generation_of(data) == self.generation
                    })
                    .count()
            })
            .sum();
        (used * 1000 / (n * ENTRIES)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use morris_rules::Square;

    #[test]
    fn store_and_probe_round_trip() {
        let mut t = TranspositionTable::new(1).unwrap();
        t.new_search();
        let mv = Move::new(Some(Square::ALL[0]), Square::ALL[1], &[Square::ALL[5]]);
        t.store(0xdead_beef, Some(mv), -29_950, 17, Bound::Lower);
        let hit = t.probe(0xdead_beef).unwrap();
        assert_eq!(hit.mv, Some(mv));
        assert_eq!(hit.score, -29_950);
        assert_eq!(hit.depth, 17);
        assert_eq!(hit.bound, Bound::Lower);
        assert!(t.probe(0xdead_beee).is_none());
        assert!(t.hashfull() <= 1000);
        t.clear();
        assert!(t.probe(0xdead_beef).is_none());
    }

    #[test]
    fn allocation_error_names_the_size() {
        let e = TableAllocError {
            mb: 4096,
            source: std::io::Error::other("out of memory"),
        };
        assert_eq!(
            e.to_string(),
            "cannot allocate 4096 MB for the hash table: out of memory"
        );
    }
}
