//! Win/draw/loss-only tables (`tb generate --wdl`): the same results as
//! the distance tables in a fifth of the disk, checked by `verify`, never
//! under a table that needs distances, and enough for the engine to keep
//! every value.

use crate::common::game_tables;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use morris::rules::{Color, Rules};
use morris::tablebase::TablebaseError;
use morris::tablebase::{
    GenerateOptions, HEADER_LEN, Indexer, Phase, Probe, Tablebases, Value, generate_game, verify,
};

fn options(wdl: bool) -> GenerateOptions {
    GenerateOptions {
        threads: 2,
        wdl,
        ..GenerateOptions::default()
    }
}

/// A new folder `name` with the win/draw/loss-only tables of the game.
fn made_wdl(name: &str, rules: &Rules) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    generate_game(&dir, rules, Phase::All, &options(true)).unwrap();
    dir
}

/// Pieces=4: distance tables and win/draw/loss-only tables, made once.
fn four() -> &'static (PathBuf, PathBuf) {
    static DIRS: OnceLock<(PathBuf, PathBuf)> = OnceLock::new();
    DIRS.get_or_init(|| {
        let rules = game_tables::reduced(4);
        (
            game_tables::made("wdl-4-full", &rules),
            made_wdl("wdl-4-wdl", &rules),
        )
    })
}

fn bytes_under(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            if e.file_type().unwrap().is_dir() {
                bytes_under(&e.path())
            } else {
                e.metadata().unwrap().len()
            }
        })
        .sum()
}

#[test]
fn every_stored_result_matches_the_distance_tables() {
    let rules = game_tables::reduced(4);
    let (full, wdl) = four();
    let (full, wdl) = (
        Tablebases::open(full, &rules),
        Tablebases::open(wdl, &rules),
    );
    let sectors = full.available();
    assert_eq!(sectors, wdl.available());
    assert!(sectors.iter().any(|s| s.placing()) && sectors.iter().any(|s| !s.placing()));
    let (mut decided, mut all) = (0u64, 0u64);
    for sub in sectors {
        // Five values a byte against at least one, headers and block sums aside.
        let len = |tbs: &Tablebases| std::fs::metadata(tbs.table_path(sub)).unwrap().len();
        assert!(
            4 * len(&wdl) <= len(&full) + 3 * HEADER_LEN as u64 + 40,
            "{sub}"
        );
        let index = Indexer::new(sub.mine as usize, sub.theirs as usize);
        for class in 0..index.classes() {
            index.for_each_in_class(class, |_, mine, theirs, canonical| {
                if !canonical {
                    return;
                }
                let exact = Probe::from_code(full.code(sub, mine, theirs).unwrap());
                let stored = Probe::from_code(wdl.code(sub, mine, theirs).unwrap());
                assert_eq!(stored.value, exact.value, "{sub} {mine:#x} {theirs:#x}");
                assert_eq!(stored.distance().is_none(), exact.value != Value::Draw);
                decided += (exact.value != Value::Draw) as u64;
                all += 1;
            });
        }
    }
    assert!(decided > 100_000 && all > 1_000_000, "{decided} of {all}");
    let (a, b) = four();
    assert!(
        4 * bytes_under(b) < bytes_under(a),
        "about a fifth of the disk"
    );
}

#[test]
fn verify_passes_wdl_tables_and_catches_a_flipped_byte() {
    let rules = game_tables::reduced(3);
    let dir = made_wdl("wdl-3-verify", &rules);
    let tables = Tablebases::open(&dir, &rules);
    let checked = verify(&dir, &rules, 2, None, |_| {}).unwrap();
    assert_eq!(checked.len(), tables.available().len());
    assert!(checked.len() >= 7 && checked.iter().all(|c| c.ok()));
    let path = tables.placement_dir().join("2-2+1-1.mtb");
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[256] ^= 0x01;
    std::fs::write(&path, bytes).unwrap();
    let checked = verify(&dir, &rules, 2, None, |_| {}).unwrap();
    let bad: Vec<String> = checked
        .iter()
        .filter(|c| !c.ok())
        .map(|c| c.subspace.to_string())
        .collect();
    // The damaged table, and those whose values it gives (3-3 below it
    // stays good).
    assert!(bad.contains(&"2-2+1-1".to_string()), "{bad:?}");
    assert!(!bad.contains(&"3-3".to_string()), "{bad:?}");
}

#[test]
fn distance_tables_are_never_built_on_wdl_tables() {
    let rules = game_tables::reduced(3);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("wdl-3-under");
    let _ = std::fs::remove_dir_all(&dir);
    generate_game(&dir, &rules, Phase::Movement, &options(true)).unwrap();
    let err = generate_game(&dir, &rules, Phase::Placement, &options(false)).unwrap_err();
    assert!(matches!(err, TablebaseError::NoDistances(_)), "{err}");
    // With --wdl the placement tables build on them.
    generate_game(&dir, &rules, Phase::Placement, &options(true)).unwrap();
}

/// `tb generate --wdl` is refused under move-count draws, where a value
/// later in the clock needs its distance (`tb generate --compact` makes
/// such tables of values at clock 0 on its way, and deletes them).
#[test]
fn wdl_needs_the_move_count_draws_off() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("wdl-limits");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_morris"))
        .args([
            "tb", "generate", "--wdl", "--phase", "all", "--option", "Pieces=3",
        ])
        .args(["--dir", dir.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{stderr}");
    assert!(
        stderr.contains(&TablebaseError::WdlWithDrawLimits.to_string()),
        "{stderr}"
    );
    assert!(!dir.exists(), "nothing written");
}

/// The engine with win/draw/loss-only tables keeps the value of every
/// position it moves from, and wins the won start of Pieces=3 from either
/// side's every first placement.
#[test]
fn the_engine_keeps_every_value_with_wdl_tables() {
    let rules = game_tables::reduced(3);
    let dir = made_wdl("wdl-3-play", &rules);
    let tbs = Tablebases::open(&dir, &rules);
    let (start, checked, mut exact, mut plain) = game_tables::wins_the_won_start(&tbs, rules);
    let mut total = checked;
    for m in tbs.moves(start.position()).unwrap() {
        let mut game = start.clone();
        game.play(m.mv);
        let (_, n) =
            game_tables::play_checked(&tbs, &mut exact, &mut plain, game, Color::Black, 200, 3);
        total += n;
    }
    assert!(total > 50, "{total} moves checked");
}
