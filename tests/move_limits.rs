//! The move-count draws in the tables (`EndgameMoves`, `NoCaptureMoves`):
//! reduced games under limits small enough to bite, their tables made by
//! the binary (`morris tb generate --phase all`), against the naive
//! clocked solver (tests/common/naive_clock.rs), which keeps the clock in
//! the state instead of a distance and a threshold. Values and distances
//! must agree at every clock, read from position strings that carry it.
//!
//! - `Pieces` 3: the whole game, every movement state at every clock and
//!   every placement state (`ClockedWhole`).
//! - `Pieces` 4: random reachable states of every phase at random clocks,
//!   each searched to the end of its limit, and through every removal on
//!   to the next limit (`ClockedSearch`; so the limits stay a few plies).

use crate::common;

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Instant;

use common::Rng;
use common::naive_clock::{ClockedSearch, ClockedWhole, Limits};
use common::naive_solve::{Game, State, Val, in_placement, lost_by_material, reachable};
use morris::rules::{Position, Rules};
use morris::tablebase::{Probe, Tablebases, Value};

const MORRIS: &str = env!("CARGO_BIN_EXE_morris");

/// A reduced standard game under move-count limits, with its tables.
struct Limited {
    name: String,
    dir: PathBuf,
    settings: Vec<String>,
    rules: Rules,
    game: Game,
    limits: Limits,
    tbs: Tablebases,
}

impl Limited {
    fn new(pieces: u8, limits: Limits) -> Limited {
        let settings = vec![
            format!("Pieces={pieces}"),
            format!("EndgameMoves={}", limits.endgame),
            format!("NoCaptureMoves={}", limits.no_capture),
        ];
        let name = format!("nine {}", settings.join(" "));
        let rules = Rules::with_settings("nine", &settings).unwrap();
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "limits-{pieces}-eg{}-nc{}",
            limits.endgame, limits.no_capture
        ));
        let _ = std::fs::remove_dir_all(&dir);
        let started = Instant::now();
        let out = morris(
            &["tb", "generate", "--phase", "all", "--threads", "2"],
            &settings,
            &dir,
        );
        assert!(
            out.status.success(),
            "generating {name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        println!(
            "{name}: tables made in {:.1} s",
            started.elapsed().as_secs_f64()
        );
        Limited {
            game: Game::new(&rules),
            tbs: Tablebases::open(&dir, &rules),
            dir,
            name,
            settings,
            rules,
            limits,
        }
    }

    fn fen(&self, s: State, clock: u16) -> String {
        self.game.fen_at(s, clock)
    }

    /// The stored value of a state at a clock, as the naive solver writes it.
    fn probe(&self, s: State, clock: u16) -> Option<Val> {
        let fen = self.fen(s, clock);
        let pos = Position::from_fen(&fen, &self.rules).unwrap_or_else(|e| panic!("{fen}: {e}"));
        self.tbs.probe(&pos).map(Val::from)
    }

    fn check(&self, s: State, clock: u16, want: Val, wrong: &mut Vec<String>) {
        let got = self.probe(s, clock);
        if got != Some(want) && wrong.len() < 10 {
            wrong.push(format!(
                "{}: stored {got:?}, naive {want}",
                self.fen(s, clock)
            ));
        }
    }

    /// The limit in force in a movement state.
    fn limit(&self, s: State) -> u16 {
        self.limits.of(s).expect("both limits bite in these games")
    }
}

/// Runs the binary with `args`, the rule options `settings` and `--dir`.
fn morris(args: &[&str], settings: &[String], dir: &Path) -> Output {
    Command::new(MORRIS)
        .args(args)
        .args(settings.iter().flat_map(|s| ["--option", s.as_str()]))
        .arg("--dir")
        .arg(dir)
        .output()
        .unwrap()
}

/// What a set of checks met: (value kind, whether the limit turned a win
/// or loss at clock 0 into a draw at this clock).
#[derive(Default)]
struct Seen(HashSet<(&'static str, bool)>);

impl Seen {
    fn note(&mut self, at_zero: Val, here: Val) {
        let kind = match here {
            Val::Win(_) => "win",
            Val::Draw => "draw",
            Val::Loss(_) => "loss",
        };
        self.0
            .insert((kind, here == Val::Draw && at_zero != Val::Draw));
    }

    /// Wins, losses, plain draws and draws by the clock were all met.
    fn assert_all(&self, name: &str, losses: bool) {
        let mut wanted = vec![("win", false), ("draw", false), ("draw", true)];
        if losses {
            wanted.push(("loss", false));
        }
        for want in wanted {
            assert!(
                self.0.contains(&want),
                "{name}: no {want:?} met: {:?}",
                self.0
            );
        }
    }
}

/// `Pieces` 3: every placement state, and every movement state of every
/// `step`-th at each clock up to its limit.
fn whole_game(limits: Limits, step: usize) {
    let g = Limited::new(3, limits);
    let started = Instant::now();
    let states = reachable(&g.game);
    let solved = ClockedWhole::solve(&g.game, &states, limits);
    let solve_secs = started.elapsed().as_secs_f64();
    let mut wrong = Vec::new();
    let mut seen = Seen::default();
    let mut checked = 0;
    for (i, &s) in states.iter().enumerate() {
        if lost_by_material(s) {
            continue;
        }
        if in_placement(s) {
            let want = solved.at(s, 0);
            g.check(s, 0, want, &mut wrong);
            checked += 1;
        } else if i % step == 0 {
            let at_zero = solved.at(s, 0);
            for clock in 0..=g.limit(s) {
                let want = solved.at(s, clock);
                seen.note(at_zero, want);
                g.check(s, clock, want, &mut wrong);
                checked += 1;
            }
        }
    }
    assert!(wrong.is_empty(), "{}:\n{}", g.name, wrong.join("\n"));
    seen.assert_all(&g.name, true);
    let start = g.game.start();
    println!(
        "{}: start {}; {} states solved at every clock in {solve_secs:.1} s, {checked} \
         (state, clock) pairs probed; {:.1} s in all",
        g.name,
        solved.at(start, 0),
        states.len(),
        started.elapsed().as_secs_f64()
    );
    cli_agrees(&g, &states, &solved);
}

/// `morris tb probe` and `morris solve` read the clock from the position
/// string as the library does.
fn cli_agrees(g: &Limited, states: &[State], solved: &ClockedWhole) {
    let mut rng = Rng::new(0x40);
    let mut done = 0;
    while done < 6 {
        let s = *rng.pick(states);
        if lost_by_material(s) || in_placement(s) || solved.at(s, 0) == Val::Draw {
            continue;
        }
        // A win or loss at clock 0, probed where the clock leaves one ply
        // fewer than its distance, and at clock 0.
        let (Val::Win(d) | Val::Loss(d)) = solved.at(s, 0) else {
            unreachable!()
        };
        // (Below the limit: at the limit the game is over, which `solve`
        // says instead of a value.)
        let late = (g.limit(s) + 1).saturating_sub(d).min(g.limit(s) - 1);
        for clock in [0, late] {
            let fen = g.fen(s, clock);
            let want = match solved.at(s, clock) {
                Val::Win(plies) => Probe {
                    value: Value::Win,
                    plies,
                },
                Val::Draw => Probe::DRAW,
                Val::Loss(plies) => Probe {
                    value: Value::Loss,
                    plies,
                },
            };
            let lines = [format!("value: {want}"), format!("value {want}")];
            for sub in [
                &["tb", "probe", fen.as_str()][..],
                &["solve", "--fen", fen.as_str()],
            ] {
                let out = morris(sub, &g.settings, &g.dir);
                let text = String::from_utf8_lossy(&out.stdout);
                assert!(
                    out.status.success() && text.lines().any(|l| lines.iter().any(|w| w == l)),
                    "{} {sub:?}: want {want}, got:\n{text}{}",
                    g.name,
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        }
        done += 1;
    }
}

/// `NoCaptureMoves` below `EndgameMoves`: the smaller limit is in force
/// in 3-3 (`four_a_side_sampled` has them the other way round).
#[test]
fn three_a_side_whole_game() {
    whole_game(
        Limits {
            endgame: 6,
            no_capture: 3,
        },
        23,
    );
}

/// A random reachable state after `plies` random moves from the start.
fn random_state(game: &Game, rng: &mut Rng, plies: u32) -> Option<State> {
    let mut s = game.start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        game.moves(s, &mut moves);
        if lost_by_material(s) || moves.is_empty() {
            return None;
        }
        s = rng.pick(&moves).0;
    }
    (!lost_by_material(s)).then_some(s)
}

/// `Pieces` 4: the limit in 4-4, 4-3 and 3-4 is `NoCaptureMoves`, in 3-3
/// the smaller one; removals lead on into the next limit at clock 0.
#[test]
fn four_a_side_sampled() {
    let limits = Limits {
        endgame: 2,
        no_capture: 3,
    };
    let g = Limited::new(4, limits);
    let started = Instant::now();
    let mut search = ClockedSearch::new(&g.game, limits);
    let mut rng = Rng::new(0x4444);
    let mut wrong = Vec::new();
    let mut seen = Seen::default();
    let mut subspaces = HashSet::new();
    let (mut placing, mut moving) = (0, 0);
    while placing + moving < 300 {
        // Placement ends after 8 plies: its last two, whose searches reach
        // the movement phase after one or two placements, and movement.
        let plies = rng.range(6, 16) as u32;
        let Some(s) = random_state(&g.game, &mut rng, plies) else {
            continue;
        };
        if in_placement(s) {
            if placing >= 60 {
                continue;
            }
            let want = search.value(s, 0);
            g.check(s, 0, want, &mut wrong);
            placing += 1;
        } else {
            // Clock 0 from the tables, checked when drawn as the clock.
            let at_zero = g.probe(s, 0).expect("a covered state");
            let clock = rng.range(0, g.limit(s) as u64) as u16;
            let want = search.value(s, clock);
            seen.note(at_zero, want);
            g.check(s, clock, want, &mut wrong);
            subspaces.insert((
                common::naive_solve::stones(s, 0).count_ones(),
                common::naive_solve::stones(s, 1).count_ones(),
            ));
            moving += 1;
        }
    }
    assert!(wrong.is_empty(), "{}:\n{}", g.name, wrong.join("\n"));
    // Losses within three plies are too rare to sample: the whole game of
    // `Pieces` 3 has them.
    seen.assert_all(&g.name, false);
    assert!(subspaces.len() >= 4, "{}: {subspaces:?}", g.name);
    println!(
        "{}: {placing} placement and {moving} movement states checked ({} searched) in {:.1} s",
        g.name,
        search.searched(),
        started.elapsed().as_secs_f64()
    );
}

/// `morris tb compare` counts, table by table, the positions whose value
/// at clock 0 the limits change, as probing both solutions finds them,
/// and finds no change a draw rule cannot make.
#[test]
fn compare_counts_what_the_limits_change() {
    use morris::tablebase::{Indexer, Subspace, position};

    let limits = Limits {
        endgame: 4,
        no_capture: 6,
    };
    let g = Limited::new(4, limits);
    let plain_settings = ["Pieces=4", "EndgameMoves=0", "NoCaptureMoves=0"].map(String::from);
    let plain = Rules::with_settings("nine", &plain_settings).unwrap();
    let made = morris(
        &["tb", "generate", "--phase", "all", "--threads", "2"],
        &plain_settings,
        &g.dir,
    );
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    let out = morris(&["tb", "compare"], &g.settings, &g.dir);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let row = |name: &str| -> Vec<u64> {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no row {name}:\n{text}"));
        line.split_whitespace()
            .skip(1)
            .map(|w| w.parse().unwrap())
            .collect()
    };
    assert_eq!(row("total")[3], 0, "{text}");
    // Each movement table counted again by probing both solutions.
    let limited = &g.tbs;
    let published = Tablebases::open(&g.dir, &plain);
    let mut changed = 0;
    for (m, t) in [(3usize, 3usize), (4, 3), (3, 4), (4, 4)] {
        let ix = Indexer::new(m, t);
        let mut counts = [0u64; 4];
        for slot in 0..ix.size() {
            let (mine, theirs) = ix.position(slot);
            if ix.index(mine, theirs) != slot {
                continue;
            }
            let pos = position(mine, theirs);
            let here = limited.probe(&pos).expect("covered").value;
            let there = published.probe(&pos).expect("covered").value;
            counts[0] += 1;
            match (there, here) {
                (a, b) if a == b => {}
                (Value::Win, Value::Draw) => counts[1] += 1,
                (Value::Loss, Value::Draw) => counts[2] += 1,
                _ => counts[3] += 1,
            }
        }
        let name = Subspace::new(m as u8, t as u8).to_string();
        assert_eq!(row(&name), counts, "{name}:\n{text}");
        changed += counts[1] + counts[2];
    }
    assert!(changed > 0, "the limits change some values:\n{text}");
    println!("{}: tb compare\n{text}", g.name);
}
