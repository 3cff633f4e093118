//! A game: the rules, the positions played through and the moves between.

use super::moves::{Move, MoveList};
use super::notation::MoveError;
use super::options::Rules;
use super::outcome::{EndReason, GameResult, Outcome};
use super::position::Position;

/// A game under one set of rules: its start position, the moves played and
/// every position reached, which repetition needs.
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    /// Every position from the start (or set-up) one to the current one.
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    /// A game under `rules` from `start`, no move played yet.
    pub fn new(rules: Rules, start: Position) -> Game {
        Game {
            rules,
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The rules the game is played under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The current position, after the last move.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a position")
    }

    /// The position the game started from: the rules' start or a set-up
    /// one.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The moves played from the start, oldest first.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a move known to be legal.
    pub fn play(&mut self, mv: Move) {
        let next = self.position().make(&self.rules, mv);
        self.positions.push(next);
        self.moves.push(mv);
    }

    /// Plays a move given as text, if legal; on error nothing changes.
    pub fn play_text(&mut self, token: &str) -> Result<Move, MoveError> {
        let mv = self.position().parse_move(&self.rules, token)?;
        self.play(mv);
        Ok(mv)
    }

    /// Repetition keys of the positions since the last placement or removal
    /// (earlier ones cannot recur), oldest first, the current one last.
    pub fn reversible_history(&self) -> impl Iterator<Item = u64> + '_ {
        let n = (self.position().clock() as usize + 1).min(self.positions.len());
        self.positions[self.positions.len() - n..]
            .iter()
            .map(|p| p.repetition_key())
    }

    /// How often the current position has occurred (counting itself).
    /// Under rule-set options (docs/rules.md 14.10) only positions reached by
    /// a move that removed nothing are records: not one reached by a
    /// placement or a removal, nor the set-up.
    pub fn occurrences(&self) -> usize {
        let key = self.position().repetition_key();
        if self.rules.extended() {
            let len = self.positions.len();
            let n = (self.position().clock() as usize).min(len - 1);
            return self.positions[len - n..]
                .iter()
                .filter(|p| p.repetition_key() == key)
                .count();
        }
        self.reversible_history().filter(|&k| k == key).count()
    }

    /// The moves that may be played now: none once the game is over, by
    /// any rule (the draws included), so a front end asking `moves` sees
    /// the end. (A front end that plays on after a counting-rule draw
    /// still can: `position` accepts such moves, and `go` searches them.)
    pub fn legal_moves(&self, list: &mut MoveList) {
        if self.outcome().is_some() {
            list.clear();
        } else {
            self.position().legal_moves(&self.rules, list);
        }
    }

    /// The end of the game, if it has ended, by the first rule that applies.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        let has_move = pos.count_moves(&self.rules) > 0;
        if let Some(o) = pos.outcome_without_history(&self.rules, has_move) {
            return Some(o);
        }
        if self.rules.repetition && self.occurrences() >= 3 {
            return Some(Outcome {
                result: GameResult::Draw,
                reason: EndReason::Repetition,
            });
        }
        pos.move_count_draw(&self.rules)
    }
}
