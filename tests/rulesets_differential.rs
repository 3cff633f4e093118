//! Differential tests of shared/rulesets.md: seeded random games (and
//! set-up positions read back from the production FEN) played by the
//! production rules core and by the naive implementation
//! (tests/common/naive_sets.rs) side by side, for each named rule set of
//! sections 8.2 and 8.3 and for option combinations no preset uses. At
//! every position: the set of legal turns as tokens, the side to move,
//! hands and board, the outcome, and the FEN round trip.
//!
//! A mismatch prints the seed, the turns so far and the position string.

mod common;

use common::naive_sets::{self, Opts, Res, State};
use common::sets_harness::{check_variant_name, play_games};

/// Games per named rule set.
const GAMES: usize = 300;

fn named_set(name: &str, seed: u64) {
    check_variant_name(name);
    let stats = play_games(name, &naive_sets::named(name), GAMES, seed);
    assert_eq!(stats.games, GAMES);
}

#[test]
fn nine_mens_morris() {
    named_set("Nine Men's Morris", 101);
}

#[test]
fn twelve_mens_morris() {
    named_set("Twelve Men's Morris", 102);
}

#[test]
fn morabaraba() {
    named_set("Morabaraba", 103);
}

#[test]
fn dooz() {
    named_set("Dooz", 104);
}

#[test]
fn lasker_morris() {
    named_set("Lasker Morris", 105);
}

#[test]
fn one_time_mill() {
    named_set("One-Time Mill", 106);
}

#[test]
fn cham_gonu() {
    named_set("Cham Gonu", 107);
}

#[test]
fn zhi_qi() {
    named_set("Zhi Qi", 108);
}

#[test]
fn cheng_san_qi() {
    named_set("Cheng San Qi", 109);
}

#[test]
fn da_san_qi() {
    named_set("Da San Qi", 110);
}

#[test]
fn mul_mulan() {
    named_set("Mul-Mulan", 111);
}

#[test]
fn nerenchi() {
    named_set("Nerenchi", 112);
}

#[test]
fn el_filja() {
    named_set("El Filja", 113);
}

#[test]
fn engine_table_sets() {
    for (i, (name, _)) in naive_sets::ENGINE_SETS.iter().enumerate() {
        play_games(name, &naive_sets::named(name), GAMES / 3, 120 + i as u64);
    }
}

/// Option combinations that no named rule set uses: each row is the
/// Sanmill base plus these settings.
const COMBOS: [(&str, &[&str]); 22] = [
    ("custodian", &["Custodian=yes", "Flying=off"]),
    (
        "custodian rpm twelve",
        &[
            "Custodian=yes",
            "RemovePerMill=yes",
            "Pieces=12",
            "Diagonals=yes",
        ],
    ),
    (
        "custodian+intervention",
        &["Custodian=yes", "Intervention=yes", "RemovePerMill=yes"],
    ),
    (
        "intervention sides only at three",
        &[
            "Intervention=yes",
            "InterventionCross=no",
            "InterventionAtThree=yes",
        ],
    ),
    (
        "custodian moving only, cross off",
        &[
            "Custodian=yes",
            "CustodianPlacing=no",
            "CustodianCross=no",
            "Lasker=yes",
            "Pieces=10",
        ],
    ),
    (
        "custodian placing only, lasker",
        &[
            "Custodian=yes",
            "CustodianMoving=no",
            "Lasker=yes",
            "Pieces=10",
        ],
    ),
    ("leap", &["Leap=yes"]),
    (
        "leap flying off diagonals",
        &["Leap=yes", "Flying=off", "Diagonals=yes", "MillRemoval=any"],
    ),
    (
        "leap at three, sides only",
        &["Leap=yes", "LeapAtThree=yes", "LeapCross=no"],
    ),
    (
        "leap+custodian+intervention rpm",
        &[
            "Leap=yes",
            "Custodian=yes",
            "Intervention=yes",
            "RemovePerMill=yes",
            "Diagonals=yes",
            "Pieces=12",
        ],
    ),
    ("blocked pass", &["Blocked=pass", "Flying=off", "Pieces=12"]),
    (
        "blocked removemove",
        &[
            "Blocked=removemove",
            "Flying=off",
            "Pieces=12",
            "Diagonals=yes",
        ],
    ),
    (
        "blocked removepass",
        &[
            "Blocked=removepass",
            "Flying=off",
            "Pieces=12",
            "BoardFull=removeone",
        ],
    ),
    (
        "blocked bothremove",
        &["Blocked=bothremove", "Flying=off", "Pieces=12"],
    ),
    (
        "board full removesecond",
        &["Pieces=12", "BoardFull=removesecond", "Flying=off"],
    ),
    (
        "board full removeone defender",
        &[
            "Pieces=12",
            "Diagonals=yes",
            "BoardFull=removeone",
            "DefenderFirst=yes",
            "Blocked=bothremove",
        ],
    ),
    (
        "stop at two empty",
        &[
            "Pieces=12",
            "StopAtTwoEmpty=yes",
            "PlacingMill=mark",
            "Diagonals=yes",
        ],
    ),
    (
        "one-time mill diagonals",
        &[
            "OneTimeMill=yes",
            "Diagonals=yes",
            "Pieces=12",
            "MillShuttle=banned",
        ],
    ),
    (
        "mill shuttle flying",
        &["MillShuttle=banned", "FlyAt=4", "RemovePerMill=yes"],
    ),
    (
        "loss check turn, endgame both",
        &[
            "LossCheck=turn",
            "EndgameWhen=both",
            "EndgameMoves=10",
            "MinPieces=4",
            "PlacingMill=hand",
        ],
    ),
    (
        "handagain rpm lasker",
        &[
            "PlacingMill=handagain",
            "RemovePerMill=yes",
            "Lasker=yes",
            "Pieces=10",
            "MinPieces=5",
        ],
    ),
    (
        "tally defender victimpicks",
        &[
            "PlacingMill=tally",
            "DefenderFirst=yes",
            "Pieces=12",
            "Diagonals=yes",
            "Custodian=yes",
        ],
    ),
];

#[test]
fn option_combinations() {
    for (i, (label, settings)) in COMBOS.iter().enumerate() {
        play_games(label, &Opts::with(settings), GAMES / 3, 200 + i as u64);
    }
}

// ----- the naive implementation on its own (section 9 worked examples) --

fn play(name: &str, turns: &str) -> State {
    let mut s = State::new(naive_sets::named(name));
    for t in turns.split_whitespace() {
        s.play(t);
    }
    s
}

fn tokens(s: &State) -> Vec<String> {
    s.turns().into_iter().map(|(t, _)| t).collect()
}

/// Section 9, example 1.
#[test]
fn naive_dooz_hand_removal() {
    let s = play("Dooz", "a1 b2 a4 b4 a7");
    assert_eq!(s.on_board(1), 2);
    assert_eq!(s.hand, [9, 9]);
    assert_eq!(s.side, 1);
}

/// Section 9, example 2.
#[test]
fn naive_mul_mulan_intervention() {
    let s = play("Mul-Mulan", "c4 f4 f2 b4 d6 f6 a7 a1 g7");
    assert!(tokens(&s).contains(&"d7xa7xg7".to_string()));
    assert!(!tokens(&s).contains(&"d7xa7".to_string()));
    let mut after = s.clone();
    after.play("d7xa7xg7");
    assert_eq!(after.on_board(0), 3);
}

fn full_board_no_mill() -> String {
    common::sets_harness::full_board_no_mill().join(" ")
}

/// Section 9, example 3.
#[test]
fn naive_zhi_qi_full_board() {
    let s = play("Zhi Qi", &full_board_no_mill());
    assert_eq!(s.side, 0);
    let t = tokens(&s);
    assert_eq!(t.len(), 12, "{t:?}");
    assert!(t.iter().all(|x| x.starts_with('x')));
    let mut s = s;
    let first = t[0].clone();
    s.play(&first);
    assert_eq!(s.side, 1);
    assert_eq!(tokens(&s).len(), 12);
    let second = tokens(&s)[0].clone();
    s.play(&second);
    assert_eq!(s.side, 0);
    assert!(tokens(&s).iter().all(|x| x.contains('-')));
}

/// Section 9, example 4.
#[test]
fn naive_el_filja_tally_own_removals() {
    let s = play("El Filja", &full_board_no_mill());
    assert_eq!(s.side, 0);
    let t = tokens(&s);
    assert!(t.contains(&"xa1".to_string()), "{t:?}");
    for x in &t {
        let p = common::naive::index_of(&x[1..]);
        assert_eq!(s.cells[p], naive_sets::Cell::Live(0), "own piece");
    }
    let mut s = s;
    s.play("xa1");
    assert_eq!(s.side, 1);
    let t = tokens(&s);
    assert!(
        t.iter()
            .all(|x| { s.cells[common::naive::index_of(&x[1..])] == naive_sets::Cell::Live(1) })
    );
    s.play(&t[0]);
    assert_eq!(s.side, 0);
    assert!(tokens(&s).iter().all(|x| x.contains('-')));
}

/// Section 9, example 5.
#[test]
fn naive_twelve_first_loses() {
    let s = play("Twelve Men's Morris", &full_board_no_mill());
    assert_eq!(s.over, Some(Res::Win(1)));
    assert_eq!(s.perft(1), 0);
}

/// Pieces are never created: live + marked + in hand never exceeds the
/// start, and marks vanish at the stage change, in random naive games
/// of every named rule set.
#[test]
fn naive_piece_accounting() {
    for name in common::sets_harness::all_set_names() {
        let opts = naive_sets::named(name);
        for seed in 0..20 {
            let mut rng = common::Rng::new(seed);
            let mut s = State::new(opts);
            let mut before = [opts.pieces; 2];
            while s.over.is_none() {
                let turns = s.turns();
                assert!(!turns.is_empty(), "{name}: no turn and not over");
                s = turns[rng.below(turns.len())].1.clone();
                let marks = s
                    .cells
                    .iter()
                    .filter(|&&c| c == naive_sets::Cell::Mark)
                    .count();
                if !s.placing_stage {
                    assert_eq!(marks, 0, "{name}: marks after the stage change");
                }
                for (c, b) in before.iter_mut().enumerate() {
                    let m = s.material(c);
                    assert!(m <= *b, "{name}: pieces created");
                    *b = m;
                }
                if s.counter > 300 {
                    break;
                }
            }
        }
    }
}
