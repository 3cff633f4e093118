//! Small deterministic random number generators, for what must repeat
//! from a seed: xorshift64 for a weakened player's noise, sampled table
//! positions and random games in tests; splitmix64, usable in constants,
//! for the position hash keys.

/// A xorshift64 stream.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The stream after `seed`, which must not be 0 (a fixed point).
    pub const fn new(seed: u64) -> Rng {
        assert!(seed != 0, "a xorshift seed must not be 0");
        Rng(seed)
    }

    /// The stream's next word (never 0).
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// The next word of a splitmix64 stream kept in `state`: a `const fn`, so
/// the hash keys of positions are built at compile time.
pub(crate) const fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
