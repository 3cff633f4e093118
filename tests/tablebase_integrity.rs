//! Tables that cannot lie: a table file with a flipped byte, cut short,
//! holding another subspace, made for other rules or of another format
//! version is never used; it is reported once, and the search goes on
//! without it (and `TablebaseAuto` rebuilds it).

use crate::common::engine;
use crate::common::tables;

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use morris::rules::{Bitboard, Color, Game, Position, RuleOptions, Rules, Square};
use morris::search::{Control, ExactKnowledge, Limits, Searcher, Settings};
use morris::tablebase::{Fingerprint, HEADER_LEN, Subspace, Tablebases, table_path};

/// The 3-3, 4-3 and 3-4 tables of the standard rules, and the 3-3 table of
/// the rules with diagonals, made once.
fn base() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        tables::made(
            "tb-integrity-base",
            &[
                (Rules::default(), Subspace::new(3, 4)),
                (diagonals(), Subspace::new(3, 3)),
            ],
        )
    })
}

fn diagonals() -> Rules {
    Rules::new(RuleOptions {
        diagonals: true,
        ..*Rules::default()
    })
}

/// The standard rules' folder under `root`.
fn rules_dir(root: &Path, rules: &Rules) -> PathBuf {
    root.join(Fingerprint::of(rules).dir_name())
}

/// A copy of the standard tables in a folder of its own, and the path of
/// its table of `sub`.
fn copy(case: &str, sub: Subspace) -> (PathBuf, PathBuf) {
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("tb-integrity-{case}"));
    let _ = std::fs::remove_dir_all(&root);
    let (from, to) = (
        rules_dir(base(), &Rules::default()),
        rules_dir(&root, &Rules::default()),
    );
    std::fs::create_dir_all(&to).unwrap();
    for e in std::fs::read_dir(&from).unwrap() {
        let e = e.unwrap();
        std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
    }
    let path = table_path(&to, sub);
    (root, path)
}

/// A movement-phase position, white to move, `w` stones against `b`.
fn position(w: u32, b: u32) -> Position {
    let rules = Rules::default();
    let mut pieces = [Bitboard::EMPTY; 2];
    let mut next = 0;
    for (c, count) in [(0, w), (1, b)] {
        while pieces[c].count() < count {
            // Spread over the board, away from mills.
            let sq = Square::new((next * 7) % 24).unwrap();
            next += 1;
            if !(pieces[0] | pieces[1]).contains(sq) {
                pieces[c] |= sq.bit();
            }
        }
    }
    let pos = Position::new(pieces, [0, 0], Color::White, 0, 30, [0, 0]);
    assert!(pos.count_moves(&rules) > 0);
    pos
}

type Damage = fn(&Path);

/// Every way a table file goes wrong, the table it hits, and what the
/// report says of it.
fn cases() -> Vec<(&'static str, Subspace, Damage, String)> {
    let foreign = Fingerprint::of(&diagonals()).text();
    vec![
        (
            "flipped",
            Subspace::new(3, 3),
            |p| {
                let mut bytes = std::fs::read(p).unwrap();
                let i = HEADER_LEN + (bytes.len() - HEADER_LEN) / 2;
                bytes[i] ^= 0x10;
                std::fs::write(p, bytes).unwrap();
            },
            "its values do not match its checksum".to_string(),
        ),
        (
            "sums",
            Subspace::new(4, 3),
            |p| {
                let mut bytes = std::fs::read(p).unwrap();
                *bytes.last_mut().unwrap() ^= 1;
                std::fs::write(p, bytes).unwrap();
            },
            "its values do not match its checksum".to_string(),
        ),
        (
            "truncated",
            Subspace::new(4, 3),
            |p| {
                let bytes = std::fs::read(p).unwrap();
                std::fs::write(p, &bytes[..bytes.len() - 100]).unwrap();
            },
            "truncated".to_string(),
        ),
        (
            "swapped",
            Subspace::new(4, 3),
            |p| {
                let dir = p.parent().unwrap();
                std::fs::copy(table_path(dir, Subspace::new(3, 4)), p).unwrap();
            },
            "holds subspace 3-4".to_string(),
        ),
        (
            "foreign",
            Subspace::new(3, 3),
            |p| {
                let other = rules_dir(base(), &diagonals());
                std::fs::copy(table_path(&other, Subspace::new(3, 3)), p).unwrap();
            },
            format!("made for other rules ({foreign})"),
        ),
        (
            "old-version",
            Subspace::new(3, 3),
            |p| {
                let mut bytes = std::fs::read(p).unwrap();
                bytes[8..12].copy_from_slice(&2u32.to_le_bytes());
                std::fs::write(p, bytes).unwrap();
            },
            "format version 2, expected 3".to_string(),
        ),
        (
            "empty",
            Subspace::new(3, 3),
            |p| std::fs::write(p, []).unwrap(),
            "not a morris tablebase file".to_string(),
        ),
    ]
}

#[test]
fn a_bad_table_is_never_used_and_reported_once() {
    let rules = Rules::default();
    for (case, sub, damage, problem) in cases() {
        let (root, path) = copy(case, sub);
        let good = Tablebases::open(&root, &rules);
        let pos = position(sub.mine as u32, sub.theirs as u32);
        assert!(
            good.probe(&pos).is_some(),
            "{case}: covered before the damage"
        );
        drop(good);
        damage(&path);
        let tbs = Tablebases::open(&root, &rules);
        assert_eq!(tbs.probe(&pos), None, "{case}");
        assert!(tbs.best_move(&pos).is_none(), "{case}");
        let faults = tbs.take_faults();
        assert_eq!(faults.len(), 1, "{case}: {faults:?}");
        assert_eq!(
            faults[0].to_string(),
            format!(
                "tablebase {} is damaged ({problem}); searching without it",
                path.display()
            ),
            "{case}"
        );
        // Once: asking again finds nothing new.
        assert_eq!(tbs.probe(&pos), None, "{case}");
        assert!(tbs.take_faults().is_empty(), "{case}");
        // The search goes on without it.
        let mut searcher = Searcher::new(Settings::default());
        let opened = Tablebases::open(&root, &rules);
        let exact = ExactKnowledge {
            tables: Some(&opened),
            books: None,
        };
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let game = Game::new(rules, pos);
        let found = searcher.search(&game, exact, &limits, &Control::default(), &mut |_| {});
        assert!(found.best.is_some(), "{case}");
        // The other tables still serve.
        let other = if sub == Subspace::new(3, 3) {
            position(4, 3)
        } else {
            position(3, 3)
        };
        assert!(tbs.probe(&other).is_some(), "{case}");
    }
}

/// The engine reports a damaged table once, plays on, and with
/// `TablebaseAuto` rebuilds it and uses it.
#[test]
fn the_engine_reports_a_damaged_table_once_and_rebuilds_it() {
    let rules = Rules::default();
    let (root, path) = copy("engine", Subspace::new(3, 3));
    let (_, sub, damage, problem) = cases().into_iter().next().unwrap();
    assert_eq!(sub, Subspace::new(3, 3));
    damage(&path);
    let report = format!(
        "info string error: tablebase {} is damaged ({problem}); searching without it",
        path.display()
    );
    let fen = position(3, 3).to_fen(&rules);
    let mut e = engine::Engine::start();
    e.send(&format!(
        "setoption name TablebasePath value {}",
        root.display()
    ));
    e.send(&format!("position fen {fen}"));
    let mut reports = 0;
    for _ in 0..2 {
        e.send("go depth 3");
        let (_, lines) = e.bestmove();
        reports += lines.iter().filter(|l| **l == report).count();
        let info = lines.iter().rev().find(|l| l.starts_with("info depth"));
        assert!(info.unwrap().contains(" tbhits 0 "), "{lines:?}");
    }
    assert_eq!(reports, 1, "{:?}", e.transcript);
    // Rebuilt by the automatic builder, then used.
    e.send("setoption name TablebaseAuto value 3");
    e.send("isready");
    let lines = e.read_until(|l| l.contains("are ready after"));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("1 tables, ") && l.contains("1 built here")),
        "{lines:?}"
    );
    assert!(
        Tablebases::open(&root, &rules)
            .probe(&position(3, 3))
            .is_some()
    );
    e.send("go depth 3");
    let (_, lines) = e.bestmove();
    let info = lines.iter().rev().find(|l| l.starts_with("info depth"));
    assert!(!info.unwrap().contains(" tbhits 0 "), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("is damaged")), "{lines:?}");
}
