//! Perft speed, the hot path of move generation and make-move.
//!
//! `cargo bench --bench perft` runs each case several times and prints the
//! median time and leaves per second (a plain harness: no timing noise
//! from a framework, and nothing to install).

use std::time::Instant;

use morris::rules::{Position, Rules, Variant};

struct Case {
    name: &'static str,
    variant: Variant,
    fen: Option<&'static str>,
    depth: u32,
    runs: usize,
}

const CASES: [Case; 4] = [
    Case {
        name: "start, perft 6",
        variant: Variant::Nine,
        fen: None,
        depth: 6,
        runs: 7,
    },
    Case {
        name: "movement 5v5, perft 5",
        variant: Variant::Nine,
        fen: Some("W2/1B1/W1B/1W2B1/B1W/1W1/B2 w 0 0 0 20"),
        depth: 5,
        runs: 101,
    },
    Case {
        name: "movement 8v8 with mills, perft 5",
        variant: Variant::Nine,
        fen: Some("W1B/1WB/B1W/W1B1W1/1B1/W1B/1W1 w 0 0 0 20"),
        depth: 5,
        runs: 51,
    },
    Case {
        name: "twelve start, perft 5",
        variant: Variant::Twelve,
        fen: None,
        depth: 5,
        runs: 7,
    },
];

fn main() {
    for case in &CASES {
        let rules = Rules::preset(case.variant);
        let pos = match case.fen {
            Some(f) => Position::from_fen(f, &rules).expect("bench position"),
            None => Position::start(&rules),
        };
        let mut times = Vec::with_capacity(case.runs);
        let mut nodes = 0;
        for _ in 0..case.runs {
            let t = Instant::now();
            nodes = std::hint::black_box(pos.perft(&rules, case.depth));
            times.push(t.elapsed().as_secs_f64());
        }
        times.sort_by(f64::total_cmp);
        let median = times[times.len() / 2];
        println!(
            "{:<36} {:>12} leaves  median {:>9.3} ms  {:>6.1} M leaves/s",
            case.name,
            nodes,
            median * 1e3,
            nodes as f64 / median / 1e6
        );
    }
}
