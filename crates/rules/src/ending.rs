//! When a position ends the game: the end rules that need no history, in
//! docs/rules.md 6 and 8.8's order, and the move-count draws.

use super::board::Bitboard;
use super::color::Color;
use super::option_values::{Blocked, BoardFull, EndgameWhen};
use super::options::Rules;
use super::outcome::{EndReason, GameResult, Outcome};
use super::position::Position;

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
