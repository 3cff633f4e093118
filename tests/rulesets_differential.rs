//! Differential tests of docs/rules.md Part II: seeded random games (and
//! set-up positions read back from the production FEN) played by the
//! production rules core and by the naive implementation
//! (tests/common/naive_sets.rs) side by side, for each named rule set of
//! sections 18.2 and 18.3 and for option combinations no preset uses. At
//! every position: the set of legal turns as tokens, the side to move,
//! hands and board, the outcome, and the FEN round trip.
//!
//! A mismatch prints the seed, the turns so far and the position string.

use crate::common;

use common::Rng;
use common::naive_sets::{self, Opts, Res, State};
use common::sets_harness::{Stats, check_variant_name, play_game, play_games, replay};

/// Games per named rule set.
const GAMES: usize = 1000;

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
        check_variant_name(name);
        play_games(name, &naive_sets::named(name), GAMES / 10, 120 + i as u64);
    }
}

/// Option combinations that no named rule set uses: each test is the
/// Sanmill base plus its settings.
macro_rules! combos {
    ($($name:ident: $seed:expr, $settings:expr;)*) => {$(
        #[test]
        fn $name() {
            let label = stringify!($name);
            play_games(label, &Opts::with($settings), COMBO_GAMES, $seed);
        }
    )*};
}

/// Games per option combination.
const COMBO_GAMES: usize = 100;

combos! {
    custodian: 200, &["Custodian=yes", "Flying=off"];
    custodian_rpm_twelve: 201, &["Custodian=yes", "RemovePerMill=yes", "Pieces=12", "Diagonals=yes"];
    custodian_intervention_rpm: 202, &["Custodian=yes", "Intervention=yes", "RemovePerMill=yes"];
    intervention_sides_at_three: 203, &["Intervention=yes", "InterventionCross=no", "InterventionAtThree=yes"];
    custodian_moving_only_lasker: 204, &["Custodian=yes", "CustodianPlacing=no", "CustodianCross=no", "Lasker=yes", "Pieces=10"];
    custodian_placing_only_lasker: 205, &["Custodian=yes", "CustodianMoving=no", "Lasker=yes", "Pieces=10"];
    leap: 206, &["Leap=yes"];
    leap_no_flying_diagonals: 207, &["Leap=yes", "Flying=off", "Diagonals=yes", "MillRemoval=any"];
    leap_at_three_no_cross: 208, &["Leap=yes", "LeapAtThree=yes", "LeapCross=no"];
    all_captures_rpm: 209, &["Leap=yes", "Custodian=yes", "Intervention=yes", "RemovePerMill=yes", "Diagonals=yes", "Pieces=12"];
    blocked_pass: 210, &["Blocked=pass", "Flying=off", "Pieces=12"];
    blocked_removemove: 211, &["Blocked=removemove", "Flying=off", "Pieces=12", "Diagonals=yes"];
    blocked_removepass: 212, &["Blocked=removepass", "Flying=off", "Pieces=12", "BoardFull=removeone"];
    blocked_bothremove: 213, &["Blocked=bothremove", "Flying=off", "Pieces=12"];
    board_full_removesecond: 214, &["Pieces=12", "BoardFull=removesecond", "Flying=off"];
    board_full_removeone_defender: 215, &["Pieces=12", "Diagonals=yes", "BoardFull=removeone", "DefenderFirst=yes", "Blocked=bothremove"];
    stop_at_two_empty: 216, &["Pieces=12", "StopAtTwoEmpty=yes", "PlacingMill=mark", "Diagonals=yes"];
    one_time_mill_diagonals_shuttle: 217, &["OneTimeMill=yes", "Diagonals=yes", "Pieces=12", "MillShuttle=banned"];
    mill_shuttle_flying: 218, &["MillShuttle=banned", "FlyAt=4", "RemovePerMill=yes"];
    loss_check_turn_endgame_both: 219, &["LossCheck=turn", "EndgameWhen=both", "EndgameMoves=10", "MinPieces=4", "PlacingMill=hand"];
    handagain_rpm_lasker: 220, &["PlacingMill=handagain", "RemovePerMill=yes", "Lasker=yes", "Pieces=10", "MinPieces=5"];
    tally_defender_custodian: 221, &["PlacingMill=tally", "DefenderFirst=yes", "Pieces=12", "Diagonals=yes", "Custodian=yes"];
    victimpicks_rpm: 222, &["PlacingMill=victimpicks", "RemovePerMill=yes", "Diagonals=yes"];
}

/// Every option at random within Sanmill's ranges (docs/rules.md section
/// 12), one rule set per game.
fn random_settings(rng: &mut Rng) -> Vec<String> {
    let pieces = rng.range(9, 12);
    let yes = |rng: &mut Rng, p| if rng.chance(p) { "yes" } else { "no" };
    let mut out = vec![
        format!("Pieces={pieces}"),
        format!("Diagonals={}", yes(rng, 40)),
        format!("Flying={}", rng.pick(&["three", "three", "off"])),
        format!("FlyAt={}", rng.range(3, 4)),
        format!("Lasker={}", yes(rng, 20)),
        format!("RemovePerMill={}", yes(rng, 30)),
        format!("MillRemoval={}", rng.pick(&["protected", "any"])),
        format!(
            "Blocked={}",
            rng.pick(&[
                "loss",
                "draw",
                "pass",
                "removemove",
                "removepass",
                "bothremove"
            ])
        ),
        format!(
            "BoardFull={}",
            rng.pick(&[
                "draw",
                "loss",
                "firstloses",
                "removefirst",
                "removesecond",
                "removeone"
            ])
        ),
        format!("NoCaptureMoves={}", rng.pick(&[100, 100, 10, 30, 200])),
        format!("EndgameMoves={}", rng.pick(&[0, 0, 5, 10, 50])),
        format!("Repetition={}", yes(rng, 70)),
        format!("MinPieces={}", rng.pick(&[3, 3, 4, 5])),
        format!(
            "PlacingMill={}",
            rng.pick(&["board", "hand", "handagain", "victimpicks", "mark", "tally"])
        ),
        format!("DefenderFirst={}", yes(rng, 30)),
        format!("OneTimeMill={}", yes(rng, 25)),
        format!("MillShuttle={}", rng.pick(&["allowed", "banned"])),
        format!("StopAtTwoEmpty={}", yes(rng, 30)),
        format!("LossCheck={}", rng.pick(&["removal", "removal", "turn"])),
        format!("EndgameWhen={}", rng.pick(&["either", "both"])),
    ];
    for k in ["Custodian", "Intervention", "Leap"] {
        out.push(format!("{k}={}", yes(rng, 25)));
        for sw in ["Sides", "Cross", "Diagonals", "Placing", "Moving"] {
            out.push(format!("{k}{sw}={}", yes(rng, 80)));
        }
        out.push(format!("{k}AtThree={}", yes(rng, 20)));
    }
    out
}

#[test]
fn random_options() {
    let mut rng = Rng::new(77);
    let mut stats = Stats::default();
    // every game is played, and every failing one listed at the end
    let mut failed = Vec::new();
    for g in 0..RANDOM_GAMES {
        let settings = random_settings(&mut rng);
        let refs: Vec<&str> = settings.iter().map(|s| s.as_str()).collect();
        let label = format!("random options {}", settings.join(" "));
        let game = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            play_game(&label, &Opts::with(&refs), 300 + g as u64, &mut stats)
        }));
        if game.is_err() {
            failed.push(300 + g);
        }
    }
    println!("random options: {stats:?}");
    assert!(
        failed.is_empty(),
        "games with seeds {failed:?} failed (above)"
    );
}

/// Games of `random_options`, each under its own rules.
const RANDOM_GAMES: usize = 1500;

// ----- games that found disagreements (random_options seeds) ---------

/// docs/rules.md 14.6 step 3: with `Lasker` on and `PlacingMill handagain`
/// (neither mark nor tally) the moving stage starts with the player whose
/// turn it is after the last placing turn, here Black (White's last
/// placement closed a mill served from the board, so Black is next).
#[test]
fn handagain_lasker_stage_change_mover() {
    replay(
        "seed 332",
        &[
            "Flying=off",
            "FlyAt=4",
            "Lasker=yes",
            "Blocked=removemove",
            "BoardFull=draw",
            "NoCaptureMoves=200",
            "EndgameMoves=10",
            "Repetition=no",
            "MinPieces=5",
            "PlacingMill=handagain",
            "Custodian=yes",
        ],
        "d7 g4 d7-d6 f4 d7 d1 c3 g7 e4 d1-g1xe4 d2 a7xd7 d6-d7 c5 a1 e3 e4 e5xe4 \
         a1-d1 e3-e4xd1 d2-d3 c5-d5 b6 b2 e3xe5",
    )
    .unwrap();
}

/// docs/rules.md 11 (phase of a turn) and 16.2 (`mark`): Black's
/// removal-only turn of `Blocked bothremove` is a placing-phase turn
/// (Black still holds a piece), so its removal of g4 marks the piece and
/// White may not move onto g4.
#[test]
fn mark_in_removal_only_turn_of_placing_player() {
    replay(
        "seed 731",
        &[
            "Pieces=12",
            "Diagonals=yes",
            "Lasker=yes",
            "MillRemoval=any",
            "Blocked=bothremove",
            "BoardFull=loss",
            "NoCaptureMoves=200",
            "PlacingMill=mark",
            "MillShuttle=banned",
            "LossCheck=turn",
            "Leap=yes",
            "LeapDiagonals=no",
        ],
        "e5 g4 e5-e4 d7 c4 b6 a7 b6-b4 b6 d2 e3 d2-d1 c5xb4 f4 c3xf4 a4 e5xa4 d2 d5xd2 \
         d3 b6-d6 g4-g7 g1 b6 f2xd1 f6 g4 b2 xd7 xg4",
    )
    .unwrap();
}

/// docs/rules.md 14.10: repetition compares the points and the player to
/// move only. The position after Black's d7-g7 (White's `MillShuttle`
/// memory still holding c5-c4) comes back after e4-e5 and d7-d6 (memory
/// erased by White's quiet moves): the third record draws. (White's
/// c5-c4 closes its spent line a4-b4-c4: a quiet move, 16.15.)
#[test]
fn repetition_ignores_shuttle_memory() {
    replay(
        "seed 1221",
        &[
            "Pieces=10",
            "Blocked=removemove",
            "BoardFull=removesecond",
            "EndgameMoves=10",
            "PlacingMill=handagain",
            "OneTimeMill=yes",
            "MillShuttle=banned",
            "Custodian=yes",
            "CustodianSides=no",
            "CustodianPlacing=no",
            "CustodianAtThree=yes",
        ],
        "g1 c3 b6 a1 a4 d1 c5 d7 g4 d6 e4 g7 d2 e3 d5 b2 a7 f4 f2 d3xd5 c5-d5 b2-b4 \
         e4-e5 f4-f6 f2-f4 e3-e4 d5-c5 c3-c4 f4-f2 b4-b2 e5-d5 e4-f4 b6-b4 f4-e4 \
         g4-f4 e4-e5 f4-e4 g7-g4 e4-f4 c4-c3 c5-c4xd3 d7-g7 c4-c5 e5-e4 c5-c4 e4-e5 \
         c4-c5 d6-d7 c5-c4 d7-d6",
    )
    .unwrap();
}

// ----- the naive implementation on its own (section 19 worked examples) -

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

/// Section 19.1 (example 1).
#[test]
fn naive_dooz_hand_removal() {
    let s = play("Dooz", "a1 b2 a4 b4 a7");
    assert_eq!(s.on_board(1), 2);
    assert_eq!(s.hand, [9, 9]);
    assert_eq!(s.side, 1);
}

/// Section 19.2 (example 2).
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

/// Section 19.3 (example 3).
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

/// Section 19.4 (example 4).
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

/// Section 19.5 (example 5).
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
