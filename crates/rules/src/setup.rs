//! How a game is set up: a start (the rules' start position or a position
//! string), then moves played from it. One reader and one writer for the
//! text every tool takes: `startpos`, `fen <FEN>` or a bare FEN, then
//! `moves m1 m2 ...`, or just a move list from the start.

use std::fmt;

use super::fen::FenError;
use super::game::Game;
use super::notation::MoveError;
use super::options::Rules;
use super::position::Position;

/// Where a game starts.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub enum Start {
    /// The start position of the rules in force.
    #[default]
    Initial,
    /// A position string, checked only when the game is built.
    Fen(String),
}

/// A start and the moves played from it, as text: the rules decide
/// whether they are legal (see [`Setup::game`]).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Setup {
    /// Where the game starts.
    pub start: Start,
    /// The move tokens played from the start, in order, as written.
    pub moves: Vec<String>,
}

/// A set-up that cannot be read or played.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SetupError {
    /// The text does not have the set-up's shape.
    #[error("{0}")]
    Syntax(String),
    /// The start's position string cannot be read or describes no position.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// Move `index` (0-based) of the list cannot be played.
    #[error("{error}")]
    Move {
        /// The move's place in the list, from 0.
        index: usize,
        /// Why it cannot be played.
        error: MoveError,
    },
}

fn is_keyword(word: &str, keyword: &str) -> bool {
    word.eq_ignore_ascii_case(keyword)
}

impl Setup {
    /// A start and moves, as given.
    pub fn new(start: Start, moves: Vec<String>) -> Setup {
        Setup { start, moves }
    }

    /// Reads `[startpos | fen FEN | FEN] [moves] m1 m2 ...` (keywords in any
    /// case). A bare FEN is told apart from moves by its `/`; after a start,
    /// moves follow the keyword `moves`.
    pub fn parse(text: &str) -> Result<Setup, SetupError> {
        let words: Vec<&str> = text.split_ascii_whitespace().collect();
        let moves_at = words.iter().position(|w| is_keyword(w, "moves"));
        let head = &words[..moves_at.unwrap_or(words.len())];
        let tail = moves_at.map_or(&[][..], |i| &words[i + 1..]);
        let start = match head {
            [] => Start::Initial,
            [w] if is_keyword(w, "startpos") => Start::Initial,
            [w, fen @ ..] if is_keyword(w, "fen") => {
                if fen.is_empty() {
                    return Err(SetupError::Syntax("'fen' needs a position string".into()));
                }
                Start::Fen(fen.join(" "))
            }
            [w, rest @ ..] if is_keyword(w, "startpos") => {
                return Err(SetupError::Syntax(format!(
                    "expected 'moves' after 'startpos', got '{}'",
                    rest.join(" ")
                )));
            }
            fen if fen[0].contains('/') => Start::Fen(fen.join(" ")),
            // No start: a move list from the start position.
            moves if moves_at.is_none() => {
                return Ok(Setup::new(Start::Initial, to_strings(moves)));
            }
            other => {
                return Err(SetupError::Syntax(format!(
                    "expected startpos, fen <FEN> or a position string before 'moves', got '{}'",
                    other.join(" ")
                )));
            }
        };
        Ok(Setup::new(start, to_strings(tail)))
    }

    /// The start position under `rules`.
    pub fn start_position(&self, rules: &Rules) -> Result<Position, FenError> {
        match &self.start {
            Start::Initial => Ok(Position::start(rules)),
            Start::Fen(fen) => Position::from_fen(fen, rules),
        }
    }

    /// The game under `rules`: the start, then every move checked by the
    /// rules core.
    pub fn game(&self, rules: &Rules) -> Result<Game, SetupError> {
        let mut game = Game::new(*rules, self.start_position(rules)?);
        for (index, token) in self.moves.iter().enumerate() {
            game.play_text(token)
                .map_err(|error| SetupError::Move { index, error })?;
        }
        Ok(game)
    }

    /// The set-up of a game so far: its start (as a position string unless
    /// it is the rules' start) and its moves.
    pub fn of_game(game: &Game) -> Setup {
        let rules = game.rules();
        let start = if *game.start() == Position::start(rules) {
            Start::Initial
        } else {
            Start::Fen(game.start().to_fen(rules))
        };
        Setup::new(start, game.moves().iter().map(|m| m.to_string()).collect())
    }
}

fn to_strings(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// The line form, which [`Setup::parse`] reads back: `FEN moves m1 m2`,
/// `FEN`, or the bare move list `m1 m2` from the start.
impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.start {
            Start::Fen(fen) if self.moves.is_empty() => f.write_str(fen),
            Start::Fen(fen) => write!(f, "{fen} moves {}", self.moves.join(" ")),
            Start::Initial => f.write_str(&self.moves.join(" ")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::START_FEN;

    #[test]
    fn reads_every_form() {
        let moves = |m: &[&str]| m.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(Setup::parse("").unwrap(), Setup::default());
        assert_eq!(Setup::parse("startpos").unwrap(), Setup::default());
        assert_eq!(
            Setup::parse("StartPos MOVES d2 f4").unwrap(),
            Setup::new(Start::Initial, moves(&["d2", "f4"]))
        );
        assert_eq!(
            Setup::parse("d2  f4").unwrap(),
            Setup::new(Start::Initial, moves(&["d2", "f4"]))
        );
        let fen = Setup::new(Start::Fen(START_FEN.into()), moves(&["d2"]));
        assert_eq!(
            Setup::parse(&format!("fen {START_FEN} moves d2")).unwrap(),
            fen
        );
        assert_eq!(Setup::parse(&format!("{START_FEN} moves d2")).unwrap(), fen);
        for bad in ["startpos d2", "fen", "fen moves d2", "d2 moves f4"] {
            assert!(
                matches!(Setup::parse(bad), Err(SetupError::Syntax(_))),
                "{bad}"
            );
        }
    }

    #[test]
    fn writes_what_it_reads_and_names_the_bad_move() {
        let rules = Rules::default();
        for text in ["", "d2 f4 b4", START_FEN, &format!("{START_FEN} moves d2")] {
            let setup = Setup::parse(text).unwrap();
            assert_eq!(setup.to_string(), text);
            let game = setup.game(&rules).unwrap();
            assert_eq!(
                Setup::of_game(&game).game(&rules).unwrap().moves(),
                game.moves()
            );
        }
        let err = Setup::parse("d2 d2").unwrap().game(&rules).unwrap_err();
        assert!(matches!(err, SetupError::Move { index: 1, .. }), "{err:?}");
        assert!(err.to_string().starts_with("move 'd2'"), "{err}");
        let err = Setup::parse("fen 3/3 w").unwrap().game(&rules).unwrap_err();
        assert!(matches!(err, SetupError::Fen(_)));
    }
}
