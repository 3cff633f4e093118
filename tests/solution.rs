//! `tb generate --compact`, the compact solution in one command, on
//! reduced games: from an empty home folder it leaves only compact tables
//! in the default folder, whose values are the full tables' (under the
//! published rules read position by position, under move-count draws the
//! same files as `tb compress` makes but for the header's totals); the
//! engine, `solve`, `tb probe` and `tb status` use them with no option;
//! a run killed with SIGKILL and resumed makes byte-identical files.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::common::engine::{Engine, GUARD};
use crate::common::game_tables;
use crate::compact::{compare_all, compressed_with_draws};

const MORRIS: &str = env!("CARGO_BIN_EXE_morris");

/// `morris args` with `home` as the only home: no table folder but its
/// default one, no tables built automatically.
fn in_home(home: &Path, args: &[&str]) -> Command {
    let mut c = Command::new(MORRIS);
    c.args(args)
        .env("HOME", home)
        .env_remove("MORRIS_TB_DIR")
        .env_remove("XDG_CACHE_HOME")
        .env("MORRIS_TB_AUTO", "0");
    c
}

fn run(home: &Path, args: &[&str]) -> Output {
    let o = in_home(home, args).output().unwrap();
    assert!(
        o.status.success(),
        "morris {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

fn fresh(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every file under `dir`, by its path inside it, with its bytes.
fn files(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else {
                out.insert(
                    p.strip_prefix(dir).unwrap().to_path_buf(),
                    std::fs::read(&p).unwrap(),
                );
            }
        }
    }
    out
}

const PUBLISHED: [&str; 6] = [
    "--option",
    "Pieces=4",
    "--option",
    "EndgameMoves=0",
    "--option",
    "NoCaptureMoves=0",
];

#[test]
fn one_command_from_an_empty_home_and_every_front_end_reads_it() {
    let home = fresh("solution-home");
    let cache = home.join(".cache/morris/tb");
    let mut args = vec!["tb", "generate", "--compact", "--threads", "2"];
    args.extend(PUBLISHED);
    let o = run(&home, &args);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("compact solution: 18 tables"), "{out}");
    let made = files(&cache);
    assert!(
        made.keys()
            .all(|p| p.extension().is_some_and(|e| e == "mtc")),
        "only compact tables are kept: {:?}",
        made.keys().collect::<Vec<_>>()
    );
    assert_eq!(made.len(), 18);
    // Every position's value, against the full tables with distances.
    let rules = game_tables::reduced(4);
    let full = game_tables::made("solution-4-full", &rules);
    let (all, decided) = compare_all(&rules, &full, &cache, 1);
    assert!(all > 5_000_000 && decided > all / 100, "{decided} of {all}");
    // Run again: nothing to do.
    let o = run(&home, &args);
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("already whole"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    let mut status = vec!["tb", "status"];
    status.extend(PUBLISHED);
    let o = run(&home, &status);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("compact solution: whole, 18 tables"),
        "{text}"
    );
    // solve and tb probe with no folder named: the same values as the full
    // tables give, position after position of a game.
    let fens = [
        "3/3/3/6/3/3/3 w 4 4 0 1",
        "1W1/3/3/6/3/3/1B1 w 3 3 0 3",
        "WW1/3/3/6/3/3/BB1 w 2 2 0 5",
        "WW1/3/B1B/1W3W/3/1B1/3 w 0 0 0 20",
    ];
    let value = |o: &Output| {
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        let line = text
            .lines()
            .find(|l| l.starts_with("value") || l.contains(": "))
            .unwrap_or_default()
            .to_string();
        ["win", "draw", "loss"]
            .into_iter()
            .find(|v| line.contains(v))
            .unwrap_or_else(|| panic!("no value in {text}"))
    };
    for fen in fens {
        let mut solve = vec!["solve", "--fen", fen];
        solve.extend(PUBLISHED);
        let from_compact = value(&run(&home, &solve));
        solve.extend(["--dir", full.to_str().unwrap()]);
        assert_eq!(from_compact, value(&run(&home, &solve)), "{fen}");
        let mut probe = vec!["tb", "probe"];
        probe.extend(PUBLISHED);
        probe.push(fen);
        assert_eq!(from_compact, value(&run(&home, &probe)), "{fen}");
    }
    // The engine says what it plays from, and plays a value-keeping move.
    let mut engine = Engine::start_with_env(
        &[],
        &[
            ("MORRIS_TB_DIR", cache.to_str().unwrap()),
            ("MORRIS_TB_AUTO", "0"),
        ],
    );
    for (name, value) in [
        ("Pieces", "4"),
        ("EndgameMoves", "0"),
        ("NoCaptureMoves", "0"),
    ] {
        engine.send(&format!("setoption name {name} value {value}"));
    }
    let said = engine.sync();
    assert!(
        said.iter()
            .any(|l| l.starts_with("info string tablebase: compact solution")
                && l.contains("18 tables")),
        "{said:?}"
    );
    engine.send("position fen WW1/3/B1B/1W3W/3/1B1/3 w 0 0 0 20");
    engine.send("go depth 3");
    let (best, _) = engine.bestmove();
    assert_eq!(best, "g4-g7xc5", "{:?}", engine.transcript);
}

/// Under move-count draws the one command's files are those `tb
/// compress` makes from the full tables with distances, but for the
/// placement tables' header totals (without distances), and no full
/// table is left.
#[test]
fn under_move_count_draws_it_makes_the_compress_files() {
    let (_, _, compressed, _) = compressed_with_draws("solution-4-draws");
    let root = fresh("solution-4-draws-one");
    let o = Command::new(MORRIS)
        .args(["tb", "generate", "--compact", "--threads", "2"])
        .args(["--option", "Pieces=4", "--option", "NoCaptureMoves=20"])
        .args(["--dir", root.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (want, made) = (files(&compressed), files(&root));
    assert_eq!(
        want.keys().collect::<Vec<_>>(),
        made.keys().collect::<Vec<_>>()
    );
    const HEADER: usize = 256;
    for (path, bytes) in &want {
        assert_eq!(bytes[HEADER..], made[path][HEADER..], "{}", path.display());
    }
}

/// Runs the one command on Pieces=5 into `root`, killed with SIGKILL
/// after `kill_after` lines of progress (or after `kill_at` of running,
/// whichever comes first); whether it finished.
fn run_killed(root: &Path, kill_after: Option<usize>, kill_at: Duration) -> bool {
    let mut child = Command::new(MORRIS)
        .args(["tb", "generate", "--compact", "--threads", "2"])
        .args(["--option", "Pieces=5"])
        .args(["--option", "EndgameMoves=0", "--option", "NoCaptureMoves=0"])
        .args(["--dir", root.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let start = Instant::now();
    let mut lines = 0;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.success();
        }
        if kill_after.is_some_and(|n| lines >= n) || start.elapsed() >= kill_at {
            child.kill().unwrap(); // SIGKILL
            child.wait().unwrap();
            return false;
        }
        assert!(start.elapsed() < GUARD * 5, "the run hangs");
        if rx.recv_timeout(Duration::from_millis(5)).is_ok() {
            lines += 1;
        }
    }
}

#[test]
fn killed_with_sigkill_it_resumes_to_byte_identical_files() {
    let whole = fresh("solution-5-whole");
    assert!(run_killed(&whole, None, GUARD * 5));
    let killed = fresh("solution-5-killed");
    // Killed after a few tables, then in the middle of a pass, then in
    // the placement phase, then let finish.
    assert!(!run_killed(&killed, Some(4), GUARD * 5));
    assert!(!run_killed(&killed, None, Duration::from_millis(700)));
    assert!(!run_killed(&killed, Some(20), GUARD * 5));
    assert!(run_killed(&killed, None, GUARD * 5));
    let (want, made) = (files(&whole), files(&killed));
    assert_eq!(want.len(), 40);
    assert_eq!(
        want.keys().collect::<Vec<_>>(),
        made.keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &want {
        assert!(*bytes == made[path], "{} differs", path.display());
    }
}
