//! Perft (docs/rules.md 9): leaves of the legal-move tree, one per
//! distinct legal move; only the piece-count and no-move losses end a
//! branch. The fast core's `Position::perft` is checked against the
//! naive reference's count and against the numbers written here (which
//! the naive reference computed, for peers to check against).

use crate::common;

use common::naive::{NaiveGame, normalise_fen};
use morris::rules::{Game, MoveList, Position, Rules, START_FEN, Variant};

fn rules(variant: Variant, settings: &[&str]) -> Rules {
    let mut r = Rules::preset(variant);
    for s in settings {
        r.apply(s).unwrap();
    }
    r
}

/// Plays `moves` (space-separated) from the start on both implementations
/// and checks they reach the same position.
fn reach(rules: Rules, moves: &str) -> (Position, NaiveGame) {
    let mut game = Game::new(rules, Position::start(&rules));
    let mut naive = NaiveGame::new(rules);
    for m in moves.split_whitespace() {
        let mv = game.play_text(m).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(mv.to_string(), m, "moves are written canonically here");
        naive.play_text(m);
    }
    let pos = *game.position();
    assert_eq!(normalise_fen(&pos.to_fen(&rules)), naive.fen());
    (pos, naive)
}

/// Compares the full sorted move lists of every node of the tree `depth`
/// plies deep, and the positions the moves lead to.
fn walk(label: &str, rules: &Rules, pos: &Position, naive: &NaiveGame, depth: u32) {
    let mut list = MoveList::new();
    pos.legal_moves(rules, &mut list);
    let mut fast: Vec<String> = list.iter().map(|m| m.to_string()).collect();
    fast.sort();
    let naive_moves = naive.legal_moves();
    let expected: Vec<String> = naive_moves.iter().map(|m| m.text.clone()).collect();
    assert_eq!(fast, expected, "{label}: moves of {}", pos.to_fen(rules));
    if depth <= 1 || naive.material(0) < 3 || naive.material(1) < 3 {
        return;
    }
    for nm in &naive_moves {
        let mv = *list.iter().find(|m| m.to_string() == nm.text).unwrap();
        let next = pos.make(rules, mv);
        let mut after = naive.clone();
        after.history.clear();
        after.play(nm);
        assert_eq!(normalise_fen(&next.to_fen(rules)), after.fen(), "{label}");
        walk(label, rules, &next, &after, depth - 1);
    }
}

/// Checks perft 1..=expected.len() for fast, naive and the given numbers.
fn check(label: &str, rules: Rules, moves: &str, fen: &str, expected: &[u64]) {
    let (pos, naive) = reach(rules, moves);
    assert_eq!(pos.to_fen(&rules), fen, "{label}: position reached");
    let from_fen = Position::from_fen(fen, &rules).unwrap();
    walk(label, &rules, &pos, &naive, expected.len().min(3) as u32);
    for (i, &want) in expected.iter().enumerate() {
        let d = i as u32 + 1;
        let fast = pos.perft(&rules, d);
        let slow = naive.perft(d);
        println!("{label} perft {d}: fast {fast} naive {slow}");
        assert_eq!(fast, slow, "{label}: perft {d}, fast vs naive");
        assert_eq!(fast, want, "{label}: perft {d}");
        assert_eq!(
            from_fen.perft(&rules, d),
            want,
            "{label}: perft {d} from FEN"
        );
    }
}

#[test]
fn standard_start_counts() {
    let r = Rules::preset(Variant::Nine);
    let start = Position::from_fen(START_FEN, &r).unwrap();
    assert_eq!(start, Position::start(&r));
    let counts: Vec<u64> = (1..=4).map(|d| start.perft(&r, d)).collect();
    assert_eq!(counts, [24, 552, 12144, 255024]);
    assert_eq!(start.perft(&r, 0), 1);
}

// Start positions. Until ply 5 no mill can form, so the presets differ
// only by Lasker slides (ply 3 on); ply 5 brings the first mills:
// 96 ordered white pairs on a line x 21 x 20 black replies = 40320 mill
// placements, each with 2 removal choices (50400 with diagonals), and
// MayPass adds the declining move.

#[test]
fn start_nine() {
    check(
        "nine",
        rules(Variant::Nine, &[]),
        "",
        START_FEN,
        &[24, 552, 12144, 255024, 5140800],
    );
}

#[test]
fn start_twelve() {
    check(
        "twelve",
        rules(Variant::Twelve, &[]),
        "",
        "3/3/3/6/3/3/3 w 12 12 0 1",
        &[24, 552, 12144, 255024, 5150880],
    );
}

#[test]
fn start_morabaraba() {
    check(
        "morabaraba",
        rules(Variant::Morabaraba, &[]),
        "",
        "3/3/3/6/3/3/3 w 12 12 0 1",
        &[24, 552, 12144, 255024, 5150880],
    );
}

#[test]
fn start_lasker() {
    check(
        "lasker",
        rules(Variant::Lasker, &[]),
        "",
        "3/3/3/6/3/3/3 w 10 10 0 1",
        &[24, 552, 13552, 319176, 7911352],
    );
}

#[test]
fn start_seed_000_may_pass() {
    check(
        "000",
        rules(Variant::Nine, &["MayPass=true"]),
        "",
        START_FEN,
        &[24, 552, 12144, 255024, 5181120],
    );
}

#[test]
fn start_seed_001_003_flying_both() {
    check(
        "001/003 both",
        rules(
            Variant::Nine,
            &["MillRemoval=never", "RemovePerMill=true", "Flying=both"],
        ),
        "",
        START_FEN,
        &[24, 552, 12144, 255024, 5140800],
    );
}

#[test]
fn start_other_seed_sets() {
    let sets: [(&str, &[&str], &str); 7] = [
        (
            "000 RemovePerMill",
            &["MayPass=true", "RemovePerMill=true"],
            START_FEN,
        ),
        (
            "000 MillReform",
            &["MayPass=true", "MillReform=true"],
            START_FEN,
        ),
        (
            "001/003 off",
            &["MillRemoval=never", "RemovePerMill=true", "Flying=off"],
            START_FEN,
        ),
        (
            "001/003 black first",
            &[
                "MillRemoval=never",
                "RemovePerMill=true",
                "Flying=both",
                "FirstPlayer=black",
            ],
            "3/3/3/6/3/3/3 b 9 9 0 1",
        ),
        ("004", &["MayPass=true", "MillRemoval=never"], START_FEN),
        (
            "004 RemovePerMill",
            &["MayPass=true", "MillRemoval=never", "RemovePerMill=true"],
            START_FEN,
        ),
        (
            "004 MillReform",
            &["MayPass=true", "MillRemoval=never", "MillReform=true"],
            START_FEN,
        ),
    ];
    for (label, settings, fen) in sets {
        check(
            label,
            rules(Variant::Nine, settings),
            "",
            fen,
            &[24, 552, 12144, 255024],
        );
    }
}

// Mid-game positions, reached by fixed move lists.

#[test]
fn nine_movement() {
    check(
        "nine movement",
        rules(Variant::Nine, &[]),
        "b2 d6 f4 e5 c4 a4 b4 f2 b6xa4 e3 a1 e4xc4 d7 d1 g7 d3 a7xd1 f6",
        "WWW/WBB/2B/1W1BW1/1BB/W1B/W2 w 0 0 0 10",
        &[11, 56, 656, 4394],
    );
}

#[test]
fn nine_flying() {
    check(
        "nine flying",
        rules(Variant::Nine, &[]),
        "g1 c4 c3 d3 d5 b2 b6 g7 e3 d6 b4 d2 d1 f2xd5 a1xg7 e4 f4 d5 g1-g4 d6-f6 \
         g4-g1xd3 d5-d6 a1-a4 d2-d3 a4-a1xe4 c4-c5 b4-c4 d3-d2xc4 f4-g4 d2-d3 d1-d2 \
         d6-d5 d2-d1xf2 f6-f4 c3-c4 b2-d2 c4-c3 f4-f6 c3-c4 f6-d6 e3-e4 d5-e5 e4-f4 \
         d6-d5xb6 a1-a4 d3-c3 g4-g7 d2-d3 a4-a1xc3 d3-d2 f4-g4xd2",
        "2W/3/BBB/2W2W/3/3/WWW b 0 0 0 26",
        &[45, 267, 12407],
    );
}

#[test]
fn nine_mill_reform() {
    check(
        "nine MillReform",
        rules(Variant::Nine, &["MillReform=true"]),
        "b2 d6 f4 e5 c4 a4 b4 f2 b6xa4 e3 a1 e4xc4 d7 d1 g7 d3 a7xd1 f6 b4-a4xf6 e5-d5",
        "WWW/WB1/1B1/W2BW1/1BB/W1B/W2 w 0 0 1 11 b2b4b6 -",
        &[7, 69, 739, 6264],
    );
}

#[test]
fn seed_000_mill_reform() {
    check(
        "000 MillReform",
        rules(Variant::Nine, &["MayPass=true", "MillReform=true"]),
        "e3 a4 f2 a7 d3 d1 c3xd1 a1xf2 d6 f4 d2 e4 b2 g4xd6 f2xa1 a1xd3 d7 d1 d2-d3xd1 g4-g7",
        "BWB/3/3/B2BB1/WWW/W1W/B2 w 0 0 1 11 b2d2f2 -",
        &[5, 50, 479, 4150],
    );
}

#[test]
fn morabaraba_placement() {
    check(
        "morabaraba placement",
        rules(Variant::Morabaraba, &[]),
        "d1 b4 a7 b6 c3 d6 d3 f6xc3 d2xb4 e5 e4 g7xe4 a1 g4 e3 g1xe3 a4xf6",
        "W1B/BB1/2B/W4B/1W1/1W1/WWB b 3 4 0 9",
        &[17, 199, 2696, 29592],
    );
}

#[test]
fn lasker_placement() {
    check(
        "lasker placement",
        rules(Variant::Lasker, &[]),
        "b2 d6 g1 c3 b6 d2 b4xd2 e3 c4 d3xc4 c4 a4 e5 f6 e5-d5 g7",
        "2B/WBB/1W1/BWW3/BBB/W2/2W w 3 2 0 9",
        &[17, 305, 5675, 114656],
    );
}

#[test]
fn seed_001_003_flying_both() {
    check(
        "001/003 flying both",
        rules(
            Variant::Nine,
            &["MillRemoval=never", "RemovePerMill=true", "Flying=both"],
        ),
        "b2 d6 f4 e5 c4 a4 b4 f2 b6xa4 e3 a1 e4xc4 d7 d1 g7 d3 a7xd1 f6 b4-a4xf6 e5-d5 \
         a4-b4xf2 d5-e5xa1 b4-c4 d6-f6 c4-b4xf6 d3-d2 b4-c4 d2-d3 f4-g4 e5-d5 c4-c5 \
         d5-e5xb2 b6-d6 e5-d5 a7-a4 d5-e5xg4 d6-b6 e5-d5 g7-g4 d5-e5xb6 g4-g1 e4-f4 \
         a4-a7 f4-f2 a7-a4 f2-d2 a4-b4 e5-e4 d7-a7 d3-c3 b4-b6 d2-d3xg1 a7-a4",
        "3/W2/W2/W2B2/BBB/3/3 b 0 0 1 27",
        &[72, 3366, 247332],
    );
}

#[test]
fn seed_001_003_flying_off_black_first() {
    check(
        "001/003 flying off, black first",
        rules(
            Variant::Nine,
            &[
                "MillRemoval=never",
                "RemovePerMill=true",
                "Flying=off",
                "FirstPlayer=black",
            ],
        ),
        "b2 d6 f4 e5 c4 a4 b4 f2 b6xa4 e3 a1 e4xc4 d7 d1 g7 d3 a7xd1 f6 b4-a4xf6 e5-d5 \
         a4-b4xf2 d5-e5xa1 b4-c4 d6-f6 c4-b4xf6 d3-d2 b4-c4 d2-d3 f4-g4 e5-d5 c4-c5 \
         d5-e5xb2 b6-d6 e5-d5 a7-a4 d5-e5xg4 d6-b6 e5-d5 g7-g4 d5-e5xb6 g4-g1 e4-f4 \
         a4-a7 f4-f2 a7-a4 f2-d2 a4-b4 e5-e4 d7-a7 d3-c3 b4-b6 d2-d3xg1",
        "B2/B2/B2/3W2/WWW/3/3 b 0 0 0 27",
        &[6, 23, 160, 1203, 6883],
    );
}

#[test]
fn twelve_placement() {
    check(
        "twelve placement",
        rules(Variant::Twelve, &[]),
        "b2 d6 f4 e5 c4 a4 b4 f2 b6xa4 e3 a1 g1xc4 g4 f6 e4xe5 c5",
        "3/WBB/B2/1W1WWW/2B/W1B/W1B w 4 4 0 9",
        &[13, 133, 1608, 15226],
    );
}

#[test]
fn seed_004_remove_per_mill() {
    check(
        "004 RemovePerMill",
        rules(
            Variant::Nine,
            &["MayPass=true", "MillRemoval=never", "RemovePerMill=true"],
        ),
        "a4 d6 c4 e5 b4xd6 g7 e3 f2 a7 d5 a1xe5 d1 d3 b6 c5 d2",
        "W1B/B2/WB1/WWW3/1WW/1BB/WB1 w 1 1 0 9",
        &[31, 347, 2582, 20634],
    );
}

#[test]
fn seed_004_mill_reform() {
    check(
        "004 MillReform",
        rules(
            Variant::Nine,
            &["MayPass=true", "MillRemoval=never", "MillReform=true"],
        ),
        "f6 e3 c5 f2 g1 f4 e4 e5 d3 d7 d1 d2 a1xe5 b2xd3 a4 a7 d3 d5 f6-d6 d5-e5 d6-b6 \
         b2-b4 d3-c3 d2-d3 g1-g4 d3-d2 g4-g1xd2 b4-b2 a4-b4 f4-f6 b4-c4xb2 f2-f4 g1-g4 \
         e5-d5 g4-g1xf6 a7-a4 b6-b4 f4-g4 d1-d2 a4-a7 a1-a4xa7 d7-d6 d2-d1 e3-d3 \
         a4-a1xd3 d5-d3",
        "3/1B1/W2/1WWW1B/WB1/3/WWW w 0 0 1 24 a4b4c4 -",
        &[8, 312, 3657, 115373],
    );
}

#[test]
fn morabaraba_mill_reform_flying_both() {
    check(
        "morabaraba MillReform flying both",
        rules(Variant::Morabaraba, &["MillReform=true", "Flying=both"]),
        "b2 d6 f4 e5 c4 a4 b4 f2 b6xa4 e3 a1 g1xc4 g4 f6 e4xe5 c5 c3xd6 d1 d3 d5 d2 \
         e5xd2 d6 g7xd6 b6-d6 f2-d2 b4-c4 e3-f2 e4-e3xd1 e5-e4 c4-b4 d5-e5xd6 b4-b6 \
         d2-d1 b6-b4 c5-d5 b4-a4 g7-d7 d3-d2 d7-a7 d2-d3xg1 f6-g7 b2-d2 e5-f6 d2-b2xf6 \
         e4-e5 e3-e4xf2 g7-f6 d3-d2 d5-d6 f4-f2xe5 a7-b6xa4 e4-e3 b6-c5 d2-d3xd1 \
         c5-b6xg4",
        "3/BBB/3/6/WWW/W1W/W2 w 0 0 0 29 b2d2f2 -",
        &[94, 3690, 408396],
    );
}

/// Perft ends a branch only when a side is under 3 pieces or has no move.
#[test]
fn perft_ends_branches_only_on_losses() {
    // Pieces 3: white's third placement can close a mill and take one of
    // black's pieces, ending those branches (black is then under 3).
    let r = rules(Variant::Nine, &["Pieces=3"]);
    let (pos, naive) = reach(r, "a1 b2 d1 d2");
    for d in 1..=4 {
        assert_eq!(pos.perft(&r, d), naive.perft(d), "Pieces=3 perft {d}");
    }
    // A position already lost by piece count has no leaves.
    let lost = Position::from_fen("WW1/3/3/6/3/3/BBB w 0 0 0 30", &Rules::default()).unwrap();
    assert_eq!(lost.perft(&Rules::default(), 1), 0);
    assert_eq!(lost.perft(&Rules::default(), 0), 1);
    // Draw rules are ignored: a clock far past every limit changes nothing.
    let r = Rules::default();
    let a = Position::from_fen("WWW/3/3/6/3/3/BBB w 0 0 0 30", &r).unwrap();
    let b = Position::from_fen("WWW/3/3/6/3/3/BBB w 0 0 999 30", &r).unwrap();
    for d in 1..=3 {
        assert_eq!(a.perft(&r, d), b.perft(&r, d));
        assert_eq!(
            a.perft(&r, d),
            NaiveGame::from_fen(r, "WWW/3/3/6/3/3/BBB w 0 0 999 30").perft(d)
        );
    }
}
