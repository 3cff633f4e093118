//! A fixed benchmark: positions of every variant and phase searched to
//! fixed depths on one thread with a cleared table. The total node count
//! is a signature of the search: any change to what it does changes it
//! (the README quotes the current one; about 0.4 s on one core).

use std::fmt;
use std::time::{Duration, Instant};

use super::{Control, ExactKnowledge, Limits, Searcher, Settings};
use morris_rules::{Game, Rules, Setup, Start};

/// Variant, start position (empty: the variant's start), moves, depth.
const POSITIONS: [(&str, &str, &str, u32); 10] = [
    ("nine", "", "", 12),
    ("nine", "", "b4 d2 d6 b2 f2 f4 c4 a4 d5 d7 c5 c3", 12),
    (
        "nine",
        "",
        "b4 d2 d6 b2 f2 f4 c4 a4 d5 d7 c5 c3 e5xa4 a4 f6 e4 g4 b6",
        14,
    ),
    (
        "nine",
        "",
        "b4 d2 d6 b2 f2 f4 c4 a4 d5 d7 c5 c3 e5xa4 a4 f6 e4 g4 b6 g4-g7 d2-d3 g7-g4 b2-d2 g4-g1 a4-a1",
        13,
    ),
    ("nine", "1W1/3/3/2WB2/1B1/2B/1W1 w 0 0 0 30", "", 8),
    ("nine", "W2/1BW/1B1/2W1B1/W2/B1W/3 b 0 0 0 40", "", 12),
    ("twelve", "", "b2 b4 f2 d2 e3 g1 c3 a1 d3xa1", 10),
    (
        "morabaraba",
        "",
        "b2 b4 f2 d2 e3 g1 c3 a1 d3xa1 a1 f6 f4",
        10,
    ),
    (
        "lasker",
        "",
        "b4 d2 d6 b2 f2 f4 d7 d5 a4 c4 a7 a1 g7xa1 a1",
        10,
    ),
    (
        "lasker",
        "",
        "b4 d2 d6 b2 f2 f4 d7 d5 a4 c4 a7 a1 g7xa1 a1 g7-g4 g7 b4-b6 f6 b6-b4 d2-d1 g4-g1 e4",
        10,
    ),
];

/// What a benchmark run measured.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BenchResult {
    /// Total nodes: the signature.
    pub nodes: u64,
    /// The searches' time, all positions together (clearing the table
    /// between them not counted).
    pub elapsed: Duration,
    /// Nodes per second over `elapsed`.
    pub nps: u64,
}

/// The benchmark games, each with its search depth.
pub fn positions() -> Vec<(Game, u32)> {
    POSITIONS
        .iter()
        .map(|&(variant, fen, moves, depth)| {
            let mut rules = Rules::default();
            rules.set("Variant", variant).expect("a known variant");
            let start = if fen.is_empty() {
                Start::Initial
            } else {
                Start::Fen(fen.to_string())
            };
            let moves = moves.split_whitespace().map(str::to_string).collect();
            let game = Setup::new(start, moves)
                .game(&rules)
                .expect("a playable bench position");
            (game, depth)
        })
        .collect()
}

/// The bench line: `bench nodes N nps N time MS`, the node count first
/// (the signature).
impl fmt::Display for BenchResult {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "bench nodes {} nps {} time {}",
            self.nodes,
            self.nps,
            self.elapsed.as_millis()
        )
    }
}

/// Searches every bench position; `depth` overrides the listed depths.
pub fn bench(depth: Option<u32>) -> BenchResult {
    let mut searcher = Searcher::new(Settings::default());
    let control = Control::default();
    let mut nodes = 0;
    let mut elapsed = Duration::ZERO;
    for (game, d) in positions() {
        // Clearing the table is not search time.
        searcher.clear();
        let limits = Limits {
            depth: Some(depth.unwrap_or(d)),
            ..Limits::default()
        };
        let start = Instant::now();
        nodes += searcher
            .search(&game, ExactKnowledge::NONE, &limits, &control, &mut |_| {})
            .nodes;
        elapsed += start.elapsed();
    }
    BenchResult {
        nodes,
        elapsed,
        nps: (nodes as u128 * 1000 / elapsed.as_millis().max(1)) as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::BenchResult;
    use std::time::Duration;

    #[test]
    fn bench_line_format() {
        let result = BenchResult {
            nodes: 2928177,
            elapsed: Duration::from_micros(401_900),
            nps: 7285,
        };
        assert_eq!(result.to_string(), "bench nodes 2928177 nps 7285 time 401");
    }

    #[test]
    fn bench_positions_are_playable() {
        for (game, depth) in super::positions() {
            assert!(game.outcome().is_none() && depth > 0);
        }
    }
}
