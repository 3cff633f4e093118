//! How and when a game ends (docs/rules.md 6, and 8.8 for the order).

use std::fmt;

use super::board::Bitboard;
use super::color::Color;
use super::options::{Blocked, BoardFull, EndgameWhen, Rules};
use super::position::Position;

/// Who won.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameResult {
    Win(Color),
    Draw,
}

/// Which rule ended the game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EndReason {
    /// A player has fewer pieces, board plus hand, than this (`MinPieces`).
    FewerPieces(u8),
    BoardFull,
    Blocked,
    Repetition,
    EndgameMoves,
    NoCaptureMoves,
}

impl EndReason {
    /// A small number per rule, for hash keys (the piece count is the
    /// rules', the same in every position).
    pub fn code(self) -> u8 {
        match self {
            EndReason::FewerPieces(_) => 0,
            EndReason::BoardFull => 1,
            EndReason::Blocked => 2,
            EndReason::Repetition => 3,
            EndReason::EndgameMoves => 4,
            EndReason::NoCaptureMoves => 5,
        }
    }

    /// Draws by counting rules: the game may go on if the front end wants.
    pub fn is_counting_rule(self) -> bool {
        matches!(
            self,
            EndReason::Repetition | EndReason::EndgameMoves | EndReason::NoCaptureMoves
        )
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcome {
    pub result: GameResult,
    pub reason: EndReason,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let result = match self.result {
            GameResult::Win(Color::White) => "1-0 white wins",
            GameResult::Win(Color::Black) => "0-1 black wins",
            GameResult::Draw => "1/2-1/2 draw",
        };
        let reason = match self.reason {
            EndReason::FewerPieces(n) => {
                return write!(f, "{result} by fewer than {} pieces", number_word(n));
            }
            EndReason::BoardFull => "board full",
            EndReason::Blocked => "no legal move",
            EndReason::Repetition => "threefold repetition",
            EndReason::EndgameMoves => "three-piece endgame move limit (EndgameMoves)",
            EndReason::NoCaptureMoves => "move limit without removal (NoCaptureMoves)",
        };
        write!(f, "{result} by {reason}")
    }
}

/// Small numbers as words, as the game-over text has always said "three".
fn number_word(n: u8) -> String {
    match n {
        3 => "three".to_string(),
        4 => "four".to_string(),
        5 => "five".to_string(),
        n => n.to_string(),
    }
}

impl Position {
    /// The end rules that need no history, in docs/rules.md 8.8's order, given
    /// whether the side to move has a legal move.
    pub fn outcome_without_history(&self, rules: &Rules, has_move: bool) -> Option<Outcome> {
        if rules.extended() {
            return self.turn_rules_outcome(rules, has_move);
        }
        let me = self.side_to_move();
        let lose = |loser: Color, reason| {
            Some(Outcome {
                result: GameResult::Win(!loser),
                reason,
            })
        };
        let draw = |reason| {
            Some(Outcome {
                result: GameResult::Draw,
                reason,
            })
        };
        for c in [me, !me] {
            if self.material(c) < rules.min_pieces as u32 {
                return lose(c, EndReason::FewerPieces(rules.min_pieces));
            }
        }
        // Only a placement fills the board, and it resets the clock.
        if self.occupied() == Bitboard::FULL && self.clock() == 0 {
            // The other values are rule-set options, played by `rules::turns`.
            return match rules.board_full {
                BoardFull::Loss => lose(me, EndReason::BoardFull),
                BoardFull::Draw
                | BoardFull::FirstLoses
                | BoardFull::RemoveFirst
                | BoardFull::RemoveSecond
                | BoardFull::RemoveOne => draw(EndReason::BoardFull),
            };
        }
        if !has_move {
            return match rules.blocked {
                Blocked::Loss => lose(me, EndReason::Blocked),
                Blocked::Draw
                | Blocked::Pass
                | Blocked::RemoveMove
                | Blocked::RemovePass
                | Blocked::BothRemove => draw(EndReason::Blocked),
            };
        }
        None
    }

    /// The move-count draws (after repetition in docs/rules.md 8.8's order).
    pub fn move_count_draw(&self, rules: &Rules) -> Option<Outcome> {
        let clock = self.clock();
        let endgame = match rules.endgame_when {
            EndgameWhen::Both => Color::BOTH.iter().all(|&c| self.material(c) == 3),
            EndgameWhen::Either => Color::BOTH.iter().any(|&c| self.pieces(c).count() == 3),
        };
        let reason = if endgame && rules.endgame_moves > 0 && clock >= rules.endgame_moves {
            EndReason::EndgameMoves
        } else if rules.no_capture_moves > 0 && clock >= rules.no_capture_moves {
            EndReason::NoCaptureMoves
        } else {
            return None;
        };
        Some(Outcome {
            result: GameResult::Draw,
            reason,
        })
    }
}
