//! Puzzles from real mistakes: the positions of games where the player to
//! move could keep a win or a draw with one move (or a few) among many,
//! and the game shows a move that threw the value away, written in the
//! other public app's (Sanmill's) puzzle JSON (its docs/PUZZLE_FORMAT.md),
//! so that they load there.

use serde_json::json;

use super::analyze::value_word;
use crate::protocol::wire::sanmill::Token;
use crate::rules::{Color, Game, Move, Position, Rules};
use crate::tablebase::{Known, Probe, Value, preference};
use crate::tools::records::sanmill_pgn as sanmill;

/// Which positions make a puzzle.
#[derive(Clone, Copy, Debug)]
pub struct Criteria {
    /// At most this many moves keep the value.
    pub max_keeping: usize,
    /// Among at least this many legal moves.
    pub min_legal: usize,
}

/// One puzzle: a position of a game, the moves that keep its value (the
/// solutions), and the move the game played instead.
pub struct Puzzle {
    /// The game it is from, as `game 2`.
    pub source: String,
    /// The ply (from 1) of the move played in the position.
    pub ply: usize,
    /// The game's rules (Sanmill's `ruleVariantId` where it has one).
    pub rules: Rules,
    /// The position to solve.
    pub position: Position,
    /// Its exact value for the side to move: the best move's (a win or a
    /// draw).
    pub value: Probe,
    /// The value-keeping moves, each with whether it is among the best.
    pub solutions: Vec<(Move, bool)>,
    /// The move the game played, which threw the value away.
    pub played: Move,
    /// What the move played led to, for the side that played it.
    pub played_value: Probe,
    /// How many legal moves the position has.
    pub legal: usize,
}

/// The puzzles of `game` (named `source`): `known` gives the exact values
/// of a position and of its moves where anything exact knows them.
pub fn find(
    game: &Game,
    source: &str,
    criteria: Criteria,
    mut known: impl FnMut(&Position, &Rules) -> Option<Known>,
) -> Vec<Puzzle> {
    let rules = *game.rules();
    let mut replay = Game::new(rules, *game.start());
    let mut puzzles = Vec::new();
    for (ply, &played) in game.moves().iter().enumerate() {
        let position = *replay.position();
        replay.play(played);
        let Some(k) = known(&position, &rules) else {
            continue;
        };
        let Some(best) = k
            .moves
            .iter()
            .map(|m| m.probe)
            .max_by_key(|&p| preference(p))
        else {
            continue;
        };
        let Some(after) = k.moves.iter().find(|m| m.mv == played).map(|m| m.probe) else {
            continue;
        };
        let keeping: Vec<_> = k
            .moves
            .iter()
            .filter(|m| m.probe.value == best.value)
            .collect();
        if best.value == Value::Loss
            || after.value == best.value
            || keeping.len() > criteria.max_keeping
            || k.moves.len() < criteria.min_legal
        {
            continue;
        }
        puzzles.push(Puzzle {
            source: source.to_string(),
            ply: ply + 1,
            rules,
            position,
            value: best,
            solutions: keeping
                .iter()
                .map(|m| (m.mv, preference(m.probe) == preference(best)))
                .collect(),
            played,
            played_value: after,
            legal: k.moves.len(),
        });
    }
    puzzles
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// A move as Sanmill's puzzle moves: its turn tokens (the placement or
/// slide, then each removal as a move of its own by the same side).
fn puzzle_moves(mv: Move, side: Color) -> Vec<serde_json::Value> {
    Token::split(mv)
        .map(|t| json!({ "notation": t.to_string(), "side": side_name(side) }))
        .collect()
}

impl Puzzle {
    /// The puzzle as Sanmill's puzzle object.
    pub(crate) fn to_json(&self, index: usize) -> serde_json::Value {
        let side = self.position.side_to_move();
        let word = if self.value.value == Value::Win {
            "win"
        } else {
            "draw"
        };
        let (category, title) = match (self.value.value, self.solutions.len()) {
            (Value::Win, 1) => ("findBestMove", "The only winning move"),
            (Value::Win, _) => ("findBestMove", "Keep the win"),
            (_, 1) => ("defend", "The only move that holds the draw"),
            _ => ("defend", "Hold the draw"),
        };
        let solutions: Vec<_> = self
            .solutions
            .iter()
            .map(|&(mv, best)| {
                json!({
                    "moves": puzzle_moves(mv, side),
                    "description": format!("keeps the {word}"),
                    "isOptimal": best,
                })
            })
            .collect();
        let mut puzzle = json!({
            "id": format!("morris-{}-{}", index + 1, self.ply),
            "title": title,
            "description": format!(
                "{} to move keeps the {word} with {} of {} moves; in the game ({}, ply {}) {} was played ({} -> {}).",
                if side == Color::White { "White" } else { "Black" },
                self.solutions.len(),
                self.legal,
                self.source,
                self.ply,
                self.played,
                word,
                value_word(self.played_value.value),
            ),
            "category": category,
            "difficulty": if self.position.in_hand(side) > 0 { "medium" } else { "hard" },
            "initialPosition": sanmill::write_fen(&self.position),
            "solutions": solutions,
            "tags": ["source:composed", "from-a-game-mistake", "morris"],
            "isCustom": true,
            "author": "morris puzzles",
        });
        if let Some(id) = sanmill::id_of(&self.rules) {
            puzzle["ruleVariantId"] = json!(id);
        }
        puzzle
    }
}

/// The file Sanmill imports: its export envelope around the puzzles.
pub fn export(puzzles: &[Puzzle], date: &str) -> serde_json::Value {
    json!({
        "formatVersion": "1.0",
        "exportedBy": { "appName": "morris", "platform": "cli" },
        "exportDate": date,
        "puzzleCount": puzzles.len(),
        "puzzles": puzzles.iter().enumerate().map(|(i, p)| p.to_json(i)).collect::<Vec<_>>(),
    })
}
