//! `morris solve` and perfect play from the first placement: on a reduced
//! game with complete tables, the value of every move as the tables give
//! it, and an engine with the tables that never lowers the value against
//! the same search without them, from the start and every first move.

use crate::common::engine;
use crate::common::game_tables;

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use morris::rules::{Color, Game, GameResult, Position};

use morris::tablebase::{Tablebases, Value};

/// Pieces=3 tables, made once.
fn tables() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| game_tables::made("tb-solve", &game_tables::reduced(3)))
}

const RULES: [&str; 6] = [
    "--option",
    "Pieces=3",
    "--option",
    "EndgameMoves=0",
    "--option",
    "NoCaptureMoves=0",
];

fn solve(extra: &[&str]) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_morris"));
    engine::isolate(&mut command);
    command
        .arg("solve")
        .args(extra)
        .output()
        .expect("run morris")
}

#[test]
fn solve_prints_every_moves_value_and_marks_changes() {
    let rules = game_tables::reduced(3);
    let dir = tables().display().to_string();
    let mut args = RULES.to_vec();
    args.extend(["--dir", &dir, "--moves", "d2 d6"]);
    let out = solve(&args);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).unwrap();
    let tbs = Tablebases::open(tables(), &rules);
    let mut game = Game::new(rules, Position::start(&rules));
    game.play_text("d2").unwrap();
    game.play_text("d6").unwrap();
    let value = tbs.probe(game.position()).unwrap();
    assert!(
        text.contains(&format!("value {}", describe(value))),
        "{text}"
    );
    let moves = tbs.moves(game.position()).unwrap();
    for m in &moves {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(&m.mv.to_string()))
            .unwrap_or_else(|| panic!("{} missing in {text}", m.mv));
        assert!(line.contains(&describe(m.probe)), "{line}");
        assert_eq!(line.contains("??"), m.probe.value != value.value, "{line}");
    }
    assert_eq!(text.lines().skip(2).count(), moves.len(), "{text}");
}

#[test]
fn solve_counts_the_replies_keeping_the_value_after_each_move() {
    let rules = game_tables::reduced(3);
    let tbs = Tablebases::open(tables(), &rules);
    let dir = tables().display().to_string();
    let mut game = Game::new(rules, Position::start(&rules));
    let mut shares = std::collections::BTreeSet::new();
    // Along one game, each position's every move: the share of the
    // opponent's replies keeping the value of the position it leads to,
    // counted here from the tables' values.
    for ply in 0..12 {
        if game.outcome().is_some() {
            break;
        }
        let fen = game.position().to_fen(&rules);
        let mut args = RULES.to_vec();
        args.extend(["--dir", &dir, "--fen", &fen, "--replies"]);
        let out = solve(&args);
        assert!(out.status.success(), "{out:?}");
        let text = String::from_utf8(out.stdout).unwrap();
        let moves = tbs.moves(game.position()).unwrap();
        for m in &moves {
            let mut next = game.clone();
            next.play(m.mv);
            let (keeping, legal) = if next.outcome().is_some() {
                (0, 0)
            } else {
                let value = tbs.probe(next.position()).unwrap().value;
                let replies = tbs.moves(next.position()).unwrap();
                let keeping = replies.iter().filter(|r| r.probe.value == value).count();
                (keeping, replies.len())
            };
            shares.insert((keeping, legal));
            let line = text
                .lines()
                .find(|l| l.split_whitespace().next() == Some(&m.mv.to_string()))
                .unwrap_or_else(|| panic!("{} missing in {text}", m.mv));
            assert!(
                line.contains(&format!(" replies {keeping}/{legal}")),
                "{fen}: {line}"
            );
        }
        game.play(moves[(ply * 7) % moves.len()].mv);
    }
    assert!(shares.len() > 3, "{shares:?}");
}

fn describe(p: morris::tablebase::Probe) -> String {
    match (p.value, p.plies) {
        (Value::Draw, _) => "draw".into(),
        (Value::Loss, 0) => "loss, no legal move".into(),
        (Value::Win, 1) => "win, removes or ends the game now".into(),
        (Value::Loss, 1) => "loss, even after removing now".into(),
        (Value::Win, n) => format!("win, removal or end in {n} plies"),
        (Value::Loss, n) => format!("loss, removal or end in {n} plies"),
    }
}

#[test]
fn solve_names_the_command_that_makes_missing_tables() {
    let empty = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tb-solve-none");
    let dir = empty.display().to_string();
    let mut args = RULES.to_vec();
    args.extend(["--dir", &dir]);
    let out = solve(&args);
    assert!(!out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("morris tb generate --phase all --option Pieces=3"),
        "{err}"
    );
    // Rules the tables do not cover are named.
    let out = solve(&["--option", "MinPieces=2", "--dir", &dir]);
    assert!(!out.status.success());
    assert!(String::from_utf8(out.stderr).unwrap().contains("MinPieces"));
}

#[test]
fn the_engine_with_tables_never_lowers_the_value_from_any_first_move() {
    let rules = game_tables::reduced(3);
    let tbs = Tablebases::open(tables(), &rules);
    let mut exact = game_tables::Player::with_tables(&tbs);
    let mut plain = game_tables::Player::plain();
    let start = Game::new(rules, Position::start(&rules));
    let mut openings = vec![start.clone()];
    for m in tbs.moves(start.position()).unwrap() {
        let mut g = start.clone();
        g.play(m.mv);
        openings.push(g);
    }
    let (mut checked, mut won) = (0, 0);
    for game in openings {
        for side in Color::BOTH {
            let value = tbs.probe(game.position()).unwrap().value;
            let mover = game.position().side_to_move();
            let mine = if side == mover {
                value
            } else {
                match value {
                    Value::Win => Value::Loss,
                    Value::Loss => Value::Win,
                    Value::Draw => Value::Draw,
                }
            };
            let (end, n) =
                game_tables::play_checked(&tbs, &mut exact, &mut plain, game.clone(), side, 200, 3);
            checked += n;
            if mine == Value::Win {
                let outcome = end.outcome().expect("a won game ends");
                assert_eq!(outcome.result, GameResult::Win(side), "{:?}", end.moves());
                won += 1;
            }
        }
    }
    assert!(checked > 100 && won > 0, "{checked} moves, {won} wins");
}

#[test]
fn info_reports_the_table_value_not_the_searchs() {
    let dir = tables();
    let mut e = engine::Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    for (name, value) in [
        ("Pieces", "3"),
        ("EndgameMoves", "0"),
        ("NoCaptureMoves", "0"),
    ] {
        e.send(&format!("setoption name {name} value {value}"));
    }
    e.send(&format!(
        "setoption name TablebasePath value {}",
        dir.display()
    ));
    // The start is won: the score is a table win (or a proven mate).
    e.send("position startpos");
    e.send("go depth 4");
    let (_, lines) = e.bestmove();
    let info = lines.iter().rfind(|l| l.starts_with("info depth")).unwrap();
    assert!(
        info.contains("score cp 19") || info.contains("score mate "),
        "{info}"
    );
    assert!(!info.contains(" tbhits 0 "), "{info}");
}

#[test]
fn analyze_marks_the_moves_that_change_the_value() {
    let rules = game_tables::reduced(3);
    let tbs = Tablebases::open(tables(), &rules);
    // The start and its best replies until a move that changes the value
    // exists; then that move.
    let mut game = Game::new(rules, Position::start(&rules));
    let bad = loop {
        let pos = *game.position();
        let value = tbs.probe(&pos).unwrap().value;
        let moves = tbs.moves(&pos).unwrap();
        if let Some(m) = moves.iter().find(|m| m.probe.value != value) {
            break (m.mv, value, m.probe.value);
        }
        game.play(tbs.best_move(&pos).unwrap().mv);
    };
    let mut moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
    moves.push(bad.0.to_string());
    let record = format!(
        "[Pieces \"3\"]\n[EndgameMoves \"0\"]\n[NoCaptureMoves \"0\"]\n[Result \"*\"]\n\n{} *\n",
        moves.join(" ")
    );
    let file = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("value-change.pgn");
    std::fs::write(&file, record).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_morris"));
    engine::isolate(&mut command);
    let out = command
        .env("MORRIS_TB_DIR", tables())
        .args(["analyze", "--depth", "2"])
        .arg(&file)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let word = |v: Value| format!("{v:?}").to_lowercase();
    let mark = format!("{} ?? ({} -> {})", bad.0, word(bad.1), word(bad.2));
    assert!(text.contains(&mark), "{mark} in {text}");
    assert_eq!(text.matches("?? (").count(), 1, "{text}");
}
