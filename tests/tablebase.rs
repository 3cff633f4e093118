//! Tablebase tests: generate the 3-3, 3-4 and 4-3 subspaces from scratch
//! and check them against the rules core by independent means.

use std::path::PathBuf;
use std::sync::OnceLock;

use morris::rules::Rng;
use morris::rules::{Bitboard, Color, MoveList, Position, RuleOptions, Rules, Square, Symmetry};
use morris::tablebase::Indexer;
use morris::tablebase::{
    self, GenerateOptions, Probe, Subspace, Summary, Tablebases, Value, generate,
    summaries_on_disk, verify,
};
use morris::tablebase::{position, up_to};

/// Tables for the standard rules, generated once for all tests, with the
/// move-count draws as in the standard game and without them (`plain`).
fn standard() -> &'static (PathBuf, Rules) {
    static TABLES: OnceLock<(PathBuf, Rules)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tb-standard");
        let _ = std::fs::remove_dir_all(&dir);
        let options = GenerateOptions {
            threads: 2,
            wdl: false,
            ..GenerateOptions::default()
        };
        for rules in [Rules::default(), plain(&Rules::default())] {
            let made = generate(&dir, &rules, &[Subspace::new(3, 4)], &options).unwrap();
            let names: Vec<String> = made.iter().map(|g| g.subspace.to_string()).collect();
            assert_eq!(names, ["3-3", "4-3", "3-4"]);
        }
        (dir, Rules::default())
    })
}

/// The rules without the move-count draws: the game's own values.
fn plain(rules: &Rules) -> Rules {
    Rules::new(RuleOptions {
        endgame_moves: 0,
        no_capture_moves: 0,
        ..**rules
    })
}

/// `n` random canonical positions of a subspace: (mine, theirs) to move.
fn sample(sub: Subspace, n: usize, seed: u64) -> Vec<(u32, u32)> {
    let ix = Indexer::new(sub.mine as usize, sub.theirs as usize);
    let mut s = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let slot = s.next_u64() % ix.size();
        let (mine, theirs) = ix.position(slot);
        if ix.index(mine, theirs) == slot {
            out.push((mine, theirs));
        }
    }
    out
}

#[test]
fn generation_is_resumable_and_verifies() {
    let (dir, rules) = standard();
    // Everything is there: nothing to do.
    let again = generate(
        dir,
        rules,
        &[Subspace::new(4, 3)],
        &GenerateOptions::default(),
    )
    .unwrap();
    assert!(again.is_empty());
    let checked = verify(dir, rules, 2, None, |_| {}).unwrap();
    assert_eq!(checked.len(), 3);
    for c in &checked {
        assert!(c.ok(), "{c:?}");
    }
}

#[test]
fn sector_errors_say_what_was_expected() {
    let parse = |text: &str| Subspace::parse(text).expect_err("refused").to_string();
    assert_eq!(
        parse("5x4"),
        "expected a sector like 5-4 or 5-4+2-3, not '5x4'"
    );
    assert_eq!(
        parse("5-"),
        "expected a sector like 5-4 or 5-4+2-3, not '5-'"
    );
    assert_eq!(
        parse("2-4"),
        "sector 2-4: each side has 3 to 12 stones (board plus hand), at most 24 on the board"
    );
    assert_eq!(Subspace::parse(" 5-4").unwrap(), Subspace::new(5, 4));
}

/// Positions (two disjoint stone sets of given sizes) up to the 16
/// symmetries, by Burnside's lemma: the mean number of fixed positions.
fn burnside(mine: usize, theirs: usize) -> u64 {
    let mut total = 0u64;
    for sym in Symmetry::ALL {
        let mut seen = [false; 24];
        let mut cycles = Vec::new();
        for start in Square::ALL {
            let mut len = 0;
            let mut sq = start;
            while !seen[sq.index()] {
                seen[sq.index()] = true;
                sq = sym.apply(sq);
                len += 1;
            }
            if len > 0 {
                cycles.push(len);
            }
        }
        // ways[a][b]: cycles so far split into `a` mine, `b` theirs points.
        let mut ways = vec![vec![0u64; theirs + 1]; mine + 1];
        ways[0][0] = 1;
        for &len in &cycles {
            let mut next = ways.clone();
            for a in 0..=mine {
                for b in 0..=theirs {
                    if a >= len {
                        next[a][b] += ways[a - len][b];
                    }
                    if b >= len {
                        next[a][b] += ways[a][b - len];
                    }
                }
            }
            ways = next;
        }
        total += ways[mine][theirs];
    }
    assert_eq!(total % 16, 0);
    total / 16
}

#[test]
fn positions_up_to_symmetry_match_burnside() {
    let (dir, rules) = standard();
    let rows = summaries_on_disk(dir, rules);
    assert_eq!(rows.len(), 3);
    for r in rows {
        let s = r.stored;
        assert_eq!(
            s.positions,
            burnside(r.subspace.mine as usize, r.subspace.theirs as usize),
            "{}",
            r.subspace
        );
        assert_eq!(s.positions, s.wins + s.losses + s.draws);
    }
}

/// `tb stats` counts what probing gives at clock 0: a stored win or loss
/// beyond the move-count draw limit is a draw there, as the search sees it.
#[test]
fn stats_count_the_values_probing_gives_at_clock_zero() {
    let (dir, rules) = standard();
    let tbs = Tablebases::open(dir, rules);
    let rows = summaries_on_disk(dir, rules);
    assert_eq!(rows.len(), 3);
    let mut limit_draws = 0;
    for r in &rows {
        let sub = r.subspace;
        let index = Indexer::new(sub.mine as usize, sub.theirs as usize);
        let mut probed = Summary::default();
        for class in 0..index.classes() {
            index.for_each_in_class(class, |_, mine, theirs, canonical| {
                if canonical {
                    probed.count(tbs.probe(&position(mine, theirs)).unwrap());
                }
            });
        }
        assert_eq!(r.at_clock_zero, probed, "{}", r.subspace);
        assert_eq!(r.at_clock_zero.positions, r.stored.positions);
        // Within the limits: EndgameMoves (10) for three against three,
        // NoCaptureMoves (100) otherwise.
        let limit = if r.subspace == Subspace::new(3, 3) {
            10
        } else {
            100
        };
        assert!(r.at_clock_zero.longest_win <= limit, "{}", r.subspace);
        assert!(r.at_clock_zero.longest_loss <= limit, "{}", r.subspace);
        limit_draws += r.stored.wins - r.at_clock_zero.wins;
    }
    // 3-3 stores wins of up to 25 plies: past EndgameMoves, so draws at 0.
    assert!(limit_draws > 0);
    let text = tablebase::format_summaries(&rows);
    assert!(
        text.lines().next().unwrap().contains("limit draws"),
        "{text}"
    );
}

#[test]
fn symmetric_images_probe_the_same() {
    let (dir, rules) = standard();
    let tbs = Tablebases::open(dir, rules);
    for (i, sub) in up_to(4)
        .into_iter()
        .filter(|s| s.mine + s.theirs <= 7)
        .enumerate()
    {
        for (mine, theirs) in sample(sub, 300, 7 + i as u64) {
            let want = tbs.probe_table(&position(mine, theirs)).unwrap();
            for sym in Symmetry::ALL {
                let (m, t) = (sym.apply_bb(Bitboard(mine)), sym.apply_bb(Bitboard(theirs)));
                // Also with black to move, to exercise the colour swap.
                let pos = Position::new([t, m], [0, 0], Color::Black, 0, 1, [0, 0]);
                assert_eq!(tbs.probe_table(&pos), Some(want));
            }
        }
    }
}

/// An independent depth-limited solver over the plain rules API. A
/// removal leaving the opponent 3 or more stones is judged by `after`.
struct Brute<'a> {
    rules: &'a Rules,
    after: &'a dyn Fn(&Position) -> Value,
}

impl Brute<'_> {
    fn moves(&self, pos: &Position) -> Vec<(morris::rules::Move, Position)> {
        let mut list = MoveList::new();
        pos.legal_moves(self.rules, &mut list);
        list.iter()
            .map(|&mv| (mv, pos.make(self.rules, mv)))
            .collect()
    }

    /// The side to move can force a winning conversion within `d` plies.
    fn wins_within(&self, pos: &Position, d: u16) -> bool {
        if d == 0 {
            return false;
        }
        let them = !pos.side_to_move();
        self.moves(pos).iter().any(|(mv, next)| {
            if mv.num_removals() > 0 {
                next.material(them) < 3 || (self.after)(next) == Value::Loss
            } else {
                self.loses_within(next, d - 1)
            }
        })
    }

    /// The side to move cannot avoid a losing conversion within `d` plies.
    fn loses_within(&self, pos: &Position, d: u16) -> bool {
        let moves = self.moves(pos);
        if moves.is_empty() {
            return true;
        }
        if d == 0 {
            return false;
        }
        let them = !pos.side_to_move();
        moves.iter().all(|(mv, next)| {
            if mv.num_removals() > 0 {
                next.material(them) >= 3 && (self.after)(next) == Value::Win
            } else {
                self.wins_within(next, d - 1)
            }
        })
    }

    /// Checks a stored value as far as depth `max` reaches.
    fn check(&self, pos: &Position, p: Probe, max: u16) {
        let fen = pos.to_fen(self.rules);
        match p.value {
            Value::Win => {
                assert!(
                    !self.wins_within(pos, (p.plies - 1).min(max)),
                    "{fen}: {p} is too slow"
                );
                if p.plies <= max {
                    assert!(self.wins_within(pos, p.plies), "{fen}: {p} not found");
                }
            }
            Value::Loss => {
                if p.plies > 0 {
                    assert!(
                        !self.loses_within(pos, (p.plies - 1).min(max)),
                        "{fen}: {p} is too fast"
                    );
                }
                if p.plies <= max {
                    assert!(self.loses_within(pos, p.plies), "{fen}: {p} not forced");
                }
            }
            Value::Draw => {
                assert!(!self.wins_within(pos, max), "{fen}: drawn but wins");
                assert!(!self.loses_within(pos, max), "{fen}: drawn but loses");
            }
        }
    }
}

#[test]
fn values_match_a_brute_force_search() {
    let (dir, rules) = standard();
    let rules = &plain(rules);
    let tbs = Tablebases::open(dir, rules);
    let after = |pos: &Position| tbs.probe_table(pos).expect("3-3 is covered").value;
    let brute = Brute {
        rules,
        after: &after,
    };
    let mut kinds = std::collections::HashSet::new();
    for (sub, seed) in [((3, 3), 1), ((4, 3), 2), ((3, 4), 3)] {
        let sub = Subspace::new(sub.0, sub.1);
        for (mine, theirs) in sample(sub, 60, seed) {
            let pos = position(mine, theirs);
            let p = tbs.probe_table(&pos).unwrap();
            kinds.insert((sub, p.value, p.plies.min(4)));
            brute.check(&pos, p, 3);
        }
    }
    // The samples reach wins, losses and draws of several lengths.
    assert!(kinds.len() >= 8, "{kinds:?}");
}

#[test]
fn best_moves_keep_the_value() {
    let (dir, rules) = standard();
    let tbs = Tablebases::open(dir, rules);
    let tbs_plain = Tablebases::open(dir, &plain(rules));
    for (sub, seed) in [((3, 3), 11), ((4, 3), 12), ((3, 4), 13)] {
        for (mine, theirs) in sample(Subspace::new(sub.0, sub.1), 200, seed) {
            // Play the tablebase moves out to the next conversion.
            let mut pos = position(mine, theirs);
            let mut p = tbs_plain.probe(&pos).unwrap();
            while p.value != Value::Draw && p.plies > 0 {
                let best = tbs_plain.best_move(&pos).unwrap();
                assert_eq!(best.probe, p, "{}", pos.to_fen(rules));
                if best.mv.num_removals() > 0 {
                    break;
                }
                pos = pos.make(rules, best.mv);
                let next = tbs_plain.probe(&pos).unwrap();
                assert_ne!(next.value, p.value);
                assert_eq!(next.plies + 1, p.plies);
                p = next;
            }
            if p.value == Value::Draw {
                let best = tbs_plain.best_move(&pos).unwrap();
                assert_eq!(best.probe.value, Value::Draw);
            }
            // With the move-count draws, a win never turns into a loss.
            let with_clock = tbs.probe(&position(mine, theirs)).unwrap();
            let plain = tbs_plain.probe(&position(mine, theirs)).unwrap();
            assert!(with_clock == plain || with_clock.value == Value::Draw);
        }
    }
}

#[test]
fn move_count_draws_apply_at_probe_time() {
    let (dir, rules) = standard();
    let tbs = Tablebases::open(dir, rules);
    let (mine, theirs) = sample(Subspace::new(3, 3), 2000, 5)
        .into_iter()
        .find(|&(m, t)| {
            let p = tbs.probe(&position(m, t)).unwrap();
            p.value == Value::Win && p.plies == 5
        })
        .expect("a 3-3 win in 5");
    let at = |clock| {
        let pos = Position::new(
            [Bitboard(mine), Bitboard(theirs)],
            [0, 0],
            Color::White,
            clock,
            1,
            [0, 0],
        );
        tbs.probe(&pos).unwrap().value
    };
    // EndgameMoves = 10: the mill must close by the 10th ply.
    assert_eq!(at(5), Value::Win);
    assert_eq!(at(6), Value::Draw);
}

#[test]
fn other_rule_sets_verify() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tb-variants");
    let _ = std::fs::remove_dir_all(&dir);
    let options = GenerateOptions {
        threads: 2,
        wdl: false,
        ..GenerateOptions::default()
    };
    for settings in [
        &[
            "Diagonals=true",
            "MillRemoval=never",
            "RemovePerMill=true",
            "MayPass=true",
        ][..],
        &["Flying=off", "Blocked=draw", "MillRemoval=any"][..],
        &["Flying=both", "FlyAt=4"][..],
    ] {
        let mut rules = Rules::default();
        for s in settings {
            rules.apply(s).unwrap();
        }
        generate(&dir, &rules, &[Subspace::new(4, 3)], &options).unwrap();
        let checked = verify(&dir, &rules, 2, None, |_| {}).unwrap();
        assert_eq!(checked.len(), 3, "{settings:?}");
        assert!(checked.iter().all(|c| c.ok()), "{settings:?}: {checked:?}");
    }
}

#[test]
fn sample_prints_distinct_positions_of_the_asked_value() {
    let (dir, rules) = standard();
    let tbs = Tablebases::open(dir, rules);
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_morris"))
            .args(["tb", "sample", "--dir"])
            .arg(dir)
            .args(args)
            .output()
            .unwrap()
    };
    for (value, name) in [
        (Value::Draw, "draw"),
        (Value::Win, "win"),
        (Value::Loss, "loss"),
    ] {
        let out = run(&["--count", "20", "--value", name, "--subspace", "3-3"]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        let fens: Vec<&str> = text.lines().collect();
        assert_eq!(fens.len(), 20);
        let mut keys = std::collections::HashSet::new();
        for fen in &fens {
            let pos = Position::from_fen(fen, rules).unwrap();
            assert_eq!(pos.pieces(pos.side_to_move()).count(), 3, "{fen}");
            assert_eq!(tbs.probe(&pos).unwrap().value, value, "{fen}");
            assert!(keys.insert(pos.hash()), "repeated {fen}");
        }
        // The same seed gives the same positions.
        let again = run(&["--count", "20", "--value", name, "--subspace", "3-3"]);
        assert_eq!(String::from_utf8(again.stdout).unwrap(), text);
    }
    let out = run(&["--subspace", "9-9"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no table 9-9"));
}
