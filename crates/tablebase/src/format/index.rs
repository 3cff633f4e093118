//! Position indexing: combinatorial ranking of the two stone sets, reduced
//! by the 16 board symmetries.
//!
//! The mover's stone set is first brought to the least (as a number) of its
//! 16 images; those canonical sets are numbered in increasing order. The
//! other side's set is ranked among the points the mover leaves free, after
//! applying the one symmetry (of those taking the mover's set to its
//! canonical form) that makes it least. So each symmetry class of
//! positions has exactly one canonical slot; the few slots whose other set
//! is not least under the mover set's stabiliser are padding, never
//! reached by a lookup.

use std::sync::OnceLock;

use morris_rules::{Square, Symmetry};

/// Points on the board.
const N: usize = 24;

/// Binomial coefficients C(n, k) for n, k <= 24.
const BINOM: [[u64; N + 1]; N + 1] = {
    let mut t = [[0u64; N + 1]; N + 1];
    let mut n = 0;
    while n <= N {
        t[n][0] = 1;
        let mut k = 1;
        while k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// C(n, k), zero when k > n.
#[inline]
pub(crate) fn binom(n: usize, k: usize) -> u64 {
    BINOM[n][k]
}

/// Images of each byte of a 24-point set under each symmetry, so a whole
/// set maps with three lookups.
struct SymTable([[[u32; 256]; 3]; 16]);

fn sym_table() -> &'static SymTable {
    static TABLE: OnceLock<Box<SymTable>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new(SymTable([[[0; 256]; 3]; 16]));
        for (s, sym) in Symmetry::ALL.iter().enumerate() {
            for part in 0..3 {
                for byte in 0..256usize {
                    let mut out = 0u32;
                    for bit in 0..8 {
                        if byte & (1 << bit) != 0 {
                            let sq = Square::new(part * 8 + bit).expect("24 points");
                            out |= 1 << sym.apply(sq).index();
                        }
                    }
                    t.0[s][part][byte] = out;
                }
            }
        }
        t
    })
}

/// The image of the point set `bb` under symmetry number `s`.
#[inline]
pub(crate) fn apply_sym(s: usize, bb: u32) -> u32 {
    sym_table().apply(s, bb)
}

impl SymTable {
    #[inline]
    fn apply(&self, s: usize, bb: u32) -> u32 {
        let t = &self.0[s];
        t[0][(bb & 255) as usize] | t[1][((bb >> 8) & 255) as usize] | t[2][(bb >> 16) as usize]
    }
}

/// Colex rank of a point set among the sets of its size (= its position
/// in increasing numeric order).
#[inline]
pub(crate) fn rank(set: u32) -> usize {
    let (b0, b1, b2) = (set & 255, (set >> 8) & 255, set >> 16);
    let c0 = b0.count_ones() as usize;
    let c1 = c0 + b1.count_ones() as usize;
    let t = &RANK_PARTS;
    (t[0][b0 as usize][0] + t[1][b1 as usize][c0] + t[2][b2 as usize][c1]) as usize
}

/// `RANK_PARTS[part][byte][below]`: the colex rank terms of the points of
/// `byte` placed at bits `8 * part..`, with `below` set points under them.
static RANK_PARTS: [[[u32; 17]; 256]; 3] = {
    let mut t = [[[0u32; 17]; 256]; 3];
    let mut part = 0;
    while part < 3 {
        let mut byte = 0;
        while byte < 256 {
            let mut below = 0;
            while below < 17 {
                let mut sum = 0u64;
                let mut k = below;
                let mut bit = 0;
                while bit < 8 {
                    if byte & (1 << bit) != 0 {
                        k += 1;
                        if k <= N {
                            sum += BINOM[part * 8 + bit][k];
                        }
                    }
                    bit += 1;
                }
                t[part][byte][below] = sum as u32;
                below += 1;
            }
            byte += 1;
        }
        part += 1;
    }
    t
};

/// Whether `pext` and `pdep` run in hardware here, decided once: BMI2 is
/// present and fast (AMD processors before Zen 3, family 0x19, microcode
/// them at up to hundreds of cycles). The build targets x86-64-v2, which
/// has no BMI2, so these instructions are only reached through this test.
/// `MORRIS_BMI2=0` keeps the portable code, to measure one against the
/// other.
pub(crate) fn hardware_bits() -> bool {
    static FAST: OnceLock<bool> = OnceLock::new();
    *FAST.get_or_init(|| std::env::var_os("MORRIS_BMI2").is_none_or(|v| v != "0") && fast_bmi2())
}

#[cfg(target_arch = "x86_64")]
fn fast_bmi2() -> bool {
    use std::arch::x86_64::__cpuid;
    if !std::arch::is_x86_feature_detected!("bmi2") {
        return false;
    }
    // "AuthenticAMD" begins with "Auth".
    if __cpuid(0).ebx != u32::from_le_bytes(*b"Auth") {
        return true;
    }
    let eax = __cpuid(1).eax;
    let family = ((eax >> 8) & 0xf) + ((eax >> 20) & 0xff);
    family >= 0x19
}

#[cfg(not(target_arch = "x86_64"))]
fn fast_bmi2() -> bool {
    false
}

/// A BMI2 bit instruction on 32-bit operands, as a function. Only called
/// where `hardware_bits()` holds (off x86-64, never).
macro_rules! bmi2 {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[inline(always)]
        fn $name(x: u32, mask: u32) -> u32 {
            #[cfg(target_arch = "x86_64")]
            {
                let out: u32;
                // SAFETY: reached only when `hardware_bits()` found BMI2;
                // the instruction reads and writes registers only.
                unsafe {
                    std::arch::asm!(
                        concat!(stringify!($name), " {out:e}, {x:e}, {mask:e}"),
                        x = in(reg) x,
                        mask = in(reg) mask,
                        out = lateout(reg) out,
                        options(pure, nomem, nostack, preserves_flags),
                    );
                }
                out
            }
            #[cfg(not(target_arch = "x86_64"))]
            {
                let _ = (x, mask);
                unreachable!("no hardware bit packing off x86-64")
            }
        }
    };
}

bmi2!(
    /// The bits of `x` at the set points of `mask`, packed to the low end.
    pext
);
bmi2!(
    /// The low bits of `x` spread over the set points of `mask`, in order.
    pdep
);

/// Colex rank of `set` among the sets of its size drawn from the free
/// points, numbered in order by `free_pos` (the portable code).
#[inline]
fn rank_in_complement(mut set: u32, free_pos: &[u8; N]) -> u64 {
    let mut r = 0;
    let mut k = 1;
    while set != 0 {
        r += BINOM[free_pos[set.trailing_zeros() as usize] as usize][k];
        set &= set - 1;
        k += 1;
    }
    r
}

/// All 24 points.
const FULL: u32 = (1 << N) - 1;

/// Spreads the low bits of `bits` over the set points of `mask`, in order
/// (`pdep`, in software unless `hw`).
#[inline]
fn deposit(mut bits: u32, mut mask: u32, hw: bool) -> u32 {
    if hw {
        return pdep(bits, mask);
    }
    let mut out = 0;
    while bits != 0 && mask != 0 {
        let low = mask & mask.wrapping_neg();
        if bits & 1 != 0 {
            out |= low;
        }
        bits >>= 1;
        mask ^= low;
    }
    out
}

/// The next larger number with the same count of set bits (Gosper's hack).
#[inline]
pub(crate) fn next_combination(x: u32) -> u32 {
    let c = x & x.wrapping_neg();
    let r = x + c;
    (((r ^ x) >> 2) / c) | r
}

/// Every set of `k` stones: its symmetry class and how to reach its
/// canonical representative.
pub(crate) struct StoneSets {
    /// Canonical sets in increasing order; a set's class is its position here.
    pub classes: Vec<u32>,
    /// By colex rank: the class of the set (low 24 bits) and a symmetry
    /// taking it to the class's canonical set (bits 24..28).
    lookup: Vec<u32>,
    /// By class: the symmetries fixing the canonical set (bit 0, the
    /// identity, always set). After the lookup's symmetry, these give the
    /// other images with the same canonical mover set.
    stabiliser: Vec<u16>,
    /// By class: each point's number among the points the canonical set
    /// leaves free (so ranking the other side's stones needs no popcount).
    free_pos: Vec<[u8; N]>,
}

impl StoneSets {
    fn build(k: usize) -> StoneSets {
        let total = binom(N, k) as usize;
        let mut canon = Vec::with_capacity(total);
        let mut masks: Vec<u16> = Vec::with_capacity(total);
        let mut set: u32 = (1 << k) - 1;
        for _ in 0..total {
            let mut best = u32::MAX;
            let mut mask = 0u16;
            for s in 0..16 {
                let img = apply_sym(s, set);
                if img < best {
                    best = img;
                    mask = 1 << s;
                } else if img == best {
                    mask |= 1 << s;
                }
            }
            canon.push(best);
            masks.push(mask);
            if k > 0 {
                set = next_combination(set);
            }
        }
        let mut classes: Vec<u32> = canon.clone();
        classes.sort_unstable();
        classes.dedup();
        let lookup = canon
            .iter()
            .zip(&masks)
            .map(|(c, &mask)| {
                let class = classes.binary_search(c).expect("canonical set listed") as u32;
                class | mask.trailing_zeros() << 24
            })
            .collect();
        let free_pos = classes
            .iter()
            .map(|&set| {
                let mut map = [0u8; N];
                let mut next = 0;
                for (sq, m) in map.iter_mut().enumerate() {
                    *m = next;
                    if set & (1 << sq) == 0 {
                        next += 1;
                    }
                }
                map
            })
            .collect();
        let stabiliser = classes
            .iter()
            .map(|&set| {
                (0..16)
                    .filter(|&s| apply_sym(s, set) == set)
                    .fold(0, |m, s| m | 1 << s)
            })
            .collect();
        StoneSets {
            classes,
            lookup,
            stabiliser,
            free_pos,
        }
    }

    /// The symmetries fixing canonical set number `class` (bit 0, the
    /// identity, always set).
    pub(crate) fn stabiliser(&self, class: usize) -> u16 {
        self.stabiliser[class]
    }

    /// The tables for sets of `k` stones, built on first use.
    pub(crate) fn get(k: usize) -> &'static StoneSets {
        static SETS: [OnceLock<StoneSets>; N + 1] = [const { OnceLock::new() }; N + 1];
        SETS[k].get_or_init(|| StoneSets::build(k))
    }
}

/// A map of point sets that moves each point to at most one bit (a
/// symmetry followed by a compression onto the free points, or the
/// reverse spreading), by bytes: three lookups for a whole set instead of
/// a loop over its points. Built per stone set in the generator's inner
/// loop, where one set's map serves thousands of lookups.
pub(crate) struct PointMap([[u32; 256]; 3]);

impl PointMap {
    pub(crate) const fn new() -> PointMap {
        PointMap([[0; 256]; 3])
    }

    /// Fills the map from the image of each single point.
    #[inline]
    pub(crate) fn fill(&mut self, single: impl Fn(usize) -> u32) {
        for part in 0..3 {
            let t = &mut self.0[part];
            t[0] = 0;
            for byte in 1..256usize {
                let low = byte.trailing_zeros() as usize;
                t[byte] = t[byte & (byte - 1)] | single(part * 8 + low);
            }
        }
    }

    /// The image of a set of points.
    #[inline]
    pub(crate) fn apply(&self, set: u32) -> u32 {
        let t = &self.0;
        t[0][(set & 255) as usize] | t[1][((set >> 8) & 255) as usize] | t[2][(set >> 16) as usize]
    }
}

impl Default for PointMap {
    fn default() -> PointMap {
        PointMap::new()
    }
}

/// `Indexer::index` for a fixed set of the mover's stones.
pub(crate) struct Prepared<'a> {
    ix: &'a Indexer,
    base: u64,
    free_pos: &'a [u8; N],
    /// A symmetry to the canonical set.
    sym: usize,
    /// The canonical set's stabiliser.
    stabiliser: u16,
    /// The canonical set.
    canonical: u32,
}

impl Prepared<'_> {
    /// Fills `map` to compress the other side's stones straight to their
    /// free-point numbers, symmetry included (`index` is then `base +
    /// rank(map.apply(theirs))`); false, leaving `map` alone, when the
    /// canonical set's stabiliser is not trivial (then only `index`
    /// finds the least image).
    #[inline]
    pub(crate) fn fill_map(&self, map: &mut PointMap) -> bool {
        if !self.unique() {
            return false;
        }
        let (sym, free_pos, mine) = (&self.ix.sym.0[self.sym], self.free_pos, self.canonical);
        map.fill(|p| {
            let image = sym[p / 8][1 << (p % 8)];
            if image & mine == 0 {
                1 << free_pos[image.trailing_zeros() as usize]
            } else {
                0
            }
        });
        true
    }

    /// Whether only one symmetry takes the mover's set to its canonical
    /// form, so that distinct sets of the other side get distinct slots.
    #[inline]
    pub(crate) fn unique(&self) -> bool {
        self.stabiliser == 1
    }

    /// The first slot of this mover set's class.
    #[inline]
    pub(crate) fn base(&self) -> u64 {
        self.base
    }

    /// The slot of the position with the other side on `theirs`.
    #[inline]
    pub(crate) fn index(&self, theirs: u32) -> u64 {
        let mut other = self.ix.sym.apply(self.sym, theirs);
        let mut m = self.stabiliser & !1;
        let image = other;
        while m != 0 {
            other = other.min(self.ix.sym.apply(m.trailing_zeros() as usize, image));
            m &= m - 1;
        }
        self.base
            + if self.ix.hw {
                rank(pext(other, !self.canonical & FULL)) as u64
            } else {
                rank_in_complement(other, self.free_pos)
            }
    }
}

/// The index of one subspace: `mine` stones for the side to move, `theirs`
/// for the other.
#[derive(Clone, Copy)]
pub struct Indexer {
    /// Stones on the board of the side to move.
    pub mine: usize,
    /// Stones on the board of the other side.
    pub theirs: usize,
    sets: &'static StoneSets,
    sym: &'static SymTable,
    /// Slots per mover class: C(24 - mine, theirs).
    per_class: u64,
    /// `hardware_bits()`, read once.
    hw: bool,
}

impl Indexer {
    /// The index of `mine` stones to move against `theirs` (at most 24
    /// together, else it panics); the mover's stone sets for `mine` are
    /// built on first use and shared.
    pub fn new(mine: usize, theirs: usize) -> Indexer {
        assert!(mine + theirs <= N, "more stones than points");
        Indexer {
            mine,
            theirs,
            sets: StoneSets::get(mine),
            sym: sym_table(),
            per_class: binom(N - mine, theirs),
            hw: hardware_bits(),
        }
    }

    /// Number of slots (canonical positions plus padding).
    pub fn size(&self) -> u64 {
        self.sets.classes.len() as u64 * self.per_class
    }

    /// Number of mover classes; slots come in runs of `per_class` per class.
    pub fn classes(&self) -> usize {
        self.sets.classes.len()
    }

    /// Slots per mover class: C(24 - mine, theirs), the other side's sets
    /// on the points the mover leaves free.
    pub(crate) fn per_class(&self) -> u64 {
        self.per_class
    }

    /// The slot of the position with these stone sets (any of its images).
    #[inline]
    pub fn index(&self, mine: u32, theirs: u32) -> u64 {
        self.prepare(mine).index(theirs)
    }

    /// The part of `index` that depends on the mover's stones only, for
    /// indexing many positions with the same mover's stones.
    #[inline]
    pub(crate) fn prepare(&self, mine: u32) -> Prepared<'_> {
        let look = self.sets.lookup[rank(mine)];
        let class = look & 0xff_ffff;
        Prepared {
            ix: self,
            base: class as u64 * self.per_class,
            free_pos: &self.sets.free_pos[class as usize],
            sym: ((look >> 24) & 15) as usize,
            stabiliser: self.sets.stabiliser[class as usize],
            canonical: self.sets.classes[class as usize],
        }
    }

    /// The stone sets of a slot (its canonical position, or for padding a
    /// position of the same class).
    pub fn position(&self, slot: u64) -> (u32, u32) {
        let class = (slot / self.per_class) as usize;
        let mut r = slot % self.per_class;
        let mine = self.sets.classes[class];
        let mut compressed = 0u32;
        let mut c = N - self.mine;
        for k in (1..=self.theirs).rev() {
            c -= 1;
            while BINOM[c][k] > r {
                c -= 1;
            }
            r -= BINOM[c][k];
            compressed |= 1 << c;
        }
        (mine, deposit(compressed, !mine & FULL, self.hw))
    }

    /// Calls `f(slot, mine, theirs, canonical)` for every slot of mover
    /// class `class`, in slot order; `canonical` is false for padding.
    pub fn for_each_in_class(&self, class: usize, mut f: impl FnMut(u64, u32, u32, bool)) {
        let mine = self.sets.classes[class];
        let free: Vec<u32> = (0..N as u32).filter(|&s| mine & (1 << s) == 0).collect();
        let mask = self.sets.stabiliser[class];
        let base = class as u64 * self.per_class;
        let mut x: u32 = (1 << self.theirs) - 1;
        for i in 0..self.per_class {
            let theirs = if self.hw {
                pdep(x, !mine & FULL)
            } else {
                let (mut theirs, mut bits) = (0, x);
                while bits != 0 {
                    theirs |= 1 << free[bits.trailing_zeros() as usize];
                    bits &= bits - 1;
                }
                theirs
            };
            let canonical = mask == 1 || {
                let mut m = mask & !1;
                let mut ok = true;
                while m != 0 {
                    if apply_sym(m.trailing_zeros() as usize, theirs) < theirs {
                        ok = false;
                        break;
                    }
                    m &= m - 1;
                }
                ok
            };
            f(base + i, mine, theirs, canonical);
            if self.theirs > 0 {
                x = next_combination(x);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_follow_numeric_order() {
        let mut x: u32 = 0b111;
        for r in 0..binom(24, 3) as usize {
            assert_eq!(rank(x), r);
            x = next_combination(x);
        }
    }

    #[test]
    fn index_is_a_class_invariant_and_round_trips() {
        // Placement sectors have sides with no stones on the board.
        for (m, t) in [(4, 3), (0, 3), (2, 0), (0, 0), (1, 2)] {
            round_trips(Indexer::new(m, t));
        }
    }

    /// The hardware `pext`/`pdep` paths give the portable code's slots
    /// and positions (where the processor has them; the portable code
    /// alone elsewhere).
    #[test]
    fn hardware_bits_agree_with_the_portable_code() {
        for (m, t) in [(4, 4), (0, 3), (2, 0), (3, 6), (1, 2)] {
            let hw = Indexer::new(m, t);
            let portable = Indexer { hw: false, ..hw };
            round_trips(portable);
            for class in 0..hw.classes() {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                hw.for_each_in_class(class, |slot, mine, theirs, c| {
                    a.push((slot, mine, theirs, c))
                });
                portable.for_each_in_class(class, |slot, mine, theirs, c| {
                    b.push((slot, mine, theirs, c))
                });
                assert_eq!(a, b);
                for &(slot, mine, theirs, _) in &a {
                    assert_eq!(hw.position(slot), portable.position(slot));
                    for s in [0, 5, 11] {
                        let (m, t) = (apply_sym(s, mine), apply_sym(s, theirs));
                        assert_eq!(hw.index(m, t), portable.index(m, t));
                    }
                }
            }
        }
    }

    fn round_trips(ix: Indexer) {
        let mut seen = 0;
        for class in 0..ix.classes() {
            ix.for_each_in_class(class, |slot, mine, theirs, canonical| {
                assert_eq!(ix.position(slot), (mine, theirs));
                if canonical {
                    seen += 1;
                    for s in 0..16 {
                        let (m, t) = (apply_sym(s, mine), apply_sym(s, theirs));
                        assert_eq!(ix.index(m, t), slot);
                    }
                } else {
                    assert_ne!(ix.index(mine, theirs), slot);
                }
            });
        }
        assert!(seen > 0);
    }
}
