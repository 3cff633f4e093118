//! Whole protocol transcripts against the built binary.

use crate::common::engine;

use std::time::{Duration, Instant};

use engine::{Engine, GUARD};

const START: &str = "3/3/3/6/3/3/3 w 9 9 0 1";

#[test]
fn uci_handshake_lists_every_option() {
    let mut e = Engine::start();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(lines[0].starts_with("id name morris "), "{lines:?}");
    assert!(lines[1].starts_with("id author "), "{lines:?}");
    for expected in [
        "option name Variant type combo default nine var nine var twelve var morabaraba var lasker var nine-app var twelve-app var morabaraba-app var lasker-app var dooz var onetime var chamgonu var zhiqi var chengsanqi var dasanqi var mulmulan var nerenchi var elfilja var table0 var table1 var table2 var table3 var table4 var table5 var table6 var table7 var table8 var table9 var table10",
        "option name Pieces type spin default 9 min 3 max 12",
        "option name Diagonals type check default false",
        "option name Flying type combo default three var off var three var both",
        "option name FlyAt type spin default 3 min 3 max 12",
        "option name Lasker type check default false",
        "option name RemovePerMill type check default false",
        "option name MillRemoval type combo default protected var protected var never var any",
        "option name MayPass type check default false",
        "option name MillReform type check default false",
        "option name Blocked type combo default loss var loss var draw var pass var removemove var removepass var bothremove",
        "option name BoardFull type combo default draw var draw var loss var firstloses var removefirst var removesecond var removeone",
        "option name EndgameMoves type spin default 10 min 0 max 1000",
        "option name NoCaptureMoves type spin default 100 min 0 max 1000",
        "option name Repetition type check default true",
        "option name FirstPlayer type combo default white var white var black",
        "option name MinPieces type spin default 3 min 3 max 5",
        "option name PlacingMill type combo default board var board var hand var handagain var victimpicks var mark var tally",
        "option name LossCheck type combo default turn var turn var removal",
        "option name InterventionCross type check default true",
        "option name LeapAtThree type check default false",
        "option name Clear Hash type button",
        "option name UCI_LimitStrength type check default false",
    ] {
        assert!(
            lines.iter().any(|l| l == expected),
            "missing {expected}: {lines:?}"
        );
    }
    for name in [
        "Hash",
        "Threads",
        "MultiPV",
        "Move Overhead",
        "Skill",
        "UCI_Elo",
    ] {
        let prefix = format!("option name {name} type spin default ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "missing {name}"
        );
    }
    assert_eq!(e.sync(), Vec::<String>::new());
}

#[test]
fn gbgp_handshake_positions_and_null_move() {
    let mut e = Engine::start();
    e.send("gbgp");
    let lines = e.read_until(|l| l == "gbgpok");
    assert!(lines[0].starts_with("id name morris "));
    e.send("newgame");
    e.send("position pos b:Wb4,c4:Bd2:2");
    assert_eq!(e.fen(), "3/3/3/1WW3/3/1B1/3 b 7 8 0 2");
    e.send("position pos B:WB4,C4:BD2:2 moves c5");
    assert_eq!(e.fen(), "3/3/B2/1WW3/3/1B1/3 w 7 7 0 3");
    e.send("position pos w:W:B:1");
    assert_eq!(e.fen(), START);
    // Pieces that do not add up.
    e.send("position pos w:Wa1,a4,a7:B:1");
    let err = e.sync();
    assert!(err[0].starts_with("info string error: "), "{err:?}");
    assert_eq!(e.fen(), START);
    // A finished game: white is down to two pieces.
    e.send("position pos w:Wa1,a4:Bb2,b4,b6,d2,d6,f2,f4,f6,g1:10");
    e.send("go depth 3");
    let (mv, lines) = e.bestmove();
    assert_eq!(mv, "none");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string game over: 0-1")),
        "{lines:?}"
    );
}

#[test]
fn rule_options_take_effect_and_reset_the_position() {
    let mut e = Engine::start();
    e.send("position startpos moves d2 d6");
    assert_ne!(e.fen(), START);
    e.send("setoption name Variant value TWELVE");
    assert_eq!(e.fen(), "3/3/3/6/3/3/3 w 12 12 0 1");
    e.send("setoption name Pieces value 5");
    assert_eq!(e.fen(), "3/3/3/6/3/3/3 w 5 5 0 1");
    e.send("setoption name firstplayer value black");
    assert_eq!(e.fen(), "3/3/3/6/3/3/3 b 5 5 0 1");
    // Setting an option to its value also resets the game.
    e.send("position startpos moves d2");
    e.send("setoption name Pieces value 5");
    assert_eq!(e.fen(), "3/3/3/6/3/3/3 b 5 5 0 1");
    // Diagonals: twelve has them, so a1 b2 c3 is a line.
    e.send("setoption name Variant value twelve");
    e.send("position fen 3/3/3/6/2W/W2/3 w 10 12 0 1");
    assert!(e.moves().contains(&"a1".to_string()));
    e.send("position fen 3/3/3/6/2W/W2/3 w 10 12 0 1 moves a1xa7");
    assert!(e.sync()[0].starts_with("info string error:"), "a7 is empty");
    e.send("setoption name Diagonals value false");
    e.send("position fen 3/3/3/6/2W/W2/B2 w 10 11 0 1");
    let moves = e.moves();
    assert!(moves.iter().all(|m| !m.contains('x')), "{moves:?}");
    // Engine options leave the position alone.
    e.send("position startpos moves d2");
    let before = e.fen();
    for cmd in [
        "setoption name Hash value 8",
        "setoption name Threads value 1",
        "setoption name MultiPV value 1",
        "setoption name Clear Hash",
        "setoption name Move Overhead value 10",
    ] {
        e.send(cmd);
        assert_eq!(e.sync(), Vec::<String>::new(), "{cmd}");
    }
    assert_eq!(e.fen(), before);
}

#[test]
fn every_bad_input_is_one_error_line_and_changes_nothing() {
    let mut e = Engine::start();
    e.send("position startpos moves d2 d6");
    let fen = e.fen();
    for bad in [
        "bogus",
        "position startpos moves a1 zz",
        "position startpos moves a1 a1",
        "position startpos moves d2-d3",
        "position fen 3/3/3/6/3/3 w 9 9 0 1",
        "position fen WWWW/3/3/6/3/3/3 w 9 9 0 1",
        "position fen 3/3/3/6/3/3/3 w 10 9 0 1",
        "position fen 3/3/3/6/3/3/3 x 9 9 0 1",
        "position nowhere",
        "setoption name Bogus value 3",
        "setoption name Pieces value 13",
        "setoption name Pieces",
        "setoption name Flying value sometimes",
        "setoption name Hash value 0",
        "setoption name Hash value lots",
        "setoption name UCI_Elo value 10",
        "setoption name UCI_LimitStrength value maybe",
        "go depth x",
        "go fast",
        "go searchmoves a1-a9",
        "go searchmoves d2",
        "perft -1",
        "uci please",
    ] {
        refused(&mut e, bad);
        assert_eq!(e.fen(), fen, "{bad} changed the position");
    }
    // Still alive and working.
    e.send("go depth 1");
    let (mv, _) = e.bestmove();
    assert!(e.moves().contains(&mv));
}

#[test]
fn bad_input_messages_name_the_bad_field() {
    let mut e = Engine::start();
    for (bad, says) in [
        (
            "position fen 3/3/3/6/3/3/3 x 9 9 0 1",
            "the side to move is 'x', expected w or b",
        ),
        (
            "position fen 3/3/3/6/3/3/3 w 9 x 0 1",
            "black's pieces in hand is 'x', expected a whole number",
        ),
        (
            "position fen 3/3/3/6/3/3/3 w 9 9 -2 1",
            "the halfmove clock is '-2', expected a whole number of plies",
        ),
        (
            "position fen 3/3/3/6/3/3/3 w 9 9 0",
            "it ends before the move number",
        ),
        (
            "position fen 3/3/3/6/3/3/3 w 9 9 0 1 x",
            "the rule-set state is 'x', expected spent:, shuttle:, owe: or end:",
        ),
        (
            "go depth -1",
            "go depth takes a whole number of plies, not '-1'",
        ),
        (
            "go movetime 1s",
            "go movetime takes a whole number of milliseconds, not '1s'",
        ),
        (
            "go wtime 1000 btime",
            "go btime needs a whole number of milliseconds after it",
        ),
        ("go fast", "go: unknown argument 'fast'"),
        (
            "position startpos moves d2 a1-b1",
            "move 'a1-b1': b1 is not a point of the board",
        ),
        (
            "position startpos moves b2 g7 d2 a7 f2xa7xg7",
            "move 'f2xa7xg7': one removal per mill: it closes one mill, so it removes one piece, \
             not 2: legal are f2xa7, f2xg7",
        ),
    ] {
        let line = refused(&mut e, bad);
        assert!(line.contains(says), "{bad}: {line}");
    }
}

#[test]
fn blank_lines_crlf_and_extra_spaces_are_accepted() {
    let mut e = Engine::start();
    e.send_raw("\r\n\n   \nposition   startpos   moves  d2   a4 \r\n\r\n");
    assert_eq!(e.fen(), "3/3/3/B5/3/1W1/3 w 8 8 0 2");
}

#[test]
fn moves_and_perft_commands() {
    let mut e = Engine::start();
    e.send("position startpos moves d2");
    let moves = e.moves();
    assert_eq!(moves.len(), 23);
    let mut sorted = moves.clone();
    sorted.sort();
    assert_eq!(moves, sorted);
    e.send("perft 2");
    let lines = e.read_until_prefix("Nodes searched:");
    assert_eq!(lines.last().unwrap(), "Nodes searched: 506");
    assert_eq!(lines.len(), 24);
    assert_eq!(lines[0], "a1: 22");
}

/// The deepest `info depth` of a search to depth 8 from `moves`.
fn depth_reached(e: &mut Engine, moves: &str) -> u32 {
    e.send(&format!("position startpos moves {moves}"));
    e.send("go depth 8");
    let (mv, lines) = e.bestmove();
    assert!(e.moves().contains(&mv), "{mv}");
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("info depth "))
        .map(|l| l.split(' ').next().unwrap().parse::<u32>().unwrap())
        .max()
        .expect("an info line")
}

#[test]
fn strength_limit_weakens_the_search_only_while_on() {
    let mut e = Engine::start();
    let moves = "d2 d6 f4";
    assert_eq!(depth_reached(&mut e, moves), 8);
    // The weakest level searches two turns deep (Skill 0).
    e.send("setoption name UCI_Elo value 1000");
    e.send("setoption name UCI_LimitStrength value true");
    assert_eq!(depth_reached(&mut e, moves), 2);
    // Skill is not used while the strength is limited...
    e.send("setoption name Skill value 20");
    assert_eq!(depth_reached(&mut e, moves), 2);
    // ...and the top of the scale is full strength.
    e.send("uci");
    let max = e
        .read_until(|l| l == "uciok")
        .iter()
        .find_map(|l| l.strip_prefix("option name UCI_Elo type spin "))
        .and_then(|l| l.rsplit(' ').next())
        .expect("UCI_Elo is declared")
        .to_string();
    e.send(&format!("setoption name UCI_Elo value {max}"));
    assert_eq!(depth_reached(&mut e, moves), 8);
    e.send("setoption name UCI_Elo value 1000");
    e.send("setoption name UCI_LimitStrength value false");
    assert_eq!(depth_reached(&mut e, moves), 8);
}

#[test]
fn go_depth_answers_a_legal_move_with_info() {
    let mut e = Engine::start();
    e.send("position startpos moves d2 d6 f2");
    e.send("go depth 2");
    let (mv, lines) = e.bestmove();
    assert!(e.moves().contains(&mv), "{mv}");
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    for field in [
        " seldepth ",
        " score ",
        " nodes ",
        " nps ",
        " time ",
        " pv ",
    ] {
        assert!(info.contains(field), "{info}");
    }
}

#[test]
fn plain_go_answers_by_itself() {
    let mut e = Engine::start();
    e.send("go");
    let (mv, _) = e.bestmove();
    assert!(e.moves().contains(&mv));
}

#[test]
fn infinite_search_waits_for_stop_and_isready_is_answered() {
    let mut e = Engine::start();
    e.send("go infinite");
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok");
    assert!(
        lines.iter().all(|l| !l.starts_with("bestmove")),
        "{lines:?}"
    );
    // No answer on its own.
    std::thread::sleep(Duration::from_millis(300));
    let early = std::iter::from_fn(|| e.next_line(Duration::from_millis(50)))
        .find(|l| l.starts_with("bestmove"));
    assert!(early.is_none(), "answered before stop");
    e.send("stop");
    let (mv, _) = e.bestmove();
    assert!(e.moves().contains(&mv));
    // A new search after stop works.
    e.send("position startpos moves d2");
    e.send("go depth 1");
    let (mv, _) = e.bestmove();
    assert!(e.moves().contains(&mv));
}

#[test]
fn ponder_then_ponderhit_answers() {
    let mut e = Engine::start();
    e.send("position startpos moves d2");
    e.send("go ponder movetime 100");
    std::thread::sleep(Duration::from_millis(300));
    assert!(e.sync().iter().all(|l| !l.starts_with("bestmove")));
    e.send("ponderhit");
    let (mv, _) = e.bestmove();
    assert!(e.moves().contains(&mv));
}

#[test]
fn quit_during_infinite_search_exits() {
    let mut e = Engine::start();
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    e.send("quit");
    assert!(e.wait_exit());
}

#[test]
fn end_of_input_lets_a_finite_search_answer() {
    let mut e = Engine::start();
    e.send("position startpos moves d2");
    e.send("go depth 2");
    e.close_input();
    let (mv, _) = e.bestmove();
    assert_ne!(mv, "(none)");
    assert!(e.wait_exit());
}

#[test]
fn finished_game_answers_none_at_once() {
    let mut e = Engine::start();
    // Black to move with two pieces left.
    e.send("position fen WWW/W2/3/6/3/3/BB1 b 0 0 0 30");
    e.send("go infinite");
    let (mv, lines) = e.bestmove();
    assert_eq!(mv, "(none)");
    assert!(
        lines
            .iter()
            .any(|l| l == "info string game over: 1-0 white wins by fewer than three pieces"),
        "{lines:?}"
    );
    // Blocked: white cannot move.
    e.send("position fen WB1/3/3/B4B/3/1B1/WWW w 0 0 0 30");
    e.send("d");
    let lines = e.read_until_prefix("Game over:");
    assert_eq!(
        lines.last().unwrap(),
        "Game over: 0-1 black wins by no legal move"
    );
    e.send("go depth 5");
    assert_eq!(e.bestmove().0, "(none)");
    e.send("setoption name Blocked value draw");
    e.send("position fen WB1/3/3/B4B/3/1B1/WWW w 0 0 0 30");
    e.send("go depth 5");
    let (mv, lines) = e.bestmove();
    assert_eq!(mv, "(none)");
    assert!(
        lines
            .iter()
            .any(|l| l == "info string game over: 1/2-1/2 draw by no legal move")
    );
}

#[test]
fn repetition_is_announced_but_a_move_still_comes() {
    let mut e = Engine::start();
    let fen = "WWB/3/3/B4W/3/3/B1W w 0 0 0 40";
    let shuffle = "g4-f4 a4-b4 f4-g4 b4-a4";
    e.send(&format!("position fen {fen} moves {shuffle} {shuffle}"));
    e.send("d");
    let lines = e.read_until_prefix("Game over:");
    assert_eq!(
        lines.last().unwrap(),
        "Game over: 1/2-1/2 draw by threefold repetition"
    );
    e.send("go depth 2");
    let (mv, lines) = e.bestmove();
    assert!(
        lines
            .iter()
            .any(|l| l == "info string game over: 1/2-1/2 draw by threefold repetition")
    );
    // The game is over: nothing is listed, but the front end decides, and
    // the game may go on with the move found.
    assert!(e.moves().is_empty());
    e.send(&format!(
        "position fen {fen} moves {shuffle} {shuffle} {mv}"
    ));
    assert!(e.sync().is_empty());
}

#[test]
fn a_two_thousand_move_position_line() {
    let mut e = Engine::start();
    let shuffle = "g4-f4 a4-b4 f4-g4 b4-a4 ";
    let line = format!(
        "position fen WWB/3/3/B4W/3/3/B1W w 0 0 0 40 moves {}",
        shuffle.repeat(500)
    );
    assert_eq!(line.split_whitespace().count(), 2000 + 9);
    let started = Instant::now();
    e.send(&line);
    assert!(e.sync().is_empty());
    assert_eq!(e.fen(), "WWB/3/3/B4W/3/3/B1W w 0 0 2000 1040");
    e.send("go depth 1");
    let (mv, _) = e.bestmove();
    // Drawn by NoCaptureMoves long ago: no moves listed, yet the move
    // found is legal.
    assert!(e.moves().is_empty());
    e.send(&format!("{line} {mv}"));
    assert!(e.sync().is_empty());
    assert!(started.elapsed() < GUARD);
}

#[test]
fn eval_terms_add_up_to_the_total() {
    let mut e = Engine::start();
    e.send("position startpos moves d2");
    e.send("eval");
    let lines = e.sync();
    let values: Vec<(String, i32)> = lines
        .iter()
        .map(|l| {
            let rest = l.strip_prefix("info string eval ").expect("an eval line");
            let (term, value) = rest.rsplit_once(' ').unwrap();
            (term.to_string(), value.parse().unwrap())
        })
        .collect();
    let (last, total) = values.last().unwrap();
    assert_eq!(last, "total");
    let sum: i32 = values[..values.len() - 1].iter().map(|(_, v)| v).sum();
    assert_eq!(sum, *total);
    // Black to move facing a placed white piece is not better off.
    assert!(*total <= 0, "{lines:?}");
}

#[test]
fn bench_signature_is_deterministic() {
    let signature = |e: &mut Engine| {
        e.send("bench");
        let line = e.read_until_prefix("info string bench").pop().unwrap();
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(&words[..4], ["info", "string", "bench", "nodes"], "{line}");
        words[4].parse::<u64>().unwrap()
    };
    let mut e = Engine::start();
    let first = signature(&mut e);
    assert!(first > 0);
    e.send("setoption name Hash value 1");
    assert_eq!(signature(&mut e), first);
}

/// Sends a command the engine must refuse, and returns its one answer,
/// an `info string error:` line.
fn refused(e: &mut Engine, bad: &str) -> String {
    e.send(bad);
    let lines = e.sync();
    assert_eq!(lines.len(), 1, "{bad}: {lines:?}");
    assert!(
        lines[0].starts_with("info string error: "),
        "{bad}: {lines:?}"
    );
    lines[0].clone()
}
