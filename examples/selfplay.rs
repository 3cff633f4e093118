//! Self-play match between two search configurations.
//!
//! cargo run --release --example selfplay -- [options]
//!   --games N       opening pairs (each opening played with both colours), default 50
//!   --depth D       fixed depth per move (default 4), or
//!   --nodes N       fixed nodes per move
//!   --a SPEC        configuration A, e.g. "null=on,lmr=off,mobility=8"
//!   --b SPEC        configuration B (the baseline)
//!   --variant V     nine (default), twelve, morabaraba, lasker
//!   --plies K       random opening plies (default 4)
//!   --seed S        opening seed (default 1)
//!   --threads T     games in parallel (default 2)
//!
//! SPEC keys: null, lmr, qs, millext, futility, lmp, iir (on/off), skill, and the evaluation weights by
//! field name (piece, mobility, blocked_piece, open_mill, closed_mill,
//! double_mill, threat_to_move, threat_against, double_threat_against,
//! junction, blockade).

use std::sync::Mutex;

use morris::rules::{Game, GameResult, MoveList, Position, Rules};
use morris::search::{Control, ExactKnowledge, Limits, Searcher, Settings};

fn parse_spec(spec: &str) -> Settings {
    let mut s = Settings {
        hash_mb: 8,
        ..Settings::default()
    };
    for item in spec.split(',').filter(|i| !i.is_empty()) {
        let (k, v) = item.split_once('=').expect("key=value");
        let on = matches!(v, "on" | "true" | "1" | "yes");
        let n = || v.parse::<i32>().expect("a number");
        let w = &mut s.weights;
        match k {
            "null" => s.null_move = on,
            "lmr" => s.lmr = on,
            "qs" => s.quiescence = on,
            "millext" => s.mill_extension = on,
            "futility" => s.futility = on,
            "lmp" => s.late_move_pruning = on,
            "iir" => s.iir = on,
            "skill" => s.skill = n() as u8,
            "piece" => w.piece = n(),
            "mobility" => w.mobility = n(),
            "blocked_piece" => w.blocked_piece = n(),
            "open_mill" => w.open_mill = n(),
            "closed_mill" => w.closed_mill = n(),
            "double_mill" => w.double_mill = n(),
            "threat_to_move" => w.threat_to_move = n(),
            "threat_against" => w.threat_against = n(),
            "double_threat_against" => w.double_threat_against = n(),
            "junction" => w.junction = n(),
            "blockade" => w.blockade = n(),
            _ => panic!("unknown key {k}"),
        }
    }
    s
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A random but legal opening of `plies` moves that ends no game.
fn opening(rules: &Rules, plies: usize, rng: &mut Rng) -> Game {
    loop {
        let mut game = Game::new(*rules, Position::start(rules));
        let mut list = MoveList::new();
        for _ in 0..plies {
            game.legal_moves(&mut list);
            if list.is_empty() {
                break;
            }
            let mv = list.as_slice()[(rng.next() % list.len() as u64) as usize];
            game.play(mv);
        }
        if game.outcome().is_none() {
            return game;
        }
    }
}

/// Plays one game; the result from A's point of view (1, 0.5, 0).
fn play(mut game: Game, a: &Settings, b: &Settings, a_white: bool, limits: &Limits) -> f64 {
    let mut sa = Searcher::new(*a);
    let mut sb = Searcher::new(*b);
    let control = Control::default();
    let a_color = if a_white {
        morris::rules::Color::White
    } else {
        morris::rules::Color::Black
    };
    for _ in 0..400 {
        if let Some(o) = game.outcome() {
            return match o.result {
                GameResult::Draw => 0.5,
                GameResult::Win(c) if c == a_color => 1.0,
                GameResult::Win(_) => 0.0,
            };
        }
        let searcher = if game.position().side_to_move() == a_color {
            &mut sa
        } else {
            &mut sb
        };
        let out = searcher.search(&game, ExactKnowledge::NONE, limits, &control, &mut |_| {});
        let mv = out.best.expect("a move when the game is not over");
        let mut list = MoveList::new();
        game.legal_moves(&mut list);
        assert!(list.contains(mv), "illegal move {mv}");
        game.play(mv);
    }
    0.5
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let get = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .map(|i| args[i + 1].clone())
    };
    let pairs: usize = get("--games").map_or(50, |v| v.parse().unwrap());
    let plies: usize = get("--plies").map_or(4, |v| v.parse().unwrap());
    let seed: u64 = get("--seed").map_or(1, |v| v.parse().unwrap());
    let threads: usize = get("--threads").map_or(2, |v| v.parse().unwrap());
    let a = parse_spec(&get("--a").unwrap_or_default());
    let b = parse_spec(&get("--b").unwrap_or_default());
    let mut rules = Rules::default();
    if let Some(v) = get("--variant") {
        rules.set("Variant", &v).expect("a variant");
    }
    let limits = Limits {
        depth: get("--nodes")
            .is_none()
            .then(|| get("--depth").map_or(4, |v| v.parse().unwrap())),
        nodes: get("--nodes").map(|v| v.parse().unwrap()),
        ..Limits::default()
    };
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let openings: Vec<Game> = (0..pairs)
        .map(|_| opening(&rules, plies, &mut rng))
        .collect();
    let next = Mutex::new(0usize);
    let results = Mutex::new([0u32; 3]);
    let start = std::time::Instant::now();
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| {
                loop {
                    let job = {
                        let mut n = next.lock().unwrap();
                        *n += 1;
                        *n - 1
                    };
                    if job >= 2 * pairs {
                        break;
                    }
                    let game = openings[job / 2].clone();
                    let r = play(game, &a, &b, job % 2 == 0, &limits);
                    let mut res = results.lock().unwrap();
                    res[if r == 1.0 {
                        0
                    } else if r == 0.5 {
                        1
                    } else {
                        2
                    }] += 1;
                }
            });
        }
    });
    let [w, d, l] = *results.lock().unwrap();
    let n = (w + d + l) as f64;
    let score = (w as f64 + d as f64 / 2.0) / n;
    let elo = |p: f64| -400.0 * (1.0 / p.clamp(1e-3, 1.0 - 1e-3) - 1.0).log10();
    // Standard error of the mean game score, per game.
    let var = (w as f64 * (1.0 - score).powi(2)
        + d as f64 * (0.5 - score).powi(2)
        + l as f64 * score.powi(2))
        / n;
    let se = (var / n).sqrt();
    println!(
        "A vs B: +{w} ={d} -{l}  score {:.3}  Elo {:+.0} (95%: {:+.0} .. {:+.0})  [{:.0}s]",
        score,
        elo(score),
        elo(score - 1.96 * se),
        elo(score + 1.96 * se),
        start.elapsed().as_secs_f64()
    );
}
