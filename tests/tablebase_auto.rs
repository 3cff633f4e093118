//! `TablebaseAuto`: the engine builds the missing small tables in the
//! background and uses them; engines sharing a folder build each table
//! once; a folder it cannot write to is said once and play goes on.
//! Every engine here works in a temporary folder of its own.

use crate::common::engine;

use std::path::PathBuf;

use engine::Engine;
use morris::rules::{Bitboard, Color, Position, Rules, Square};
use morris::tablebase::table_path;
use morris::tablebase::{Fingerprint, Subspace, Tablebases, Value};

fn fresh_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tb-auto-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// An engine whose default table folder is `dir`, building up to `max`.
fn engine_in(dir: &std::path::Path, max: u8) -> Engine {
    let (dir, max) = (dir.display().to_string(), max.to_string());
    Engine::start_with_env(&[], &[("MORRIS_TB_DIR", &dir), ("MORRIS_TB_AUTO", &max)])
}

/// Reads until the build says it is done; returns that line.
fn finished(e: &mut Engine) -> String {
    let lines = e.read_until(|l| l.contains("are ready after") || l.contains("error:"));
    lines.last().unwrap().clone()
}

fn built_here(line: &str) -> usize {
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "here").expect("built here");
    words[at - 2].parse().unwrap()
}

fn tbhits(lines: &[String]) -> u64 {
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    info.split_whitespace()
        .skip_while(|w| *w != "tbhits")
        .nth(1)
        .unwrap()
        .parse()
        .unwrap()
}

/// A 3 v 3 position, white to move, won by the table in more than `plies`.
fn won_3v3(tbs: &Tablebases, plies: u16) -> Position {
    let rules = Rules::default();
    let mut s: u64 = 0x2545_F491_4F6C_DD1D;
    loop {
        let mut pieces = [Bitboard::EMPTY; 2];
        for c in 0..2 {
            while pieces[c].count() < 3 {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                let sq = Square::new((s % 24) as usize).unwrap();
                if !(pieces[0] | pieces[1]).contains(sq) {
                    pieces[c] |= sq.bit();
                }
            }
        }
        let pos = Position::new(pieces, [0, 0], Color::White, 0, 30, [0, 0]);
        if pos.count_moves(&rules) == 0 {
            continue;
        }
        if let Some(p) = tbs.probe(&pos)
            && p.value == Value::Win
            && p.plies > plies
        {
            return pos;
        }
    }
}

#[test]
fn the_engine_builds_the_small_tables_and_plays_by_them() {
    let dir = fresh_dir("build");
    let mut e = engine_in(&dir, 0);
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    assert!(
        lines.contains(&"option name TablebaseAuto type spin default 0 min 0 max 12".to_string()),
        "{lines:?}"
    );
    e.send("setoption name TablebaseAuto value 3");
    // `readyok` comes at once; the build reports in the background.
    e.send("isready");
    let lines = e.read_until(|l| l == "readyok");
    let rules_dir = dir.join(Fingerprint::of(&Rules::default()).dir_name());
    let done = finished(&mut e);
    assert!(
        done.contains("1 tables, ") && done.contains("1 built here"),
        "{done}"
    );
    let starts: Vec<&String> = e
        .transcript
        .iter()
        .filter(|l| l.contains("tablebase: building the missing tables up to 3 stones"))
        .collect();
    assert_eq!(starts.len(), 1, "{:?} {lines:?}", e.transcript);
    assert!(table_path(&rules_dir, Subspace::new(3, 3)).exists());
    let rules = Rules::default();
    let tbs = Tablebases::open(&dir, &rules);
    let pos = won_3v3(&tbs, 4);
    e.send(&format!("position fen {}", pos.to_fen(&rules)));
    e.send("go depth 4");
    let (mv, lines) = e.bestmove();
    assert!(tbhits(&lines) > 0, "{lines:?}");
    let chosen = tbs
        .moves(&pos)
        .unwrap()
        .into_iter()
        .find(|m| m.mv.to_string() == mv)
        .unwrap();
    assert_eq!(chosen.probe, tbs.best_move(&pos).unwrap().probe, "{mv}");
    // Nothing more to build: no more messages.
    e.send("ucinewgame");
    let lines = e.sync();
    assert!(lines.is_empty(), "{lines:?}");
}

#[test]
fn engines_sharing_a_folder_build_each_table_once() {
    let dir = fresh_dir("shared");
    let rules_dir = dir.join(Fingerprint::of(&Rules::default()).dir_name());
    std::fs::create_dir_all(&rules_dir).unwrap();
    // Held by this (live) process until both engines wait for it.
    let lock = rules_dir.join("3-3.lock");
    std::fs::write(&lock, format!("{}\n", std::process::id())).unwrap();
    let mut engines = [engine_in(&dir, 4), engine_in(&dir, 4)];
    for e in &mut engines {
        e.send("isready");
        e.read_until(|l| l.contains("tablebase: building the missing tables up to 4"));
    }
    std::fs::remove_file(&lock).unwrap();
    let mut total = 0;
    for e in &mut engines {
        let done = finished(e);
        assert!(done.contains(" 4 tables, "), "{done}");
        total += built_here(&done);
    }
    // 3-3, 4-3, 3-4 and 4-4, each built by one of them.
    assert_eq!(total, 4);
    let left: Vec<_> = std::fs::read_dir(&rules_dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| !n.ends_with(".mtb"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    let tbs = Tablebases::open(&dir, &Rules::default());
    for (w, b) in [(3, 3), (4, 3), (3, 4), (4, 4)] {
        assert!(tbs.usable(Subspace::new(w, b)), "{w}-{b}");
    }
    assert!(tbs.take_faults().is_empty());
}

#[test]
fn a_lock_left_by_a_dead_process_is_taken_over() {
    let dir = fresh_dir("stale");
    let rules_dir = dir.join(Fingerprint::of(&Rules::default()).dir_name());
    std::fs::create_dir_all(&rules_dir).unwrap();
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    let pid = gone.id();
    gone.wait().unwrap();
    std::fs::write(rules_dir.join("3-3.lock"), format!("{pid}\n")).unwrap();
    let mut e = engine_in(&dir, 3);
    e.send("isready");
    let done = finished(&mut e);
    assert!(done.contains("1 built here"), "{done}");
    assert!(!rules_dir.join("3-3.lock").exists());
}

#[test]
fn a_folder_that_cannot_be_written_is_said_once_and_play_goes_on() {
    let dir = fresh_dir("unwritable");
    // A file where the folder should be: nothing can be made under it.
    let blocked = dir.join("not-a-folder");
    std::fs::write(&blocked, "x").unwrap();
    let mut e = engine_in(&dir, 3);
    e.send(&format!(
        "setoption name TablebasePath value {}",
        blocked.display()
    ));
    e.send("isready");
    let done = finished(&mut e);
    assert!(
        done.starts_with("info string error: tablebase: cannot build the tables (")
            && done.ends_with("); playing on without them"),
        "{done}"
    );
    e.send("position startpos moves d2 d6");
    for _ in 0..2 {
        e.send("go depth 3");
        let (mv, lines) = e.bestmove();
        assert_ne!(mv, "(none)");
        assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    }
    e.send("ucinewgame");
    assert!(e.sync().is_empty());
    // No folder at all: said once as well.
    e.send("setoption name TablebasePath value <empty>");
    let lines = e.sync();
    assert_eq!(
        lines,
        ["info string tablebase: TablebasePath is empty: no tables"]
    );
    assert!(e.sync().is_empty());
}

#[test]
fn analyze_builds_the_missing_tables_first() {
    let dir = fresh_dir("analyze");
    let run = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_morris"))
            .args([
                "analyze",
                "--depth",
                "3",
                "--fen",
                "W1W/3/1B1/W4B/3/1B1/3 w 0 0 0 30",
            ])
            .env("MORRIS_TB_DIR", &dir)
            .env("MORRIS_TB_AUTO", "3")
            .output()
            .unwrap()
    };
    let out = run();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        err.contains("morris analyze: tablebase: building the missing tables up to 3 stones")
            && err.contains("1 built here"),
        "{err}"
    );
    let rules_dir = dir.join(Fingerprint::of(&Rules::default()).dir_name());
    assert!(table_path(&rules_dir, Subspace::new(3, 3)).exists());
    // Built once: the second run says nothing.
    let again = run();
    assert!(again.status.success());
    assert!(
        again.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
}
