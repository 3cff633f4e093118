//! The `d` command's drawing of the board.

use morris_rules::{Color, Position, Square};

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

/// Where the diagonals of `Diagonals` boards (twelve men's morris) are
/// drawn between the corner points: (row, column, stroke).
const DIAGONALS: [(usize, usize, char); 8] = [
    (1, 3, '\\'),
    (3, 5, '\\'),
    (1, 13, '/'),
    (3, 11, '/'),
    (9, 5, '/'),
    (11, 3, '/'),
    (9, 11, '\\'),
    (11, 13, '\\'),
];

/// Draws the position: `W` and `B` pieces, `.` empty points, and the
/// corner diagonals when the board has them.
pub(super) fn board(pos: &Position, diagonals: bool) -> String {
    let mut rows: Vec<Vec<char>> = TEMPLATE.iter().map(|r| r.chars().collect()).collect();
    if diagonals {
        for (row, col, stroke) in DIAGONALS {
            rows[row][col] = stroke;
        }
    }
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
    use morris_rules::Rules;

    #[test]
    fn every_point_lands_on_a_marker() {
        let rules = Rules::default();
        let pos = Position::from_fen("WBW/3/3/B4W/3/3/3 w 5 6 0 3", &rules).unwrap();
        let drawn = board(&pos, false);
        assert!(!drawn.contains('+'), "{drawn}");
        assert!(drawn.starts_with("7 W-----B-----W"), "{drawn}");
        assert!(drawn.contains("4 B-.-.   .-.-W"), "{drawn}");
        assert!(!drawn.contains('/') && !drawn.contains('\\'), "{drawn}");
    }

    #[test]
    fn diagonals_join_the_corners() {
        let rules = Rules::with_settings("twelve", &[] as &[&str]).unwrap();
        let drawn = board(&Position::start(&rules), true);
        let rows: Vec<&str> = drawn.lines().collect();
        assert_eq!(rows[1], "  |\\    |    /|", "{drawn}");
        assert_eq!(rows[3], "  | |\\  |  /| |", "{drawn}");
        assert_eq!(rows[9], "  | |/  |  \\| |", "{drawn}");
        assert_eq!(rows[11], "  |/    |    \\|", "{drawn}");
    }
}
