//! Perft of docs/rules.md Part II (section 13, our convention: one node per
//! distinct turn; game-over nodes have no children; draw rules ignored):
//! the naive implementation (tests/common/naive_sets.rs) computes the
//! counts, from the start of each named rule set and from mid-game
//! positions reached by seeded random play (with marks, hand removals,
//! each capture kind, removal-only turns, the same player twice), and
//! production's `Position::perft` must give the same numbers. Run with
//! `--nocapture` to see the tables.

use crate::common;

use common::naive_sets::{self, Opts, State};
use common::sets_harness::{
    check_variant_name, find_position, full_board_no_mill, production, reach,
};

/// Start depths: as deep as the naive side goes in a few seconds (depth
/// 5 is the first where a mill, and so each rule set's removal rule,
/// can show).
fn start_depth(name: &str) -> u32 {
    if naive_sets::APP_SETS.iter().any(|(n, _)| *n == name) {
        5
    } else {
        4
    }
}

/// Perft 1..=depth from the position after `turns`, naive against
/// production; prints the table.
fn check(label: &str, opts: &Opts, turns: &[String], depth: u32) -> Vec<u64> {
    let rules = production(opts);
    let (pos, naive) = reach(opts, turns);
    let mut counts = Vec::new();
    for d in 1..=depth {
        let want = naive.perft(d);
        let got = pos.perft(&rules, d);
        counts.push(want);
        assert_eq!(
            got,
            want,
            "{label}: perft {d} after [{}] ({}): production {got}, naive {want}",
            turns.join(" "),
            pos.to_fen(&rules)
        );
    }
    println!("{label} [{}]: {counts:?}", turns.join(" "));
    counts
}

/// Mid-game positions of this rule set worth a perft: (what, predicate).
type Predicate = Box<dyn Fn(&State, &[String]) -> bool>;

fn interesting() -> Vec<(&'static str, Predicate)> {
    vec![
        ("after 12 turns", Box::new(|_, h| h.len() == 12)),
        (
            "moving stage",
            Box::new(|s, h| !s.placing_stage && h.len() > 24),
        ),
        (
            "mark on board",
            Box::new(|s, _| s.cells.contains(&naive_sets::Cell::Mark)),
        ),
        ("hand removal", Box::new(|s, _| s.events.hand_removal)),
        ("custodian", Box::new(|s, _| s.events.custodian)),
        ("intervention", Box::new(|s, _| s.events.intervention)),
        ("leap", Box::new(|s, _| s.events.leap)),
        ("removal-only turn next", Box::new(|s, _| s.owed.is_some())),
        (
            "same player twice",
            Box::new(|s, h| !h.is_empty() && s.side == s.taker),
        ),
        (
            "shuttle ban",
            Box::new(|s, _| {
                // MillShuttle forbids the player to move a move back now
                let me = s.side;
                s.shuttle[me].is_some_and(|(f, t)| {
                    s.cells[f] == naive_sets::Cell::Empty && s.shuttle_forbids(me, t, f)
                })
            }),
        ),
        (
            "spent line open",
            Box::new(|s, _| {
                // a spent line of the player to move lacks one piece:
                // closing it again earns nothing
                let me = s.side;
                s.lines.iter().any(|(_, l)| {
                    s.spent_line(l, me)
                        && l.iter()
                            .filter(|&&p| s.cells[p] == naive_sets::Cell::Live(me))
                            .count()
                            == 2
                })
            }),
        ),
        (
            "few pieces",
            Box::new(|s, _| !s.placing_stage && (s.on_board(0) <= 4 || s.on_board(1) <= 4)),
        ),
    ]
}

/// Perft after the placements of docs/rules.md 19.3 (example 3; a
/// full board without a mill), where they are turns of these rules
/// (twelve pieces, no capture rule acting while placing).
fn full_board(label: &str, opts: &Opts) {
    let turns = full_board_no_mill();
    let mut s = State::new(*opts);
    s.draws = false;
    for t in &turns {
        if !s.turns().iter().any(|(x, _)| x == t) {
            return;
        }
        s.play(t);
    }
    check(&format!("{label} full board"), opts, &turns, 3);
}

/// Perft from the start and from every kind of mid-game position that
/// random play reaches; those named in `must` have to be reached.
fn named_perft(name: &str, seed: u64, must: &[&str]) {
    check_variant_name(name);
    let opts = naive_sets::named(name);
    check(&format!("{name} start"), &opts, &[], start_depth(name));
    let mut found = Vec::new();
    for (i, (what, want)) in interesting().into_iter().enumerate() {
        if let Some(turns) = find_position(&opts, seed * 100 + i as u64, 40, &*want) {
            check(&format!("{name} {what}"), &opts, &turns, 3);
            found.push(what);
        }
    }
    for m in must {
        assert!(found.contains(m), "{name}: no position with {m} reached");
    }
    full_board(name, &opts);
}

#[test]
fn nine_mens_morris() {
    named_perft("Nine Men's Morris", 1, &["moving stage", "few pieces"]);
}

#[test]
fn twelve_mens_morris() {
    named_perft("Twelve Men's Morris", 2, &["moving stage"]);
}

#[test]
fn morabaraba() {
    named_perft("Morabaraba", 3, &["moving stage", "shuttle ban"]);
}

#[test]
fn dooz() {
    named_perft("Dooz", 4, &["hand removal"]);
}

#[test]
fn lasker_morris() {
    named_perft("Lasker Morris", 5, &["moving stage"]);
}

#[test]
fn one_time_mill() {
    named_perft("One-Time Mill", 6, &["moving stage", "spent line open"]);
}

#[test]
fn cham_gonu() {
    named_perft("Cham Gonu", 7, &["mark on board"]);
}

#[test]
fn zhi_qi() {
    named_perft("Zhi Qi", 8, &["mark on board"]);
}

#[test]
fn cheng_san_qi() {
    named_perft("Cheng San Qi", 9, &["mark on board"]);
}

#[test]
fn da_san_qi() {
    named_perft("Da San Qi", 10, &["mark on board", "same player twice"]);
}

#[test]
fn mul_mulan() {
    named_perft("Mul-Mulan", 11, &["intervention"]);
}

#[test]
fn nerenchi() {
    named_perft("Nerenchi", 12, &["same player twice"]);
}

#[test]
fn el_filja() {
    named_perft("El Filja", 13, &["removal-only turn next"]);
}

#[test]
fn engine_table_sets() {
    for (i, (name, _)) in naive_sets::ENGINE_SETS.iter().enumerate() {
        named_perft(name, 20 + i as u64, &[]);
    }
}

/// Capture kinds and blocked removals that no named rule set has: perft
/// from positions right after a custodian, intervention or leap capture
/// was set up, and before a blocked removal.
#[test]
fn option_combinations() {
    let combos: [(&str, &[&str], &[&str]); 5] = [
        (
            "custodian",
            &[
                "Custodian=yes",
                "RemovePerMill=yes",
                "Pieces=12",
                "Diagonals=yes",
            ],
            &["custodian"],
        ),
        ("leap", &["Leap=yes", "Flying=off"], &["leap"]),
        (
            "all captures",
            &["Custodian=yes", "Intervention=yes", "Leap=yes"],
            &["custodian", "intervention", "leap"],
        ),
        (
            "bothremove",
            &["Blocked=bothremove", "Pieces=12", "Flying=off"],
            &[],
        ),
        (
            "removesecond",
            &["Pieces=12", "BoardFull=removesecond", "Flying=off"],
            &[],
        ),
    ];
    for (i, (label, settings, must)) in combos.iter().enumerate() {
        let opts = Opts::with(settings);
        let mut found = Vec::new();
        for (j, (what, want)) in interesting().into_iter().enumerate() {
            if let Some(turns) = find_position(&opts, 900 + 100 * i as u64 + j as u64, 40, &*want) {
                check(&format!("{label} {what}"), &opts, &turns, 3);
                found.push(what);
            }
        }
        for m in *must {
            assert!(found.contains(m), "{label}: no position with {m} reached");
        }
        full_board(label, &opts);
    }
}
