//! Benchmark placeholder.
