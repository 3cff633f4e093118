//! Fits the evaluation weights to the exact solution (Texel's method with
//! the game-theoretic value in place of game results).
//!
//! cargo run --release --example tune -- gen --tables DIR [options] > data.tsv
//!   --games N     games (default 500), played by a short search with
//!                 random moves mixed in, so that won and lost positions
//!                 come up beside drawn ones
//!   --nodes N     nodes a searched move (default 2000)
//!   --random P    share of random moves, percent (default 15)
//!   --seed S      (default 1)
//!   --threads T   (default 2)
//!   Each position met from ply 6 on, with its value for the side to move
//!   read from the published rules' solution in DIR (EndgameMoves=0
//!   NoCaptureMoves=0): `fen<TAB>score<TAB>ply`, score 1, 0.5 or 0.
//!
//! cargo run --release --example tune -- fit data.tsv [--held-out PERCENT]
//!   The logistic loss of the default weights, then of weights fitted by
//!   gradient descent (on the positions whose hash is outside the held-out
//!   share), both on the held-out positions; prints the fitted weights.

use std::io::{BufRead, Write};
use std::sync::Mutex;

use morris::rules::{Game, MoveList, Position, Rng, Rules};
use morris::search::eval::evaluate_with;
use morris::search::{Control, ExactKnowledge, Limits, Searcher, Settings, Weights};
use morris::tablebase::{Tablebases, Value};

fn published() -> Rules {
    let mut rules = Rules::default();
    rules.set("EndgameMoves", "0").expect("an option");
    rules.set("NoCaptureMoves", "0").expect("an option");
    rules
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .map(|i| args[i + 1].clone())
}

fn generate(args: &[String]) {
    let dir = arg(args, "--tables").expect("--tables DIR");
    let games: usize = arg(args, "--games").map_or(500, |v| v.parse().unwrap());
    let nodes: u64 = arg(args, "--nodes").map_or(2000, |v| v.parse().unwrap());
    let random: u64 = arg(args, "--random").map_or(15, |v| v.parse().unwrap());
    let seed: u64 = arg(args, "--seed").map_or(1, |v| v.parse().unwrap());
    let threads: usize = arg(args, "--threads").map_or(2, |v| v.parse().unwrap());
    let rules = published();
    let tbs = Tablebases::open(&dir, &rules);
    let next = Mutex::new(0usize);
    let out = Mutex::new(std::io::stdout());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                let settings = Settings {
                    hash_mb: 8,
                    ..Settings::default()
                };
                let limits = Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                };
                let control = Control::default();
                loop {
                    let job = {
                        let mut n = next.lock().unwrap();
                        *n += 1;
                        *n - 1
                    };
                    if job >= games {
                        break;
                    }
                    let mut rng = Rng::new(
                        (seed * 1_000_003 + job as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
                    );
                    let mut searcher = Searcher::new(settings);
                    let mut game = Game::new(rules, Position::start(&rules));
                    let mut list = MoveList::new();
                    let mut lines = String::new();
                    for ply in 0..120 {
                        if game.outcome().is_some() {
                            break;
                        }
                        if ply >= 6 {
                            let pos = game.position();
                            let Some(p) = tbs.probe(pos) else { break };
                            let score = match p.value {
                                Value::Win => "1",
                                Value::Draw => "0.5",
                                Value::Loss => "0",
                            };
                            lines += &format!("{}\t{score}\t{ply}\n", pos.to_fen(&rules));
                        }
                        game.legal_moves(&mut list);
                        let mv = if ply < 4 || rng.next_u64() % 100 < random {
                            list.as_slice()[(rng.next_u64() % list.len() as u64) as usize]
                        } else {
                            searcher
                                .search(&game, ExactKnowledge::NONE, &limits, &control, &mut |_| {})
                                .best
                                .expect("a move")
                        };
                        game.play(mv);
                    }
                    out.lock().unwrap().write_all(lines.as_bytes()).unwrap();
                }
            });
        }
    });
}

const NAMES: [&str; 11] = [
    "piece",
    "mobility",
    "blocked_piece",
    "open_mill",
    "closed_mill",
    "double_mill",
    "threat_to_move",
    "threat_against",
    "double_threat_against",
    "junction",
    "blockade",
];

fn to_array(w: &Weights) -> [f64; 11] {
    [
        w.piece,
        w.mobility,
        w.blocked_piece,
        w.open_mill,
        w.closed_mill,
        w.double_mill,
        w.threat_to_move,
        w.threat_against,
        w.double_threat_against,
        w.junction,
        w.blockade,
    ]
    .map(f64::from)
}

fn from_array(a: &[i32; 11]) -> Weights {
    Weights {
        piece: a[0],
        mobility: a[1],
        blocked_piece: a[2],
        open_mill: a[3],
        closed_mill: a[4],
        double_mill: a[5],
        threat_to_move: a[6],
        threat_against: a[7],
        double_threat_against: a[8],
        junction: a[9],
        blockade: a[10],
    }
}

/// A position's features: the evaluation is linear in the weights, so
/// feature i is the evaluation with weight i at 1 and the others at 0.
/// Placement and movement positions get features of their own (22 in all),
/// so that each phase can have its own weights.
struct Sample {
    features: [f64; 22],
    score: f64,
    held_out: bool,
}

fn features(pos: &Position, rules: &Rules) -> [f64; 22] {
    let mut f = [0.0; 22];
    let placing = pos.in_hand(morris::rules::Color::White) > 0
        || pos.in_hand(morris::rules::Color::Black) > 0;
    let base = if placing { 0 } else { 11 };
    for i in 0..11 {
        let mut unit = [0; 11];
        unit[i] = 1;
        f[base + i] = f64::from(evaluate_with(pos, rules, &from_array(&unit)));
    }
    f
}

fn loss(samples: &[Sample], w: &[f64; 22], k: f64, held_out: bool) -> f64 {
    let mut sum = 0.0;
    let mut n = 0;
    for s in samples.iter().filter(|s| s.held_out == held_out) {
        let e: f64 = s.features.iter().zip(w).map(|(f, w)| f * w).sum();
        let p = 1.0 / (1.0 + (-k * e).exp());
        sum += (p - s.score).powi(2);
        n += 1;
    }
    sum / n as f64
}

fn fit(args: &[String]) {
    let path = &args[0];
    let held: u64 = arg(args, "--held-out").map_or(20, |v| v.parse().unwrap());
    let rules = published();
    let file = std::io::BufReader::new(std::fs::File::open(path).expect("the data file"));
    let mut samples = Vec::new();
    for line in file.lines() {
        let line = line.unwrap();
        let mut parts = line.split('\t');
        let fen = parts.next().unwrap();
        let score: f64 = parts.next().unwrap().parse().unwrap();
        let pos = Position::from_fen(fen, &rules).expect("a position");
        let hash = fen.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
        samples.push(Sample {
            features: features(&pos, &rules),
            score,
            held_out: hash % 100 < held,
        });
    }
    let d = to_array(&Weights::DEFAULT);
    let mut w = [0.0; 22];
    w[..11].copy_from_slice(&d);
    w[11..].copy_from_slice(&d);
    // K: the scale of the default weights that fits best.
    let mut k = 0.01;
    let mut best = f64::MAX;
    for i in 1..200 {
        let kk = i as f64 * 0.0002;
        let l = loss(&samples, &w, kk, false);
        if l < best {
            best = l;
            k = kk;
        }
    }
    let train = samples.iter().filter(|s| !s.held_out).count();
    println!("{} positions, {train} to fit, K {k:.4}", samples.len());
    println!(
        "default weights: loss {:.5} (fit set), {:.5} (held out)",
        loss(&samples, &w, k, false),
        loss(&samples, &w, k, true)
    );
    let single = descend(&samples, &w, k, train, true);
    let split = descend(&samples, &w, k, train, false);
    println!(
        "{:<22} {:>7} {:>7} {:>9} {:>9}",
        "weight", "default", "one", "placement", "movement"
    );
    for i in 0..11 {
        println!(
            "{:<22} {:>7} {:>7.1} {:>9.1} {:>9.1}",
            NAMES[i],
            d[i],
            single[i],
            split[i],
            split[11 + i]
        );
    }
}

/// Gradient descent (Adam) from `start`, K fixed; `tied`: one weight for
/// both phases.
fn descend(samples: &[Sample], start: &[f64; 22], k: f64, train: usize, tied: bool) -> [f64; 22] {
    let mut w = *start;
    let (mut m, mut v) = ([0.0; 22], [0.0; 22]);
    let rate = 0.5;
    for step in 1..=2000 {
        let mut grad = [0.0; 22];
        for s in samples.iter().filter(|s| !s.held_out) {
            let e: f64 = s.features.iter().zip(&w).map(|(f, w)| f * w).sum();
            let p = 1.0 / (1.0 + (-k * e).exp());
            let g = 2.0 * (p - s.score) * p * (1.0 - p) * k;
            for (gr, f) in grad.iter_mut().zip(&s.features) {
                *gr += g * f;
            }
        }
        if tied {
            for i in 0..11 {
                grad[i] += grad[11 + i];
                grad[11 + i] = grad[i];
            }
        }
        for i in 0..22 {
            let g = grad[i] / train as f64;
            m[i] = 0.9 * m[i] + 0.1 * g;
            v[i] = 0.999 * v[i] + 0.001 * g * g;
            let mh = m[i] / (1.0 - 0.9f64.powi(step));
            let vh = v[i] / (1.0 - 0.999f64.powi(step));
            w[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
    }
    println!(
        "{}: loss {:.5} (fit set), {:.5} (held out)",
        if tied {
            "one set of weights"
        } else {
            "a set a phase"
        },
        loss(samples, &w, k, false),
        loss(samples, &w, k, true)
    );
    w
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("gen") => generate(&args[1..]),
        Some("fit") => fit(&args[1..]),
        _ => eprintln!("usage: tune gen --tables DIR [options] | tune fit FILE"),
    }
}
