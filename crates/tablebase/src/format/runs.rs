//! The code of a compact plane's blocks: a block's bits as runs of equal
//! bits, the run lengths coded by rANS against a model fitted to the plane.
//!
//! Run lengths below `EXACT` are symbols of their own; a longer one is the
//! symbol of its bit length (its class) followed by the bits below its top
//! bit, coded as equally likely. A run's symbol is coded in its context:
//! its bit and the classes of the two runs before it in the block (runs
//! alternate, and dense planes mix short runs of one bit with runs of the
//! other of related lengths). The plane's model holds, for each context,
//! each symbol's frequency out of `1 << PROB_BITS`.
//!
//! A block of `len` bits is coded as: no bytes (all zero), `len / 8`
//! rounded up bytes (its raw bits), one byte (all ones, when that is not
//! the raw length), or else its runs, from the first bit (coded as one
//! equally likely bit) to the last run, as one rANS stream of three bytes
//! of final state and then the renormalisation bytes. The encoder keeps
//! the shortest, so the coded length says which.

/// Slots a block.
pub(crate) const SLOTS: usize = 4096;
/// Frequencies are out of `1 << PROB_BITS`.
const PROB_BITS: u32 = 11;
const TOTAL: u32 = 1 << PROB_BITS;
/// The rANS state stays in `[LOW, LOW << 8)`: three bytes to flush.
const LOW: u32 = 1 << 16;
/// Run lengths below this are symbols of their own.
const EXACT: usize = 32;
/// Classes (bit lengths) of longer runs: from `EXACT`'s to `SLOTS`'s.
const CLASSES: usize = (SLOTS.ilog2() - EXACT.ilog2() + 1) as usize;
const SYMBOLS: usize = EXACT - 1 + CLASSES;
/// The class of the run before, capped (and one for none), and of the run
/// before that.
const BEFORE: usize = 8;
const BEFORE_THAT: usize = 5;
const CONTEXTS: usize = 2 * BEFORE * BEFORE_THAT;
/// The bytes of a stored model.
pub(crate) const MODEL_BYTES: usize = 2 * CONTEXTS * SYMBOLS;
/// Equally likely bits are coded in chunks of at most this many.
const CHUNK: u32 = 8;

fn class(len: usize) -> u32 {
    len.ilog2()
}

/// A run length's symbol, and the bits below its top bit (with their
/// count) for a class symbol.
fn symbol(len: usize) -> (usize, u32, u32) {
    if len < EXACT {
        (len - 1, 0, 0)
    } else {
        let c = class(len);
        (
            EXACT - 1 + (c - EXACT.ilog2()) as usize,
            (len - (1 << c)) as u32,
            c,
        )
    }
}

/// The contexts of a block's runs, in order.
#[derive(Clone, Copy)]
struct Context {
    before: usize,
    before_that: usize,
}

impl Context {
    const FIRST: Context = Context {
        before: BEFORE - 1,
        before_that: BEFORE_THAT - 1,
    };

    fn of(self, bit: bool) -> usize {
        (bit as usize * BEFORE + self.before) * BEFORE_THAT + self.before_that
    }

    fn after(self, len: usize) -> Context {
        Context {
            before: (class(len) as usize).min(BEFORE - 2),
            before_that: if self.before == BEFORE - 1 {
                BEFORE_THAT - 1
            } else {
                self.before.min(BEFORE_THAT - 2)
            },
        }
    }
}

/// The runs of a block's bits: (bit, length), in order.
fn runs(len: usize, bit: impl Fn(usize) -> bool) -> impl Iterator<Item = (bool, usize)> {
    let mut i = 0;
    std::iter::from_fn(move || {
        (i < len).then(|| {
            let (b, start) = (bit(i), i);
            while i < len && bit(i) == b {
                i += 1;
            }
            (b, i - start)
        })
    })
}

/// The symbols of a plane's runs, counted per context (the blocks that
/// are not all one bit, which are coded without runs).
#[derive(Clone)]
pub(crate) struct RunCounts(Vec<u64>);

impl Default for RunCounts {
    fn default() -> RunCounts {
        RunCounts(vec![0; CONTEXTS * SYMBOLS])
    }
}

impl RunCounts {
    pub(crate) fn add_block(&mut self, len: usize, bit: impl Fn(usize) -> bool) {
        if (0..len).all(|i| bit(i) == bit(0)) {
            return;
        }
        let mut ctx = Context::FIRST;
        for (b, l) in runs(len, bit) {
            self.0[ctx.of(b) * SYMBOLS + symbol(l).0] += 1;
            ctx = ctx.after(l);
        }
    }

    pub(crate) fn merge(mut self, other: RunCounts) -> RunCounts {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
        self
    }
}

/// A plane's model: each context's symbol frequencies (summing to `TOTAL`,
/// or all zero for a context no run has), kept as where each symbol starts
/// (`SYMBOLS + 1` a context, the last `TOTAL` or zero).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct RunModel {
    cumulative: Vec<u16>,
}

impl RunModel {
    /// The model of these counts: every symbol counted gets at least one.
    pub(crate) fn fit(counts: &RunCounts) -> RunModel {
        let mut freq = vec![0u16; CONTEXTS * SYMBOLS];
        for (c, f) in counts.0.chunks(SYMBOLS).zip(freq.chunks_mut(SYMBOLS)) {
            let n: u64 = c.iter().sum();
            if n == 0 {
                continue;
            }
            for (k, f) in c.iter().zip(f.iter_mut()) {
                if *k > 0 {
                    *f = (k * TOTAL as u64 / n).max(1) as u16;
                }
            }
            // At most SYMBOLS were raised to one: the largest absorbs the
            // difference and stays well above zero.
            let sum: i64 = f.iter().map(|&x| x as i64).sum();
            let top = (0..SYMBOLS).max_by_key(|&s| f[s]).expect("symbols");
            f[top] = (f[top] as i64 + TOTAL as i64 - sum) as u16;
        }
        RunModel::of_freq(freq).expect("fitted frequencies sum to the total")
    }

    /// The model of stored frequencies, if every context sums to `TOTAL`
    /// or is empty.
    fn of_freq(freq: Vec<u16>) -> Option<RunModel> {
        let mut cumulative = vec![0u16; CONTEXTS * (SYMBOLS + 1)];
        for (f, cum) in freq.chunks(SYMBOLS).zip(cumulative.chunks_mut(SYMBOLS + 1)) {
            let mut at = 0u32;
            for (f, c) in f.iter().zip(cum[1..].iter_mut()) {
                at += *f as u32;
                *c = at.min(TOTAL + 1) as u16;
            }
            if at != 0 && at != TOTAL {
                return None;
            }
        }
        Some(RunModel { cumulative })
    }

    /// Context `ctx`'s cumulative frequencies.
    #[inline]
    fn context(&self, ctx: usize) -> &[u16] {
        &self.cumulative[ctx * (SYMBOLS + 1)..(ctx + 1) * (SYMBOLS + 1)]
    }

    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        self.cumulative
            .chunks(SYMBOLS + 1)
            .flat_map(|cum| cum.windows(2).map(|w| w[1] - w[0]))
            .flat_map(u16::to_le_bytes)
            .collect()
    }

    /// The model stored in `bytes` (`MODEL_BYTES`), if well formed.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<RunModel> {
        if bytes.len() != MODEL_BYTES {
            return None;
        }
        RunModel::of_freq(
            bytes
                .chunks(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]))
                .collect(),
        )
    }

    /// Codes one block's bits (`bit(i)` for `i < len`) in the shortest
    /// form. Its runs must have been counted in the model's counts.
    pub(crate) fn encode_block(&self, len: usize, bit: impl Fn(usize) -> bool) -> Vec<u8> {
        let ones = (0..len).filter(|&i| bit(i)).count();
        let raw_len = len.div_ceil(8);
        if ones == 0 {
            return Vec::new();
        }
        if ones == len && raw_len > 1 {
            return vec![1];
        }
        if ones < len {
            let coded = self.encode_runs(len, &bit);
            if coded.len() < raw_len {
                return coded;
            }
        }
        let mut raw = vec![0u8; raw_len];
        for i in (0..len).filter(|&i| bit(i)) {
            raw[i / 8] |= 1 << (i % 8);
        }
        raw
    }

    fn encode_runs(&self, len: usize, bit: &impl Fn(usize) -> bool) -> Vec<u8> {
        // Each coded step as (start, frequency), in decoding order.
        let mut steps: Vec<(u32, u32)> = Vec::new();
        let equal = |steps: &mut Vec<(u32, u32)>, value: u32, bits: u32| {
            let mut left = bits;
            while left > 0 {
                let k = left.min(CHUNK);
                left -= k;
                let chunk = value >> left & ((1 << k) - 1);
                steps.push((chunk << (PROB_BITS - k), 1 << (PROB_BITS - k)));
            }
        };
        equal(&mut steps, bit(0) as u32, 1);
        let mut ctx = Context::FIRST;
        for (b, l) in runs(len, bit) {
            let (s, low, bits) = symbol(l);
            let cum = self.context(ctx.of(b));
            let (start, next) = (cum[s] as u32, cum[s + 1] as u32);
            assert!(next > start, "a run the model has not counted");
            steps.push((start, next - start));
            equal(&mut steps, low, bits);
            ctx = ctx.after(l);
        }
        let mut out = Vec::new();
        let mut x = LOW;
        for &(start, f) in steps.iter().rev() {
            let limit = ((LOW >> PROB_BITS) << 8) * f;
            while x >= limit {
                out.push(x as u8);
                x >>= 8;
            }
            x = ((x / f) << PROB_BITS) + x % f + start;
        }
        out.extend([x as u8, (x >> 8) as u8, (x >> 16) as u8]);
        out.reverse();
        out
    }
}

/// A model ready to decode, small enough to stay in the cache: beside each
/// context's cumulative frequencies, for each of `BUCKETS` equal parts of
/// `TOTAL` the first symbol reaching into it (a symbol is then found by
/// stepping from there, seldom more than once).
pub(crate) struct RunDecoder {
    model: RunModel,
    bucket: Vec<u8>,
}

const BUCKETS: usize = 64;
const BUCKET_BITS: u32 = PROB_BITS - BUCKETS.ilog2();

/// Reads a rANS stream from a block's bytes; past the plane's end it reads
/// zeros (only a damaged block gets there).
struct Stream<'a> {
    data: &'a [u8],
    at: usize,
    x: u32,
}

impl Stream<'_> {
    #[inline]
    fn byte(&mut self) -> u32 {
        let b = self.data.get(self.at).copied().unwrap_or(0);
        self.at += 1;
        b as u32
    }

    #[inline]
    fn step(&mut self, slot: u32, start: u32, f: u32) {
        self.x = f * (self.x >> PROB_BITS) + slot - start;
        while self.x < LOW {
            self.x = self.x << 8 | self.byte();
        }
    }

    #[inline]
    fn equal(&mut self, bits: u32) -> u32 {
        let mut value = 0;
        let mut left = bits;
        while left > 0 {
            let k = left.min(CHUNK);
            left -= k;
            let slot = self.x & (TOTAL - 1);
            let chunk = slot >> (PROB_BITS - k);
            self.step(slot, chunk << (PROB_BITS - k), 1 << (PROB_BITS - k));
            value |= chunk << left;
        }
        value
    }
}

impl RunDecoder {
    pub(crate) fn new(model: RunModel) -> RunDecoder {
        let mut bucket = vec![0u8; CONTEXTS * BUCKETS];
        for ctx in 0..CONTEXTS {
            let cum = model.context(ctx);
            for (k, b) in bucket[ctx * BUCKETS..(ctx + 1) * BUCKETS]
                .iter_mut()
                .enumerate()
            {
                let first = (k << BUCKET_BITS) as u16;
                *b = (0..SYMBOLS)
                    .find(|&s| cum[s + 1] > first)
                    .unwrap_or(SYMBOLS - 1) as u8;
            }
        }
        RunDecoder { model, bucket }
    }

    /// Bit `i` of a block of `len` bits coded in `coded` bytes, which are
    /// the first of `data`; `None` if the runs make no sense (damage).
    #[inline]
    pub(crate) fn bit(&self, data: &[u8], coded: usize, len: usize, i: usize) -> Option<bool> {
        if coded == 0 {
            return Some(false);
        }
        if coded == len.div_ceil(8) {
            return Some(data[i / 8] >> (i % 8) & 1 == 1);
        }
        if coded == 1 {
            return Some(true);
        }
        let mut r = Stream { data, at: 0, x: 0 };
        for _ in 0..3 {
            r.x = r.x << 8 | r.byte();
        }
        let mut value = r.equal(1) == 1;
        let mut ctx = Context::FIRST;
        let mut end = 0;
        while end < len {
            let slot = r.x & (TOTAL - 1);
            let c = ctx.of(value);
            let cum = self.model.context(c);
            if cum[SYMBOLS] == 0 {
                return None;
            }
            let mut s = self.bucket[c * BUCKETS + (slot >> BUCKET_BITS) as usize] as usize;
            while cum[s + 1] as u32 <= slot {
                s += 1;
            }
            let (start, next) = (cum[s] as u32, cum[s + 1] as u32);
            r.step(slot, start, next - start);
            let l = if s < EXACT - 1 {
                s + 1
            } else {
                let c = (s - (EXACT - 1)) as u32 + EXACT.ilog2();
                (1 << c) + r.equal(c) as usize
            };
            end += l;
            if i < end {
                return Some(value);
            }
            ctx = ctx.after(l);
            value = !value;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every form reads back every bit it was given, in blocks of several
    /// lengths, with a model fitted to all of them.
    #[test]
    fn blocks_read_back_their_bits() {
        let patterns: Vec<Box<dyn Fn(usize) -> bool>> = vec![
            Box::new(|_| false),
            Box::new(|_| true),
            Box::new(|i| i % 2 == 0),
            Box::new(|i| i % 997 < 3),
            Box::new(|i| (i / 300) % 2 == 1),
            Box::new(|i| (i * 2_654_435_761usize).is_multiple_of(7)),
            Box::new(|i| i > 4000),
            Box::new(|i| i == 0 || i + 1 == SLOTS),
            Box::new(|i| (i * i / 97) % 3 == 0),
        ];
        let lens = [1, 5, 8, 9, 24, 100, SLOTS];
        let mut counts = RunCounts::default();
        for bit in &patterns {
            for len in lens {
                counts.add_block(len, bit);
            }
        }
        let model = RunModel::fit(&counts);
        assert_eq!(RunModel::from_bytes(&model.to_bytes()), Some(model.clone()));
        let decoder = RunDecoder::new(model.clone());
        for (n, bit) in patterns.iter().enumerate() {
            for len in lens {
                let mut coded = model.encode_block(len, bit);
                let size = coded.len();
                coded.extend([0u8; 8]);
                for i in 0..len {
                    assert_eq!(
                        decoder.bit(&coded, size, len, i),
                        Some(bit(i)),
                        "pattern {n} len {len} bit {i}"
                    );
                }
            }
        }
    }

    /// A model's contexts each sum to the total, and a stored model whose
    /// frequencies do not is refused.
    #[test]
    fn models_are_checked() {
        let mut counts = RunCounts::default();
        counts.add_block(SLOTS, |i| i % 3 == 0 || i > 3000);
        let model = RunModel::fit(&counts);
        let mut bytes = model.to_bytes();
        let first = bytes.iter().position(|&b| b != 0).expect("a frequency");
        bytes[first] ^= 1;
        assert_eq!(RunModel::from_bytes(&bytes), None);
        assert_eq!(RunModel::from_bytes(&bytes[1..]), None);
    }
}
