//! The search with endgame tables: value-optimal moves at covered roots,
//! table hits inside the tree, and a match from covered positions in which
//! the side with tables never lets a win or a draw slip against the same
//! search without them.

use crate::common::engine;
use crate::common::game_tables;
use crate::common::tables;

use std::path::PathBuf;
use std::sync::OnceLock;

use game_tables::Player;

use morris::rules::Rng;
use morris::rules::{Bitboard, Color, Game, Position, Rules, Square};
use morris::tablebase::{Subspace, Tablebases, Value};

/// The 3-3, 4-3 and 3-4 tables of the standard rules, made once.
fn tables() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| tables::made("tb-search", &[(Rules::default(), Subspace::new(3, 4))]))
}

/// Random movement-phase positions, white to move with `w` stones against `b`.
fn random_positions(w: u32, b: u32, n: usize, seed: u64) -> Vec<Position> {
    let rules = Rules::default();
    let mut s = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let mut pieces = [Bitboard::EMPTY; 2];
        for (c, count) in [(0, w), (1, b)] {
            while pieces[c].count() < count {
                let sq = Square::new((s.next_u64() % 24) as usize).unwrap();
                if !(pieces[0] | pieces[1]).contains(sq) {
                    pieces[c] |= sq.bit();
                }
            }
        }
        let pos = Position::new(pieces, [0, 0], Color::White, 0, 30, [0, 0]);
        if pos.count_moves(&rules) > 0 {
            out.push(pos);
        }
    }
    out
}

#[test]
fn covered_roots_get_value_optimal_moves() {
    let rules = Rules::default();
    let tbs = Tablebases::open(tables(), &rules);
    let mut engine = Player::with_tables(&tbs);
    let mut kinds = [0; 3];
    for (w, b, seed) in [(3, 3, 1), (4, 3, 2), (3, 4, 3)] {
        for pos in random_positions(w, b, 40, seed) {
            let game = Game::new(rules, pos);
            let mv = engine.best(&game, 4);
            let moves = tbs.moves(&pos).expect("covered");
            let chosen = moves.iter().find(|m| m.mv == mv).expect("a legal move");
            let optimal = tbs.best_move(&pos).unwrap();
            assert_eq!(chosen.probe, optimal.probe, "{}", pos.to_fen(&rules));
            kinds[match optimal.probe.value {
                Value::Win => 0,
                Value::Draw => 1,
                Value::Loss => 2,
            }] += 1;
        }
    }
    assert!(
        kinds.iter().all(|&k| k > 0),
        "wins, draws, losses: {kinds:?}"
    );
}

#[test]
fn tables_never_let_a_result_slip() {
    let rules = Rules::default();
    let tbs = Tablebases::open(tables(), &rules);
    let mut with = Player::with_tables(&tbs);
    let mut without = Player::plain();
    let mut wins = 0;
    for (w, b, seed) in [(3, 3, 7), (4, 3, 8), (3, 4, 9)] {
        for start in random_positions(w, b, 12, seed) {
            let expected = tbs.probe(&start).unwrap().value;
            if expected == Value::Loss {
                continue;
            }
            let tabled = start.side_to_move();
            let mut game = Game::new(rules, start);
            while game.outcome().is_none() && game.moves().len() < 200 {
                let pos = *game.position();
                let mover_has_tables = pos.side_to_move() == tabled;
                let engine = if mover_has_tables {
                    &mut with
                } else {
                    &mut without
                };
                let mv = engine.best(&game, 3);
                game.play(mv);
                let after = *game.position();
                if mover_has_tables && after.material(!tabled) >= 3 {
                    let theirs = tbs.probe(&after).unwrap().value;
                    let kept = match expected {
                        Value::Win => theirs == Value::Loss,
                        _ => theirs != Value::Win,
                    };
                    assert!(kept, "{} after {mv}", pos.to_fen(&rules));
                }
            }
            if expected == Value::Win {
                let outcome = game.outcome().expect("a won game ends");
                assert_eq!(
                    outcome.result,
                    morris::rules::GameResult::Win(tabled),
                    "{}",
                    start.to_fen(&rules)
                );
                wins += 1;
            }
        }
    }
    assert!(wins > 0);
}

#[test]
fn protocol_reports_table_hits() {
    let dir = tables();
    let mut e = engine::Engine::start();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("option name TablebasePath type string default ")),
        "{lines:?}"
    );
    e.send(&format!(
        "setoption name TablebasePath value {}",
        dir.display()
    ));
    // White (4) against black (3), movement phase: covered.
    e.send("position fen W1W/1B1/3/W4B/3/1B1/W2 w 0 0 0 30");
    e.send("go depth 6");
    let (mv, lines) = e.bestmove();
    let info = lines.iter().find(|l| l.starts_with("info depth")).unwrap();
    let hits: u64 = info
        .split_whitespace()
        .skip_while(|w| *w != "tbhits")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    assert!(hits > 0, "{info}");
    let rules = Rules::default();
    let pos = Position::from_fen("W1W/1B1/3/W4B/3/1B1/W2 w 0 0 0 30", &rules).unwrap();
    let tbs = Tablebases::open(dir, &rules);
    assert_eq!(
        tbs.best_move(&pos).unwrap().probe,
        tbs.moves(&pos)
            .unwrap()
            .iter()
            .find(|m| m.mv.to_string() == mv)
            .unwrap()
            .probe
    );
    // Without tables the same search reports none.
    e.send("setoption name TablebasePath value <empty>");
    e.send("go depth 3");
    let (_, lines) = e.bestmove();
    assert!(lines.iter().any(|l| l.contains(" tbhits 0 ")), "{lines:?}");
}
