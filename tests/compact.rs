//! Compact tables (`tb compress`): every value read from them, by their
//! loss bits and one ply of successors, equals the full tables' value, on
//! whole reduced games; a damaged group is refused.

use crate::common::game_tables;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use morris::rules::Rules;
use morris::tablebase::{Indexer, Probe, TablebaseError, Tablebases, Value, compress};
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
fn compare_all(rules: &Rules, full: &Path, compact: &Path, stride: usize) -> (u64, u64) {
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

#[test]
fn compact_tables_need_the_move_count_draws_off() {
    let rules = Rules::with_settings("nine", &["Pieces=3".to_string()]).unwrap();
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("compact-limits");
    let err = compress(&out, &out, &rules, 1, |_| {}).unwrap_err();
    assert!(matches!(err, TablebaseError::WdlWithDrawLimits), "{err}");
}

/// The engine with compact tables only keeps the value of every position
/// it moves from, and wins the won start of Pieces=3 (as with `--wdl`
/// tables: results without distances).
#[test]
fn the_engine_keeps_every_value_with_compact_tables() {
    let (rules, _, out) = compressed("compact-3-play", 3);
    let tbs = Arc::new(Tablebases::open(&out, &rules));
    let (_, checked, _, _) = game_tables::wins_the_won_start(&tbs, rules);
    assert!(checked > 5, "{checked} moves checked");
}
