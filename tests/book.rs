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
use morris::search::ExactKnowledge;
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
    let books = Books::from(Book::read(book_file()).unwrap());
    let mut with_book = game_tables::Player::new(ExactKnowledge {
        tables: None,
        books: Some(&books),
    });
    let mut plain = game_tables::Player::plain();
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

/// The built-in book serving the `nine` preset under `settings`.
fn builtin_for(settings: &[&str]) -> (morris::rules::Rules, &'static Book) {
    let rules = morris::rules::Rules::with_settings("nine", settings).unwrap();
    let book = morris::tablebase::book::builtin()
        .serving(&rules)
        .unwrap_or_else(|| panic!("no built-in book for nine {settings:?}"));
    (rules, book)
}

/// The default rules' book against the published rules' one, position by
/// position (same sectors, same slots): a move-count draw only ends games
/// early in a draw, so a draw stays a draw and a win or a loss under the
/// limits is the same without them.
#[test]
fn the_default_rules_book_only_turns_wins_and_losses_into_draws() {
    let (_, limited) = builtin_for(&[]);
    let (_, published) = builtin_for(&["EndgameMoves=0", "NoCaptureMoves=0"]);
    assert_ne!(limited.rules(), published.rules());
    assert_eq!(limited.plies(), published.plies());
    assert_eq!(limited.len(), published.len());
    let at = |v: Value| {
        [Value::Win, Value::Draw, Value::Loss]
            .iter()
            .position(|&w| w == v)
            .unwrap()
    };
    // [published][limited]
    let mut counts = [[0u64; 3]; 3];
    let mut compared = 0;
    for (p, l) in published.entries().zip(limited.entries()) {
        assert_eq!((p.sector, p.slot), (l.sector, l.slot));
        counts[at(p.value)][at(l.value)] += 1;
        compared += 1;
    }
    let (win, draw, loss) = (0, 1, 2);
    eprintln!(
        "{compared} positions: {} wins and {} losses become draws under the limits; \
         kept: {} wins, {} draws, {} losses",
        counts[win][draw],
        counts[loss][draw],
        counts[win][win],
        counts[draw][draw],
        counts[loss][loss]
    );
    // Every canonical position of each, in the same order.
    assert_eq!(compared, limited.entries().count() as u64);
    assert_eq!(compared, published.entries().count() as u64);
    assert!(compared * 10 > published.len() * 8, "{compared}");
    let impossible = counts[draw][win] + counts[draw][loss] + counts[win][loss] + counts[loss][win];
    assert_eq!(impossible, 0, "{counts:?}");
}

/// A fresh engine under the default rules, with no tables, says once that
/// it plays from its built-in book and keeps the value for the book's
/// plies.
#[test]
fn a_fresh_engine_plays_the_default_rules_opening_by_its_book() {
    let (rules, book) = builtin_for(&[]);
    let mut e = engine::Engine::start();
    e.send("uci");
    e.read_until(|l| l == "uciok");
    let mut game = Game::new(rules, Position::start(&rules));
    let mut played: Vec<String> = Vec::new();
    let mut notes = Vec::new();
    for _ in 0..book.plies() {
        if played.is_empty() {
            e.send("position startpos");
        } else {
            e.send(&format!("position startpos moves {}", played.join(" ")));
        }
        e.send("go depth 3");
        let (mv, lines) = e.bestmove();
        notes.extend(
            lines
                .into_iter()
                .filter(|l| l.starts_with("info string book: playing from the opening book")),
        );
        let pos = *game.position();
        let before = book.probe(&pos, &rules).expect("in the book").value;
        let m = pos.parse_move(&rules, &mv).unwrap();
        let moves = book.moves(&pos, &rules).expect("in the book");
        let after = moves.iter().find(|x| x.mv == m).unwrap().probe.value;
        assert_eq!(after, before, "{mv} from {}", pos.to_fen(&rules));
        game.play(m);
        played.push(mv);
    }
    let want = format!(
        "(built in, {} positions within {} plies, for rules {}): ",
        book.len(),
        book.plies(),
        book.rules()
    );
    assert_eq!(notes.len(), 1, "{notes:?}");
    assert!(notes[0].contains(&want), "{notes:?}");
}

/// With no tables at all, `morris solve` with no options answers the start
/// and every first placement under the default rules from the book, and
/// `tb probe` any position within its plies (at the last one its value
/// alone: its moves lead past the book); past them it says what is
/// missing.
#[test]
fn with_no_tables_solve_and_probe_answer_the_default_opening_from_the_book() {
    let (rules, book) = builtin_for(&[]);
    let run = |args: &[&str]| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_morris"));
        engine::isolate(&mut command);
        let out = command.args(args).output().expect("run morris");
        let text = String::from_utf8(out.stdout).unwrap();
        (out.status.success(), text)
    };
    let start = Position::start(&rules);
    let (ok, text) = run(&["solve"]);
    assert!(ok, "{text}");
    let value = book.probe(&start, &rules).unwrap();
    assert!(text.contains(&format!("value {value} (book)\n")), "{text}");
    let first = book.moves(&start, &rules).unwrap();
    assert_eq!(first.len(), 24);
    for m in &first {
        let line = text
            .lines()
            .find(|l| l.split_whitespace().next() == Some(&m.mv.to_string()))
            .unwrap_or_else(|| panic!("{} missing in {text}", m.mv));
        assert!(line.contains(&m.probe.to_string()), "{line}");
        let after = start.make(&rules, m.mv);
        let (ok, text) = run(&["solve", "--moves", &m.mv.to_string()]);
        assert!(ok, "{text}");
        let value = book.probe(&after, &rules).unwrap();
        assert!(text.contains(&format!("value {value} (book)\n")), "{text}");
    }
    // One line of play to the book's edge and one ply past it.
    let mut pos = start;
    let mut list = MoveList::new();
    for ply in 0..=book.plies() + 1 {
        let fen = pos.to_fen(&rules);
        let (ok, text) = run(&["tb", "probe", &fen]);
        if ply <= book.plies() {
            assert!(ok, "{fen}: {text}");
            let value = book.probe(&pos, &rules).unwrap();
            assert!(
                text.starts_with(&format!("value: {value} (book)\n")),
                "{fen}: {text}"
            );
            // Each move's value too, but at the last ply, whose moves
            // lead past the book.
            let moves = book.moves(&pos, &rules).unwrap_or_default();
            assert_eq!(moves.is_empty(), ply == book.plies(), "{fen}");
            assert_eq!(text.lines().count(), 1 + moves.len(), "{fen}: {text}");
            for m in &moves {
                let line = format!("{:<12} {}", m.mv.to_string(), m.probe);
                assert!(text.lines().any(|l| l == line), "{line} in {text}");
            }
        } else {
            assert!(!ok, "{fen}: {text}");
        }
        pos.legal_moves(&rules, &mut list);
        pos = pos.make(&rules, list.as_slice()[(7 * ply as usize) % list.len()]);
    }
}
