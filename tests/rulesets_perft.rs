//! Perft of shared/rulesets.md (section 3, our convention: one node per
//! distinct turn; game-over nodes have no children; draw rules ignored):
//! the naive implementation (tests/common/naive_sets.rs) computes the
//! counts, from the start of each named rule set and from mid-game
//! positions reached by seeded random play (with marks, hand removals,
//! each capture kind, removal-only turns, the same player twice), and
//! production's `Position::perft` must give the same numbers. Run with
//! `--nocapture` to see the tables.

mod common;

use common::naive_sets::{self, Opts, State};
use common::sets_harness::{check_variant_name, find_position, production, reach};

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
fn interesting() -> Vec<(&'static str, Box<dyn Fn(&State, &[String]) -> bool>)> {
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
            "few pieces",
            Box::new(|s, _| !s.placing_stage && (s.on_board(0) <= 4 || s.on_board(1) <= 4)),
        ),
    ]
}

fn named_perft(name: &str, seed: u64) {
    check_variant_name(name);
    let opts = naive_sets::named(name);
    check(&format!("{name} start"), &opts, &[], start_depth(name));
    for (i, (what, want)) in interesting().into_iter().enumerate() {
        if let Some(turns) = find_position(&opts, seed * 100 + i as u64, 40, &*want) {
            check(&format!("{name} {what}"), &opts, &turns, 3);
        }
    }
}

#[test]
fn nine_mens_morris() {
    named_perft("Nine Men's Morris", 1);
}

#[test]
fn twelve_mens_morris() {
    named_perft("Twelve Men's Morris", 2);
}

#[test]
fn morabaraba() {
    named_perft("Morabaraba", 3);
}

#[test]
fn dooz() {
    named_perft("Dooz", 4);
}

#[test]
fn lasker_morris() {
    named_perft("Lasker Morris", 5);
}

#[test]
fn one_time_mill() {
    named_perft("One-Time Mill", 6);
}

#[test]
fn cham_gonu() {
    named_perft("Cham Gonu", 7);
}

#[test]
fn zhi_qi() {
    named_perft("Zhi Qi", 8);
}

#[test]
fn cheng_san_qi() {
    named_perft("Cheng San Qi", 9);
}

#[test]
fn da_san_qi() {
    named_perft("Da San Qi", 10);
}

#[test]
fn mul_mulan() {
    named_perft("Mul-Mulan", 11);
}

#[test]
fn nerenchi() {
    named_perft("Nerenchi", 12);
}

#[test]
fn el_filja() {
    named_perft("El Filja", 13);
}

#[test]
fn engine_table_sets() {
    for (i, (name, _)) in naive_sets::ENGINE_SETS.iter().enumerate() {
        named_perft(name, 20 + i as u64);
    }
}

/// The naive counts from each start alone, with the time they take
/// (the table quoted in the closing note; production not involved).
#[test]
fn naive_start_table() {
    for name in common::sets_harness::all_set_names() {
        let opts = naive_sets::named(name);
        let s = State::new(opts);
        let mut counts = Vec::new();
        let t = std::time::Instant::now();
        for d in 1..=start_depth(name) {
            counts.push(s.perft(d));
        }
        println!("{name}: {counts:?} ({:.1} s)", t.elapsed().as_secs_f64());
    }
}
