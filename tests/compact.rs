//! Compact tables (`tb compress`): every value read from them, by their
//! loss bits and one ply of successors, equals the full tables' value, on
//! whole reduced games (under move-count draws, the value at clock 0); a
//! damaged group is refused.

use crate::common::game_tables;

use std::path::{Path, PathBuf};

use morris::rules::{Color, Game, MoveList, Position, Rules};

use morris::tablebase::{Compressed, Indexer, Probe, Tablebases, Value, compress, sector_position};
use rayon::prelude::*;

/// The full tables of `Pieces` `pieces` (made once per test) and their
/// compact copy in a folder of its own.
fn compressed(name: &str, pieces: u8) -> (Rules, PathBuf, PathBuf) {
    let rules = game_tables::reduced(pieces);
    let full = game_tables::made(&format!("{name}-full"), &rules);
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-compact"));
    let _ = std::fs::remove_dir_all(&out);
    let made = compress(&full, &out, &rules, 2, |_| {}).unwrap();
    assert!(made.iter().all(|c| c.compact_bytes > 0));
    (rules, full, out)
}

/// Every canonical position of every table (of one mover class in
/// `stride`): the compact value equals the full one (with no distance);
/// returns the positions and how many of them are decided.
pub(crate) fn compare_all(rules: &Rules, full: &Path, compact: &Path, stride: usize) -> (u64, u64) {
    let (full, compact) = (
        Tablebases::open(full, rules),
        Tablebases::open(compact, rules),
    );
    let sectors = full.available();
    assert!(
        compact.available().is_empty(),
        "no full table among the compact ones"
    );
    assert_eq!(sectors, compact.on_disk());
    let (mut all, mut decided) = (0u64, 0u64);
    for sub in sectors {
        let index = Indexer::new(sub.mine as usize, sub.theirs as usize);
        let (a, d) = (0..index.classes())
            .into_par_iter()
            .filter(|class| class % stride == 0)
            .map(|class| {
                let (mut all, mut decided) = (0u64, 0u64);
                index.for_each_in_class(class, |_, mine, theirs, canonical| {
                    if !canonical {
                        return;
                    }
                    let exact = Probe::from_code(full.code(sub, mine, theirs).unwrap());
                    let read = compact.code(sub, mine, theirs).unwrap_or_else(|| {
                        panic!("{sub} {mine:#x} {theirs:#x}: {:?}", compact.take_faults())
                    });
                    let read = Probe::from_code(read);
                    assert_eq!(read.value, exact.value, "{sub} {mine:#x} {theirs:#x}");
                    assert_eq!(read.distance().is_none(), exact.value != Value::Draw);
                    all += 1;
                    decided += (exact.value != Value::Draw) as u64;
                });
                (all, decided)
            })
            .reduce(|| (0, 0), |x, y| (x.0 + y.0, x.1 + y.1));
        all += a;
        decided += d;
    }
    (all, decided)
}

/// The whole Pieces=4 game, and every table of Pieces=5 over a quarter
/// of its mover classes (the whole of it, 86.6 M positions, takes minutes).
#[test]
fn four_and_five_read_back_exactly_in_every_phase() {
    for (name, pieces, stride, least) in [
        ("compact-4", 4, 1, 5_000_000),
        ("compact-5", 5, 4, 15_000_000),
    ] {
        let (rules, full, out) = compressed(name, pieces);
        let (all, decided) = compare_all(&rules, &full, &out, stride);
        assert!(
            all > least && decided > all / 100,
            "{name}: {decided} of {all}"
        );
    }
}

#[test]
fn a_damaged_group_is_refused_and_reported() {
    let (rules, _, out) = compressed("compact-3-damage", 3);
    let tables = Tablebases::open(&out, &rules);
    let sub = morris::tablebase::Subspace::new(3, 3);
    let path = tables.compact_path(sub);
    let mut bytes = std::fs::read(&path).unwrap();
    let at = bytes.len() - 20;
    bytes[at] ^= 0x10;
    std::fs::write(&path, bytes).unwrap();
    let tables = Tablebases::open(&out, &rules);
    let index = Indexer::new(3, 3);
    let (mine, theirs) = index.position(index.size() - 1);
    assert_eq!(tables.code(sub, mine, theirs), None);
    let faults = tables.take_faults();
    assert_eq!(faults.len(), 1, "{faults:?}");
    assert_eq!(faults[0].path, path);
    // Not even a group that was good answers after that.
    let (mine, theirs) = index.position(0);
    assert_eq!(tables.code(sub, mine, theirs), None);
}

/// Pieces=4 under the nine preset's move-count draws (`EndgameMoves=10`),
/// `NoCaptureMoves` cut to 20 so that it decides positions of so small a
/// game too: full tables with distances, and their compact copy.
pub(crate) fn compressed_with_draws(name: &str) -> (Rules, PathBuf, PathBuf, Vec<Compressed>) {
    let rules = Rules::with_settings(
        "nine",
        &["Pieces=4".to_string(), "NoCaptureMoves=20".to_string()],
    )
    .unwrap();
    let full = game_tables::made(&format!("{name}-full"), &rules);
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{name}-compact"));
    let _ = std::fs::remove_dir_all(&out);
    let made = compress(&full, &out, &rules, 2, |_| {}).unwrap();
    (rules, full, out, made)
}

/// The same position with the move clock at `clock`.
fn at_clock(pos: &Position, clock: u16) -> Position {
    let hand = [Color::White, Color::Black].map(|c| pos.in_hand(c));
    let pieces = [Color::White, Color::Black].map(|c| pos.pieces(c));
    Position::new(pieces, hand, pos.side_to_move(), clock, 1, [0; 2])
}

/// Under move-count draws a compact table holds the value at clock 0,
/// where every placement and removal leaves the game: read there it is
/// the full tables' value, in every position of every phase; later in the
/// clock a draw still is one, and a win or loss, which the clock may have
/// turned into a draw by then, is not given.
#[test]
fn under_move_count_draws_compact_tables_hold_the_values_at_clock_zero() {
    let (rules, full_dir, out, made) = compressed_with_draws("compact-4-draws");
    assert!(
        made.iter()
            .all(|c| c.kind.ends_with("+ drawn") != c.sector.placing()),
        "a movement table's successors are at clock 1: {made:?}"
    );
    let (full, compact) = (
        Tablebases::open(&full_dir, &rules),
        Tablebases::open(&out, &rules),
    );
    assert_eq!(full.available(), compact.on_disk());
    // Positions; those the clock-0 limit draws though the stored value is
    // decided; later clocks given as draws, and not given.
    let (mut all, mut drawn_by_limit, mut later_draws, mut later_unknown) = (0u64, 0, 0, 0);
    let mut movement_drawn = 0u64;
    for sub in full.available() {
        let index = Indexer::new(sub.mine as usize, sub.theirs as usize);
        for slot in 0..index.size() {
            let (mine, theirs) = index.position(slot);
            if index.index(mine, theirs) != slot {
                continue;
            }
            let pos = sector_position(sub, mine, theirs);
            let exact = full.probe(&pos).unwrap();
            let at_zero = compact.probe(&pos).unwrap().value;
            assert_eq!(at_zero, exact.value, "{}", pos.to_fen(&rules));
            all += 1;
            drawn_by_limit += (exact.value == Value::Draw
                && full.probe_table(&pos).unwrap().value != Value::Draw)
                as u64;
            if sub.placing() {
                continue;
            }
            // The movement tables' drawn planes.
            movement_drawn += (exact.value == Value::Draw
                && full.probe_table(&pos).unwrap().value != Value::Draw)
                as u64;
            for clock in [1, 9, 15, 19] {
                let later = at_clock(&pos, clock);
                let exact = full.probe(&later).unwrap();
                match compact.probe(&later) {
                    Some(read) => {
                        assert_eq!(read.value, exact.value, "{}", later.to_fen(&rules));
                        later_draws += (read.value == Value::Draw) as u64;
                    }
                    None => {
                        assert_ne!(at_zero, Value::Draw, "{}", later.to_fen(&rules));
                        later_unknown += 1;
                    }
                }
            }
        }
    }
    assert!(
        all > 1_000_000
            && drawn_by_limit > 1000
            && movement_drawn > 1000
            && later_draws > 1000
            && later_unknown > 1000,
        "{all} {drawn_by_limit} {movement_drawn} {later_draws} {later_unknown}"
    );
}

/// Under the draws the engine with compact tables alone plays the whole
/// placement phase keeping the value, as either colour, against a
/// searching opponent whose first moves differ from game to game.
#[test]
fn under_move_count_draws_the_engine_places_perfectly_with_compact_tables() {
    let (rules, full_dir, out, _) = compressed_with_draws("compact-4-draws-play");
    let full = Tablebases::open(&full_dir, &rules);
    let compact = Tablebases::open(&out, &rules);
    let mut exact = game_tables::Player::with_tables(&compact);
    let mut plain = game_tables::Player::plain();
    let start = Game::new(rules, Position::start(&rules));
    let legal = |game: &Game| {
        let mut list = MoveList::new();
        game.position().legal_moves(&rules, &mut list);
        list.iter().copied().collect::<Vec<_>>()
    };
    let mut checked = 0;
    for (i, &first) in legal(&start).iter().take(6).enumerate() {
        // Black after White's `first`; White after it and Black's i-th reply.
        for side in [Color::Black, Color::White] {
            let mut game = start.clone();
            game.play(first);
            if side == Color::White {
                let reply = legal(&game)[i];
                game.play(reply);
            }
            let placements = 2 * 4 - game.moves().len();
            let (_, n) =
                game_tables::play_checked(&full, &mut exact, &mut plain, game, side, placements, 2);
            checked += n;
        }
    }
    assert!(checked >= 20, "{checked} placements checked");
}

/// The engine with compact tables only keeps the value of every position
/// it moves from, and wins the won start of Pieces=3 (as with `--wdl`
/// tables: results without distances).
#[test]
fn the_engine_keeps_every_value_with_compact_tables() {
    let (rules, _, out) = compressed("compact-3-play", 3);
    let tbs = Tablebases::open(&out, &rules);
    let (_, checked, _, _) = game_tables::wins_the_won_start(&tbs, rules);
    assert!(checked > 5, "{checked} moves checked");
}

/// `tb probe` and `solve` on compact tables under move-count draws: a
/// movement position's value at clock 0; later in the clock, where the
/// draws may have turned that win into a draw, a message that says so.
#[test]
fn the_tools_say_a_compact_value_under_draws_holds_at_clock_zero() {
    let (_, _, out, _) = compressed_with_draws("compact-4-draws-tools");
    // White closes a mill by g4-g7: won at clock 0.
    let fen = |clock: u16| format!("WW1/3/B1B/1W3W/3/1B1/3 w 0 0 {clock} 20");
    let run = |args: &[&str], clock: u16| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_morris"))
            .args(args)
            .args(["--dir", out.to_str().unwrap()])
            .args(["--option", "Pieces=4", "--option", "NoCaptureMoves=20"])
            .args(match args[0] {
                "solve" => vec!["--fen".to_string(), fen(clock)],
                _ => vec![fen(clock)],
            })
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        (
            o.status.success(),
            text,
            String::from_utf8_lossy(&o.stderr).to_string(),
        )
    };
    for args in [&["tb", "probe"][..], &["solve"][..]] {
        let (ok, stdout, _) = run(args, 0);
        assert!(
            ok && stdout.contains("win") && stdout.contains("g4-g7xc5"),
            "{stdout}"
        );
        let (ok, stdout, stderr) = run(args, 5);
        assert!(!ok && stdout.is_empty(), "{stdout}");
        assert!(
            stderr.contains("value at clock 0 only (win there)") && stderr.contains("clock 5"),
            "{stderr}"
        );
    }
}
