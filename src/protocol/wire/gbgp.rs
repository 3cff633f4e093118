//! The Generic Board Game Protocol dialect (Nine Morris 3D and kin): its
//! position strings and score spelling.

use nom::Parser;
use nom::bytes::complete::tag_no_case;
use nom::character::complete::{char, one_of, u32 as dec_u32};
use nom::combinator::{all_consuming, map};
use nom::multi::separated_list0;
use nom::sequence::preceded;

use crate::rules::notation::square;
use crate::rules::{Bitboard, Color, Position, Rules, Square};
use crate::search::Score;

/// Reads `side:W<points>:B<points>:<full-move>`, deriving the pieces in hand
/// from the moves each side has made (GBGP assumes plain placement).
pub fn parse_pos(text: &str, rules: &Rules) -> Result<Position, String> {
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
    .map_err(|_| {
        format!("bad GBGP position '{text}': expected <w|b>:W<points>:B<points>:<move number>, like b:Wb4,c4:Bd2:2")
    })?;
    if fullmove == 0 {
        return Err("the GBGP move number starts at 1".to_string());
    }
    let set = |list: &[Square]| list.iter().fold(Bitboard::EMPTY, |acc, s| acc | s.bit());
    let pieces = [set(&white), set(&black)];
    if !(pieces[0] & pieces[1]).is_empty()
        || white.len() + black.len() != (pieces[0] | pieces[1]).count() as usize
    {
        return Err(format!("GBGP position '{text}' names a point twice"));
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
            return Err(format!(
                "GBGP position '{text}': {} has {on_board} pieces on the board but can have placed only {placed} by move {fullmove}",
                c.name()
            ));
        }
        hand[c.index()] = (rules.pieces as u32 - placed) as u8;
    }
    Ok(Position::new(pieces, hand, side, 0, fullmove, [0; 2]))
}

/// A score in GBGP spelling: `eval X` or `win N`.
pub fn score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("eval {cp}"),
        Score::Mate(n) => format!("win {n}"),
    }
}
