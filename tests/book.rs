//! Opening books cut from the tables: a book agrees with the tables on
//! every position it holds, holds every position within its plies, and
//! the engine with only the book never lowers the value in those plies; a
//! bad book file is reported and ignored.

use crate::common::engine;
use crate::common::game_tables;

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::OnceLock;

use morris::rules::{Color, Game, MoveList, Position};
use morris::search::{Searcher, Settings};
use morris::tablebase::MoveProbe;
use morris::tablebase::Tablebases;
use morris::tablebase::book::{Book, BookError, Books};
use morris::tablebase::{Probe, Value, placement};

/// Fewer plies than the placement phase lasts, so the book's edge is tried.
const PLIES: u32 = 4;

/// Pieces=3 tables, made once.
fn tables() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| game_tables::made("tb-book", &game_tables::reduced(3)))
}

/// The book of the first `PLIES` plies, written and read back.
fn book_file() -> &'static PathBuf {
    static FILE: OnceLock<PathBuf> = OnceLock::new();
    FILE.get_or_init(|| {
        let rules = game_tables::reduced(3);
        let tbs = Tablebases::open(tables(), &rules);
        let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("pieces3.book");
        Book::build(&tbs, &rules, PLIES)
            .unwrap()
            .write(&path)
            .unwrap();
        path
    })
}

#[test]
fn the_book_agrees_with_the_tables_on_every_position_within_its_plies() {
    let rules = game_tables::reduced(3);
    let tbs = Tablebases::open(tables(), &rules);
    let book = Book::read(book_file()).unwrap();
    assert!(book.serves(&rules));
    assert!(!book.serves(&game_tables::reduced(4)));
    assert_eq!(book.plies(), PLIES);
    let value = |p: Option<Probe>| p.map(|p| p.value);
    let mut seen = HashSet::new();
    let mut level = vec![Position::start(&rules)];
    let mut list = MoveList::new();
    for ply in 0..=PLIES + 1 {
        let mut next = Vec::new();
        for pos in level {
            if pos.outcome_without_history(&rules, true).is_some() || !seen.insert(pos.hash()) {
                continue;
            }
            let fen = pos.to_fen(&rules);
            if ply > PLIES {
                // Past its plies the book knows nothing.
                assert_eq!(book.probe(&pos, &rules), None, "{fen}");
                continue;
            }
            // Win, draw or loss, as the tables say; a win or loss without distance.
            let probe = book.probe(&pos, &rules).expect("held");
            assert_eq!(Some(probe.value), value(tbs.probe(&pos)), "{fen}");
            assert!(probe.value == Value::Draw || probe.distance().is_none());
            if ply < PLIES {
                let moves =
                    |m: Vec<MoveProbe>| m.iter().map(|m| (m.mv, m.probe.value)).collect::<Vec<_>>();
                assert_eq!(
                    book.moves(&pos, &rules).map(moves),
                    tbs.moves(&pos).map(moves),
                    "{fen}"
                );
            }
            pos.legal_moves(&rules, &mut list);
            next.extend(list.iter().map(|&mv| pos.make(&rules, mv)));
        }
        level = next;
    }
    assert!(seen.len() > 100, "{}", seen.len());
    // Whole sectors: every slot of those the plies reach.
    let slots: u64 = placement::plan(&rules)
        .sectors()
        .filter(|s| (s.mine_hand + s.theirs_hand) as u32 + PLIES >= 6)
        .map(placement::slots)
        .sum();
    assert_eq!(book.len(), slots);
}

#[test]
fn the_engine_with_only_the_book_keeps_the_value() {
    let rules = game_tables::reduced(3);
    let tbs = Tablebases::open(tables(), &rules);
    let mut with_book = Searcher::new(Settings::default());
    with_book.set_books(Books::from(Book::read(book_file()).unwrap()));
    let mut plain = Searcher::new(Settings::default());
    let start = Game::new(rules, Position::start(&rules));
    let mut checked = 0;
    for side in Color::BOTH {
        for depth in [1, 3] {
            let (_, n) = game_tables::play_checked(
                &tbs,
                &mut with_book,
                &mut plain,
                start.clone(),
                side,
                PLIES as usize,
                depth,
            );
            checked += n;
        }
    }
    assert!(checked >= 2 * PLIES as usize, "{checked}");
}

#[test]
fn a_damaged_book_is_refused_and_the_engine_plays_on() {
    let mut bytes = std::fs::read(book_file()).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x10;
    let bad = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("damaged.book");
    std::fs::write(&bad, &bytes).unwrap();
    assert!(matches!(Book::read(&bad), Err(BookError::Checksum(_))));

    let mut e = engine::Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    e.send(&format!("setoption name BookPath value {}", bad.display()));
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: book: ") && l.contains("checksum")),
        "{lines:?}"
    );
    e.send("setoption name BookPath value /no/such/book");
    e.send("position startpos");
    e.send("go depth 2");
    let (mv, lines) = e.bestmove();
    assert_ne!(mv, "(none)");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error: book: /no/such/book")),
        "{lines:?}"
    );
    // A good book loads and says what it holds.
    e.send(&format!(
        "setoption name BookPath value {}",
        book_file().display()
    ));
    let lines = e.sync();
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string book: ") && l.contains("Pieces=3")),
        "{lines:?}"
    );
    // Under its rules, with no tables, the first search it guides says so,
    // and only the first.
    for setting in [
        "TablebasePath value <empty>",
        "TablebaseAuto value 0",
        "Pieces value 3",
        "EndgameMoves value 0",
        "NoCaptureMoves value 0",
    ] {
        e.send(&format!("setoption name {setting}"));
    }
    e.send("position startpos");
    let notes = |lines: &[String]| {
        lines
            .iter()
            .filter(|l| l.starts_with("info string book: playing from the opening book"))
            .count()
    };
    e.send("go depth 2");
    let (_, lines) = e.bestmove();
    assert_eq!(notes(&lines), 1, "{lines:?}");
    e.send("position startpos moves d2");
    e.send("go depth 2");
    let (_, lines) = e.bestmove();
    assert_eq!(notes(&lines), 0, "{lines:?}");
}

/// `uci` names each built-in book with its rules, and a book's entries are
/// its positions with the values probing them gives.
#[test]
fn the_built_in_books_are_listed_and_their_entries_probe_as_stored() {
    use morris::rules::Rules;
    use morris::tablebase::{Indexer, sector_position};

    let mut e = engine::Engine::start();
    e.send("uci");
    let lines = e.read_until(|l| l == "uciok");
    for book in morris::tablebase::book::builtin().iter() {
        let want = format!("for rules {}", book.rules());
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string book: built in, ") && l.ends_with(&want)),
            "{want}: {lines:?}"
        );
        let words: Vec<&str> = book.rules().split(' ').collect();
        let variant = words[0]
            .strip_prefix("Variant=")
            .expect("the variant first");
        let rules = Rules::with_settings(variant, &words[1..]).unwrap();
        assert!(book.serves(&rules));
        let mut held = 0;
        for entry in book.entries().step_by(997) {
            let ix = Indexer::new(entry.sector.mine as usize, entry.sector.theirs as usize);
            let (mine, theirs) = ix.position(entry.slot);
            let pos = sector_position(entry.sector, mine, theirs);
            assert_eq!(book.probe_table(&pos).map(|p| p.value), Some(entry.value));
            held += 1;
        }
        assert!(held * 997 > book.len() / 20 && held * 997 <= book.len() + 997);
    }
}
