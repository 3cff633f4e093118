//! Complete tables (placement and movement) of a reduced game, made once
//! per test file, and games in which one side plays with exact values.

#![allow(dead_code)]

use std::path::PathBuf;

use morris::rules::{Color, Game, Move, Rules};
use morris::search::{Control, ExactKnowledge, Limits, SearchOutcome, Searcher, Settings};
use morris::tablebase::{GenerateOptions, Phase, Tablebases, generate_game};

/// The standard board with `pieces` stones a side and no move-count draws
/// (the rules the published solutions assume).
pub fn reduced(pieces: u8) -> Rules {
    Rules::with_settings(
        "nine",
        &[
            format!("Pieces={pieces}"),
            "EndgameMoves=0".to_string(),
            "NoCaptureMoves=0".to_string(),
        ],
    )
    .unwrap()
}

/// A new folder `name` with every table the game under `rules` needs.
pub fn made(name: &str, rules: &Rules) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    let options = GenerateOptions {
        threads: 2,
        wdl: false,
        ..GenerateOptions::default()
    };
    generate_game(&dir, rules, Phase::All, &options).unwrap();
    dir
}

/// A test's player: a searcher with the default settings and what it
/// knows exactly (tables, books), lent to each of its searches.
pub struct Player<'a> {
    pub searcher: Searcher,
    pub exact: ExactKnowledge<'a>,
}

impl<'a> Player<'a> {
    pub fn new(exact: ExactKnowledge<'a>) -> Player<'a> {
        Player {
            searcher: Searcher::new(Settings::default()),
            exact,
        }
    }

    /// A player with `tables` and no book.
    pub fn with_tables(tables: &'a Tablebases) -> Player<'a> {
        Player::new(ExactKnowledge {
            tables: Some(tables),
            books: None,
        })
    }

    /// The search alone.
    pub fn plain() -> Player<'static> {
        Player::new(ExactKnowledge::NONE)
    }

    pub fn search(&mut self, game: &Game, limits: &Limits) -> SearchOutcome {
        self.searcher
            .search(game, self.exact, limits, &Control::default(), &mut |_| {})
    }

    /// The search's move at `depth`.
    pub fn best(&mut self, game: &Game, depth: u32) -> Move {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        self.search(game, &limits).best.expect("a legal move")
    }
}

/// Plays `game` on, `exact` moving for `side` and `other` for the other
/// side, for at most `plies` plies or to the end; checks by the tables that
/// every move of `exact` keeps the value of the position it moved from.
/// Returns the game and the number of `exact`'s moves checked.
pub fn play_checked(
    tables: &Tablebases,
    exact: &mut Player,
    other: &mut Player,
    mut game: Game,
    side: Color,
    plies: usize,
    depth: u32,
) -> (Game, usize) {
    let rules = *game.rules();
    let mut checked = 0;
    for _ in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        let pos = *game.position();
        let mine = pos.side_to_move() == side;
        let mv = if mine {
            exact.best(&game, depth)
        } else {
            other.best(&game, depth)
        };
        if mine {
            let before = tables.probe(&pos).expect("covered").value;
            let moves = tables.moves(&pos).expect("covered");
            let after = moves.iter().find(|m| m.mv == mv).unwrap().probe.value;
            assert!(
                after == before,
                "{} lowered {before:?} to {after:?} by {mv}",
                pos.to_fen(&rules)
            );
            checked += 1;
        }
        game.play(mv);
    }
    (game, checked)
}

/// The engine with `tables` (a won start of `rules`) plays White from the
/// start against one without tables, every move checked by the tables;
/// asserts that White wins. Returns the start, the moves checked and the
/// two engines (with tables, without).
pub fn wins_the_won_start(
    tables: &Tablebases,
    rules: Rules,
) -> (Game, usize, Player<'_>, Player<'static>) {
    use morris::rules::{GameResult, Position};
    use morris::tablebase::Value;
    let mut exact = Player::with_tables(tables);
    let mut plain = Player::plain();
    let start = Game::new(rules, Position::start(&rules));
    assert_eq!(tables.probe(start.position()).unwrap().value, Value::Win);
    let (end, checked) = play_checked(
        tables,
        &mut exact,
        &mut plain,
        start.clone(),
        Color::White,
        200,
        3,
    );
    let outcome = end.outcome().expect("a won game ends");
    assert_eq!(
        outcome.result,
        GameResult::Win(Color::White),
        "{:?}",
        end.moves()
    );
    (start, checked, exact, plain)
}
