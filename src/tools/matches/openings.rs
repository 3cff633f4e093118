//! Match openings: the built-in set, a file of one opening per line, or the
//! first moves of the games in a record.

use std::fmt;
use std::path::Path;

use crate::rules::{Game, Rules, Setup, SetupError, Start};
use crate::tools::input::{EntryError, InputError};
use crate::tools::records::read::{is_record, parse_records};

/// A start for a game: a set-up that the rules accept and that leaves the
/// game open.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Opening(pub Setup);

/// Two placements each, no two pieces of one colour on a line they could
/// complete next move: no side starts with a mill threat. Placement-only
/// and millless, so legal under every preset and option.
const BUILTIN: [&str; 20] = [
    "d2 d6 b4 f4",
    "d2 b4 f4 d6",
    "d6 d2 b4 f4",
    "a7 g1 d2 d6",
    "c4 e4 d5 d3",
    "b6 f2 d1 d7",
    "d2 f4 d6 b4",
    "e4 c4 d5 d3",
    "a4 g4 d7 d1",
    "c5 e3 f4 b4",
    "d6 f4 b4 d2",
    "b4 d2 f4 d6",
    "d5 d3 c4 e4",
    "f6 b2 d1 d7",
    "g7 a1 d2 d6",
    "d2 d3 d6 d5",
    "b4 c4 f4 e4",
    "d2 b6 f6 d7",
    "e4 b4 c4 f4",
    "d3 d5 b4 f4",
];

impl Opening {
    /// The built-in openings.
    pub fn builtin() -> Vec<Opening> {
        BUILTIN
            .iter()
            .map(|line| Opening::parse_line(line).expect("built-in openings parse"))
            .collect()
    }

    /// Reads one line: a position string, a move list, or a position
    /// string followed by `moves` and a move list.
    pub fn parse_line(line: &str) -> Result<Opening, SetupError> {
        Setup::parse(line).map(Opening)
    }

    /// The opening played out under `rules`; fails when the position or a
    /// move is not legal there, or the game is already over.
    pub fn game(&self, rules: &Rules) -> Result<Game, EntryError> {
        let game = self.0.game(rules)?;
        match game.outcome() {
            Some(outcome) => Err(EntryError::Over(outcome)),
            None => Ok(game),
        }
    }
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// Reads openings from `path`: a game record (each game's start and first
/// `record_plies` moves) or one opening per line (`#` starts a comment).
/// Each is checked under `rules`; errors name the line.
pub fn load_openings(
    path: &Path,
    rules: &Rules,
    record_plies: usize,
) -> Result<Vec<Opening>, InputError> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| InputError::Read {
        name: name.clone(),
        source,
    })?;
    let mut openings = Vec::new();
    if is_record(&text) {
        let records = parse_records(&text).map_err(|source| InputError::Record {
            name: name.clone(),
            source,
        })?;
        for rec in records {
            let start = rec
                .tag("FEN")
                .map_or(Start::Initial, |f| Start::Fen(f.to_string()));
            let moves = rec.moves.iter().take(record_plies);
            let opening = Opening(Setup::new(start, moves.map(|m| m.text.clone()).collect()));
            opening.game(rules).map_err(|source| InputError::Game {
                name: name.clone(),
                line: rec.line,
                source,
            })?;
            openings.push(opening);
        }
    } else {
        for (i, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let opening = Opening::parse_line(line)
                .map_err(EntryError::from)
                .and_then(|o| o.game(rules).map(|_| o))
                .map_err(|source| InputError::Line {
                    name: name.clone(),
                    line: i + 1,
                    source,
                })?;
            openings.push(opening);
        }
    }
    if openings.is_empty() {
        return Err(InputError::Empty {
            name,
            what: "openings",
        });
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{MoveList, Position, Variant};

    fn mill_in_one(rules: &Rules, pos: &Position) -> bool {
        let mut list = MoveList::new();
        pos.legal_moves(rules, &mut list);
        list.iter().any(|m| m.num_removals() > 0)
    }

    #[test]
    fn builtin_openings_are_legal_and_quiet() {
        for variant in Variant::PRESETS {
            let rules = Rules::preset(variant);
            for o in Opening::builtin() {
                let game = o.game(&rules).unwrap();
                if variant == Variant::Nine {
                    let pos = game.position();
                    assert!(!mill_in_one(&rules, pos), "{o}: side to move threatens");
                    assert!(
                        !mill_in_one(&rules, &pos.pass()),
                        "{o}: other side threatens"
                    );
                }
            }
        }
    }

    #[test]
    fn parses_fen_and_move_lines() {
        let o = Opening::parse_line("3/3/3/6/3/3/3 w 9 9 0 1 moves d2 f4").unwrap();
        assert_eq!(o.0.moves, ["d2", "f4"]);
        assert_eq!(o.to_string(), "3/3/3/6/3/3/3 w 9 9 0 1 moves d2 f4");
        let rules = Rules::default();
        assert!(o.game(&rules).is_ok());
        assert!(Opening::parse_line("d2 d2").unwrap().game(&rules).is_err());
    }
}
