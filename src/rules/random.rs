//! A small deterministic random number generator (xorshift64), for what
//! must repeat from a seed: a weakened player's noise, sampled table
//! positions, random games in tests.

/// A xorshift64 stream.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// The stream after `seed`, which must not be 0 (a fixed point).
    pub const fn new(seed: u64) -> Rng {
        assert!(seed != 0, "a xorshift seed must not be 0");
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
