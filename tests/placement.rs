//! Placement-phase tables (issue 15) against an independent naive solver
//! (tests/common/naive_solve.rs: its own move generator, no symmetry, no
//! code shared with crates/rules or crates/tablebase), on reduced games whose
//! tables the binary makes in seconds (`morris tb generate --phase all`).
//! States and positions meet only as position strings. The rules are the
//! published solutions': `EndgameMoves` and `NoCaptureMoves` 0.
//!
//! - `Pieces` 3 (standard, twelve men's, Lasker): the naive solver solves
//!   the whole game, placement and movement, and every reachable state
//!   must probe its value and distance.
//! - `Pieces` 4 and 5: the naive solver searches the placement phase down
//!   to the positions with both hands empty, whose values it takes from
//!   the movement tables (those are checked on their own by
//!   tests/tablebase.rs and `tb verify`). The whole placement phase is too
//!   big for a test (its last layer alone leads into some 51 M movement
//!   positions at `Pieces` 4), so random reachable placement positions are
//!   checked, each searched to the end of placement, and every sampled
//!   position and the start agree with the stored values of their moves.

use crate::common;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use common::Rng;
use common::naive::{NAMES, index_of};
use common::naive_solve::{
    Game, PlacementSolver, Solution, State, Val, hand, in_placement, lost_by_material, pack, side,
    solve, stones,
};
use morris::rules::{Position, Rules, Square, Symmetry};
use morris::tablebase::Tablebases;

const MORRIS: &str = env!("CARGO_BIN_EXE_morris");

/// The naive solver checks every state with stones in hand, and every
/// this many other states, to be the fixpoint of its moves' values.
const CHECK_EVERY: usize = 4;

/// The options of a reduced game, as `Name=Value` words.
fn settings(pieces: u8) -> Vec<String> {
    vec![
        format!("Pieces={pieces}"),
        "EndgameMoves=0".to_string(),
        "NoCaptureMoves=0".to_string(),
    ]
}

fn rules_of(variant: &str, pieces: u8) -> Rules {
    Rules::with_settings(variant, &settings(pieces)).unwrap()
}

/// `--variant V --option ...` for the binary.
fn rule_args(variant: &str, pieces: u8) -> Vec<String> {
    let mut args = vec!["--variant".to_string(), variant.to_string()];
    for s in settings(pieces) {
        args.push("--option".to_string());
        args.push(s);
    }
    args
}

/// The tables of a reduced game, made once by the binary into a folder
/// of their own.
fn tables(variant: &str, pieces: u8) -> PathBuf {
    static MADE: OnceLock<Mutex<HashMap<String, PathBuf>>> = OnceLock::new();
    let name = format!("placement-{variant}-{pieces}");
    // One generation at a time: the machine has two cores.
    let mut made = MADE.get_or_init(Mutex::default).lock().unwrap();
    if let Some(dir) = made.get(&name) {
        return dir.clone();
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(&name);
    let _ = std::fs::remove_dir_all(&dir);
    let started = Instant::now();
    let out = Command::new(MORRIS)
        .args(["tb", "generate", "--phase", "all", "--threads", "2"])
        .args(rule_args(variant, pieces))
        .arg("--dir")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "generating {name}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    println!(
        "{name}: tables made in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    made.insert(name, dir.clone());
    dir
}

/// A reduced game: its rules, the naive game and the stored tables.
struct Reduced {
    name: String,
    rules: Rules,
    game: Game,
    tbs: Tablebases,
}

impl Reduced {
    fn new(variant: &str, pieces: u8) -> Reduced {
        let rules = rules_of(variant, pieces);
        Reduced {
            name: format!("{variant} Pieces={pieces}"),
            game: Game::new(&rules),
            tbs: Tablebases::open(tables(variant, pieces), &rules),
            rules,
        }
    }

    fn position(&self, s: State) -> Position {
        let fen = self.game.fen(s);
        Position::from_fen(&fen, &self.rules).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// The stored value of a state, as the naive solver writes values.
    fn probe(&self, s: State) -> Option<Val> {
        self.tbs.probe(&self.position(s)).map(Val::from)
    }
}

/// A whole game solved naively, once per test binary.
struct Whole {
    reduced: Reduced,
    solution: Solution,
}

fn whole(variant: &'static str) -> &'static Whole {
    type Cell = &'static OnceLock<Whole>;
    static SOLVED: OnceLock<Mutex<HashMap<&'static str, Cell>>> = OnceLock::new();
    // The map's lock is held only to find the variant's cell: solving one
    // variant does not hold up a test of another.
    let cell: Cell = *SOLVED
        .get_or_init(Mutex::default)
        .lock()
        .unwrap()
        .entry(variant)
        .or_insert_with(|| Box::leak(Box::new(OnceLock::new())));
    cell.get_or_init(|| {
        let reduced = Reduced::new(variant, 3);
        let started = Instant::now();
        let solution = solve(&reduced.game, CHECK_EVERY);
        let placement = solution.states.iter().filter(|&&s| in_placement(s)).count();
        println!(
            "{}: naive solver, {} reachable states ({placement} with stones in hand) in {:.1} s",
            reduced.name,
            solution.states.len(),
            started.elapsed().as_secs_f64()
        );
        Whole { reduced, solution }
    })
}

/// Every reachable state of the whole game probes the naive value and
/// distance; the start's value is printed.
fn whole_game_matches(variant: &'static str) {
    let w = whole(variant);
    let r = &w.reduced;
    let started = Instant::now();
    let mut wrong = Vec::new();
    let mut checked = 0u64;
    for &s in &w.solution.states {
        if lost_by_material(s) {
            continue;
        }
        checked += 1;
        let want = w.solution.value(s);
        let got = r.probe(s);
        if got != Some(want) && wrong.len() < 10 {
            wrong.push(format!("{}: stored {got:?}, naive {want}", r.game.fen(s)));
        }
    }
    assert!(wrong.is_empty(), "{}:\n{}", r.name, wrong.join("\n"));
    let start = r.game.start();
    let value = w.solution.value(start);
    assert_eq!(r.probe(start), Some(value));
    println!(
        "{}: start position {value} (tables and naive solver); {checked} states probed in {:.1} s",
        r.name,
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn standard_three_whole_game() {
    whole_game_matches("nine");
}

#[test]
fn twelve_three_whole_game() {
    whole_game_matches("twelve");
}

/// Lasker's placement has slides, so its graph has cycles.
#[test]
fn lasker_three_whole_game() {
    whole_game_matches("lasker");
}

/// `Tablebases::moves` of a placement position names the naive moves
/// with the values of their naive successors, and `best_move` keeps the
/// position's value.
fn moves_agree(r: &Reduced, s: State, value: &mut impl FnMut(State) -> Val) {
    let pos = r.position(s);
    let fen = r.game.fen(s);
    let listed = r
        .tbs
        .moves(&pos)
        .unwrap_or_else(|| panic!("{}: no moves for {fen}", r.name));
    let mut naive: HashMap<String, Val> = r
        .game
        .named_moves(s)
        .into_iter()
        .map(|m| (m.text, value(m.child).through(m.removal)))
        .collect();
    let own = Val::best(naive.values().copied());
    assert_eq!(listed.len(), naive.len(), "{}: moves of {fen}", r.name);
    for m in &listed {
        let text = m.mv.to_string();
        let want = naive
            .remove(&text)
            .unwrap_or_else(|| panic!("{}: {text} is not a naive move of {fen}", r.name));
        assert_eq!(Val::from(m.probe), want, "{}: {fen} {text}", r.name);
    }
    let best = r.tbs.best_move(&pos).expect("a best move");
    assert_eq!(Val::from(best.probe), own, "{}: best move of {fen}", r.name);
}

/// Every placement position of the standard game, and every fourth of
/// Lasker's (2 M positions, four times the standard game's).
#[test]
fn moves_of_placement_positions_match() {
    for (variant, every) in [("nine", 1), ("lasker", 4)] {
        let w = whole(variant);
        let started = Instant::now();
        let mut n = 0;
        let placing = w
            .solution
            .states
            .iter()
            .filter(|&&s| in_placement(s) && !lost_by_material(s));
        for &s in placing.step_by(every) {
            moves_agree(&w.reduced, s, &mut |c| w.solution.value(c));
            n += 1;
        }
        println!(
            "{}: moves of {n} placement positions checked in {:.1} s",
            w.reduced.name,
            started.elapsed().as_secs_f64()
        );
    }
}

/// A random reachable placement position after `plies` random moves
/// from the start, if the game is still in placement then.
fn random_placement(game: &Game, rng: &mut Rng, plies: u32) -> Option<State> {
    let mut s = game.start();
    let mut moves = Vec::new();
    for _ in 0..plies {
        if lost_by_material(s) || !in_placement(s) {
            return None;
        }
        game.moves(s, &mut moves);
        if moves.is_empty() {
            return None;
        }
        s = rng.pick(&moves).0;
    }
    (in_placement(s) && !lost_by_material(s)).then_some(s)
}

/// `Pieces` 4 and 5: random reachable placement positions, each searched
/// naively to the end of placement (`deep` of them, at most `reach`
/// placements before the boundary), and `local` more at any depth, the
/// start among them, whose moves must carry the stored values of their
/// successors.
fn placement_sampled(variant: &str, pieces: u8, deep: usize, reach: u32, local: usize) {
    let r = Reduced::new(variant, pieces);
    let started = Instant::now();
    let boundary = |s: State| {
        r.probe(s)
            .unwrap_or_else(|| panic!("{}: no movement value for {}", r.name, r.game.fen(s)))
    };
    let mut solver = PlacementSolver::new(&r.game, boundary);
    let total = 2 * pieces as u32;
    let mut rng = Rng::new(0x15 + pieces as u64);
    let mut deep_done = 0;
    while deep_done < deep {
        let plies = rng.range((total - reach) as u64, total as u64 - 1) as u32;
        let Some(s) = random_placement(&r.game, &mut rng, plies) else {
            continue;
        };
        let want = solver.value(s);
        assert_eq!(r.probe(s), Some(want), "{}: {}", r.name, r.game.fen(s));
        deep_done += 1;
    }
    let solved = solver.solved();
    let deep_secs = started.elapsed().as_secs_f64();
    // Local checks: the stored values of the moves decide the stored value.
    let mut stored = |c: State| {
        if lost_by_material(c) {
            Val::Loss(0)
        } else {
            r.probe(c).expect("a covered successor")
        }
    };
    let start = r.game.start();
    let start_value = r.probe(start).expect("the start is covered");
    moves_agree(&r, start, &mut stored);
    let mut local_done = 0;
    while local_done < local {
        let plies = rng.range(0, total as u64 - 1) as u32;
        if let Some(s) = random_placement(&r.game, &mut rng, plies) {
            moves_agree(&r, s, &mut stored);
            local_done += 1;
        }
    }
    println!(
        "{}: start position {start_value}; {deep} positions searched naively to the \
         movement tables ({solved} states) in {deep_secs:.1} s, {local} checked against \
         their moves; {:.1} s in all",
        r.name,
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn standard_four_placement() {
    placement_sampled("nine", 4, 200, 4, 300);
}

#[test]
fn standard_five_placement() {
    placement_sampled("nine", 5, 100, 4, 300);
}

#[test]
fn twelve_four_placement() {
    placement_sampled("twelve", 4, 200, 4, 300);
}

/// The state's image under a board symmetry.
fn image(sym: Symmetry, s: State) -> State {
    let map = |mask: u32| {
        (0..24)
            .filter(|&p| mask >> p & 1 == 1)
            .map(|p| {
                let sq = Square::ALL
                    .into_iter()
                    .find(|q| q.name() == NAMES[p])
                    .unwrap();
                1u32 << index_of(sym.apply(sq).name())
            })
            .fold(0, |m, b| m | b)
    };
    pack(
        [map(stones(s, 0)), map(stones(s, 1))],
        [hand(s, 0), hand(s, 1)],
        side(s),
    )
}

#[test]
fn symmetric_images_probe_the_same() {
    for (variant, pieces) in [("nine", 3), ("twelve", 3), ("nine", 4), ("twelve", 4)] {
        let r = Reduced::new(variant, pieces);
        let mut rng = Rng::new(0x1616);
        let mut images = std::collections::HashSet::new();
        let mut done = 0;
        while done < 200 {
            let plies = rng.range(1, 2 * pieces as u64 - 1) as u32;
            let Some(s) = random_placement(&r.game, &mut rng, plies) else {
                continue;
            };
            let want = r.probe(s).expect("a covered placement position");
            for sym in Symmetry::ALL {
                let t = image(sym, s);
                images.insert(t);
                assert_eq!(
                    r.probe(t),
                    Some(want),
                    "{}: {} is an image of {}",
                    r.name,
                    r.game.fen(t),
                    r.game.fen(s)
                );
            }
            done += 1;
        }
        assert!(images.len() > 16 * 100, "the symmetries move stones");
    }
}

/// Runs `morris tb verify` on a folder: (success, everything it printed).
fn verify(dir: &Path) -> (bool, String) {
    let out = Command::new(MORRIS)
        .args(["tb", "verify", "--threads", "2"])
        .args(rule_args("nine", 3))
        .arg("--dir")
        .arg(dir)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn verify_catches_a_flipped_placement_byte() {
    let dir = tables("nine", 3);
    let (ok, text) = verify(&dir);
    assert!(ok, "verify of whole tables failed:\n{text}");
    let copy = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("placement-flipped");
    let _ = std::fs::remove_dir_all(&copy);
    copy_tree(&dir, &copy);
    let rules_dir = Tablebases::open(&copy, &rules_of("nine", 3))
        .placement_dir()
        .to_path_buf();
    // A placement table: a sector with a stone in hand, named with its hands.
    let mut placement: Vec<PathBuf> = std::fs::read_dir(&rules_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().contains('+'))
        .collect();
    placement.sort();
    let target = placement.last().expect("a placement table").clone();
    let mut bytes = std::fs::read(&target).unwrap();
    // The first value code, just after the 256-byte header.
    bytes[256] ^= 0x04;
    std::fs::write(&target, bytes).unwrap();
    let (ok, text) = verify(&copy);
    let name = target.file_name().unwrap().to_string_lossy().into_owned();
    assert!(!ok, "verify passed a flipped byte in {name}:\n{text}");
    assert!(text.contains(&name), "verify did not name {name}:\n{text}");
}
