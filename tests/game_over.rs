//! Once the game is over, by any rule, the engine lists no moves: `moves`
//! and the `Legal moves:` line of `d` are empty in both dialects, while
//! `d` names the end.

use crate::common::engine;

use engine::Engine;

/// Four pieces each, no mill in reach: white shuttles a1-a4, black g7-g4.
const SHUTTLE: &str = "2B/BW1/W2/6/1BW/2B/W2 w 0 0 0 20";
const SHUTTLE_MOVES: [&str; 8] = [
    "a1-a4", "g7-g4", "a4-a1", "g4-g7", "a1-a4", "g7-g4", "a4-a1", "g4-g7",
];

/// `Legal moves:` and `Game over:` of `d`.
fn display_moves_and_end(e: &mut Engine) -> (String, Option<String>) {
    let lines = e.display();
    let legal = lines
        .iter()
        .find_map(|l| l.strip_prefix("Legal moves:"))
        .unwrap_or_else(|| panic!("no Legal moves line: {lines:?}"))
        .trim()
        .to_string();
    let over = lines
        .iter()
        .find_map(|l| l.strip_prefix("Game over: "))
        .map(str::to_string);
    (legal, over)
}

/// Sets up `position` (after `setup`) and checks the moves and the end.
fn check_over(e: &mut Engine, setup: &[&str], position: &str, reason: &str) {
    for line in setup {
        e.send(line);
    }
    e.send(position);
    assert_eq!(e.sync(), Vec::<String>::new(), "{position}");
    assert_eq!(e.moves(), Vec::<String>::new(), "{position}");
    let (legal, over) = display_moves_and_end(e);
    assert_eq!(legal, "", "{position}");
    let over = over.unwrap_or_else(|| panic!("no Game over line for {position}"));
    assert!(over.ends_with(reason), "{position}: {over}");
}

fn finished_games(e: &mut Engine) {
    check_over(
        e,
        &[],
        "position fen WWW/W2/3/6/3/3/BB1 b 0 0 0 30",
        "fewer than three pieces",
    );
    check_over(
        e,
        &[],
        &format!("position fen {SHUTTLE} moves {}", SHUTTLE_MOVES.join(" ")),
        "threefold repetition",
    );
    check_over(
        e,
        &["setoption name NoCaptureMoves value 4"],
        &format!(
            "position fen {SHUTTLE} moves {}",
            SHUTTLE_MOVES[..4].join(" ")
        ),
        "move limit without removal (NoCaptureMoves)",
    );
    // Black to move with every piece hemmed in.
    check_over(
        e,
        &["setoption name NoCaptureMoves value 100"],
        "position fen BW1/3/3/W4W/3/1W1/BBB b 0 0 0 30",
        "no legal move",
    );
}

#[test]
fn finished_games_list_no_moves_in_either_dialect() {
    let mut e = Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    finished_games(&mut e);
    let mut e = Engine::start();
    e.send("gbgp");
    e.read_until(|l| l == "gbgpok");
    finished_games(&mut e);
}

#[test]
fn one_move_before_the_end_the_moves_are_listed() {
    let mut e = Engine::start();
    let before = SHUTTLE_MOVES[..7].join(" ");
    e.send(&format!("position fen {SHUTTLE} moves {before}"));
    let moves = e.moves();
    assert!(moves.contains(&"g4-g7".to_string()), "{moves:?}");
    let (legal, over) = display_moves_and_end(&mut e);
    assert_eq!(legal.split_whitespace().collect::<Vec<_>>(), moves);
    assert_eq!(over, None);
}
