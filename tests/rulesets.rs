//! The rule sets of docs/rules.md Part II: its worked examples (section 19), the
//! state a position string must carry, and hand-checked cases per option.

use morris::rules::Rng;
use morris::rules::{Color, EndReason, Game, GameResult, MoveList, Position, Rules};

fn rules(variant: &str, settings: &[&str]) -> Rules {
    Rules::with_settings(variant, settings).unwrap()
}

fn game(rules: &Rules, fen: Option<&str>, moves: &str) -> Game {
    let start = match fen {
        Some(f) => Position::from_fen(f, rules).unwrap(),
        None => Position::start(rules),
    };
    let mut g = Game::new(*rules, start);
    for m in moves.split_whitespace() {
        g.play_text(m)
            .unwrap_or_else(|e| panic!("{m} in {moves}: {e}"));
    }
    g
}

fn legal(g: &Game) -> Vec<String> {
    let mut list = MoveList::new();
    g.legal_moves(&mut list);
    let mut out: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    out.sort();
    out
}

/// The position string survives a round trip, and the position read back
/// has the same turns.
fn round_trips(rules: &Rules, pos: &Position) {
    let fen = pos.to_fen(rules);
    let back = Position::from_fen(&fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(back, *pos, "{fen}");
    assert_eq!(back.to_fen(rules), fen);
}

/// The full board of docs/rules.md 19.3 to 19.5, just before Black's last
/// placement on g7: no line of either colour, with or without diagonals.
const FULL_BUT_G7: &str = "WB1/BWW/WBW/BWWBBW/BBW/BWB/WBW b 0 1 0 12";

#[test]
fn example_1_dooz_hand_removal() {
    let r = rules("dooz", &[]);
    let g = game(&r, None, "a1 b2 a4 b4 a7");
    let pos = g.position();
    assert_eq!(g.moves().last().unwrap().to_string(), "a7");
    assert_eq!(pos.side_to_move(), Color::Black);
    assert_eq!(pos.pieces(Color::Black).count(), 2);
    assert_eq!(pos.in_hand(Color::Black), 9);
    assert_eq!(pos.in_hand(Color::White), 9);
    round_trips(&r, pos);
}

#[test]
fn example_2_mulmulan_intervention() {
    let r = rules("mulmulan", &[]);
    let g = game(&r, None, "c4 f4 f2 b4 d6 f6 a7 a1 g7");
    let moves = legal(&g);
    assert!(moves.contains(&"d7xa7xg7".to_string()), "{moves:?}");
    assert!(!moves.contains(&"d7".to_string()));
    let mut g = g;
    g.play_text("d7xa7xg7").unwrap();
    assert_eq!(g.position().pieces(Color::White).count(), 3);
    assert_eq!(g.position().side_to_move(), Color::White);
}

#[test]
fn example_3_zhiqi_full_board_removes_first() {
    let r = rules("zhiqi", &[]);
    let mut g = game(&r, Some(FULL_BUT_G7), "g7");
    let pos = *g.position();
    assert_eq!(pos.side_to_move(), Color::White);
    let moves = legal(&g);
    assert_eq!(moves.len(), 12, "{moves:?}");
    assert!(
        moves.iter().all(|m| m.starts_with('x') && m.len() == 3),
        "{moves:?}"
    );
    round_trips(&r, &pos);
    g.play_text("xa4").unwrap();
    assert_eq!(g.position().side_to_move(), Color::Black);
    let moves = legal(&g);
    assert_eq!(moves.len(), 12, "{moves:?}");
    assert!(moves.contains(&"xa1".to_string()));
    round_trips(&r, g.position());
    g.play_text("xa1").unwrap();
    assert_eq!(g.position().side_to_move(), Color::White);
    assert!(legal(&g).iter().all(|m| m.contains('-')));
    // perft: the placement, 12 removals, 12 removals.
    let start = Position::from_fen(FULL_BUT_G7, &r).unwrap();
    assert_eq!(start.perft(&r, 3), 144);
}

#[test]
fn example_4_elfilja_tally_without_lines() {
    let r = rules("elfilja", &[]);
    let mut g = game(&r, Some(FULL_BUT_G7), "g7");
    assert_eq!(g.position().side_to_move(), Color::White);
    let own: Vec<String> = g
        .position()
        .pieces(Color::White)
        .map(|s| format!("x{s}"))
        .collect();
    let mut own = own;
    own.sort();
    assert_eq!(legal(&g), own, "White removes one of White's own");
    round_trips(&r, g.position());
    g.play_text("xa1").unwrap();
    assert_eq!(g.position().side_to_move(), Color::Black);
    assert_eq!(g.position().pieces(Color::White).count(), 11);
    assert!(
        legal(&g)
            .iter()
            .all(|m| g.position().piece_at(m[1..].parse_square()) == Some(Color::Black))
    );
    g.play_text("xa4").unwrap();
    assert_eq!(g.position().side_to_move(), Color::White);
    assert_eq!(g.position().pieces(Color::Black).count(), 11);
    assert!(legal(&g).iter().all(|m| m.contains('-')));
}

#[test]
fn example_5_twelve_app_first_player_loses() {
    let r = rules("twelve-app", &[]);
    let g = game(&r, Some(FULL_BUT_G7), "g7");
    let o = g.outcome().unwrap();
    assert_eq!(o.result, GameResult::Win(Color::Black));
    assert_eq!(o.reason, EndReason::BoardFull);
    let start = Position::from_fen(FULL_BUT_G7, &r).unwrap();
    assert_eq!(start.perft(&r, 1), 1);
    assert_eq!(start.perft(&r, 2), 0);
    round_trips(&r, g.position());
}

trait ParseSquare {
    fn parse_square(&self) -> morris::rules::Square;
}

impl ParseSquare for str {
    fn parse_square(&self) -> morris::rules::Square {
        morris::rules::Square::ALL
            .into_iter()
            .find(|s| s.name() == self)
            .unwrap()
    }
}

/// A number below `n` from the stream, for random games.
fn below(rng: &mut Rng, n: usize) -> usize {
    (rng.next_u64() % n as u64) as usize
}

/// `PlacingMill victimpicks` plays as `board` (docs/rules.md 16.2), through
/// the rule-set turn engine: with Part I's options otherwise, both
/// engines must agree on every turn of random games.
#[test]
fn turn_engine_agrees_with_the_plain_generator() {
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let choices: [&[&str]; 6] = [
        &["Flying=three", "Flying=off", "Flying=both"],
        &[
            "MillRemoval=protected",
            "MillRemoval=any",
            "MillRemoval=never",
        ],
        &["RemovePerMill=false", "RemovePerMill=true"],
        &["Blocked=loss", "Blocked=draw"],
        &["FirstPlayer=white", "FirstPlayer=black"],
        &["FlyAt=3", "FlyAt=4"],
    ];
    for round in 0..300 {
        let variant = ["nine", "twelve", "morabaraba", "lasker"][round % 4];
        let settings: Vec<&str> = choices
            .iter()
            .map(|c| c[below(&mut rng, c.len())])
            .collect();
        let plain = Rules::with_settings(variant, &settings).unwrap();
        let mut turned_settings = settings.clone();
        turned_settings.push("PlacingMill=victimpicks");
        let turned = Rules::with_settings(variant, &turned_settings).unwrap();
        assert!(turned.extended() && !plain.extended());
        let mut a = Game::new(plain, Position::start(&plain));
        let mut b = Game::new(turned, Position::start(&turned));
        for _ in 0..120 {
            let (la, lb) = (legal(&a), legal(&b));
            assert_eq!(la, lb, "{variant} {settings:?} after {:?}", a.moves());
            assert_eq!(a.position().to_fen(&plain), b.position().to_fen(&turned));
            if la.is_empty() {
                assert_eq!(a.outcome(), b.outcome());
                break;
            }
            let m = &la[below(&mut rng, la.len())];
            a.play_text(m).unwrap();
            b.play_text(m).unwrap();
        }
    }
}

#[test]
fn intervention_takes_the_cross_line_before_the_side() {
    // b4 is the middle of a4-b4-c4 (cross) and of b6-b4-b2 (side).
    let r = rules("mulmulan", &[]);
    let g = game(&r, Some("3/B2/3/B1B3/3/B2/3 w 9 5 0 3"), "");
    let b4: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("b4"))
        .collect();
    assert_eq!(b4, ["b4xa4xc4"]);
}

#[test]
fn custodian_takes_the_bracketed_piece() {
    let r = rules("nine-app", &["Custodian=true"]);
    let g = game(&r, Some("3/3/3/6/3/3/WB1 w 8 8 0 2"), "");
    let g1: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("g1"))
        .collect();
    assert_eq!(g1, ["g1xd1"]);
}

#[test]
fn a_leap_voids_the_mill_it_closes() {
    // c4 jumps b4 to a4, which also completes a1-a4-a7: only the leap
    // target goes.
    let r = rules("nine-app", &["Leap=true"]);
    let g = game(&r, Some("W2/2B/3/1BW2B/3/3/W1W w 0 0 0 20"), "");
    let c4: Vec<String> = legal(&g)
        .into_iter()
        .filter(|m| m.starts_with("c4"))
        .collect();
    assert_eq!(c4, ["c4-a4xb4", "c4-c3", "c4-c5"]);
    let mut g = g;
    g.play_text("c4-a4xb4").unwrap();
    round_trips(&r, g.position());
}

#[test]
fn a_spent_line_closes_no_mill() {
    // d7-d6-d5 is spent by the three top sides without ever being closed.
    let r = rules("onetime", &[]);
    let spent = "1W1/1W1/3/6/3/3/B2 w 7 8 0 3 spent:a7b6c5d5d6d7e5f6g7/-";
    let g = game(&r, Some(spent), "");
    assert!(legal(&g).contains(&"d5".to_string()));
    assert!(!legal(&g).iter().any(|m| m.starts_with("d5x")));
    round_trips(&r, g.position());
    let fresh = game(&r, Some("1W1/1W1/3/6/3/3/B2 w 7 8 0 3"), "");
    assert!(legal(&fresh).contains(&"d5xa1".to_string()));
    // Closing it again spends nothing new and records the line for no one.
    let mut g = g;
    g.play_text("d5").unwrap();
    assert_eq!(g.position().spent(Color::White).count(), 9);
}

#[test]
fn mill_shuttle_bans_the_move_back() {
    // White closed a1-a4-a7 by d1-a1; a1-d1 would close d1-d2-d3 at once.
    let r = rules("morabaraba-app", &[]);
    let fen = "W1B/3/2B/W5/1W1/1WB/W2 w 0 0 0 20";
    let banned = game(&r, Some(&format!("{fen} shuttle:d1a1/-")), "");
    assert!(!legal(&banned).iter().any(|m| m.starts_with("a1-d1")));
    assert!(legal(&banned).contains(&"a1-b2".to_string()));
    round_trips(&r, banned.position());
    let free = game(&r, Some(fen), "");
    assert!(legal(&free).iter().any(|m| m.starts_with("a1-d1x")));
    // Closing a mill by a slide sets the memory.
    let mut g = free;
    g.play_text("a1-d1xe5").unwrap();
    let d1 = morris::rules::Square::ALL[9];
    let a1 = morris::rules::Square::ALL[0];
    assert_eq!(g.position().shuttle(Color::White), Some((a1, d1)));
}

/// White on a1, a7, g7, walled in by black; flying off.
const WHITE_BLOCKED: &str = "WBW/3/1B1/B4B/3/3/WB1 w 0 0 0 20";

#[test]
fn blocked_values() {
    let outcome = |value: &str| {
        let r = rules("nine-app", &["Flying=off", &format!("Blocked={value}")]);
        game(&r, Some(WHITE_BLOCKED), "").outcome()
    };
    assert_eq!(
        outcome("loss").unwrap().result,
        GameResult::Win(Color::Black)
    );
    assert_eq!(outcome("draw").unwrap().result, GameResult::Draw);
    let adjacent = ["xa4", "xd1", "xd7", "xg4"];

    let r = rules("nine-app", &["Flying=off", "Blocked=pass"]);
    let g = game(&r, Some(WHITE_BLOCKED), "");
    assert_eq!(g.position().side_to_move(), Color::Black);
    assert!(legal(&g).iter().all(|m| !m.starts_with('x')));

    let r = rules("nine-app", &["Flying=off", "Blocked=removemove"]);
    let mut g = game(&r, Some(WHITE_BLOCKED), "");
    assert_eq!(legal(&g), adjacent);
    round_trips(&r, g.position());
    g.play_text("xa4").unwrap();
    assert_eq!(g.position().side_to_move(), Color::White);
    assert!(legal(&g).contains(&"a1-a4".to_string()));

    let r = rules("nine-app", &["Flying=off", "Blocked=removepass"]);
    let mut g = game(&r, Some(WHITE_BLOCKED), "");
    assert_eq!(legal(&g), adjacent);
    g.play_text("xd1").unwrap();
    assert_eq!(g.position().side_to_move(), Color::Black);

    let r = rules("nine-app", &["Flying=off", "Blocked=bothremove"]);
    let mut g = game(&r, Some(WHITE_BLOCKED), "");
    assert_eq!(legal(&g), adjacent);
    g.play_text("xa4").unwrap();
    assert_eq!(g.position().side_to_move(), Color::Black);
    assert_eq!(legal(&g), ["xa1", "xa7", "xg7"]);
    round_trips(&r, g.position());
    // White is down to two pieces: the game ends at that removal.
    g.play_text("xg7").unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(o.result, GameResult::Win(Color::Black));
    assert_eq!(o.reason, EndReason::FewerPieces(3));
    assert!(legal(&g).is_empty());
    round_trips(&r, g.position());
}

#[test]
fn board_full_values() {
    let next = |settings: &[&str]| {
        let r = rules("twelve-app", settings);
        let g = game(&r, Some(FULL_BUT_G7), "g7");
        (g.position().side_to_move(), legal(&g).len(), g.outcome())
    };
    let draw = next(&["BoardFull=draw"]).2.unwrap();
    assert_eq!(draw.result, GameResult::Draw);
    let loss = next(&["BoardFull=loss"]).2.unwrap();
    assert_eq!(
        loss.result,
        GameResult::Win(Color::Black),
        "white is to move"
    );
    assert_eq!(next(&["BoardFull=removesecond"]).0, Color::Black);
    assert_eq!(next(&["BoardFull=removeone"]).0, Color::White);
    let defender = next(&["BoardFull=removeone", "DefenderFirst=true"]);
    assert_eq!((defender.0, defender.1), (Color::Black, 12));
    // removeone: after the one removal the other player moves.
    let r = rules("twelve-app", &["BoardFull=removeone"]);
    let g = game(&r, Some(FULL_BUT_G7), "g7 xd7");
    assert_eq!(g.position().side_to_move(), Color::Black);
    assert_eq!(legal(&g), ["g7-d7"]);
    // A removal that leaves black no move: black is blocked and loses.
    let g = game(&r, Some(FULL_BUT_G7), "g7 xa4");
    assert_eq!(g.outcome().unwrap().result, GameResult::Win(Color::White));
    // removesecond: black, white, then black moves.
    let r = rules("twelve-app", &["BoardFull=removesecond"]);
    let g = game(&r, Some(FULL_BUT_G7), "g7 xa1 xa4");
    assert_eq!(g.position().side_to_move(), Color::Black);
    assert!(legal(&g).iter().all(|m| m.contains('-')));
}

#[test]
fn tally_rows() {
    let r = rules("elfilja", &[]);
    // White has one line (b6-d6-f6), black none: white removes 2, black 1.
    let one_none = "BWB/WWW/BBW/WWBBWB/WWB/BWB/1BW b 0 1 0 12";
    let start = Position::from_fen(one_none, &r).unwrap();
    assert_eq!(start.perft(&r, 2), 66);
    assert_eq!(start.perft(&r, 3), 66 * 12);
    let g = game(&r, Some(one_none), "a1");
    round_trips(&r, g.position());
    assert!(
        g.position().to_fen(&r).ends_with("owe:2/1"),
        "{}",
        g.position().to_fen(&r)
    );
    // Two lines against one: white removes 1 + 1, black 1.
    let two_one = "1WB/WBW/WBW/WBBWWW/BBB/BWW/WBB b 0 1 0 12";
    let g = game(&r, Some(two_one), "a7");
    assert!(g.position().to_fen(&r).ends_with("owe:2/1"));
}

#[test]
fn stop_at_two_empty_ends_placing() {
    // 21 placed; black's 22nd leaves two empty points.
    let fen = "WB1/BWW/WBW/BWWBBW/BBW/BWB/W2 b 1 2 0 11";
    let r = rules("twelve-app", &["StopAtTwoEmpty=true"]);
    let g = game(&r, Some(fen), "g7");
    let pos = g.position();
    assert_eq!(
        (pos.in_hand(Color::White), pos.in_hand(Color::Black)),
        (0, 0)
    );
    assert_eq!(pos.side_to_move(), Color::White);
    assert!(legal(&g).iter().all(|m| m.contains('-')));
    let off = rules("twelve-app", &[]);
    let g = game(&off, Some(fen), "g7");
    assert_eq!(g.position().in_hand(Color::White), 1);
}

#[test]
fn defender_first_and_hand_again() {
    let fen = "1WB/B1W/1WW/1WBBBW/W1B/BBW/1W1 b 0 1 0 12";
    let after = |settings: &[&str]| {
        let r = rules("nine-app", settings);
        game(&r, Some(fen), "a7").position().side_to_move()
    };
    assert_eq!(after(&[]), Color::White);
    assert_eq!(after(&["DefenderFirst=true"]), Color::Black);
    let r = rules("dooz", &["PlacingMill=handagain"]);
    let g = game(&r, None, "a1 b2 a4 b4 a7");
    assert_eq!(g.position().side_to_move(), Color::White);
}

#[test]
fn marks_block_points_until_the_stage_change() {
    let r = rules("chengsanqi", &[]);
    let g = game(&r, None, "a1 b2 a4 b4 a7xb2");
    let pos = *g.position();
    assert_eq!(pos.to_fen(&r), "W2/3/3/WB4/3/M2/W2 b 6 7 0 3");
    assert!(!legal(&g).contains(&"b2".to_string()));
    round_trips(&r, &pos);
}

/// Every named rule set starts on an empty board where four placements
/// cannot close a mill (Lasker's slides aside), and perft's divide sums
/// to its count.
#[test]
fn named_rule_sets_start_and_divide() {
    for variant in morris::rules::Variant::ALL {
        let r = Rules::preset(variant);
        let start = Position::start(&r);
        if !r.lasker {
            assert_eq!(start.perft(&r, 4), 24 * 23 * 22 * 21, "{}", variant.name());
        }
        let divide: u64 = start.divide(&r, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(divide, start.perft(&r, 3), "{}", variant.name());
    }
}

/// The search plays every named rule set: a legal move each turn, through
/// removal-only turns and turns that come back to the same player, to
/// the end of the game or a turn limit.
#[test]
fn the_search_plays_every_rule_set() {
    use morris::search::{Control, ExactKnowledge, Limits, Searcher, Settings};
    let mut searcher = Searcher::new(Settings::default());
    let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    for variant in morris::rules::Variant::ALL {
        let r = Rules::preset(variant);
        let mut g = Game::new(r, Position::start(&r));
        searcher.clear();
        for turn in 0..150 {
            let moves = legal(&g);
            if moves.is_empty() {
                break;
            }
            // Some random turns, so that games differ from the searcher's own.
            let token = if turn % 3 == 2 {
                moves[below(&mut rng, moves.len())].clone()
            } else {
                let out = searcher.search(
                    &g,
                    ExactKnowledge::NONE,
                    &limits,
                    &Control::default(),
                    &mut |_| {},
                );
                out.best
                    .expect("a move when there are legal ones")
                    .to_string()
            };
            assert!(
                moves.contains(&token),
                "{}: {token} not in {moves:?}",
                variant.name()
            );
            g.play_text(&token).unwrap();
        }
    }
}

#[test]
fn repetition_records_only_quiet_moves() {
    let fen = "2W/B2/1W1/6/2B/3/W1B w 0 0 0 20";
    let shuffle = "a1-d1 g1-g4 d1-a1 g4-g1";
    let reason = |variant: &str, moves: &str| {
        let r = rules(variant, &[]);
        game(&r, Some(fen), moves).outcome().map(|o| o.reason)
    };
    let twice = format!("{shuffle} {shuffle}");
    // docs/rules.md 8.6 counts the set-up: its third occurrence draws.
    assert_eq!(reason("nine", &twice), Some(EndReason::Repetition));
    // docs/rules.md 14.10: the set-up is no record; a1-d1's third one draws.
    assert_eq!(reason("nine-app", &twice), None);
    assert_eq!(
        reason("nine-app", &format!("{twice} a1-d1")),
        Some(EndReason::Repetition)
    );
}

#[test]
fn tables_cover_what_leaves_the_moving_phase_alone() {
    use morris::tablebase::covers;
    for (variant, covered) in [
        ("nine-app", true),
        ("dooz", true),
        ("elfilja", true),
        ("zhiqi", true),
        ("dasanqi", true),
        ("onetime", false),
        ("morabaraba-app", false),
        ("mulmulan", false),
        ("table8", false),
    ] {
        assert_eq!(covers(&rules(variant, &[])).is_ok(), covered, "{variant}");
    }
    let why = covers(&rules("nine", &["MinPieces=4"])).unwrap_err();
    assert_eq!(
        why.to_string(),
        "the endgame tables do not cover rules with MinPieces other than 3"
    );
}

#[test]
fn min_pieces_ends_the_game_and_says_so() {
    let r = rules("nine-app", &["Pieces=4", "MinPieces=4"]);
    // Black's b4 goes: 1 on the board and 2 in hand, fewer than four.
    let g = game(&r, None, "a1 b2 a4 b4 a7xb4");
    let o = g.outcome().unwrap();
    assert_eq!(o.result, GameResult::Win(Color::White));
    assert_eq!(o.reason, EndReason::FewerPieces(4));
    assert_eq!(o.to_string(), "1-0 white wins by fewer than four pieces");
    round_trips(&r, g.position());
    let back = Position::from_fen(&g.position().to_fen(&r), &r).unwrap();
    assert_eq!(back.ended(), Some(o));
}
