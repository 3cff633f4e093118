//! How a game ended: its result and the rule that ended it (the rules
//! themselves, docs/rules.md 6 and 8.8, are applied in `ending`).

use std::fmt;

use super::color::Color;

/// Who won.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameResult {
    /// This player won.
    Win(Color),
    /// Neither won.
    Draw,
}

/// Which rule ended the game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EndReason {
    /// A player has fewer pieces, board plus hand, than this (`MinPieces`).
    FewerPieces(u8),
    /// The placements filled the board (`BoardFull`, docs/rules.md 6.3,
    /// 14.7): a loss or a draw as its value says.
    BoardFull,
    /// The side to move had no legal move or was blocked (`Blocked`,
    /// docs/rules.md 6.2, 14.8); also the draw when no action is left after
    /// `Blocked pass` or for a blocked remover (16.10, 20).
    Blocked,
    /// A position occurred for the third time (`Repetition`, docs/rules.md
    /// 6.6, 14.10): a draw.
    Repetition,
    /// The three-piece draw (`EndgameMoves`, docs/rules.md 6.4, 16.13).
    EndgameMoves,
    /// The draw after `NoCaptureMoves` plies without a placement or a
    /// removal (docs/rules.md 6.5).
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

/// How a game ended; displays as `1-0 white wins by no legal move`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Outcome {
    /// Who won, if anyone.
    pub result: GameResult,
    /// The rule that ended the game.
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
