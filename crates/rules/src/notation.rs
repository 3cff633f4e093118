//! Reading and writing moves in the notation of docs/rules.md 4 and 13.

use std::fmt;

use nom::bytes::complete::tag_no_case;
use nom::character::complete::{one_of, satisfy};
use nom::combinator::{all_consuming, map_opt, opt};
use nom::multi::{many0, many1};
use nom::sequence::preceded;
use nom::{IResult, Parser};

use super::board::{Bitboard, Square};
use super::color::Color;
use super::movegen::removable;
use super::moves::{Move, MoveList};
use super::option_values::PlacingMill;
use super::options::Rules;
use super::position::Position;

/// A move token as written, before it is checked against a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MoveText {
    /// The point a slide, flight or leap starts from; None for a placement
    /// or a removal-only turn.
    pub from: Option<Square>,
    /// None for a removal-only turn (`xg7`, docs/rules.md 13).
    pub to: Option<Square>,
    /// The points written after each `x`, in the order written.
    pub removals: Vec<Square>,
}

/// A move token that is malformed or not legal, with the reason.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("move '{token}': {reason}")]
pub struct MoveError {
    /// The token as given.
    pub token: String,
    /// Why it names no legal move.
    pub reason: MoveReason,
}

/// Why a move token names no legal move, in words for a front end.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum MoveReason {
    /// The token does not have the shape of a move (docs/rules.md 4.1, 13).
    #[error(
        "not a move: expected <to>, <from>-<to>, then x<point> per removal, or x<point> per removal alone, with points a1..g7 of the board"
    )]
    NotAMove,
    /// A part written as a point (a letter and a number) that names none.
    #[error("{0} is not a point of the board")]
    NotAPoint(String),
    /// The side to move (given) owes removals, and the token is not a
    /// removal-only turn (docs/rules.md 14.4).
    #[error("{} owes a removal: write x<point>", .0.name())]
    MustRemoveFirst(Color),
    /// A removal-only token while the side to move owes no removal.
    #[error("no removal is owed: the turn is a placement or a move")]
    NothingOwed,
    /// The side to move (given) has no legal move at all here.
    #[error("{} has no legal move (the game is over)", .0.name())]
    GameOver(Color),
    /// The destination holds a piece, or a mark (`PlacingMill mark`).
    #[error("{0} is occupied")]
    Occupied(Square),
    /// A placement by the side to move (given), whose hand is empty.
    #[error("{} has no pieces in hand: move one with <from>-<to>", .0.name())]
    NoneInHand(Color),
    /// The point moved from holds no piece of the side to move.
    #[error("{from} holds no {} piece", .side.name())]
    NotOwnPiece {
        /// The point moved from.
        from: Square,
        /// The side to move.
        side: Color,
    },
    /// A move by the side to move (given) while it still holds pieces and
    /// `Lasker` is off (docs/rules.md 5.2).
    #[error("{} still has pieces in hand and must place one", .0.name())]
    MustPlace(Color),
    /// A move between points that are not adjacent by a player who may not
    /// fly, and no legal leap either.
    #[error("{from} and {to} are not adjacent and {} may not fly", .side.name())]
    NotAdjacent {
        /// The point moved from.
        from: Square,
        /// The point moved to.
        to: Square,
        /// The side to move.
        side: Color,
    },
    /// A move the piece could otherwise make but no legal move has: one that
    /// would close a line `MillReform` bans (docs/rules.md 8.5).
    #[error("it would close a mill broken on the previous turn (MillReform)")]
    ReformBanned,
    /// The move back from the point a piece just closed a mill on, closing
    /// a line again, which `MillShuttle banned` forbids (docs/rules.md 16.7).
    #[error(
        "it moves the piece back to where it came from to close a mill again (MillShuttle banned)"
    )]
    ShuttleBanned,
    /// Removals are written for a move that completes a line of the mover
    /// but has none to write: no piece may be removed (docs/rules.md 5.6).
    #[error("the mill it forms has no removable piece, so it removes nothing")]
    NothingRemovable,
    /// Removals are written for a move whose every completed line is spent
    /// (`OneTimeMill`, docs/rules.md 16.6).
    #[error(
        "the mill it forms is spent (OneTimeMill: each line removes once), so it removes nothing"
    )]
    SpentMill,
    /// Removals are written for a placement whose mill removes nothing from
    /// the board under `PlacingMill` (given): `hand` and `handagain` take
    /// from the opponent's hand, unwritten, `tally` counts at the stage
    /// change (docs/rules.md 16.2).
    #[error("under PlacingMill {} a placement's mill removes no piece from the board here, so no removal is written", .0.name())]
    PlacementMillOffBoard(PlacingMill),
    /// Removals are written for a move that completes no line and earns none.
    #[error("it forms no mill, so it removes nothing")]
    NoMill,
    /// No removal is written for a move that earns some; holds the legal
    /// ways to write it.
    #[error("it forms a mill and must remove: legal are {0}")]
    MustRemove(Alternatives),
    /// The removals written are not a legal set for this move or this
    /// removal-only turn; holds the legal ways to write it.
    #[error("those removals are not allowed: legal are {0}")]
    RemovalsNotAllowed(Alternatives),
    /// As many removals as the move's mills, but not as many as written.
    #[error(
        "one removal per mill: it closes {}, so it removes {}, not {given}: legal are {legal}",
        counted(*.mills, "mill", "mills"),
        counted(*.mills, "piece", "pieces")
    )]
    OneRemovalPerMill {
        /// The mills the move closes, and so the removals it makes.
        mills: usize,
        /// The removals written.
        given: usize,
        /// The legal ways to write the move.
        legal: Alternatives,
    },
    /// A count of removals these rules do not tie to the mills closed.
    #[error(
        "it removes {} under these rules, not {given}: legal are {legal}",
        counted(*.allowed, "piece", "pieces")
    )]
    RemovalCount {
        /// The removals the move makes.
        allowed: usize,
        /// The removals written.
        given: usize,
        /// The legal ways to write the move.
        legal: Alternatives,
    },
    /// The removals are legal in another order, as `write` has them.
    #[error("{square} may not be removed at that point of the order; write {write}")]
    RemovalOrder {
        /// The first removal, in the order written, not allowed at its place
        /// in that order.
        square: Square,
        /// The move with its removals in the order the engine writes them.
        write: Move,
    },
}

/// `one mill`, `two pieces`: small counts in words.
fn counted(n: usize, one: &str, many: &str) -> String {
    const WORDS: [&str; 4] = ["no", "one", "two", "three"];
    let word = WORDS
        .get(n)
        .map_or_else(|| n.to_string(), |w| w.to_string());
    format!("{word} {}", if n == 1 { one } else { many })
}

/// The legal moves from and to the same points as a rejected token; shows
/// the first eight.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Alternatives(pub Vec<Move>);

impl fmt::Display for Alternatives {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, m) in self.0.iter().take(8).enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{m}")?;
        }
        if self.0.len() > 8 {
            f.write_str(", ...")?;
        }
        Ok(())
    }
}

/// A point name, any case (`d2`, `D2`).
pub fn square(input: &str) -> IResult<&str, Square> {
    map_opt(
        (satisfy(|c| c.is_ascii_alphabetic()), one_of("1234567")),
        |(f, r)| {
            let file = (f.to_ascii_lowercase() as u8).checked_sub(b'a')?;
            Square::from_coords(file, r as u8 - b'1')
        },
    )
    .parse(input)
}

fn removal(input: &str) -> IResult<&str, Square> {
    preceded(tag_no_case("x"), square).parse(input)
}

fn move_text(input: &str) -> IResult<&str, MoveText> {
    if let Ok((rest, removals)) = many1(removal).parse(input) {
        let text = MoveText {
            from: None,
            to: None,
            removals,
        };
        return Ok((rest, text));
    }
    let (rest, (first, second, removals)) = (
        square,
        opt(preceded(tag_no_case("-"), square)),
        many0(removal),
    )
        .parse(input)?;
    let (from, to) = match second {
        Some(to) => (Some(first), Some(to)),
        None => (None, Some(first)),
    };
    Ok((rest, MoveText { from, to, removals }))
}

impl MoveText {
    /// Parses one token (`d2`, `a1-a4`, `d2xa7xg7`, `xg7`), case-insensitively.
    pub fn parse(token: &str) -> Result<MoveText, MoveError> {
        all_consuming(move_text)
            .parse(token)
            .map(|(_, m)| m)
            .map_err(|_| MoveError {
                token: token.to_string(),
                reason: missing_point(token).map_or(MoveReason::NotAMove, |p| {
                    MoveReason::NotAPoint(p.to_string())
                }),
            })
    }
}

/// The first part of an unreadable token that is written as a point (a
/// letter and digits) but names none: `b1` of `a1-b1`, so that the
/// message points at it.
fn missing_point(token: &str) -> Option<&str> {
    token.split(['-', 'x', 'X']).find(|part| {
        let mut chars = part.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && !chars.as_str().is_empty()
            && chars.all(|c| c.is_ascii_digit())
            && all_consuming(square).parse(part).is_err()
    })
}

impl Position {
    /// The legal move a token names, or why there is none.
    pub fn parse_move(&self, rules: &Rules, token: &str) -> Result<Move, MoveError> {
        let text = MoveText::parse(token)?;
        let mut legal = MoveList::new();
        self.legal_moves(rules, &mut legal);
        let removed = text
            .removals
            .iter()
            .fold(Bitboard::EMPTY, |acc, r| acc | r.bit());
        let found = legal.iter().copied().find(|m| {
            m.from() == text.from
                && m.to() == text.to
                && m.num_removals() == text.removals.len()
                && m.removed() == removed
        });
        let mv = found.ok_or_else(|| MoveError {
            token: token.to_string(),
            reason: self.why_illegal(rules, &text, &legal),
        })?;
        let order = if rules.extended() {
            self.turn_removal_order(rules, mv, &text.removals)
        } else {
            self.check_removal_order(rules, &text.removals)
        };
        order.map_err(|sq| MoveError {
            token: token.to_string(),
            reason: MoveReason::RemovalOrder {
                square: sq,
                write: mv,
            },
        })?;
        Ok(mv)
    }

    /// Each removal must be allowed once the earlier ones are applied
    /// (docs/rules.md 4.3 accepts any valid order); returns the first that is not.
    fn check_removal_order(&self, rules: &Rules, removals: &[Square]) -> Result<(), Square> {
        let mut theirs = self.pieces(!self.side_to_move());
        for &r in removals {
            if !removable(rules.layout(), rules.mill_removal, theirs).contains(r) {
                return Err(r);
            }
            theirs ^= r.bit();
        }
        Ok(())
    }

    /// Words for a front end on why a well-formed token is not legal here.
    fn why_illegal(&self, rules: &Rules, text: &MoveText, legal: &MoveList) -> MoveReason {
        let me = self.side_to_move();
        if legal.is_empty() {
            return MoveReason::GameOver(me);
        }
        let owes = legal.iter().all(|m| m.is_removal_only());
        let Some(to) = text.to else {
            return if owes {
                MoveReason::RemovalsNotAllowed(Alternatives(legal.as_slice().to_vec()))
            } else {
                MoveReason::NothingOwed
            };
        };
        if owes {
            return MoveReason::MustRemoveFirst(me);
        }
        if self.occupied().contains(to) || self.marked().contains(to) {
            return MoveReason::Occupied(to);
        }
        match text.from {
            None if self.in_hand(me) == 0 => return MoveReason::NoneInHand(me),
            Some(from) => {
                if !self.pieces(me).contains(from) {
                    return MoveReason::NotOwnPiece { from, side: me };
                }
                if self.in_hand(me) > 0 && !rules.lasker {
                    return MoveReason::MustPlace(me);
                }
                if !self.can_fly(rules, me)
                    && !rules.layout().adjacent[from.index()].contains(to)
                    && !legal
                        .iter()
                        .any(|m| m.from() == Some(from) && m.to() == Some(to))
                {
                    return MoveReason::NotAdjacent { from, to, side: me };
                }
            }
            None => {}
        }
        let same_turn: Vec<Move> = legal
            .iter()
            .copied()
            .filter(|m| m.from() == text.from && m.to() == text.to)
            .collect();
        if same_turn.is_empty() {
            let back = text
                .from
                .is_some_and(|from| self.shuttle_banned(rules, me, from, to));
            return if back {
                MoveReason::ShuttleBanned
            } else {
                MoveReason::ReformBanned
            };
        }
        // The mills the move closes.
        let layout = rules.layout();
        let after = match text.from {
            Some(f) => (self.pieces(me) ^ f.bit()) | to.bit(),
            None => self.pieces(me) | to.bit(),
        };
        let mills = layout.mills_at(after, to) as usize;
        if same_turn.iter().all(|m| m.num_removals() == 0) && !text.removals.is_empty() {
            let all_spent = layout
                .lines_through(to)
                .filter(|&(_, line)| after & line == line)
                .all(|(i, _)| self.spent_line(layout, me, i));
            let off_board = matches!(
                rules.placing_mill,
                PlacingMill::Hand | PlacingMill::HandAgain | PlacingMill::Tally
            );
            return if mills == 0 {
                MoveReason::NoMill
            } else if rules.one_time_mill && all_spent {
                MoveReason::SpentMill
            } else if text.from.is_none() && off_board {
                MoveReason::PlacementMillOffBoard(rules.placing_mill)
            } else {
                MoveReason::NothingRemovable
            };
        }
        let allowed = same_turn[0].num_removals();
        let given = text.removals.len();
        if text.removals.is_empty() {
            MoveReason::MustRemove(Alternatives(same_turn))
        } else if given != allowed && same_turn.iter().all(|m| m.num_removals() == allowed) {
            let legal = Alternatives(same_turn);
            if mills == allowed {
                MoveReason::OneRemovalPerMill {
                    mills: allowed,
                    given,
                    legal,
                }
            } else {
                MoveReason::RemovalCount {
                    allowed,
                    given,
                    legal,
                }
            }
        } else {
            MoveReason::RemovalsNotAllowed(Alternatives(same_turn))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_all_forms_case_insensitively() {
        let m = MoveText::parse("A1-a4XG7").unwrap();
        assert_eq!(m.from.unwrap().name(), "a1");
        assert_eq!(m.to.unwrap().name(), "a4");
        assert_eq!(m.removals.len(), 1);
        assert_eq!(MoveText::parse("d2xa7xg7").unwrap().removals.len(), 2);
        let only = MoveText::parse("XG7xa1").unwrap();
        assert_eq!((only.from, only.to, only.removals.len()), (None, None, 2));
        for bad in [
            "", "d4", "h1", "d2x", "a1-", "a1a4", "d2 ", "x", "xd4", "d8", "xa1-a4",
        ] {
            assert!(MoveText::parse(bad).is_err(), "{bad}");
        }
    }

    /// The reason `token` is refused after `moves` from the start.
    fn refused(moves: &str, token: &str) -> MoveReason {
        let rules = Rules::default();
        let pos = moves
            .split_whitespace()
            .fold(Position::start(&rules), |p, m| {
                let mv = p.parse_move(&rules, m).unwrap();
                p.make(&rules, mv)
            });
        pos.parse_move(&rules, token).unwrap_err().reason
    }

    #[test]
    fn too_many_removals_are_counted_against_the_mills() {
        let one = refused("b2 g7 d2 a7", "f2xa7xg7");
        assert!(
            matches!(
                one,
                MoveReason::OneRemovalPerMill {
                    mills: 1,
                    given: 2,
                    ..
                }
            ),
            "{one:?}"
        );
        assert!(one.to_string().starts_with(
            "one removal per mill: it closes one mill, so it removes one piece, not 2: legal are f2xa7, f2xg7"
        ));
        // a4 closes two mills, but the standard rules remove one piece.
        let double = refused("a1 g7 a7 g1 b4 e3 c4 e5", "a4xg7xg1");
        assert!(
            matches!(
                double,
                MoveReason::RemovalCount {
                    allowed: 1,
                    given: 2,
                    ..
                }
            ),
            "{double:?}"
        );
        assert!(
            double
                .to_string()
                .starts_with("it removes one piece under these rules, not 2")
        );
        // The right count at a wrong point.
        let wrong = refused("b2 g7 d2 a7", "f2xb2");
        assert!(
            matches!(wrong, MoveReason::RemovalsNotAllowed(_)),
            "{wrong:?}"
        );
    }
}
