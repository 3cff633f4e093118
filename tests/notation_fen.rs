//! Move notation and position strings: every legal move reads back from
//! its text (any case, any valid removal order); random tokens are
//! accepted exactly when the naive reference finds them legal; malformed
//! and illegal tokens are refused with a reason; FEN strings round-trip
//! and bad ones are refused with a reason.

use crate::common;

use common::Rng;
use common::naive::{NaiveGame, index_of, move_text};
use morris::rules::{
    Color, Flying, Game, MillRemoval, MoveList, MoveReason, MoveText, Position, RuleOptions, Rules,
    START_FEN, Variant,
};

fn nine(settings: &[&str]) -> Rules {
    let mut r = Rules::preset(Variant::Nine);
    for s in settings {
        r.apply(s).unwrap();
    }
    r
}

fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}

/// Mixed case, as a front end might send it.
fn scramble_case(text: &str, rng: &mut Rng) -> String {
    text.chars()
        .map(|c| {
            if rng.chance(50) {
                c.to_ascii_uppercase()
            } else {
                c
            }
        })
        .collect()
}

#[derive(Default, Debug)]
struct Counts {
    plies: usize,
    parsed: usize,
    orders: usize,
    invalid_orders_refused: usize,
    random_tokens: usize,
}

/// Checks every legal move of the current position and a batch of random
/// tokens.
fn check_position(pos: &Position, rules: &Rules, naive: &NaiveGame, rng: &mut Rng, n: &mut Counts) {
    let fen = pos.to_fen(rules);
    let mut list = MoveList::new();
    pos.legal_moves(rules, &mut list);
    n.plies += 1;
    for &mv in list.iter() {
        let text = mv.to_string();
        assert_eq!(pos.parse_move(rules, &text), Ok(mv), "{fen}: {text}");
        assert_eq!(
            pos.parse_move(rules, &text.to_ascii_uppercase()),
            Ok(mv),
            "{fen}: upper case {text}"
        );
        let mixed = scramble_case(&text, rng);
        assert_eq!(pos.parse_move(rules, &mixed), Ok(mv), "{fen}: {mixed}");
        n.parsed += 3;
        if mv.num_removals() > 1 {
            let from = mv.from().map(|s| index_of(s.name()));
            let to = index_of(mv.to().unwrap().name());
            let removed: Vec<usize> = mv.removals().map(|s| index_of(s.name())).collect();
            let valid = naive.removal_orders(from, to).expect("legal turn");
            for order in permutations(&removed) {
                let t = move_text(from, to, &order);
                let got = pos.parse_move(rules, &t);
                if valid.contains(&order) {
                    assert_eq!(got, Ok(mv), "{fen}: valid order {t}");
                    n.orders += 1;
                } else {
                    // docs/rules.md 4.3 accepts valid orders only.
                    let err = got.expect_err("an invalid removal order is refused");
                    let order = matches!(err.reason, MoveReason::RemovalOrder { .. });
                    assert!(order, "{fen}: {t}: {err}");
                    n.invalid_orders_refused += 1;
                }
            }
        }
    }
    // Random tokens: accepted exactly when naive has a legal move with that
    // turn and that set of removals (no point removed twice).
    let naive_moves = naive.legal_moves();
    for _ in 0..20 {
        let from = if rng.chance(50) {
            Some(rng.below(24))
        } else {
            None
        };
        let to = rng.below(24);
        let k = *rng.pick(&[0, 0, 1, 1, 2, 3]);
        let removals: Vec<usize> = (0..k).map(|_| rng.below(24)).collect();
        let t = move_text(from, to, &removals);
        let mut set = removals.clone();
        set.sort();
        set.dedup();
        let legal = set.len() == removals.len()
            && naive_moves.iter().any(|m| {
                let mut s = m.removals.clone();
                s.sort();
                m.from == from && m.to == to && s == set
            });
        let got = pos.parse_move(rules, &t);
        assert_eq!(got.is_ok(), legal, "{fen}: token {t} gave {got:?}");
        if let Err(e) = got {
            assert_eq!(e.token, t);
            assert!(!e.reason.to_string().is_empty());
        }
        n.random_tokens += 1;
    }
}

fn random_games(label: &str, rules: Rules, games: usize, seed: u64) {
    let mut n = Counts::default();
    let mut rng = Rng::new(seed);
    for _ in 0..games {
        let mut game = Game::new(rules, Position::start(&rules));
        let mut naive = NaiveGame::new(rules);
        let removal_bias = *rng.pick(&[0, 50, 90]);
        for _ in 0..rng.range(40, 200) {
            let pos = *game.position();
            check_position(&pos, &rules, &naive, &mut rng, &mut n);
            if game.outcome().is_some_and(|o| !o.reason.is_counting_rule()) {
                break;
            }
            let moves = naive.legal_moves();
            let removing: Vec<usize> = (0..moves.len())
                .filter(|&i| !moves[i].removals.is_empty())
                .collect();
            let i = if !removing.is_empty() && rng.chance(removal_bias) {
                *rng.pick(&removing)
            } else {
                rng.below(moves.len())
            };
            game.play_text(&moves[i].text).unwrap();
            naive.play(&moves[i]);
        }
    }
    println!("{label}: {n:?}");
    assert!(n.parsed > 0);
}

#[test]
fn legal_moves_parse_back_nine() {
    random_games("nine", nine(&[]), 150, 1);
}

#[test]
fn legal_moves_parse_back_morabaraba() {
    random_games("morabaraba", Rules::preset(Variant::Morabaraba), 150, 2);
}

#[test]
fn legal_moves_parse_back_multi_removal_options() {
    // Many multi-removal moves, with every removal mode.
    for (i, mode) in [MillRemoval::Protected, MillRemoval::Never, MillRemoval::Any]
        .into_iter()
        .enumerate()
    {
        let mut r = *Rules::preset(Variant::Morabaraba);
        r.mill_removal = mode;
        r.may_pass = i == 1;
        r.flying = Flying::Both;
        random_games("morabaraba modes", Rules::new(r), 80, 10 + i as u64);
    }
    let mut r = *nine(&["RemovePerMill=true", "MayPass=true", "MillReform=true"]);
    r.lasker = true;
    random_games("nine per-mill lasker reform", Rules::new(r), 100, 20);
}

#[test]
fn protected_removal_orders() {
    // Black: b6-d6-f6 and f6-f4-f2 (all in mills); white's g1 closes two.
    let r = nine(&["RemovePerMill=true"]);
    let fen = "2W/BBB/3/4BW/3/2B/WW1 w 5 4 0 5";
    let pos = Position::from_fen(fen, &r).unwrap();
    // Written with f6 first (the only valid order), read in that order.
    let mv = pos.parse_move(&r, "g1xf6xb6").unwrap();
    assert_eq!(mv.to_string(), "g1xf6xb6");
    // The other order is not valid: with b6 gone, d6 is free and f6 protected.
    let err = pos.parse_move(&r, "g1xb6xf6").unwrap_err();
    assert!(
        err.reason.to_string().contains("f6 may not be removed"),
        "{}",
        err.reason
    );
    // Both orders of {b6, d6} are valid and name one move.
    let a = pos.parse_move(&r, "g1xb6xd6").unwrap();
    let b = pos.parse_move(&r, "G1XD6XB6").unwrap();
    assert_eq!(a, b);
    assert_eq!(a.to_string(), "g1xb6xd6");
    // A set no order makes valid is refused.
    let err = pos.parse_move(&r, "g1xb6xf4").unwrap_err();
    assert!(
        err.reason.to_string().contains("removals are not allowed"),
        "{}",
        err.reason
    );
}

#[test]
fn malformed_tokens() {
    let r = Rules::default();
    let pos = Position::start(&r);
    for bad in [
        "",
        " ",
        "d4",
        "h1",
        "a0",
        "a8",
        "d2x",
        "a1-",
        "-a1",
        "a1a4",
        "xd4",
        "d8",
        "a1--a4",
        "a1-a4-a7",
        "d2xa7x",
        "d2 xa7",
        "d2xx",
        "d2,a7",
        "d2xa7 ",
        " d2",
        "a1+a4",
        "11",
        "dd",
        "d2xa7xb6xc5xd1",
    ] {
        let err = pos.parse_move(&r, bad).unwrap_err();
        if MoveText::parse(bad).is_err() {
            // A part written as a point that names none is named.
            let missing = ["d4", "h1", "a0", "a8", "d8"]
                .into_iter()
                .find(|p| bad.split(['-', 'x']).any(|part| part == *p));
            let want = match missing {
                Some(p) => format!("{p} is not a point of the board"),
                None => "not a move".to_string(),
            };
            assert!(
                err.reason.to_string().contains(&want),
                "{bad:?}: {}",
                err.reason
            );
        } else {
            // Well formed, but four removals are never legal.
            assert_eq!(bad, "d2xa7xb6xc5xd1");
            assert!(
                err.reason.to_string().contains("forms no mill"),
                "{}",
                err.reason
            );
        }
        assert_eq!(err.token, bad);
        assert!(err.to_string().contains("move '"), "{err}");
    }
    // Well-formed tokens in any case.
    let t = MoveText::parse("A1-A4XG7").unwrap();
    assert_eq!(
        (
            t.from.unwrap().name(),
            t.to.unwrap().name(),
            t.removals.len()
        ),
        ("a1", "a4", 1)
    );
}

fn reason(rules: &Rules, fen: &str, token: &str) -> String {
    let pos = Position::from_fen(fen, rules).unwrap();
    let err = pos.parse_move(rules, token).unwrap_err();
    assert_eq!(err.token, token);
    err.reason.to_string()
}

#[test]
fn illegal_moves_say_why() {
    let r = Rules::default();
    let placing = "2W/BBB/3/6/3/3/WW1 w 6 6 0 4";
    let cases: [(&str, &str, &str); 10] = [
        // occupied
        (placing, "g7", "occupied"),
        (placing, "a1", "occupied"),
        // a slide while pieces are in hand
        (placing, "a1-a4", "must place"),
        // no such piece
        (
            "2W/BBB/3/6/3/3/WW1 w 0 0 0 20",
            "c3-c4",
            "holds no white piece",
        ),
        (
            "2W/BBB/3/6/3/3/WW1 w 0 0 0 20",
            "b6-b4",
            "holds no white piece",
        ),
        // not adjacent, no flying (4 pieces)
        ("2W/BBB/3/W5/3/3/WW1 w 0 0 0 20", "a1-g4", "not adjacent"),
        // placement with none in hand
        ("2W/BBB/3/W5/3/3/WW1 w 0 0 0 20", "c4", "no pieces in hand"),
        // a mill must remove
        (placing, "g1", "must remove"),
        // removal without a mill
        (placing, "c4xb6", "forms no mill"),
        // removing a protected piece
        ("B1W/BBB/3/6/3/3/WW1 w 5 5 0 5", "g1xb6", "not allowed"),
    ];
    for (fen, token, why) in cases {
        let got = reason(&r, fen, token);
        assert!(got.contains(why), "{fen} {token}: {got}");
    }
    // The legal alternatives are listed when a mill must remove.
    let got = reason(&r, placing, "g1");
    assert!(got.contains("g1xb6"), "{got}");
    // Never: the mill has nothing removable.
    let never = nine(&["MillRemoval=never"]);
    let got = reason(&never, placing, "g1xb6");
    assert!(got.contains("no removable piece"), "{got}");
    // MillReform.
    let reform = nine(&["MillReform=true"]);
    let got = reason(
        &reform,
        "3/1B1/3/2BB2/3/WWW/W1W w 0 0 0 20 a1d1g1 -",
        "d2-d1xc4",
    );
    assert!(got.contains("MillReform"), "{got}");
    // Game over.
    let off = nine(&["Flying=off"]);
    let blocked = "3/3/3/B4B/B2/1B1/WWW w 0 0 0 30";
    let got = reason(&off, blocked, "a1-a4");
    assert!(got.contains("no legal move"), "{got}");
}

// ----------------------------------------------------------------- FEN

#[test]
fn start_fen() {
    let r = Rules::default();
    assert_eq!(START_FEN, "3/3/3/6/3/3/3 w 9 9 0 1");
    let p = Position::from_fen(START_FEN, &r).unwrap();
    assert_eq!(p, Position::start(&r));
    assert_eq!(p.to_fen(&r), START_FEN);
    assert_eq!(p.side_to_move(), Color::White);
    assert_eq!((p.in_hand(Color::White), p.in_hand(Color::Black)), (9, 9));
}

#[test]
fn fen_points_in_rank_order() {
    // Each point on its own, to pin down the rank layout.
    let r = Rules::default();
    let ranks: [&[&str]; 7] = [
        &["a7", "d7", "g7"],
        &["b6", "d6", "f6"],
        &["c5", "d5", "e5"],
        &["a4", "b4", "c4", "e4", "f4", "g4"],
        &["c3", "d3", "e3"],
        &["b2", "d2", "f2"],
        &["a1", "d1", "g1"],
    ];
    for (ri, rank) in ranks.iter().enumerate() {
        for (pi, name) in rank.iter().enumerate() {
            let mut fields: Vec<String> = ranks.iter().map(|r| r.len().to_string()).collect();
            let before = if pi > 0 {
                pi.to_string()
            } else {
                String::new()
            };
            let after = if pi + 1 < rank.len() {
                (rank.len() - pi - 1).to_string()
            } else {
                String::new()
            };
            fields[ri] = format!("{before}W{after}");
            let fen = format!("{} b 8 9 0 1", fields.join("/"));
            let pos = Position::from_fen(&fen, &r).unwrap();
            let sq = morris::rules::Square::ALL
                .into_iter()
                .find(|s| s.name() == *name)
                .unwrap();
            assert_eq!(pos.piece_at(sq), Some(Color::White), "{fen}");
            assert_eq!(pos.pieces(Color::White).count(), 1);
            assert_eq!(pos.to_fen(&r), fen);
        }
    }
}

#[test]
fn fen_reads_leniently_and_writes_canonically() {
    let r = Rules::preset(Variant::Twelve);
    let p = Position::from_fen("w2/3/3/11wb2/3/3/B2 b 10 10 3 7", &r).unwrap();
    assert_eq!(p.to_fen(&r), "W2/3/3/2WB2/3/3/B2 b 10 10 3 7");
    let q = Position::from_fen("  W2/3/3/2WB2/3/3/B2   b 10 10 3 7 ", &r).unwrap();
    assert_eq!(p, q);
    // "- -" ban fields are the same as none.
    let reform = Rules::new(RuleOptions {
        mill_reform: true,
        ..*r
    });
    let a = Position::from_fen("W2/3/3/2WB2/3/3/B2 b 10 10 3 7 - -", &reform).unwrap();
    assert_eq!(a.to_fen(&reform), "W2/3/3/2WB2/3/3/B2 b 10 10 3 7");
}

#[test]
fn fen_ban_lines_in_any_order() {
    let r = nine(&["MillReform=true", "Pieces=12"]);
    let canonical = "3/3/3/6/3/WWW/W1W b 0 0 0 20 a1d1g1,d1d2d3 -";
    let p = Position::from_fen(canonical, &r).unwrap();
    for variant in [
        "3/3/3/6/3/WWW/W1W b 0 0 0 20 g1d1a1,d3d2d1 -",
        "3/3/3/6/3/WWW/W1W b 0 0 0 20 d1d2d3,a1d1g1 -",
        "3/3/3/6/3/WWW/W1W b 0 0 0 20 D1D2D3,A1D1G1 -",
    ] {
        let q = Position::from_fen(variant, &r).unwrap();
        assert_eq!(q, p, "{variant}");
        assert_eq!(q.to_fen(&r), canonical);
    }
    // Black's field too; both fields written when one is in force.
    let q = Position::from_fen("3/3/3/6/3/BBB/B1B w 0 0 0 20 - a1d1g1", &r).unwrap();
    assert_eq!(q.to_fen(&r), "3/3/3/6/3/BBB/B1B w 0 0 0 20 - a1d1g1");
    assert_ne!(q.bans(Color::Black), 0);
    // Diagonal lines exist only with Diagonals on.
    let diag = nine(&["MillReform=true", "Diagonals=true"]);
    assert!(Position::from_fen("3/3/3/6/3/3/3 w 9 9 0 1 a1b2c3 -", &diag).is_ok());
    let err = Position::from_fen("3/3/3/6/3/3/3 w 9 9 0 1 a1b2c3 -", &r).unwrap_err();
    assert!(err.to_string().contains("not a line"), "{err}");
}

#[test]
fn bad_fens_say_why() {
    let r = Rules::default();
    let reform = nine(&["MillReform=true"]);
    for (rules, bad, why) in [
        (&r, "3/3/3/6/3/3 w 9 9 0 1", "ranks"),
        (&r, "3/3/3/6/3/3/3/3 w 9 9 0 1", "ranks"),
        (&r, "3/3/3/5/3/3/3 w 9 9 0 1", "rank 4"),
        (&r, "3/3/3/6/3/3/4 w 9 9 0 1", "rank 1"),
        (&r, "WWWW/3/3/6/3/3/3 w 5 9 0 1", "rank 7"),
        (
            &r,
            "3/3/3/6/3/3/3 x 9 9 0 1",
            "the side to move is 'x', expected w or b",
        ),
        (&r, "3/3/X2/6/3/3/3 w 9 9 0 1", "'X'"),
        (
            &r,
            "WWW/3/3/6/3/3/3 w 7 9 0 1",
            "on the board and 7 in hand, more pieces than the 9",
        ),
        (
            &r,
            "3/3/3/6/3/3/3 w 9 10 0 1",
            "black has 0 on the board and 10 in hand, more pieces than",
        ),
        (&r, "3/3/3/6/3/3/3 w 9 9 0 0", "full-move"),
        (
            &r,
            "3/3/3/6/3/3/3 w 9 9 0",
            "it ends before the move number",
        ),
        (&r, "3/3/3/6/3/3/3 w 9 9 -1 1", "the halfmove clock is '-1'"),
        (&r, "3/3/3/6/3/3/3 w 9 9 70000 1", "clock"),
        (&r, "", "it ends before the board"),
        (&r, "3/3/3/6/3/3/3 w 9 9 0 1 a1a4a7 -", "MillReform"),
        (
            &reform,
            "3/3/3/6/3/3/3 w 9 9 0 1 a1a4a7",
            "it ends before black's mill bans",
        ),
        (&reform, "3/3/3/6/3/3/3 w 9 9 0 1 a1a4d7 -", "not a line"),
        (
            &reform,
            "3/3/3/6/3/3/3 w 9 9 0 1 a1a4 -",
            "the rule-set state is 'a1a4'",
        ),
    ] {
        let err = Position::from_fen(bad, rules).unwrap_err().to_string();
        assert!(err.contains(why), "{bad}: {err}");
    }
}

#[test]
fn fen_round_trips_on_random_positions() {
    // Every reachable position of random games under random rules.
    let mut rng = Rng::new(99);
    let mut count = 0;
    for g in 0..300 {
        let mut r = *Rules::preset(*rng.pick(&Variant::PRESETS));
        r.mill_reform = rng.chance(60);
        r.first_player = if g % 2 == 0 {
            Color::White
        } else {
            Color::Black
        };
        r.flying = *rng.pick(&[Flying::Off, Flying::Three, Flying::Both]);
        let r = Rules::new(r);
        let mut game = Game::new(r, Position::start(&r));
        for _ in 0..150 {
            let pos = *game.position();
            let fen = pos.to_fen(&r);
            let back = Position::from_fen(&fen, &r).unwrap();
            assert_eq!(back, pos, "{fen}");
            assert_eq!(back.hash(), pos.hash());
            assert_eq!(back.to_fen(&r), fen);
            count += 1;
            let mut list = MoveList::new();
            pos.legal_moves(&r, &mut list);
            if list.is_empty() || game.outcome().is_some_and(|o| !o.reason.is_counting_rule()) {
                break;
            }
            game.play(list.as_slice()[rng.below(list.len())]);
        }
    }
    assert!(count > 10_000);
}
