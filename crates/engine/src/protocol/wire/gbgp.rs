//! GBGP position strings: `<side>:W<points>:B<points>:<full-move>`, points
//! joined by `,` (`b:Wb4,c4:Bd2:2`). They have no field for pieces in hand.

use nom::Parser;
use nom::bytes::complete::tag_no_case;
use nom::character::complete::{char, one_of, u32 as dec_u32};
use nom::combinator::{all_consuming, map};
use nom::multi::separated_list0;
use nom::sequence::preceded;

use morris_rules::square;
use morris_rules::{Bitboard, Color, Position, Rules, Square};

/// A GBGP position string that cannot be read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum GbgpError {
    /// Not of the form `<w|b>:W<points>:B<points>:<full-move number>` (the
    /// string, as given).
    #[error(
        "bad GBGP position '{0}': expected <w|b>:W<points>:B<points>:<move number>, like b:Wb4,c4:Bd2:2"
    )]
    Syntax(String),
    /// A full-move number of 0.
    #[error("the GBGP move number starts at 1")]
    MoveNumberZero,
    /// A point listed twice, in one side's list or in both (the string,
    /// as given).
    #[error("GBGP position '{0}' names a point twice")]
    PointTwice(String),
    /// A side with more pieces on the board than it can have placed by
    /// the full-move number (one a move it has made, at most `Pieces`).
    #[error(
        "GBGP position '{text}': {} has {on_board} on the board, more than the {placed} it can have placed by move {fullmove}",
        .color.name()
    )]
    TooManyPieces {
        /// The string, as given.
        text: String,
        /// The side with too many pieces.
        color: Color,
        /// Its pieces on the board.
        on_board: u32,
        /// The most it can have placed by then.
        placed: u32,
        /// The string's full-move number.
        fullmove: u32,
    },
}

/// Writes the position's GBGP string.
pub(super) fn write_pos(pos: &Position) -> String {
    let points = |c: Color| {
        Square::ALL
            .iter()
            .filter(|&&sq| pos.piece_at(sq) == Some(c))
            .map(|sq| sq.name())
            .collect::<Vec<_>>()
            .join(",")
    };
    let side = &pos.side_to_move().name()[..1];
    format!(
        "{side}:W{}:B{}:{}",
        points(Color::White),
        points(Color::Black),
        pos.fullmove()
    )
}

/// Reads a GBGP string, deriving the pieces in hand from the moves each
/// side has made (GBGP assumes plain placement).
pub(crate) fn parse_pos(text: &str, rules: &Rules) -> Result<Position, GbgpError> {
    let squares = |input| separated_list0(char(','), square).parse(input);
    let side = map(one_of("wWbB"), |c| {
        if c.eq_ignore_ascii_case(&'w') {
            Color::White
        } else {
            Color::Black
        }
    });
    let (_, (side, white, black, fullmove)) = all_consuming((
        side,
        preceded((char(':'), tag_no_case("W")), squares),
        preceded((char(':'), tag_no_case("B")), squares),
        preceded(char(':'), dec_u32),
    ))
    .parse(text)
    .map_err(|_| GbgpError::Syntax(text.to_string()))?;
    if fullmove == 0 {
        return Err(GbgpError::MoveNumberZero);
    }
    let set = |list: &[Square]| list.iter().fold(Bitboard::EMPTY, |acc, s| acc | s.bit());
    let pieces = [set(&white), set(&black)];
    if !(pieces[0] & pieces[1]).is_empty()
        || white.len() + black.len() != (pieces[0] | pieces[1]).count() as usize
    {
        return Err(GbgpError::PointTwice(text.to_string()));
    }
    // Moves made so far. The full-move number grows after black's move,
    // so black has made `fullmove - 1`; white one more if it began and has
    // moved this turn, one fewer if black began and white is still to move.
    let made = |c: Color| {
        let base = fullmove - 1;
        match (c, rules.first_player, side) {
            (Color::White, Color::White, Color::Black) => base + 1,
            (Color::White, Color::Black, Color::White) => base.saturating_sub(1),
            _ => base,
        }
    };
    let mut hand = [0u8; 2];
    for c in Color::BOTH {
        let placed = made(c).min(rules.pieces as u32);
        let on_board = pieces[c.index()].count();
        if on_board > placed {
            return Err(GbgpError::TooManyPieces {
                text: text.to_string(),
                color: c,
                on_board,
                placed,
                fullmove,
            });
        }
        hand[c.index()] = (rules.pieces as u32 - placed) as u8;
    }
    Ok(Position::new(pieces, hand, side, 0, fullmove, [0; 2]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use morris_rules::Game;
    use morris_rules::testing::Rng;

    /// Positions of random games under plain placement rules (white or
    /// black first) read back from their GBGP strings: GBGP carries the
    /// board, the side to move and the move number, and the hands follow.
    #[test]
    fn positions_of_random_games_read_back() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        for first in ["white", "black"] {
            let mut rules = Rules::default();
            rules.set("FirstPlayer", first).unwrap();
            for _ in 0..40 {
                let mut game = Game::new(rules, Position::start(&rules));
                for _ in 0..rng.next_u64() % 60 {
                    match rng.legal_move(&game) {
                        Some(mv) => game.play(mv),
                        None => break,
                    }
                }
                let pos = game.position();
                let text = write_pos(pos);
                let back = parse_pos(&text, &rules).unwrap();
                assert_eq!(write_pos(&back), text);
                assert_eq!(back.side_to_move(), pos.side_to_move(), "{text}");
                assert_eq!(back.fullmove(), pos.fullmove(), "{text}");
                for c in Color::BOTH {
                    assert_eq!(back.pieces(c), pos.pieces(c), "{text}");
                    assert_eq!(back.in_hand(c), pos.in_hand(c), "{text}");
                }
            }
        }
    }

    #[test]
    fn reads_the_protocol_examples() {
        let rules = Rules::default();
        let pos = parse_pos("B:WB4,C4:BD2:2", &rules).unwrap();
        assert_eq!(pos.to_fen(&rules), "3/3/3/1WW3/3/1B1/3 b 7 8 0 2");
        assert_eq!(write_pos(&pos), "b:Wb4,c4:Bd2:2");
        assert_eq!(
            parse_pos("w:W:B:0", &rules).unwrap_err().to_string(),
            "the GBGP move number starts at 1"
        );
        assert_eq!(
            parse_pos("w:Wa1,a4,a7:B:1", &rules)
                .unwrap_err()
                .to_string(),
            "GBGP position 'w:Wa1,a4,a7:B:1': white has 3 on the board, more than the 0 it can have placed by move 1"
        );
    }
}
