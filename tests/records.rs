//! `morris record`: PlayOK's and Sanmill's records read, converted and
//! written, each game replayed move by move through the rules core; the
//! dialects' notations are derived here from the board's coordinates, not
//! taken from the converters.

use std::process::Output;

use crate::common;
use crate::common::Rng;
use morris::rules::{Color, Game, Move, MoveList, Position, Rules, Setup, Square, Start};

fn record(args: &[&str], stdin: &str) -> Output {
    let mut all = vec!["record"];
    all.extend_from_slice(args);
    common::morris_with_input(&all, &[], stdin)
}

fn stdout_of(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// A game of seeded random moves from `start`, at most `plies` long.
fn random_game(rules: Rules, start: Position, seed: u64, plies: usize) -> Game {
    let mut game = Game::new(rules, start);
    let mut rng = Rng::new(seed);
    while game.outcome().is_none() && game.moves().len() < plies {
        let mut list = MoveList::new();
        game.legal_moves(&mut list);
        game.play(*rng.pick(list.as_slice()));
    }
    game
}

/// PlayOK's number of a point: left to right, top to bottom, from 1.
fn playok_number(sq: Square) -> usize {
    let mut order: Vec<Square> = Square::ALL.to_vec();
    order.sort_by_key(|s| {
        let (file, rank) = s.coords();
        (std::cmp::Reverse(rank), file)
    });
    order.iter().position(|&s| s == sq).unwrap() + 1
}

fn playok_move(mv: Move) -> String {
    let mut text = String::new();
    if let Some(from) = mv.from() {
        text += &format!("{}-", playok_number(from));
    }
    if let Some(to) = mv.to() {
        text += &playok_number(to).to_string();
    }
    for r in mv.removals() {
        // PlayOK's removal, as a token of its own.
        text += &format!(" x{}", playok_number(r));
    }
    text
}

/// The moves of the only record of `text`, in our notation, replayed
/// from `start` under `rules`.
fn replayed(text: &str, rules: &Rules, start: Start) -> Vec<Move> {
    let movetext: String = text
        .lines()
        .filter(|l| !l.starts_with('['))
        .collect::<Vec<_>>()
        .join(" ");
    // Without the comments (ours has no braces inside them).
    let mut plain = String::new();
    let mut in_comment = false;
    for c in movetext.chars() {
        match c {
            '{' => in_comment = true,
            '}' => in_comment = false,
            c if !in_comment => plain.push(c),
            _ => {}
        }
    }
    let words: Vec<String> = plain
        .split_whitespace()
        .filter(|w| !w.ends_with('.') && !["*", "1-0", "0-1", "1/2-1/2"].contains(w))
        .map(str::to_string)
        .collect();
    Setup::new(start, words)
        .game(rules)
        .unwrap_or_else(|e| panic!("{e}:\n{text}"))
        .moves()
        .to_vec()
}

fn tag<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let prefix = format!("[{name} \"");
    text.lines()
        .find_map(|l| l.strip_prefix(&prefix)?.strip_suffix("\"]"))
}

#[test]
fn playok_games_read_as_the_standard_game_and_written_back() {
    let rules = Rules::default();
    for seed in 0..30 {
        let game = random_game(rules, Position::start(&rules), seed, 200);
        let mut movetext = String::new();
        for (i, &mv) in game.moves().iter().enumerate() {
            if i % 2 == 0 {
                movetext += &format!("{}. ", i / 2 + 1);
            }
            movetext += &playok_move(mv);
            movetext.push(' ');
        }
        let text = format!(
            "[Event \"PlayOK game\"]\n[Site \"PlayOK\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n{movetext}*\n"
        );
        let ours = stdout_of(&record(&[], &text));
        assert_eq!(tag(&ours, "Site"), Some("PlayOK"));
        assert_eq!(
            replayed(&ours, &rules, Start::Initial),
            game.moves(),
            "{ours}"
        );
        let back = stdout_of(&record(&["--to", "playok"], &ours));
        let again = stdout_of(&record(&[], &back));
        assert_eq!(again, ours, "seed {seed}: {back}");
    }
}

/// Sanmill's board string of `position`: the rings inner to outer, each
/// clockwise from its top middle point.
fn sanmill_board(position: &Position) -> String {
    let mut rings = Vec::new();
    for k in 1..=3i8 {
        let steps = [
            (0, k),
            (k, k),
            (k, 0),
            (k, -k),
            (0, -k),
            (-k, -k),
            (-k, 0),
            (-k, k),
        ];
        let ring: String = steps
            .iter()
            .map(|&(df, dr)| {
                let sq = Square::from_coords((3 + df) as u8, (3 + dr) as u8).unwrap();
                match position.piece_at(sq) {
                    Some(Color::White) => 'O',
                    Some(Color::Black) => '@',
                    None => '*',
                }
            })
            .collect();
        rings.push(ring);
    }
    rings.join("/")
}

#[test]
fn sanmill_records_from_set_up_positions_read_and_written_back() {
    let rules = Rules::with_settings("nine-app", &[] as &[&str]).unwrap();
    for seed in 0..30 {
        // A set-up position: a random game's position, as Sanmill writes it.
        let before = random_game(rules, Position::start(&rules), seed, 6 + seed as usize);
        let start = *before.position();
        if before.outcome().is_some() || start.owed().count > 0 {
            continue;
        }
        let game = random_game(rules, start, seed + 100, 120);
        let side = start.side_to_move();
        let placing = start.in_hand(Color::White) + start.in_hand(Color::Black) > 0;
        let fen = format!(
            "{} {} {} {} {} {} {} 0 0 0 0 0 0 0 {} {}",
            sanmill_board(&start),
            if side == Color::White { "w" } else { "b" },
            if placing { "p p" } else { "m s" },
            start.pieces(Color::White).count(),
            start.in_hand(Color::White),
            start.pieces(Color::Black).count(),
            start.in_hand(Color::Black),
            start.clock(),
            start.fullmove(),
        );
        // Sanmill's movetext: its removals as tokens of their own, a
        // variation, a NAG and a comment.
        let mut movetext = String::new();
        let mut turn = side;
        let mut number = start.fullmove();
        for (i, &mv) in game.moves().iter().enumerate() {
            match turn {
                Color::White => movetext += &format!("{number}. "),
                Color::Black if i == 0 => movetext += &format!("{number}... "),
                Color::Black => {}
            }
            let mut text = String::new();
            if let Some(from) = mv.from() {
                text += &format!("{from}-");
            }
            if let Some(to) = mv.to() {
                text += &to.to_string();
            }
            for r in mv.removals() {
                text += &format!(" x{r}");
            }
            movetext += &text;
            if i == 0 {
                movetext += " $1 {a comment} (1. a1 {not played} (1. a4)) ";
            }
            movetext.push(' ');
            if turn == Color::Black {
                number += 1;
            }
            turn = !turn;
        }
        let text = format!(
            "[Event \"Sanmill-Game\"]\r\n[Site \"Sanmill\"]\r\n[Result \"*\"]\r\n[Variant \"Nine Men's Morris\"]\r\n[FEN \"{fen}\"]\r\n[SetUp \"1\"]\r\n\r\n{movetext}*\r\n"
        );
        let ours = stdout_of(&record(&[], &text));
        assert_eq!(tag(&ours, "Variant"), Some("nine-app"), "{ours}");
        let our_fen = tag(&ours, "FEN").unwrap();
        assert_eq!(Position::from_fen(our_fen, &rules).unwrap(), start, "{fen}");
        let moves = replayed(&ours, &rules, Start::Fen(our_fen.to_string()));
        assert_eq!(moves, game.moves(), "{ours}");
        let sanmill = stdout_of(&record(&["--to", "sanmill"], &ours));
        assert_eq!(tag(&sanmill, "FEN"), Some(fen.as_str()));
        assert_eq!(tag(&sanmill, "Variant"), Some("Nine Men's Morris"));
        assert_eq!(stdout_of(&record(&[], &sanmill)), ours);
    }
}

#[test]
fn bad_records_name_the_line_and_the_token() {
    let cases = [
        ("1. 20 5\n2. 11 25 *\n", "line 2: '25' is not a move"),
        ("1. d2 (1. d6\n", "never closed"),
        ("1. d2 d6) *\n", "line 1: ')' closes no variation"),
        (
            "[FEN \"O*******/********/*******@ w p p 2 7 1 8 0 0 0 0 0 0 0 0 1\"]\n\n*\n",
            "the counts of pieces on the board disagree",
        ),
        (
            "[Site \"Sanmill\"]\n[Variant \"Custom\"]\n\n1. d2 *\n",
            "Custom",
        ),
    ];
    for (text, want) in cases {
        let out = record(&[], text);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success() && err.contains(want), "{text}: {err}");
        assert!(out.stdout.is_empty());
    }
    // Sanmill's Custom rules, named on the command line.
    let out = record(
        &["--variant", "nine-app"],
        "[Site \"Sanmill\"]\n[Variant \"Custom\"]\n\n1. d2 *\n",
    );
    assert!(stdout_of(&out).contains("[Variant \"nine-app\"]"));
}

/// `morris puzzles`: from a game whose opening the built-in book values,
/// each position where few moves keep the value and the game threw it
/// away, its solutions the book's value-keeping moves, its position in
/// Sanmill's string read back to the game's.
#[test]
fn puzzles_from_a_games_mistakes_hold_the_books_values() {
    use morris::tablebase::{book, preference};
    let tables = std::env::temp_dir().join(format!("morris-puzzles-{}", std::process::id()));
    std::fs::create_dir_all(&tables).unwrap();
    let text = "[Event \"x\"]\n\n1. d2 d6 2. f4 b4 3. a1 g7 4. a7 b6 5. g1 *\n";
    let run = |max: &str| {
        let out = common::morris_with_input(
            &["puzzles", "--max-keeping", max],
            &[("MORRIS_TB_DIR", tables.as_os_str())],
            text,
        );
        serde_json::from_str::<serde_json::Value>(&stdout_of(&out)).unwrap()
    };
    let rules = Rules::default();
    let book = book::builtin().serving(&rules).unwrap();
    let game = Setup::new(
        Start::Initial,
        "d2 d6 f4 b4 a1 g7 a7 b6 g1"
            .split(' ')
            .map(String::from)
            .collect(),
    )
    .game(&rules)
    .unwrap();
    // Every position where the book says the move played threw the value
    // away and at most `max` of five or more moves keep it.
    let expected = |max: usize| -> Vec<usize> {
        let mut replay = Game::new(rules, Position::start(&rules));
        let mut plies = Vec::new();
        for (i, &mv) in game.moves().iter().enumerate() {
            let moves = book.moves(replay.position(), &rules).unwrap();
            let best = moves
                .iter()
                .map(|m| m.probe)
                .max_by_key(|&p| preference(p))
                .unwrap();
            let after = moves.iter().find(|m| m.mv == mv).unwrap().probe;
            let keeping = moves.iter().filter(|m| m.probe.value == best.value).count();
            if format!("{:?}", best.value) != "Loss"
                && after.value != best.value
                && keeping <= max
                && moves.len() >= 5
            {
                plies.push(i + 1);
            }
            replay.play(mv);
        }
        plies
    };
    // Not vacuous: 5. g1 is the only win thrown away, 4... b6 a draw
    // that three moves keep.
    assert_eq!((expected(1), expected(3)), (vec![9], vec![8, 9]));
    for max in [1usize, 3] {
        let file = run(&max.to_string());
        let puzzles = file["puzzles"].as_array().unwrap();
        assert_eq!(file["puzzleCount"], puzzles.len());
        let plies: Vec<usize> = puzzles
            .iter()
            .map(|p| {
                p["id"]
                    .as_str()
                    .unwrap()
                    .rsplit('-')
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            })
            .collect();
        assert_eq!(plies, expected(max), "{file:#}");
        for (p, &ply) in puzzles.iter().zip(&plies) {
            let mut replay = Game::new(rules, Position::start(&rules));
            for &mv in &game.moves()[..ply - 1] {
                replay.play(mv);
            }
            let pos = *replay.position();
            // The position, through Sanmill's string and our reader.
            let sanmill = format!(
                "[Site \"Sanmill\"]\n[Variant \"nine\"]\n[FEN \"{}\"]\n\n*\n",
                p["initialPosition"].as_str().unwrap()
            );
            let ours = stdout_of(&record(&[], &sanmill));
            assert_eq!(
                Position::from_fen(tag(&ours, "FEN").unwrap(), &rules).unwrap(),
                pos
            );
            let (_, keeping) = common::book_values(&pos, &rules);
            let mut solutions: Vec<String> = p["solutions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| {
                    let ms = s["moves"].as_array().unwrap();
                    ms.iter()
                        .map(|m| m["notation"].as_str().unwrap())
                        .collect::<String>()
                })
                .collect();
            solutions.sort();
            assert_eq!(solutions, keeping, "{p:#}");
        }
    }
    std::fs::remove_dir_all(&tables).unwrap();
}
