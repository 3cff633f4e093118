//! The one-line position string ("FEN").
//!
//! Six fields: the points rank by rank from 7 down to 1 (`W`, `B`, `M` for
//! a marked point, a digit per run of empty points), side to move, white
//! and black pieces in hand, the halfmove clock and the full-move number.
//! Two optional fields follow when `MillReform` bans are in force: the
//! lines white, then black, may not close on their next move, each `-` or
//! lines like `a1a4a7` joined by `,`. Then, only when set, the rule-set
//! state of docs/rules.md Part II as `name:value` fields: `spent:<white>/<black>`
//! (`OneTimeMill` spent points, each `-` or points like `a1a4a7`),
//! `shuttle:<white>/<black>` (`MillShuttle` memory, each `-` or `<from><to>`),
//! `owe:<n>[o][a][s][/<m>[o][a]]` (removals the side to move owes: `o` own
//! pieces, `a` next to the remover's pieces only, `s` the same player moves
//! afterwards; then those the other player owes next) and
//! `end:<white|black|draw>:<pieces|boardfull|blocked>` (a game a rule ended
//! during a turn).

use nom::combinator::all_consuming;
use nom::{IResult, Parser};

use super::board::{Bitboard, Square};
use super::color::Color;
use super::option_values::{MillShuttle, PlacingMill};
use super::options::Rules;
use super::outcome::EndReason;
use super::position::{Owed, Position};

mod grammar;

use grammar::{Cell, Extra, REASONS, RESULTS, bans, extra, fields, number, ranks, side};

/// The start position of standard nine men's morris.
pub const START_FEN: &str = "3/3/3/6/3/3/3 w 9 9 0 1";

/// The points of each rank, rank 7 first, left to right.
const RANKS: [&[&str]; 7] = [
    &["a7", "d7", "g7"],
    &["b6", "d6", "f6"],
    &["c5", "d5", "e5"],
    &["a4", "b4", "c4", "e4", "f4", "g4"],
    &["c3", "d3", "e3"],
    &["b2", "d2", "f2"],
    &["a1", "d1", "g1"],
];

/// A position string that cannot be read or describes no position.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum FenError {
    /// The board field holds a character other than `W`, `B`, `M` (in any
    /// case), `/` and the digits 1 to 6.
    #[error("bad position string: unknown character '{0}' in the board field")]
    UnknownCharacter(char),
    /// The text (trimmed) does not have the fields' shape.
    #[error(
        "bad position string: '{0}' is not <board> <w|b> <white in hand> <black in hand> <clock> <move> [<white bans> <black bans>]"
    )]
    Shape(String),
    /// The first field, in order, that cannot be read.
    #[error("bad position string: {field} is '{found}', expected {expected}")]
    Field {
        /// The field, in words (`the side to move`).
        field: &'static str,
        /// What it may hold, in words (`w or b`).
        expected: &'static str,
        /// The word found in its place.
        found: String,
    },
    /// The text ends before this field (named in words).
    #[error("bad position string: it ends before {0}")]
    Missing(&'static str),
    /// The board field has this many ranks instead of 7.
    #[error("bad position string: the board has {0} ranks, not 7")]
    RankCount(usize),
    /// Rank `rank` (7 to 1) has `points` points instead of `expected`.
    #[error("bad position string: rank {rank} has {points} points, not {expected}")]
    RankLength {
        /// The rank, 7 to 1.
        rank: usize,
        /// The points its field describes.
        points: usize,
        /// The points the rank has: 3, or 6 on rank 4.
        expected: usize,
    },
    /// A player has more pieces, board plus hand, than `Pieces` gives.
    #[error(
        "bad position string: {} has {on_board} on the board and {in_hand} in hand, more pieces than the {pieces} of these rules",
        .color.name()
    )]
    TooManyPieces {
        /// The player.
        color: Color,
        /// The player's pieces on the board.
        on_board: u32,
        /// The player's pieces in hand.
        in_hand: u32,
        /// `Pieces` of the rules in force.
        pieces: u8,
    },
    /// The halfmove clock does not fit its 16 bits (above 65535).
    #[error("bad position string: halfmove clock {0} is too large")]
    ClockTooLarge(u32),
    /// The full-move number is 0.
    #[error("bad position string: the full-move number starts at 1")]
    FullMoveZero,
    /// A ban field names lines while `MillReform` is off (`-` is accepted).
    #[error("bad position string: mill bans are given but MillReform is off")]
    BansWithoutMillReform,
    /// A ban names three points that are not a line of this board (the
    /// diagonals are lines only with `Diagonals`).
    #[error("bad position string: {}{}{} is not a line of this board", .0[0], .0[1], .0[2])]
    NotALine([Square; 3]),
    /// A rule-set field or mark the rules in force have no use for.
    #[error("bad position string: {what} need {option}")]
    StateWithoutOption {
        /// The state, in words (`spent points`).
        what: &'static str,
        /// The option it needs, in words (`OneTimeMill`).
        option: &'static str,
    },
    /// A point given both a mark and a piece. Not returned at present: the
    /// board field gives each point one character.
    #[error("bad position string: a marked point and a piece on {0}")]
    MarkedAndOccupied(Square),
}

fn square_named(name: &str) -> Square {
    Square::ALL
        .into_iter()
        .find(|s| s.name() == name)
        .expect("rank tables name points")
}

/// The field that keeps `text` from having the fields' shape, found word
/// by word with the fields' own parsers.
fn misfit(text: &str) -> FenError {
    fn fits<T>(parser: fn(&str) -> IResult<&str, T>, word: &str) -> bool {
        all_consuming(parser).parse(word).is_ok()
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let Some(board) = words.first() else {
        return FenError::Missing("the board");
    };
    let required: [(&'static str, &'static str, bool); 6] = [
        (
            "the board",
            "ranks 7 to 1 separated by '/'",
            fits(ranks, board),
        ),
        (
            "the side to move",
            "w or b",
            words.get(1).is_some_and(|w| fits(side, w)),
        ),
        (
            "white's pieces in hand",
            "a whole number",
            words.get(2).is_some_and(|w| fits(number::<u32>, w)),
        ),
        (
            "black's pieces in hand",
            "a whole number",
            words.get(3).is_some_and(|w| fits(number::<u32>, w)),
        ),
        (
            "the halfmove clock",
            "a whole number of plies",
            words.get(4).is_some_and(|w| fits(number::<u32>, w)),
        ),
        (
            "the move number",
            "a whole number",
            words.get(5).is_some_and(|w| fits(number::<u32>, w)),
        ),
    ];
    for (i, (field, expected, ok)) in required.into_iter().enumerate() {
        match words.get(i) {
            None => return FenError::Missing(field),
            Some(w) if !ok => {
                return FenError::Field {
                    field,
                    expected,
                    found: w.to_string(),
                };
            }
            Some(_) => {}
        }
    }
    let mut rest = &words[6..];
    if rest.first().is_some_and(|w| fits(bans, w)) {
        match rest.get(1) {
            Some(w) if fits(bans, w) => rest = &rest[2..],
            Some(w) => {
                return FenError::Field {
                    field: "black's mill bans",
                    expected: "- or lines such as a1a4a7,d1d2d3",
                    found: w.to_string(),
                };
            }
            None => return FenError::Missing("black's mill bans"),
        }
    }
    match rest.iter().find(|w| !fits(extra, w)) {
        Some(w) => FenError::Field {
            field: "the rule-set state",
            expected: "spent:, shuttle:, owe: or end: (or the two mill-ban fields after the move number)",
            found: w.to_string(),
        },
        None => FenError::Shape(text.to_string()),
    }
}

impl Position {
    /// Reads a position string under `rules`, checking it describes a position.
    pub fn from_fen(text: &str, rules: &Rules) -> Result<Position, FenError> {
        let text = text.trim();
        let board_part = text.split_whitespace().next().unwrap_or("");
        if let Some(bad) = board_part
            .chars()
            .find(|c| !matches!(c, 'W' | 'w' | 'B' | 'b' | 'M' | 'm' | '/' | '1'..='6'))
        {
            return Err(FenError::UnknownCharacter(bad));
        }
        let (_, f) = all_consuming(fields)
            .parse(text)
            .map_err(|_| misfit(text))?;
        if f.ranks.len() != 7 {
            return Err(FenError::RankCount(f.ranks.len()));
        }
        let mut pieces = [Bitboard::EMPTY; 2];
        let mut marked = Bitboard::EMPTY;
        for (rank, (cells, names)) in f.ranks.iter().zip(RANKS).enumerate() {
            let len: usize = cells
                .iter()
                .map(|c| match c {
                    Cell::Piece(_) | Cell::Marked => 1,
                    Cell::Empty(n) => *n,
                })
                .sum();
            if len != names.len() {
                return Err(FenError::RankLength {
                    rank: 7 - rank,
                    points: len,
                    expected: names.len(),
                });
            }
            let mut i = 0;
            for cell in cells {
                match *cell {
                    Cell::Piece(c) => {
                        pieces[c.index()] |= square_named(names[i]).bit();
                        i += 1;
                    }
                    Cell::Marked => {
                        marked |= square_named(names[i]).bit();
                        i += 1;
                    }
                    Cell::Empty(n) => i += n,
                }
            }
        }
        for c in Color::BOTH {
            let total = pieces[c.index()].count() + f.hands[c.index()];
            if total > rules.pieces as u32 {
                return Err(FenError::TooManyPieces {
                    color: c,
                    on_board: pieces[c.index()].count(),
                    in_hand: f.hands[c.index()],
                    pieces: rules.pieces,
                });
            }
        }
        let clock = u16::try_from(f.clock).map_err(|_| FenError::ClockTooLarge(f.clock))?;
        if f.fullmove == 0 {
            return Err(FenError::FullMoveZero);
        }
        let mut ban_masks = [0u32; 2];
        if let Some((white, black)) = f.bans {
            for (c, lines) in [white, black].into_iter().enumerate() {
                if !lines.is_empty() && !rules.mill_reform {
                    return Err(FenError::BansWithoutMillReform);
                }
                for l in lines {
                    let set = l.iter().fold(Bitboard::EMPTY, |a, s| a | s.bit());
                    let i = rules
                        .layout()
                        .line_index(set)
                        .ok_or(FenError::NotALine(l))?;
                    ban_masks[c] |= 1 << i;
                }
            }
        }
        let need = |ok: bool, what, option| {
            if ok {
                Ok(())
            } else {
                Err(FenError::StateWithoutOption { what, option })
            }
        };
        if !marked.is_empty() {
            need(
                rules.placing_mill == PlacingMill::Mark,
                "marked points",
                "PlacingMill mark",
            )?;
        }
        let (mut spent, mut shuttle, mut owed, mut end) =
            ([Bitboard::EMPTY; 2], [None; 2], Owed::default(), None);
        for e in f.extras {
            match e {
                Extra::Spent(s) => {
                    need(rules.one_time_mill, "spent points", "OneTimeMill")?;
                    spent = s;
                }
                Extra::Shuttle(s) => {
                    need(
                        rules.mill_shuttle == MillShuttle::Banned,
                        "shuttle memories",
                        "MillShuttle banned",
                    )?;
                    shuttle = s;
                }
                Extra::Owed(o) => {
                    need(rules.extended(), "owed removals", "rule-set options")?;
                    owed = o;
                }
                Extra::End(mut o) => {
                    need(rules.extended(), "ended games", "rule-set options")?;
                    // The field names the rule; the rules give the count.
                    if let EndReason::FewerPieces(_) = o.reason {
                        o.reason = EndReason::FewerPieces(rules.min_pieces);
                    }
                    end = Some(o);
                }
            }
        }
        Ok(Position::new(
            pieces,
            [f.hands[0] as u8, f.hands[1] as u8],
            f.side,
            clock,
            f.fullmove,
            ban_masks,
        )
        .with_rule_set_state(marked, spent, shuttle, owed, end)
        .settled(rules))
    }

    /// Writes the position string (ban fields only when a ban is in force).
    pub fn to_fen(&self, rules: &Rules) -> String {
        let mut out = String::new();
        for (i, names) in RANKS.iter().enumerate() {
            if i > 0 {
                out.push('/');
            }
            let mut run = 0;
            for name in names.iter() {
                let sq = square_named(name);
                if self.marked().contains(sq) {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push('M');
                    continue;
                }
                match self.piece_at(sq) {
                    None => run += 1,
                    Some(c) => {
                        if run > 0 {
                            out.push_str(&run.to_string());
                            run = 0;
                        }
                        out.push(if c == Color::White { 'W' } else { 'B' });
                    }
                }
            }
            if run > 0 {
                out.push_str(&run.to_string());
            }
        }
        let side = if self.side_to_move() == Color::White {
            'w'
        } else {
            'b'
        };
        out.push_str(&format!(
            " {side} {} {} {} {}",
            self.in_hand(Color::White),
            self.in_hand(Color::Black),
            self.clock(),
            self.fullmove()
        ));
        if self.bans(Color::White) | self.bans(Color::Black) != 0 {
            for c in Color::BOTH {
                out.push(' ');
                out.push_str(&ban_text(rules, self.bans(c)));
            }
        }
        self.write_rule_set_state(&mut out);
        out
    }

    /// The `name:value` fields of the rule-set state that is set.
    fn write_rule_set_state(&self, out: &mut String) {
        let [w, b] = Color::BOTH.map(|c| self.spent(c));
        if !(w | b).is_empty() {
            out.push_str(&format!(" spent:{}/{}", points_text(w), points_text(b)));
        }
        let [w, b] = Color::BOTH.map(|c| self.shuttle(c));
        if w.is_some() || b.is_some() {
            let text =
                |m: Option<(Square, Square)>| m.map_or("-".to_string(), |(f, t)| format!("{f}{t}"));
            out.push_str(&format!(" shuttle:{}/{}", text(w), text(b)));
        }
        let o = self.owed();
        if o != Owed::default() {
            let flags = |n: u8, own: bool, adjacent: bool, same: bool| {
                let mut t = n.to_string();
                for (on, c) in [(own, 'o'), (adjacent, 'a'), (same, 's')] {
                    if on {
                        t.push(c);
                    }
                }
                t
            };
            out.push_str(&format!(
                " owe:{}",
                flags(o.count, o.own, o.adjacent, o.then_same)
            ));
            if o.queued > 0 {
                out.push_str(&format!(
                    "/{}",
                    flags(o.queued, o.queued_own, o.queued_adjacent, false)
                ));
            }
        }
        if let Some(end) = self.ended() {
            let result = RESULTS
                .iter()
                .find(|(_, r)| *r == end.result)
                .map_or("draw", |x| x.0);
            let reason = REASONS
                .iter()
                .find(|(_, r)| std::mem::discriminant(r) == std::mem::discriminant(&end.reason))
                .map_or("blocked", |x| x.0);
            out.push_str(&format!(" end:{result}:{reason}"));
        }
    }
}

fn points_text(points: Bitboard) -> String {
    if points.is_empty() {
        "-".to_string()
    } else {
        points.map(|s| s.name()).collect()
    }
}

fn ban_text(rules: &Rules, mask: u32) -> String {
    if mask == 0 {
        return "-".to_string();
    }
    let layout = rules.layout();
    (0..layout.num_lines)
        .filter(|i| mask & (1 << i) != 0)
        .map(|i| layout.lines[i].map(|s| s.name()).collect::<String>())
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use crate::Variant;
    use crate::*;

    /// Too many pieces, said in words that read for any count.
    #[test]
    fn too_many_pieces_names_both_counts() {
        let err = Position::from_fen("W2/3/3/6/3/3/3 w 9 9 0 1", &Rules::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "bad position string: white has 1 on the board and 9 in hand, more pieces than the 9 of these rules"
        );
    }

    #[test]
    fn start_round_trips() {
        let rules = Rules::default();
        let p = Position::from_fen(START_FEN, &rules).unwrap();
        assert_eq!(p, Position::start(&rules));
        assert_eq!(p.to_fen(&rules), START_FEN);
    }

    #[test]
    fn reads_leniently_writes_canonically() {
        let rules = Rules::preset(Variant::Twelve);
        let p = Position::from_fen("w2/3/3/11wb2/3/3/B2 b 10 10 3 7", &rules).unwrap();
        assert_eq!(p.to_fen(&rules), "W2/3/3/2WB2/3/3/B2 b 10 10 3 7");
    }

    #[test]
    fn rejects_bad_strings() {
        let rules = Rules::default();
        for (bad, why) in [
            ("3/3/3/6/3/3 w 9 9 0 1", "ranks"),
            ("3/3/3/5/3/3/3 w 9 9 0 1", "rank 4"),
            ("3/3/3/6/3/3/4 w 9 9 0 1", "rank 1"),
            (
                "3/3/3/6/3/3/3 x 9 9 0 1",
                "the side to move is 'x', expected w or b",
            ),
            ("3/3/3/6/3/3/3 w 9 x 0 1", "black's pieces in hand is 'x'"),
            ("3/3/3/6/3/3/3 w 9 9 0 1 - -x", "black's mill bans is '-x'"),
            (
                "3/3/3/6/3/3/3 w 9 9 0 1 -",
                "it ends before black's mill bans",
            ),
            (
                "3/3/3/6/3/3/3 w 9 9 0 1 spent:z9",
                "the rule-set state is 'spent:z9'",
            ),
            ("3/3/X2/6/3/3/3 w 9 9 0 1", "'X'"),
            ("WWW/3/3/6/3/3/3 w 7 9 0 1", "more pieces than"),
            ("3/3/3/6/3/3/3 w 9 9 0 0", "full-move"),
            ("3/3/3/6/3/3/3 w 9 9 0", "it ends before the move number"),
            ("3/3/3/6/3/3/3 w 9 9 0 1 a1a4a7 -", "MillReform"),
        ] {
            let err = Position::from_fen(bad, &rules).unwrap_err().to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn bans_round_trip() {
        let mut rules = Rules::default();
        rules.set("MillReform", "true").unwrap();
        let fen = "WWW/3/3/6/3/3/3 b 6 9 0 4 a7d7g7 -";
        let p = Position::from_fen(fen, &rules).unwrap();
        assert_eq!(p.to_fen(&rules), fen);
        assert!(Position::from_fen("WWW/3/3/6/3/3/3 b 6 9 0 4 a7d7d6 -", &rules).is_err());
    }
}
