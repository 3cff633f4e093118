//! Differential tests: random games played by the fast core and by the
//! naive reference implementation (tests/common/naive.rs) side by side.
//! At every ply they must agree on the full sorted list of legal moves (as
//! canonical text), the move count, the game outcome and the position
//! string; the position string must also read back to the same position.
//!
//! Every game is seeded; a mismatch prints the seed, the rules, the moves
//! so far and the position string, so it reproduces.

use crate::common;

use common::Rng;
use common::naive::{NaiveGame, normalise_fen};
use morris::rules::{
    Blocked, BoardFull, Color, Flying, Game, MillRemoval, Move, MoveList, Position, RuleOptions,
    Rules, Variant,
};

/// How a random game picks its moves.
#[derive(Clone, Copy, Debug)]
struct Style {
    /// Percent chance, when some move removes pieces, to pick among those.
    removal_bias: u64,
    /// Percent chance, when some move removes nothing, to pick among those
    /// (with `MayPass`, this keeps boards full for `BoardFull`).
    quiet_bias: u64,
    /// Whether to play on after a counting-rule draw (repetition, move limits).
    play_on: bool,
    max_plies: usize,
}

impl Style {
    fn random(rng: &mut Rng) -> Style {
        let quiet = rng.chance(10);
        Style {
            removal_bias: if quiet {
                0
            } else {
                *rng.pick(&[0, 30, 60, 90, 100])
            },
            quiet_bias: if quiet { 100 } else { 0 },
            play_on: rng.chance(60),
            max_plies: rng.range(120, 300) as usize,
        }
    }
}

/// Totals over a batch of games.
#[derive(Default, Debug)]
struct Stats {
    games: usize,
    plies: usize,
    max_moves: usize,
    flying_plies: usize,
    reform_bans: usize,
    banned_turns: usize,
    multi_removals: usize,
    endings: std::collections::BTreeMap<String, usize>,
}

fn fail(what: &str, seed: u64, rules: &Rules, history: &[String], fen: &str, detail: String) -> ! {
    panic!(
        "{what} mismatch\n  seed: {seed}\n  rules: {rules:?}\n  moves: {}\n  fen: {fen}\n{detail}",
        history.join(" ")
    );
}

/// Plays one seeded game under `rules`, checking every ply.
fn play_game(seed: u64, rules: Rules, style: Style, stats: &mut Stats) {
    let mut rng = Rng::new(seed.wrapping_mul(31).wrapping_add(7));
    let mut naive = NaiveGame::new(rules);
    let mut game = Game::new(rules, Position::start(&rules));
    let mut history: Vec<String> = Vec::new();
    let mut list = MoveList::new();
    stats.games += 1;
    loop {
        let pos = *game.position();
        let fen = pos.to_fen(&rules);
        stats.plies += 1;

        // Position string: same as the naive writer's, and reads back.
        let naive_fen = naive.fen();
        if normalise_fen(&fen) != naive_fen {
            fail(
                "FEN",
                seed,
                &rules,
                &history,
                &fen,
                format!("  fast:  {fen}\n  naive: {naive_fen}"),
            );
        }
        match Position::from_fen(&fen, &rules) {
            Ok(back) if back == pos => {}
            other => fail(
                "FEN round trip",
                seed,
                &rules,
                &history,
                &fen,
                format!("  read back: {other:?}"),
            ),
        }

        // Legal moves, as sorted text.
        pos.legal_moves(&rules, &mut list);
        let mut fast: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        fast.sort();
        let naive_moves = naive.legal_moves();
        let expected: Vec<String> = naive_moves.iter().map(|m| m.text.clone()).collect();
        if fast != expected {
            let extra: Vec<&String> = fast.iter().filter(|m| !expected.contains(m)).collect();
            let missing: Vec<&String> = expected.iter().filter(|m| !fast.contains(m)).collect();
            fail(
                "legal moves",
                seed,
                &rules,
                &history,
                &fen,
                format!(
                    "  fast only: {extra:?}\n  naive only: {missing:?}\n  fast: {fast:?}\n  naive: {expected:?}"
                ),
            );
        }
        let count = pos.count_moves(&rules);
        if count != expected.len() as u64 {
            fail(
                "count_moves",
                seed,
                &rules,
                &history,
                &fen,
                format!("  count_moves {count}, legal {}", expected.len()),
            );
        }
        check_removals(&pos, &rules, &list)
            .unwrap_or_else(|detail| fail("removal moves", seed, &rules, &history, &fen, detail));
        stats.max_moves = stats.max_moves.max(expected.len());
        if pos.in_hand(pos.side_to_move()) == 0 && pos.can_fly(&rules, pos.side_to_move()) {
            stats.flying_plies += 1;
        }
        if pos.bans(Color::White) | pos.bans(Color::Black) != 0 {
            stats.reform_bans += 1;
            stats.banned_turns += naive.banned_turns();
        }

        // Outcome.
        let outcome = game.outcome();
        let naive_outcome = naive.outcome();
        if outcome != naive_outcome {
            fail(
                "outcome",
                seed,
                &rules,
                &history,
                &fen,
                format!("  fast: {outcome:?}\n  naive: {naive_outcome:?}"),
            );
        }
        if let Some(o) = outcome {
            let counting = o.reason.is_counting_rule();
            if !counting || !style.play_on {
                *stats.endings.entry(format!("{:?}", o.reason)).or_default() += 1;
                return;
            }
        }
        if naive_moves.is_empty() || history.len() >= style.max_plies {
            *stats.endings.entry("cap".to_string()).or_default() += 1;
            return;
        }

        // Pick a move, sometimes preferring removals (to reach endgames)
        // or quiet moves.
        let removing: Vec<usize> = (0..naive_moves.len())
            .filter(|&i| !naive_moves[i].removals.is_empty())
            .collect();
        let quiet: Vec<usize> = (0..naive_moves.len())
            .filter(|&i| naive_moves[i].removals.is_empty())
            .collect();
        let i = if !removing.is_empty() && rng.chance(style.removal_bias) {
            *rng.pick(&removing)
        } else if !quiet.is_empty() && rng.chance(style.quiet_bias) {
            *rng.pick(&quiet)
        } else {
            rng.below(naive_moves.len())
        };
        let chosen = &naive_moves[i];
        if chosen.removals.len() > 1 {
            stats.multi_removals += 1;
        }
        let mv = *list
            .iter()
            .find(|m| m.to_string() == chosen.text)
            .expect("lists are equal");
        game.play(mv);
        naive.play(chosen);
        history.push(chosen.text.clone());
    }
}

/// The partial generator agrees with the full list: `removal_moves` is
/// its removing moves in the same order.
fn check_removals(pos: &Position, rules: &Rules, legal: &MoveList) -> Result<(), String> {
    let mut removals = MoveList::new();
    pos.removal_moves(rules, &mut removals);
    let expected: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| m.num_removals() > 0)
        .collect();
    let got: Vec<Move> = removals.iter().copied().collect();
    if got != expected {
        return Err(format!(
            "  removal_moves: {got:?}\n  expected: {expected:?}"
        ));
    }
    Ok(())
}

fn run(label: &str, games: usize, seed_base: u64, make_rules: impl Fn(&mut Rng, usize) -> Rules) {
    let mut stats = Stats::default();
    for i in 0..games {
        let seed = seed_base * 1_000_003 + i as u64;
        let mut rng = Rng::new(seed);
        let rules = make_rules(&mut rng, i);
        let style = Style::random(&mut rng);
        play_game(seed, rules, style, &mut stats);
    }
    println!("{label}: {stats:?}");
    assert_eq!(stats.games, games);
}

fn preset(v: Variant) -> Rules {
    Rules::preset(v)
}

fn with(mut rules: Rules, settings: &[&str]) -> Rules {
    for s in settings {
        rules.apply(s).unwrap();
    }
    rules
}

/// Alternates the first player between games.
fn alternate_first(rules: Rules, i: usize) -> Rules {
    if i % 2 == 1 {
        Rules::new(RuleOptions {
            first_player: Color::Black,
            ..*rules
        })
    } else {
        rules
    }
}

const GAMES: usize = 1000;

#[test]
fn preset_nine() {
    run("nine", GAMES, 1, |_, _| preset(Variant::Nine));
}

#[test]
fn preset_twelve() {
    run("twelve", GAMES, 2, |_, _| preset(Variant::Twelve));
}

#[test]
fn preset_morabaraba() {
    run("morabaraba", GAMES, 3, |_, _| preset(Variant::Morabaraba));
}

#[test]
fn preset_lasker() {
    run("lasker", GAMES, 4, |_, _| preset(Variant::Lasker));
}

#[test]
fn seed_000_may_pass() {
    run("000", GAMES, 5, |_, _| {
        with(preset(Variant::Nine), &["MayPass=true"])
    });
}

#[test]
fn seed_000_may_pass_remove_per_mill() {
    run("000+RemovePerMill", GAMES, 6, |_, _| {
        with(
            preset(Variant::Nine),
            &["MayPass=true", "RemovePerMill=true"],
        )
    });
}

#[test]
fn seed_000_may_pass_mill_reform() {
    run("000+MillReform", GAMES, 7, |_, _| {
        with(preset(Variant::Nine), &["MayPass=true", "MillReform=true"])
    });
}

#[test]
fn seed_001_003_flying_both() {
    run("001/003 flying both", GAMES, 8, |_, i| {
        let r = with(
            preset(Variant::Nine),
            &["MillRemoval=never", "RemovePerMill=true", "Flying=both"],
        );
        alternate_first(r, i)
    });
}

#[test]
fn seed_001_003_flying_off() {
    run("001/003 flying off", GAMES, 9, |_, i| {
        let r = with(
            preset(Variant::Nine),
            &["MillRemoval=never", "RemovePerMill=true", "Flying=off"],
        );
        alternate_first(r, i)
    });
}

#[test]
fn seed_004_may_pass_never() {
    run("004", GAMES, 10, |_, _| {
        with(
            preset(Variant::Nine),
            &["MayPass=true", "MillRemoval=never"],
        )
    });
}

#[test]
fn seed_004_remove_per_mill() {
    run("004+RemovePerMill", GAMES, 11, |_, _| {
        with(
            preset(Variant::Nine),
            &["MayPass=true", "MillRemoval=never", "RemovePerMill=true"],
        )
    });
}

#[test]
fn seed_004_mill_reform() {
    run("004+MillReform", GAMES, 12, |_, _| {
        with(
            preset(Variant::Nine),
            &["MayPass=true", "MillRemoval=never", "MillReform=true"],
        )
    });
}

/// MillReform without MayPass (every mill must remove), where bans matter most.
#[test]
fn mill_reform_plain_and_flying_both() {
    run("MillReform", GAMES, 13, |rng, _| {
        let mut r = *with(preset(Variant::Nine), &["MillReform=true"]);
        if rng.chance(50) {
            r.flying = Flying::Both;
        }
        Rules::new(r)
    });
}

/// Random rule sets: every option at random, within docs/rules.md 8.9's ranges.
fn random_rules(rng: &mut Rng) -> Rules {
    let mut r = *Rules::preset(*rng.pick(&Variant::PRESETS));
    r.pieces = rng.range(3, 12) as u8;
    r.diagonals = rng.chance(40);
    r.flying = *rng.pick(&[Flying::Off, Flying::Three, Flying::Both]);
    r.fly_at = if rng.chance(60) {
        3
    } else {
        rng.range(3, r.pieces as u64) as u8
    };
    r.lasker = rng.chance(30);
    r.remove_per_mill = rng.chance(40);
    r.mill_removal = *rng.pick(&[MillRemoval::Protected, MillRemoval::Never, MillRemoval::Any]);
    r.may_pass = rng.chance(30);
    r.mill_reform = rng.chance(40);
    r.blocked = *rng.pick(&[Blocked::Loss, Blocked::Draw]);
    r.board_full = *rng.pick(&[BoardFull::Draw, BoardFull::Loss]);
    let em = rng.range(1, 40) as u16;
    r.endgame_moves = *rng.pick(&[0, 10, 10, em]);
    let nc = rng.range(1, 150) as u16;
    r.no_capture_moves = *rng.pick(&[0, 100, 100, nc]);
    r.repetition = rng.chance(70);
    r.first_player = *rng.pick(&[Color::White, Color::Black]);
    Rules::new(r)
}

#[test]
fn mixed_options() {
    run("mixed", 2 * GAMES, 14, |rng, _| random_rules(rng));
}

/// Twelve pieces with MayPass: quiet games fill the board (`BoardFull`).
#[test]
fn full_boards() {
    run("full boards", GAMES / 2, 15, |rng, _| {
        let mut r = *with(preset(Variant::Twelve), &["MayPass=true"]);
        r.diagonals = rng.chance(50);
        r.board_full = *rng.pick(&[BoardFull::Draw, BoardFull::Loss]);
        r.lasker = rng.chance(30);
        Rules::new(r)
    });
}

/// Random set-up positions (any board, hands, side, clock and, with
/// `MillReform`, any banned lines) under random rules: legal moves, move
/// count, outcome, FEN round trip, and the position after every legal
/// move, fast against naive.
#[test]
fn random_setups() {
    let mut rng = Rng::new(2024);
    let mut positions = 0;
    let mut moves_made = 0;
    for seed in 0..20_000u64 {
        let rules = random_rules(&mut rng);
        let pieces = rules.pieces as usize;
        let mut points: Vec<usize> = (0..24).collect();
        for i in (1..24).rev() {
            points.swap(i, rng.below(i + 1));
        }
        let white = rng.below(pieces + 1);
        let black = rng.below(pieces.min(24 - white) + 1);
        let hands = [
            rng.range(0, (pieces - white) as u64) as u32,
            rng.range(0, (pieces - black) as u64) as u32,
        ];
        // Mostly movement and flying, sometimes placement.
        let hands = if rng.chance(60) { [0, 0] } else { hands };
        let name = |i: usize| common::naive::NAMES[points[i]];
        let w: Vec<&str> = (0..white).map(name).collect();
        let b: Vec<&str> = (white..white + black).map(name).collect();
        let side = if rng.chance(50) { 'w' } else { 'b' };
        let (short, long) = (rng.range(0, 20) as u32, rng.range(0, 200) as u32);
        let clock = *rng.pick(&[0, 0, short, long]);
        let mut fen = common::fen_of(&w.join(" "), &b.join(" "), side, hands, clock, 30);
        if rules.mill_reform && rng.chance(70) {
            let geo = common::naive::Geometry::new(rules.diagonals);
            let mut fields = Vec::new();
            for _ in 0..2 {
                let n = *rng.pick(&[0, 1, 1, 2]);
                let lines: Vec<String> = (0..n)
                    .map(|_| {
                        let l = rng.pick(&geo.lines);
                        l.iter().map(|&p| common::naive::NAMES[p]).collect()
                    })
                    .collect();
                fields.push(if lines.is_empty() {
                    "-".to_string()
                } else {
                    lines.join(",")
                });
            }
            fen = format!("{fen} {} {}", fields[0], fields[1]);
        }
        let pos =
            Position::from_fen(&fen, &rules).unwrap_or_else(|e| panic!("seed {seed}: {fen}: {e}"));
        let naive = NaiveGame::from_fen(rules, &fen);
        positions += 1;
        let ctx = format!("set-up {seed}\n  rules: {rules:?}\n  fen: {fen}");
        assert_eq!(
            normalise_fen(&pos.to_fen(&rules)),
            naive.fen(),
            "{ctx}: FEN written"
        );
        assert_eq!(
            Position::from_fen(&pos.to_fen(&rules), &rules).as_ref(),
            Ok(&pos),
            "{ctx}: FEN round trip"
        );
        let mut list = MoveList::new();
        pos.legal_moves(&rules, &mut list);
        let mut fast: Vec<String> = list.iter().map(|m| m.to_string()).collect();
        fast.sort();
        let naive_moves = naive.legal_moves();
        let expected: Vec<String> = naive_moves.iter().map(|m| m.text.clone()).collect();
        assert_eq!(fast, expected, "{ctx}: legal moves");
        assert_eq!(
            pos.count_moves(&rules),
            expected.len() as u64,
            "{ctx}: count"
        );
        assert_eq!(
            Game::new(rules, pos).outcome(),
            naive.outcome(),
            "{ctx}: outcome"
        );
        for nm in &naive_moves {
            let mv = *list.iter().find(|m| m.to_string() == nm.text).unwrap();
            let next = pos.make(&rules, mv);
            let mut after = naive.clone();
            after.play(nm);
            assert_eq!(
                normalise_fen(&next.to_fen(&rules)),
                after.fen(),
                "{ctx}: after {}",
                nm.text
            );
            moves_made += 1;
        }
    }
    println!("random set-ups: {positions} positions, {moves_made} moves made");
}
