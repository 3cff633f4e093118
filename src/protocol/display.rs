//! The `d` command's drawing of the board.

use crate::rules::{Color, Position, Square};

/// The board with one character per point, as in docs/rules.md 3.1's diagram.
const TEMPLATE: [&str; 14] = [
    "7 +-----+-----+",
    "  |     |     |",
    "6 | +---+---+ |",
    "  | |   |   | |",
    "5 | | +-+-+ | |",
    "  | | |   | | |",
    "4 +-+-+   +-+-+",
    "  | | |   | | |",
    "3 | | +-+-+ | |",
    "  | |   |   | |",
    "2 | +---+---+ |",
    "  |     |     |",
    "1 +-----+-----+",
    "  a b c d e f g",
];

/// Draws the position: `W` and `B` pieces, `.` empty points.
pub fn board(pos: &Position) -> String {
    let mut rows: Vec<Vec<char>> = TEMPLATE.iter().map(|r| r.chars().collect()).collect();
    for sq in Square::ALL {
        let (file, rank) = sq.coords();
        let row = 12 - 2 * rank as usize;
        let col = 2 + 2 * file as usize;
        rows[row][col] = match pos.piece_at(sq) {
            Some(Color::White) => 'W',
            Some(Color::Black) => 'B',
            None => '.',
        };
    }
    rows.into_iter()
        .map(|r| r.into_iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    #[test]
    fn every_point_lands_on_a_marker() {
        let rules = Rules::default();
        let pos = Position::from_fen("WBW/3/3/B4W/3/3/3 w 5 6 0 3", &rules).unwrap();
        let drawn = board(&pos);
        assert!(!drawn.contains('+'), "{drawn}");
        assert!(drawn.starts_with("7 W-----B-----W"), "{drawn}");
        assert!(drawn.contains("4 B-.-.   .-.-W"), "{drawn}");
    }
}
