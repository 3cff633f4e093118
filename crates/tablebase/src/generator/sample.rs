//! Random positions of the tables on disk: openings for matches against
//! table-perfect play (`tb sample`), and the probe benchmark (`tb bench`).

use std::collections::HashSet;
use std::time::Instant;

use crate::format::index::{Indexer, apply_sym};
use crate::probe::tables::Tablebases;
use crate::sector::Sector;
use crate::sector::sector_position;
use crate::value::{Probe, Value};
use morris_rules::Rng;
use morris_rules::{Position, Rules};

/// Endless random positions of the tables of `subs`, each under a random
/// symmetry.
pub(crate) fn random_positions(subs: &[Sector], seed: u64) -> impl Iterator<Item = Position> + '_ {
    let mut rng = Rng::new(seed.max(1));
    std::iter::repeat_with(move || {
        let sub = subs[rng.next_u64() as usize % subs.len()];
        let index = Indexer::new(sub.mine as usize, sub.theirs as usize);
        let slot = rng.next_u64() % index.size();
        let (mine, theirs) = index.position(slot);
        let s = rng.next_u64() as usize % 16;
        sector_position(sub, apply_sym(s, mine), apply_sym(s, theirs))
    })
}

/// Up to `count` distinct random positions of the tables of `subs` whose
/// side to move can move (a blocked side has lost already: not a game to
/// play), of value `wanted` if given. Fewer when that many tries (ten
/// thousand a position, at least a million) find no more: a value the
/// tables hardly hold does not loop for ever.
pub fn sample(
    tbs: &Tablebases,
    rules: &Rules,
    subs: &[Sector],
    count: usize,
    wanted: Option<Value>,
    seed: u64,
) -> (Vec<Position>, usize) {
    let mut seen = HashSet::new();
    let mut found = Vec::new();
    let tries = count.saturating_mul(10_000).max(1_000_000);
    for pos in random_positions(subs, seed).take(tries) {
        if found.len() == count {
            break;
        }
        let value = tbs.probe(&pos).expect("covered").value;
        if wanted.is_none_or(|w| w == value)
            && pos.count_moves(rules) > 0
            && seen.insert(pos.hash())
        {
            found.push(pos);
        }
    }
    (found, tries)
}

/// What `probe_bench` measured.
pub struct ProbeBench {
    /// Nanoseconds a probe on the first pass, which maps the tables and
    /// touches their pages (a cold read when the system's caches were
    /// dropped before).
    pub first_ns: f64,
    /// Nanoseconds a probe of random positions (mostly cache misses).
    pub random_ns: f64,
    /// The median and the 99th percentile of single probes of random
    /// positions, in nanoseconds.
    pub median_ns: f64,
    /// The 99th percentile of those single probes, in nanoseconds.
    pub p99_ns: f64,
    /// Nanoseconds a probe of `hot` positions that stay in cache.
    pub cached_ns: f64,
    /// Random positions probed (at least 1).
    pub positions: usize,
    /// Positions of the cached set: the first of them, at most 1024.
    pub hot: usize,
    /// The sum of the probes' codes, so that none is optimised away.
    pub checksum: u64,
}

/// Times probes of `positions` random positions of the tables of `subs`:
/// all of them once (touching every page), three times more (probes in
/// memory), the first 1024 two thousand times (the cost of the probe
/// itself), then once more each timed alone (median, p99).
pub fn probe_bench(tbs: &Tablebases, subs: &[Sector], positions: usize) -> ProbeBench {
    let set: Vec<Position> = random_positions(subs, 0x2545_f491_4f6c_dd1d)
        .take(positions.max(1))
        .collect();
    let mut checksum = 0u64;
    let mut time = |set: &[Position], rounds: usize| {
        let start = Instant::now();
        for _ in 0..rounds {
            for p in set {
                checksum += tbs.probe(p).map_or(0, |p: Probe| p.code() as u64);
            }
        }
        start.elapsed().as_nanos() as f64 / (rounds * set.len()) as f64
    };
    let first_ns = time(&set, 1);
    let random_ns = time(&set, 3);
    let hot = &set[..set.len().min(1024)];
    let cached_ns = time(hot, 2000);
    let mut single: Vec<u64> = set
        .iter()
        .map(|p| {
            let start = Instant::now();
            checksum += tbs.probe(p).map_or(0, |p: Probe| p.code() as u64);
            start.elapsed().as_nanos() as u64
        })
        .collect();
    single.sort_unstable();
    let quantile = |q: f64| single[((single.len() - 1) as f64 * q) as usize] as f64;
    let (median_ns, p99_ns) = (quantile(0.5), quantile(0.99));
    ProbeBench {
        first_ns,
        random_ns,
        median_ns,
        p99_ns,
        cached_ns,
        positions: set.len(),
        hot: hot.len(),
        checksum,
    }
}
