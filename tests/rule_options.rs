//! One rule option at a time, on hand-built positions: the exact legal
//! move lists and outcomes docs/rules.md prescribes. Each expected list is
//! written out here (worked out by hand from docs/rules.md) and checked against
//! both the fast core and the naive reference.

use crate::common;

use common::fen_of;
use common::naive::{NAMES, NaiveGame};
use morris::rules::{
    Color, EndReason, Game, GameResult, MoveList, MoveReason, Outcome, PlacingMill, Position,
    Rules, Variant,
};

fn rules(variant: Variant, settings: &[&str]) -> Rules {
    let mut r = Rules::preset(variant);
    for s in settings {
        r.apply(s).unwrap_or_else(|e| panic!("{s}: {e}"));
    }
    r
}

fn nine(settings: &[&str]) -> Rules {
    rules(Variant::Nine, settings)
}

fn position(rules: &Rules, fen: &str) -> Position {
    Position::from_fen(fen, rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn fast_moves(rules: &Rules, fen: &str) -> Vec<String> {
    let pos = position(rules, fen);
    let mut list = MoveList::new();
    pos.legal_moves(rules, &mut list);
    let mut v: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    v.sort();
    assert_eq!(pos.count_moves(rules), v.len() as u64, "count_moves {fen}");
    v
}

/// Asserts the legal moves of `fen` are exactly `expected` (any order),
/// for the fast core and the naive reference alike.
fn assert_moves(rules: &Rules, fen: &str, expected: &[String]) {
    let mut want: Vec<String> = expected.to_vec();
    want.sort();
    let fast = fast_moves(rules, fen);
    assert_eq!(fast, want, "fast core, {fen}");
    let naive = NaiveGame::from_fen(*rules, fen).legal_texts();
    assert_eq!(naive, want, "naive reference, {fen}");
}

fn strings(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

/// The legal moves of `fen` whose text starts with `prefix`.
fn moves_starting(rules: &Rules, fen: &str, prefix: &str) -> Vec<String> {
    let fast: Vec<String> = fast_moves(rules, fen)
        .into_iter()
        .filter(|m| m.starts_with(prefix))
        .collect();
    let naive: Vec<String> = NaiveGame::from_fen(*rules, fen)
        .legal_texts()
        .into_iter()
        .filter(|m| m.starts_with(prefix))
        .collect();
    assert_eq!(fast, naive, "fast vs naive, {fen}");
    fast
}

/// Points empty in `fen` (by the naive reader).
fn empties(rules: &Rules, fen: &str) -> Vec<&'static str> {
    let g = NaiveGame::from_fen(*rules, fen);
    let mut v: Vec<&str> = (0..24)
        .filter(|&i| g.cells[i].is_none())
        .map(|i| NAMES[i])
        .collect();
    v.sort();
    v
}

/// Every placement on an empty point, with some replaced by their mill
/// forms (`special`: point -> the moves placing there).
fn placements(rules: &Rules, fen: &str, special: &[(&str, &[&str])]) -> Vec<String> {
    let mut out = Vec::new();
    for p in empties(rules, fen) {
        match special.iter().find(|(s, _)| *s == p) {
            Some((_, moves)) => out.extend(moves.iter().map(|m| m.to_string())),
            None => out.push(p.to_string()),
        }
    }
    out
}

fn outcome_of(rules: &Rules, fen: &str, moves: &[&str]) -> Option<Outcome> {
    let mut game = Game::new(*rules, position(rules, fen));
    let mut naive = NaiveGame::from_fen(*rules, fen);
    for m in moves {
        game.play_text(m).unwrap_or_else(|e| panic!("{e}"));
        naive.play_text(m);
    }
    let o = game.outcome();
    assert_eq!(o, naive.outcome(), "fast vs naive outcome after {moves:?}");
    o
}

fn win(c: Color, reason: EndReason) -> Option<Outcome> {
    Some(Outcome {
        result: GameResult::Win(c),
        reason,
    })
}

fn draw(reason: EndReason) -> Option<Outcome> {
    Some(Outcome {
        result: GameResult::Draw,
        reason,
    })
}

// ---------------------------------------------------------------- mills

#[test]
fn mill_on_placement_removes_a_free_piece() {
    let r = nine(&[]);
    // White a1 d1 places g1: mill a1-d1-g1. Black b6 d6 f6 is a mill, a7 free.
    let fen = fen_of("a1 d1", "a7 b6 d6 f6", 'w', [7, 5], 0, 5);
    assert_moves(&r, &fen, &placements(&r, &fen, &[("g1", &["g1xa7"])]));
}

#[test]
fn mill_on_slide() {
    let r = nine(&["Flying=off"]);
    let fen = fen_of("a1 d1 g4", "a7 b6 d5", 'w', [0, 0], 0, 20);
    assert_moves(
        &r,
        &fen,
        &strings(&[
            "a1-a4", "d1-d2", "d1-g1", "g4-f4", "g4-g1xa7", "g4-g1xb6", "g4-g1xd5", "g4-g7",
        ]),
    );
}

#[test]
fn sliding_out_and_back_forms_the_mill_anew() {
    let r = nine(&[]);
    // White slides g1 out of its mill, black shuffles, white slides back.
    let fen = fen_of("a1 d1 g1 b4 f4", "a7 d7 b6 d6 c4 e4", 'w', [0, 0], 0, 20);
    let mut game = Game::new(r, position(&r, &fen));
    game.play_text("g1-g4").unwrap();
    game.play_text("d7-g7").unwrap();
    let back = game.position().parse_move(&r, "g4-g1xa7").unwrap();
    assert_eq!(back.to_string(), "g4-g1xa7");
    assert!(game.position().parse_move(&r, "g4-g1").is_err());
}

#[test]
fn double_mill_on_placement() {
    // g1 closes a1-d1-g1 and g7-g4-g1. Black: mill b6-d6-f6 and a free d3.
    let fen = fen_of("a1 d1 g7 g4", "b6 d6 f6 d3", 'w', [5, 5], 0, 5);
    let plain = nine(&[]);
    assert_moves(
        &plain,
        &fen,
        &placements(&plain, &fen, &[("g1", &["g1xd3"])]),
    );
    // One removal per mill: d3 first (protected), then the mill is open.
    // The text-smallest order b6-first is not valid, so d3 is written first.
    let per_mill = nine(&["RemovePerMill=true"]);
    assert_moves(
        &per_mill,
        &fen,
        &placements(
            &per_mill,
            &fen,
            &[("g1", &["g1xd3xb6", "g1xd3xd6", "g1xd3xf6"])],
        ),
    );
    // Never: the second removal is lost.
    let never = nine(&["RemovePerMill=true", "MillRemoval=never"]);
    assert_moves(
        &never,
        &fen,
        &placements(&never, &fen, &[("g1", &["g1xd3"])]),
    );
    // Any: every pair, written in text order.
    let any = nine(&["RemovePerMill=true", "MillRemoval=any"]);
    assert_moves(
        &any,
        &fen,
        &placements(
            &any,
            &fen,
            &[(
                "g1",
                &[
                    "g1xb6xd3", "g1xb6xd6", "g1xb6xf6", "g1xd3xd6", "g1xd3xf6", "g1xd6xf6",
                ],
            )],
        ),
    );
    // MayPass: any prefix of a valid sequence, none included.
    let pass = nine(&["RemovePerMill=true", "MayPass=true"]);
    assert_moves(
        &pass,
        &fen,
        &placements(
            &pass,
            &fen,
            &[("g1", &["g1", "g1xd3", "g1xd3xb6", "g1xd3xd6", "g1xd3xf6"])],
        ),
    );
}

#[test]
fn double_mill_when_every_opponent_piece_is_in_a_mill() {
    // Black: mills b6-d6-f6 and f6-f4-f2 (f6 in both); all in mills.
    let fen = fen_of("a1 d1 g7 g4", "b6 d6 f6 f4 f2", 'w', [5, 4], 0, 5);
    // Protected, one removal per mill: the first may be any piece; the
    // second must then be a piece the first left outside every mill.
    let per_mill = nine(&["RemovePerMill=true"]);
    assert_moves(
        &per_mill,
        &fen,
        &placements(
            &per_mill,
            &fen,
            &[(
                "g1",
                &[
                    "g1xb6xd6", "g1xf2xf4", "g1xf6xb6", "g1xf6xd6", "g1xf6xf2", "g1xf6xf4",
                ],
            )],
        ),
    );
    // One removal: any of the five.
    let plain = nine(&[]);
    assert_moves(
        &plain,
        &fen,
        &placements(
            &plain,
            &fen,
            &[("g1", &["g1xb6", "g1xd6", "g1xf2", "g1xf4", "g1xf6"])],
        ),
    );
}

// ------------------------------------------------------ removal modes

#[test]
fn mill_removal_modes_when_all_opponent_pieces_are_in_mills() {
    let fen = fen_of("a1 d1", "b6 d6 f6 f4 f2", 'w', [7, 4], 0, 5);
    let all = &["g1xb6", "g1xd6", "g1xf2", "g1xf4", "g1xf6"][..];
    let protected = nine(&[]);
    assert_moves(
        &protected,
        &fen,
        &placements(&protected, &fen, &[("g1", all)]),
    );
    let any = nine(&["MillRemoval=any"]);
    assert_moves(&any, &fen, &placements(&any, &fen, &[("g1", all)]));
    // Never: nothing removable, the mill is written without x.
    let never = nine(&["MillRemoval=never"]);
    assert_moves(&never, &fen, &placements(&never, &fen, &[]));
    // ... and, being no removal, it does not reset the clock in movement.
}

#[test]
fn mill_removal_modes_with_free_pieces() {
    // Black: mill b6-d6-f6 and a free a7.
    let fen = fen_of("a1 d1", "a7 b6 d6 f6", 'w', [7, 5], 0, 5);
    let protected = nine(&[]);
    assert_moves(
        &protected,
        &fen,
        &placements(&protected, &fen, &[("g1", &["g1xa7"])]),
    );
    let never = nine(&["MillRemoval=never"]);
    assert_moves(
        &never,
        &fen,
        &placements(&never, &fen, &[("g1", &["g1xa7"])]),
    );
    let any = nine(&["MillRemoval=any"]);
    assert_moves(
        &any,
        &fen,
        &placements(&any, &fen, &[("g1", &["g1xa7", "g1xb6", "g1xd6", "g1xf6"])]),
    );
}

#[test]
fn mill_with_nothing_removable_is_no_removal_for_the_clock() {
    // Movement: white slides g4-g1 closing a1-d1-g1; black all in mills.
    let r = nine(&["MillRemoval=never"]);
    let fen = fen_of("a1 d1 g4 a4", "b6 d6 f6 f4 f2", 'w', [0, 0], 7, 30);
    let mut game = Game::new(r, position(&r, &fen));
    let mv = game.play_text("g4-g1").unwrap();
    assert_eq!(mv.to_string(), "g4-g1");
    assert_eq!(game.position().clock(), 8);
    assert!(game.position().parse_move(&r, "g4-g1xb6").is_err());
}

#[test]
fn removals_reset_the_clock_and_slides_advance_it() {
    let r = nine(&[]);
    let fen = fen_of("a1 d1 g4 a4", "b6 d6 f6 c3", 'w', [0, 0], 7, 30);
    let mut game = Game::new(r, position(&r, &fen));
    game.play_text("g4-g1xc3").unwrap();
    assert_eq!(game.position().clock(), 0);
    game.play_text("b6-b4").unwrap();
    assert_eq!(game.position().clock(), 1);
    let placing = fen_of("a1", "b6", 'w', [8, 8], 12, 2);
    let mut game = Game::new(r, position(&r, &placing));
    game.play_text("g1").unwrap();
    assert_eq!(game.position().clock(), 0);
}

#[test]
fn removals_owed_beyond_the_pieces_on_the_board_are_lost() {
    // Black has one piece on the board (and 5 in hand): one removal only.
    let r = nine(&["RemovePerMill=true"]);
    let fen = fen_of("a1 d1 g7 g4", "d5", 'w', [5, 5], 0, 5);
    assert_moves(&r, &fen, &placements(&r, &fen, &[("g1", &["g1xd5"])]));
}

#[test]
fn removals_are_earned_in_full_below_three() {
    // Black has 3 pieces, none in hand: the double mill takes two, and the
    // game ends after the whole move.
    let r = nine(&["RemovePerMill=true"]);
    let fen = fen_of("a1 d1 g7 g4 c4", "a7 b6 d5", 'w', [1, 0], 0, 20);
    let moves = moves_starting(&r, &fen, "g1");
    assert_eq!(moves, strings(&["g1xa7xb6", "g1xa7xd5", "g1xb6xd5"]));
    assert_eq!(
        outcome_of(&r, &fen, &["g1xa7xd5"]),
        win(Color::White, EndReason::FewerPieces(3))
    );
}

// --------------------------------------------------------------- MayPass

#[test]
fn may_pass_allows_declining_the_removal() {
    let fen = fen_of("a1 d1", "a7 b6 d6 f6", 'w', [7, 5], 0, 5);
    let r = nine(&["MayPass=true"]);
    assert_moves(&r, &fen, &placements(&r, &fen, &[("g1", &["g1", "g1xa7"])]));
    let r = nine(&["MayPass=true", "MillRemoval=any"]);
    assert_moves(
        &r,
        &fen,
        &placements(
            &r,
            &fen,
            &[("g1", &["g1", "g1xa7", "g1xb6", "g1xd6", "g1xf6"])],
        ),
    );
}

// ---------------------------------------------------------------- flying

/// Every flight of `pieces` to an empty point, with some replaced by
/// their mill forms (`special`: flight -> the moves it makes).
fn all_flights(rules: &Rules, fen: &str, pieces: &str, special: &[(&str, &[&str])]) -> Vec<String> {
    let mut out = Vec::new();
    for from in pieces.split_whitespace() {
        for to in empties(rules, fen) {
            let plain = format!("{from}-{to}");
            match special.iter().find(|(m, _)| *m == plain) {
                Some((_, with)) => out.extend(with.iter().map(|m| m.to_string())),
                None => out.push(plain),
            }
        }
    }
    out
}

#[test]
fn flying_three() {
    let fen = fen_of("a1 d1 d7", "b6 d6 f6 f4", 'w', [0, 0], 0, 30);
    let r = nine(&[]);
    // White (3 pieces) flies; d7-g1 closes a1-d1-g1, f4 is black's only free piece.
    assert_moves(
        &r,
        &fen,
        &all_flights(&r, &fen, "a1 d1 d7", &[("d7-g1", &["d7-g1xf4"])]),
    );
    // Black (4 pieces) only slides.
    let black = fen.replace(" w ", " b ");
    assert_moves(
        &r,
        &black,
        &strings(&["b6-b4", "d6-d5", "f4-e4", "f4-f2", "f4-g4"]),
    );
    // Flying off: white slides too.
    let off = nine(&["Flying=off"]);
    assert_moves(
        &off,
        &fen,
        &strings(&["a1-a4", "d1-d2", "d1-g1", "d7-a7", "d7-g7"]),
    );
}

#[test]
fn fly_at_counts_pieces_on_the_board() {
    // Black has 4 pieces: with FlyAt 4 it flies.
    let fen = fen_of("a1 d1 d7", "b6 d6 f6 f4", 'b', [0, 0], 0, 30);
    let r = nine(&["FlyAt=4"]);
    // b6-f2 and d6-f2 close f6-f4-f2 (white has no piece in a mill).
    let black_flights = [
        ("b6-f2", &["b6-f2xa1", "b6-f2xd1", "b6-f2xd7"][..]),
        ("d6-f2", &["d6-f2xa1", "d6-f2xd1", "d6-f2xd7"][..]),
    ];
    assert_moves(
        &r,
        &fen,
        &all_flights(&r, &fen, "b6 d6 f4 f6", &black_flights),
    );
    // White with 3 in hand and 3 on the board places: FlyAt is not about hands.
    let placing = fen_of("a1 d1 d7", "b6 d6 f6 f4", 'w', [3, 3], 0, 12);
    assert_moves(
        &r,
        &placing,
        &placements(&r, &placing, &[("g1", &["g1xf4"])]),
    );
}

#[test]
fn flying_both() {
    let fen = fen_of("a1 d1 d7", "b6 d6 f6 f4", 'b', [0, 0], 0, 30);
    let r = nine(&["Flying=both"]);
    // White is down to 3, so black (4 pieces) flies too.
    let black_flights = [
        ("b6-f2", &["b6-f2xa1", "b6-f2xd1", "b6-f2xd7"][..]),
        ("d6-f2", &["d6-f2xa1", "d6-f2xd1", "d6-f2xd7"][..]),
    ];
    assert_moves(
        &r,
        &fen,
        &all_flights(&r, &fen, "b6 d6 f4 f6", &black_flights),
    );
    // Flying three: black (4 pieces) only slides.
    let three = nine(&[]);
    assert_moves(
        &three,
        &fen,
        &strings(&["b6-b4", "d6-d5", "f4-e4", "f4-f2", "f4-g4"]),
    );
    // Not while a player still has pieces in hand.
    let lasker = rules(Variant::Lasker, &["Flying=both"]);
    let fen = fen_of("a1 d1 d7", "b6 d6 f6 f4", 'b', [1, 0], 0, 30);
    assert_moves(
        &lasker,
        &fen,
        &strings(&["b6-b4", "d6-d5", "f4-e4", "f4-f2", "f4-g4"]),
    );
}

// ---------------------------------------------------------------- Lasker

#[test]
fn lasker_slides_during_placement() {
    let r = rules(Variant::Lasker, &[]);
    let fen = fen_of("a1 d2 f4 b6", "g7 c3", 'b', [0, 2], 4, 15);
    // Black still has pieces in hand: places, or slides.
    let mut expected = placements(&r, &fen, &[]);
    expected.extend(strings(&["c3-c4", "c3-d3", "g7-d7", "g7-g4"]));
    assert_moves(&r, &fen, &expected);
    // White has none in hand: only slides (each player's phase follows its own hand).
    let white = fen.replace(" b ", " w ");
    assert_moves(
        &r,
        &white,
        &strings(&[
            "a1-a4", "a1-d1", "b6-b4", "b6-d6", "d2-b2", "d2-d1", "d2-d3", "d2-f2", "f4-e4",
            "f4-f2", "f4-f6", "f4-g4",
        ]),
    );
    // Without Lasker, black only places.
    let plain = nine(&["Pieces=10"]);
    assert_moves(&plain, &fen, &placements(&plain, &fen, &[]));
}

#[test]
fn lasker_start_and_slide_mill() {
    let r = rules(Variant::Lasker, &[]);
    let start = Position::start(&r).to_fen(&r);
    assert_eq!(start, "3/3/3/6/3/3/3 w 10 10 0 1");
    assert_moves(&r, &start, &placements(&r, &start, &[]));
    // A slide during placement that closes a mill removes.
    let fen = fen_of("a1 d1 g4", "a7 b6", 'w', [5, 6], 0, 8);
    let moves = moves_starting(&r, &fen, "g4-g1");
    assert_eq!(moves, strings(&["g4-g1xa7", "g4-g1xb6"]));
    // A white player with no pieces in hand and 3 on the board flies.
    let fen = fen_of("a1 d1 g4", "a7 b6", 'w', [0, 6], 3, 30);
    assert_moves(
        &r,
        &fen,
        &all_flights(
            &r,
            &fen,
            "a1 d1 g4",
            &[("g4-g1", &["g4-g1xa7", "g4-g1xb6"])],
        ),
    );
}

// ------------------------------------------------------------- MillReform

#[test]
fn mill_reform_bans_the_broken_mill_for_one_move() {
    let r = nine(&["MillReform=true"]);
    let fen = fen_of("a1 d1 g1 b2 f2", "a7 d6 e4 c4", 'w', [0, 0], 3, 20);
    let mut game = Game::new(r, position(&r, &fen));
    game.play_text("d1-d2xa7").unwrap();
    // d1-d2 broke a1-d1-g1 while forming b2-d2-f2: banned for white's next move.
    let after = *game.position();
    assert_ne!(after.bans(Color::White), 0);
    assert_eq!(after.bans(Color::Black), 0);
    assert_eq!(
        after.to_fen(&r),
        "3/1B1/3/2BB2/3/WWW/W1W b 0 0 0 20 a1d1g1 -"
    );
    game.play_text("d6-d7").unwrap();
    let banned = game.position().parse_move(&r, "d2-d1").unwrap_err();
    assert_eq!(banned.reason, MoveReason::ReformBanned);
    let mut list = MoveList::new();
    game.legal_moves(&mut list);
    assert!(list.iter().all(|m| !m.to_string().starts_with("d2-d1")));
    // Another way into d1 is fine (it closes no banned line).
    assert!(game.position().parse_move(&r, "a1-d1").is_ok());
    game.play_text("b2-b4").unwrap();
    // The ban lasted one move.
    assert_eq!(game.position().bans(Color::White), 0);
    assert!(!game.position().to_fen(&r).contains("a1d1g1"));
    game.play_text("d7-d6").unwrap();
    let mv = game.position().parse_move(&r, "d2-d1xc4").unwrap();
    assert_eq!(mv.to_string(), "d2-d1xc4");
}

#[test]
fn mill_reform_without_a_new_mill_sets_no_ban() {
    let r = nine(&["MillReform=true"]);
    let fen = fen_of("a1 d1 g1 b2", "a7 d6 e4 c4", 'w', [0, 0], 3, 20);
    let mut game = Game::new(r, position(&r, &fen));
    game.play_text("d1-d2").unwrap();
    assert_eq!(game.position().bans(Color::White), 0);
    game.play_text("d6-d7").unwrap();
    assert!(game.position().parse_move(&r, "d2-d1xc4").is_ok());
}

#[test]
fn mill_reform_ban_holds_even_if_another_mill_forms() {
    // White flies (FlyAt 5). a1-d1-g1 is banned; d1-d2-d3 is not.
    let r = nine(&["MillReform=true", "FlyAt=5"]);
    let base = fen_of("a1 g1 d2 d3 c5", "a7 b6 e4 f6", 'w', [0, 0], 1, 30);
    let fen = format!("{base} a1d1g1 -");
    let into_d1: Vec<String> = moves_starting(&r, &fen, "")
        .into_iter()
        .filter(|m| m.contains("-d1"))
        .collect();
    // c5-d1 would close both lines, d2-d1 and d3-d1 the banned one: illegal.
    assert_eq!(
        into_d1,
        strings(&[
            "a1-d1xa7", "a1-d1xb6", "a1-d1xe4", "a1-d1xf6", "g1-d1xa7", "g1-d1xb6", "g1-d1xe4",
            "g1-d1xf6",
        ])
    );
    // Without the ban, c5-d1 (two mills), d2-d1 and d3-d1 are legal too.
    let free: Vec<String> = moves_starting(&r, &base, "")
        .into_iter()
        .filter(|m| m.contains("-d1"))
        .collect();
    assert_eq!(free.len(), 8 + 3 * 4);
}

#[test]
fn mill_reform_every_move_banned_is_blocked() {
    // Pieces 12: the board is full but for d1. a1-d1-g1 and d1-d2-d3 are
    // banned; every move into d1 closes one of them.
    let base = fen_of(
        "a1 g1 d2 d3 a4 a7 b2 b4 b6 c3 c4 c5",
        "d5 d6 d7 e3 e4 e5 f2 f4 f6 g4 g7",
        'w',
        [0, 0],
        5,
        40,
    );
    let fen = format!("{base} a1d1g1,d1d2d3 -");
    let r = nine(&["Pieces=12", "MillReform=true"]);
    assert_moves(&r, &fen, &[]);
    assert_eq!(
        outcome_of(&r, &fen, &[]),
        win(Color::Black, EndReason::Blocked)
    );
    let r = nine(&["Pieces=12", "MillReform=true", "Blocked=draw"]);
    assert_eq!(outcome_of(&r, &fen, &[]), draw(EndReason::Blocked));
    // Without the bans, the same position has moves.
    let r = nine(&["Pieces=12", "MillReform=true"]);
    assert!(!fast_moves(&r, &base).is_empty());
}

/// docs/rules.md 16.7: after d7-a7 closes a1-a4-a7, a7-d7 back (closing
/// d7-d6-d5 again) is refused with the rule's own reason.
#[test]
fn mill_shuttle_refuses_the_move_back_by_its_name() {
    let r = nine(&["MillShuttle=banned"]);
    let fen = fen_of("a1 a4 d7 d6 d5", "g1 g4 f4 b2", 'w', [0, 0], 0, 20);
    let mut game = Game::new(r, position(&r, &fen));
    game.play_text("d7-a7xg1").unwrap();
    game.play_text("g4-g7").unwrap();
    let err = game.position().parse_move(&r, "a7-d7").unwrap_err();
    assert_eq!(err.reason, MoveReason::ShuttleBanned);
    assert!(err.to_string().contains("MillShuttle banned"), "{err}");
    // Without the ban the move back is legal (and closes d7-d6-d5).
    let r = nine(&[]);
    let mut game = Game::new(r, position(&r, &fen));
    game.play_text("d7-a7xg1").unwrap();
    game.play_text("g4-g7").unwrap();
    assert!(game.position().parse_move(&r, "a7-d7xg7").is_ok());
}

/// A removal written where the rule-set options give none is refused with
/// the option that says so: a spent line (16.6), a placement's mill under
/// `PlacingMill hand` (16.2); a plain mill's removal is still accepted.
#[test]
fn removals_the_options_deny_are_refused_by_name() {
    let r = nine(&["OneTimeMill=yes"]);
    let fen = fen_of("a1 a4 d7 g1 g4", "b2 b4 b6 f2 f6", 'w', [0, 0], 0, 20);
    let mut game = Game::new(r, position(&r, &fen));
    for turn in ["d7-a7xf6", "f2-d2", "a7-d7", "d2-f2"] {
        game.play_text(turn).unwrap();
    }
    let err = game.position().parse_move(&r, "d7-a7xf2").unwrap_err();
    assert_eq!(err.reason, MoveReason::SpentMill);
    assert!(game.position().parse_move(&r, "d7-a7").is_ok());

    let r = nine(&["PlacingMill=hand"]);
    let fen = fen_of("a1 a4", "d6 d5", 'w', [7, 7], 0, 3);
    let pos = position(&r, &fen);
    let err = pos.parse_move(&r, "a7xd6").unwrap_err();
    assert_eq!(
        err.reason,
        MoveReason::PlacementMillOffBoard(PlacingMill::Hand)
    );
    assert!(err.to_string().contains("PlacingMill hand"), "{err}");
    assert!(pos.parse_move(&r, "a7").is_ok());
    let r = nine(&[]);
    assert!(position(&r, &fen).parse_move(&r, "a7xd6").is_ok());
}

#[test]
fn mill_reform_in_lasker_placement_bans_placing_into_the_gap() {
    let r = rules(Variant::Lasker, &["MillReform=true"]);
    // White slides d1-d2 during placement (forming b2-d2-f2, breaking a1-d1-g1).
    let fen = fen_of("a1 d1 g1 b2 f2", "a7 d6 e4 c4", 'w', [5, 6], 0, 10);
    let mut game = Game::new(r, position(&r, &fen));
    game.play_text("d1-d2xa7").unwrap();
    game.play_text("d7").unwrap();
    // Placing on d1 would close the banned a1-d1-g1.
    let err = game.position().parse_move(&r, "d1xc4").unwrap_err();
    assert_eq!(err.reason, MoveReason::ReformBanned);
    assert!(game.position().parse_move(&r, "d1").is_err());
    game.play_text("g7").unwrap();
    game.play_text("a7").unwrap();
    assert!(game.position().parse_move(&r, "d1xc4").is_ok());
}

// ------------------------------------------------------------- game end

#[test]
fn blocked_loss_and_draw() {
    let fen = fen_of("a1 d1 g1", "a4 d2 g4 c3", 'w', [0, 0], 0, 30);
    let r = nine(&["Flying=off"]);
    assert_moves(&r, &fen, &[]);
    assert_eq!(
        outcome_of(&r, &fen, &[]),
        win(Color::Black, EndReason::Blocked)
    );
    let r = nine(&["Flying=off", "Blocked=draw"]);
    assert_eq!(outcome_of(&r, &fen, &[]), draw(EndReason::Blocked));
    // With flying the same player has moves.
    let r = nine(&[]);
    assert_eq!(fast_moves(&r, &fen).len(), 3 * 17);
    assert_eq!(outcome_of(&r, &fen, &[]), None);
}

#[test]
fn fewer_than_three_loses() {
    let r = nine(&[]);
    // On the board only.
    let fen = fen_of("a1 d1", "a4 d2 g4 c3", 'w', [0, 0], 0, 30);
    assert_eq!(
        outcome_of(&r, &fen, &[]),
        win(Color::Black, EndReason::FewerPieces(3))
    );
    // The side not to move.
    let fen = fen_of("a1 d1 d7 e3", "a4 d2", 'w', [0, 0], 0, 30);
    assert_eq!(
        outcome_of(&r, &fen, &[]),
        win(Color::White, EndReason::FewerPieces(3))
    );
    // Board plus hand: 1 + 1 loses, 2 + 1 does not.
    let fen = fen_of("a1", "a4 d2", 'w', [1, 1], 0, 30);
    assert_eq!(
        outcome_of(&r, &fen, &[]),
        win(Color::Black, EndReason::FewerPieces(3))
    );
    let fen = fen_of("a1 g7", "a4 d2", 'w', [1, 1], 0, 30);
    assert_eq!(outcome_of(&r, &fen, &[]), None);
    // Before Blocked: a blocked player with 2 pieces loses by piece count.
    let fen = fen_of("a1 d1", "a4 d2 g1 c3", 'w', [0, 0], 0, 30);
    let off = nine(&["Flying=off"]);
    assert_eq!(
        outcome_of(&off, &fen, &[]),
        win(Color::Black, EndReason::FewerPieces(3))
    );
}

#[test]
fn win_by_removal_in_play() {
    let r = nine(&[]);
    let fen = fen_of("a1 d1 g4 c4", "a7 b6 d5", 'w', [0, 0], 4, 30);
    assert_eq!(outcome_of(&r, &fen, &[]), None);
    assert_eq!(
        outcome_of(&r, &fen, &["g4-g1xa7"]),
        win(Color::White, EndReason::FewerPieces(3))
    );
}

// ------------------------------------------------------------- diagonals

#[test]
fn diagonals_add_lines_and_adjacency() {
    let twelve = rules(Variant::Twelve, &[]);
    let fen = fen_of("b2 c3", "a7 d6", 'w', [10, 10], 0, 3);
    assert_moves(
        &twelve,
        &fen,
        &placements(&twelve, &fen, &[("a1", &["a1xa7", "a1xd6"])]),
    );
    // Without diagonals a1 forms nothing.
    let plain = nine(&["Pieces=12"]);
    assert_moves(&plain, &fen, &placements(&plain, &fen, &[]));
    // Slides along diagonals.
    let fen = fen_of("a1 e5 f2", "a4 d1 d5 e4", 'w', [0, 0], 0, 30);
    let twelve_off = rules(Variant::Twelve, &["Flying=off"]);
    assert_moves(
        &twelve_off,
        &fen,
        &strings(&["a1-b2", "e5-f6", "f2-d2", "f2-e3", "f2-f4", "f2-g1"]),
    );
    let plain = nine(&["Pieces=12", "Flying=off"]);
    assert_moves(&plain, &fen, &strings(&["f2-d2", "f2-f4"]));
    // Nine with Diagonals on is twelve's board.
    let diag = nine(&["Diagonals=true"]);
    let fen = fen_of("a1 c3 d7 g7", "b6 d6 f4", 'w', [0, 0], 0, 30);
    assert_eq!(
        moves_starting(&diag, &fen, "a1-b2"),
        strings(&["a1-b2"]),
        "b2 completes nothing with a1 gone"
    );
    let fen = fen_of("a1 c3 d7 g7 b4", "a7 d6 f4 b6", 'w', [0, 0], 0, 30);
    assert_eq!(
        moves_starting(&diag, &fen, "b4-b2"),
        strings(&["b4-b2xa7", "b4-b2xb6", "b4-b2xd6", "b4-b2xf4"])
    );
}

#[test]
fn triple_mill_with_diagonals() {
    // a1 closes a1-d1-g1, a1-a4-a7 and a1-b2-c3 at once.
    let fen = fen_of("d1 g1 a4 a7 b2 c3", "d6 f4 e5 d3", 'w', [3, 8], 0, 8);
    let morabaraba = rules(Variant::Morabaraba, &[]);
    let got = moves_starting(&morabaraba, &fen, "a1");
    assert_eq!(
        got,
        strings(&["a1xd3xd6xe5", "a1xd3xd6xf4", "a1xd3xe5xf4", "a1xd6xe5xf4"])
    );
    let twelve = rules(Variant::Twelve, &[]);
    assert_eq!(
        moves_starting(&twelve, &fen, "a1"),
        strings(&["a1xd3", "a1xd6", "a1xe5", "a1xf4"])
    );
}

// ------------------------------------------------------------- full board

/// Pieces 12: white places its last piece on d7, filling the board without a mill.
fn nearly_full() -> String {
    fen_of(
        "g7 b6 d6 f6 c5 b4 e4 g4 d3 b2 d1",
        "a7 d5 e5 a4 c4 f4 c3 e3 d2 f2 a1 g1",
        'w',
        [1, 0],
        0,
        23,
    )
}

#[test]
fn board_full_draw_and_loss() {
    let fen = nearly_full();
    let r = nine(&["Pieces=12"]);
    assert_moves(&r, &fen, &strings(&["d7"]));
    assert_eq!(outcome_of(&r, &fen, &[]), None);
    assert_eq!(outcome_of(&r, &fen, &["d7"]), draw(EndReason::BoardFull));
    let loss = nine(&["Pieces=12", "BoardFull=loss"]);
    // A loss for the player to move (black), before Blocked.
    assert_eq!(
        outcome_of(&loss, &fen, &["d7"]),
        win(Color::White, EndReason::BoardFull)
    );
    let twelve = rules(Variant::Twelve, &["BoardFull=loss", "Blocked=draw"]);
    assert_eq!(
        outcome_of(&twelve, &fen, &["d7"]),
        win(Color::White, EndReason::BoardFull)
    );
    let start = position(&r, &fen);
    let full = start.make(&r, start.parse_move(&r, "d7").unwrap());
    assert_eq!(full.to_fen(&r), "BWW/WWW/WBB/BWBWBW/BWB/WBB/BWB b 0 0 0 23");
}

#[test]
fn full_board_move_is_rejected() {
    let fen = nearly_full();
    let r = nine(&["Pieces=12"]);
    let mut game = Game::new(r, position(&r, &fen));
    game.play_text("d7").unwrap();
    let err = game.position().parse_move(&r, "d5-d7").unwrap_err();
    assert!(matches!(err.reason, MoveReason::GameOver(_)), "{err}");
}

// ---------------------------------------------------- counting draws

/// Both players with 3 pieces, shuffling: a1-a4 / d7-g7 and back.
fn shuffle_fen(clock: u32) -> String {
    fen_of("a1 d1 c3", "d7 b6 f4", 'w', [0, 0], clock, 40)
}

const SHUFFLE: [&str; 8] = [
    "a1-a4", "d7-g7", "a4-a1", "g7-d7", "a1-a4", "d7-g7", "a4-a1", "g7-d7",
];

#[test]
fn threefold_repetition_counts_the_start() {
    let r = nine(&["EndgameMoves=0"]);
    let fen = shuffle_fen(0);
    for n in 0..8 {
        assert_eq!(outcome_of(&r, &fen, &SHUFFLE[..n]), None, "after {n} plies");
    }
    // The start position occurs for the third time after 8 plies.
    assert_eq!(outcome_of(&r, &fen, &SHUFFLE), draw(EndReason::Repetition));
    let off = nine(&["EndgameMoves=0", "Repetition=false"]);
    assert_eq!(outcome_of(&off, &fen, &SHUFFLE), None);
}

#[test]
fn repetition_ignores_mill_reform_bans() {
    // MayPass + MillReform: d2-d1 closes a1-d1-g1 (declining the removal)
    // and breaks b2-d2-f2, so white's ban is set in the first occurrence of
    // the position with black to move, and not in the next two.
    let r = nine(&["MayPass=true", "MillReform=true"]);
    let fen = fen_of("a1 g1 b2 d2 f2 c4", "g7 e4 d6 a4", 'w', [0, 0], 0, 20);
    let moves = [
        "d2-d1", "g7-d7", "c4-c5", "d7-g7", "c5-c4", "g7-d7", "c4-c5", "d7-g7", "c5-c4",
    ];
    let mut game = Game::new(r, position(&r, &fen));
    game.play_text(moves[0]).unwrap();
    assert!(game.position().to_fen(&r).ends_with(" b2d2f2 -"));
    let first = *game.position();
    for n in 1..9 {
        assert_eq!(outcome_of(&r, &fen, &moves[..n]), None, "after {n} plies");
    }
    for m in &moves[1..5] {
        game.play_text(m).unwrap();
    }
    assert_eq!(game.position().bans(Color::White), 0);
    assert_eq!(
        game.position().repetition_key(),
        first.repetition_key(),
        "same board, hands and side"
    );
    assert_ne!(game.position().hash(), first.hash(), "the bans differ");
    assert_eq!(outcome_of(&r, &fen, &moves), draw(EndReason::Repetition));
}

#[test]
fn endgame_moves_draw() {
    let r = nine(&[]);
    // Both have exactly 3: a draw once the clock reaches 10.
    assert_eq!(outcome_of(&r, &shuffle_fen(9), &[]), None);
    assert_eq!(
        outcome_of(&r, &shuffle_fen(9), &["a1-a4"]),
        draw(EndReason::EndgameMoves)
    );
    assert_eq!(
        outcome_of(&r, &shuffle_fen(10), &[]),
        draw(EndReason::EndgameMoves)
    );
    let off = nine(&["EndgameMoves=0"]);
    assert_eq!(outcome_of(&off, &shuffle_fen(50), &[]), None);
    let five = nine(&["EndgameMoves=5"]);
    assert_eq!(
        outcome_of(&five, &shuffle_fen(5), &[]),
        draw(EndReason::EndgameMoves)
    );
    // Not when only one player is down to 3.
    let fen = fen_of("a1 d1 c3 e5", "d7 b6 f4", 'w', [0, 0], 30, 40);
    assert_eq!(outcome_of(&r, &fen, &[]), None);
    // Pieces in hand count: 2 on the board + 1 in hand is 3.
    let fen = fen_of("a1 d1", "d7 b6 f4", 'w', [1, 0], 10, 40);
    assert_eq!(outcome_of(&r, &fen, &[]), draw(EndReason::EndgameMoves));
}

#[test]
fn no_capture_moves_draw() {
    let r = nine(&[]);
    let fen = fen_of("a1 d1 c3 e5", "d7 b6 f4 g1", 'w', [0, 0], 99, 80);
    assert_eq!(outcome_of(&r, &fen, &[]), None);
    assert_eq!(
        outcome_of(&r, &fen, &["a1-a4"]),
        draw(EndReason::NoCaptureMoves)
    );
    let off = nine(&["NoCaptureMoves=0"]);
    assert_eq!(outcome_of(&off, &fen, &["a1-a4"]), None);
    let small = nine(&["NoCaptureMoves=5"]);
    let fen = fen_of("a1 d1 c3 e5", "d7 b6 f4 g1", 'w', [0, 0], 5, 80);
    assert_eq!(
        outcome_of(&small, &fen, &[]),
        draw(EndReason::NoCaptureMoves)
    );
}

#[test]
fn draw_rules_in_order() {
    // EndgameMoves before NoCaptureMoves when both limits are reached.
    let both = nine(&["EndgameMoves=5", "NoCaptureMoves=5"]);
    assert_eq!(
        outcome_of(&both, &shuffle_fen(5), &[]),
        draw(EndReason::EndgameMoves)
    );
    // NoCaptureMoves first reached.
    let nc_first = nine(&["EndgameMoves=10", "NoCaptureMoves=5"]);
    assert_eq!(
        outcome_of(&nc_first, &shuffle_fen(5), &[]),
        draw(EndReason::NoCaptureMoves)
    );
    // Repetition before EndgameMoves: the 8th ply repeats and reaches 8.
    let r = nine(&["EndgameMoves=8"]);
    assert_eq!(outcome_of(&r, &shuffle_fen(0), &SHUFFLE[..7]), None);
    assert_eq!(
        outcome_of(&r, &shuffle_fen(0), &SHUFFLE),
        draw(EndReason::Repetition)
    );
    // Blocked before the move-count draws.
    let fen = fen_of("a1 d1 g1", "a4 d2 g4", 'w', [0, 0], 200, 30);
    let off = nine(&["Flying=off"]);
    assert_eq!(
        outcome_of(&off, &fen, &[]),
        win(Color::Black, EndReason::Blocked)
    );
}

// ---------------------------------------------------------- first player

#[test]
fn first_player_black() {
    let r = nine(&["FirstPlayer=black"]);
    let start = Position::start(&r);
    assert_eq!(start.side_to_move(), Color::Black);
    assert_eq!(start.to_fen(&r), "3/3/3/6/3/3/3 b 9 9 0 1");
    let mut game = Game::new(r, start);
    game.play_text("d2").unwrap();
    assert_eq!(game.position().to_fen(&r), "3/3/3/6/3/1B1/3 w 9 8 0 2");
}

#[test]
fn pieces_three_and_twelve() {
    let r = nine(&["Pieces=3"]);
    let start = Position::start(&r);
    assert_eq!(start.to_fen(&r), "3/3/3/6/3/3/3 w 3 3 0 1");
    // Three pieces each: the placing mill wins at once.
    let mut game = Game::new(r, start);
    for m in ["a1", "b2", "d1", "d2", "g1xb2"] {
        game.play_text(m).unwrap();
    }
    let naive_outcome = {
        let mut n = NaiveGame::new(r);
        for m in ["a1", "b2", "d1", "d2", "g1xb2"] {
            n.play_text(m);
        }
        n.outcome()
    };
    assert_eq!(game.outcome(), win(Color::White, EndReason::FewerPieces(3)));
    assert_eq!(game.outcome(), naive_outcome);
    let twelve = nine(&["Pieces=12"]);
    assert_eq!(
        Position::start(&twelve).to_fen(&twelve),
        "3/3/3/6/3/3/3 w 12 12 0 1"
    );
}

// ------------------------------------------------------- huge move lists

#[test]
fn huge_move_list_with_every_removal_option() {
    // Twelve pieces, everyone flying, three lines through many points, any
    // piece removable, removals per mill and passing allowed: 3340 moves
    // (a hill-climbing search found no set-up position with more). The
    // move list holds 4096.
    let r = rules(
        Variant::Twelve,
        &[
            "FlyAt=12",
            "RemovePerMill=true",
            "MayPass=true",
            "MillRemoval=any",
        ],
    );
    let fen = fen_of(
        "a1 a4 b2 b6 c4 c5 d3 d7 e3 g7",
        "b4 d1 d2 d5 d6 e4 e5 f2 f4 f6 g1 g4",
        'w',
        [0, 0],
        0,
        40,
    );
    let fast = fast_moves(&r, &fen);
    assert_eq!(fast.len(), 3340);
    assert_eq!(fast, NaiveGame::from_fen(r, &fen).legal_texts());
    assert_eq!(position(&r, &fen).perft(&r, 1), 3340);
}

// ------------------------------------------------------------- options

#[test]
fn option_defaults_and_presets_follow_rules_md() {
    let d = Rules::default();
    assert_eq!(d, Rules::preset(Variant::Nine));
    assert_eq!(
        (d.pieces, d.diagonals, d.flying, d.fly_at, d.lasker),
        (9, false, morris::rules::Flying::Three, 3, false)
    );
    assert_eq!(
        (d.remove_per_mill, d.mill_removal, d.may_pass, d.mill_reform),
        (false, morris::rules::MillRemoval::Protected, false, false)
    );
    assert_eq!(
        (d.blocked, d.board_full, d.endgame_moves, d.no_capture_moves),
        (
            morris::rules::Blocked::Loss,
            morris::rules::BoardFull::Draw,
            10,
            100
        )
    );
    assert!(d.repetition);
    assert_eq!(d.first_player, Color::White);
    let t = Rules::preset(Variant::Twelve);
    assert_eq!(
        (t.pieces, t.diagonals, t.remove_per_mill, t.lasker),
        (12, true, false, false)
    );
    let m = Rules::preset(Variant::Morabaraba);
    assert_eq!(
        (m.pieces, m.diagonals, m.remove_per_mill, m.lasker),
        (12, true, true, false)
    );
    let l = Rules::preset(Variant::Lasker);
    assert_eq!(
        (l.pieces, l.diagonals, l.remove_per_mill, l.lasker),
        (10, false, false, true)
    );
    // Variant resets every option to the preset.
    let mut r = nine(&["MayPass=true", "Pieces=5"]);
    r.apply("Variant=lasker").unwrap();
    assert_eq!(r, Rules::preset(Variant::Lasker));
}

#[test]
fn option_values_and_ranges() {
    let mut r = Rules::default();
    for yes in ["true", "on", "yes", "1", "TRUE", "On"] {
        r.set("MayPass", "false").unwrap();
        r.set("maypass", yes).unwrap();
        assert!(r.may_pass, "{yes}");
    }
    for no in ["false", "off", "no", "0"] {
        r.set("Repetition", no).unwrap();
        assert!(!r.repetition, "{no}");
    }
    assert!(r.set("MayPass", "maybe").is_err());
    for (name, ok, bad) in [
        ("Pieces", &["3", "12"][..], &["2", "13", "x", "-1"][..]),
        ("EndgameMoves", &["0", "1000"], &["1001", "-1"]),
        ("NoCaptureMoves", &["0", "1000"], &["1001"]),
        ("Flying", &["off", "three", "both", "BOTH"], &["four"]),
        ("MillRemoval", &["protected", "never", "any"], &["some"]),
        ("Blocked", &["loss", "draw"], &["win"]),
        ("BoardFull", &["draw", "loss"], &["win"]),
        ("FirstPlayer", &["white", "black"], &["red"]),
        (
            "Variant",
            &["nine", "twelve", "morabaraba", "lasker"],
            &["six"],
        ),
    ] {
        for v in ok {
            let mut r = Rules::preset(Variant::Twelve);
            assert!(r.set(name, v).is_ok(), "{name}={v}");
        }
        for v in bad {
            let mut r = Rules::preset(Variant::Twelve);
            let before = r;
            assert!(r.set(name, v).is_err(), "{name}={v}");
            assert_eq!(r, before, "a refused setting changes nothing");
        }
    }
    // FlyAt 3..12 and at most Pieces.
    let mut r = Rules::preset(Variant::Twelve);
    assert!(r.set("FlyAt", "12").is_ok());
    assert!(r.set("FlyAt", "2").is_err());
    assert!(r.set("Pieces", "11").is_err(), "FlyAt 12 > Pieces 11");
    let mut r = Rules::default();
    assert!(r.set("FlyAt", "10").is_err());
    assert!(r.set("FlyAt", "9").is_ok());
    assert!(r.apply("Bogus=1").is_err());
    assert!(r.apply("FlyAt").is_err());
}
