//! The position string's grammar: its fields as written, parsed with nom
//! before they are checked against the rules (`super`).

use nom::branch::alt;
use nom::bytes::complete::tag;
use nom::character::complete::{char, digit1, one_of, space1};
use nom::combinator::{map, map_res, opt, value};
use nom::multi::{count, separated_list1};
use nom::sequence::preceded;
use nom::{IResult, Parser};

use crate::board::{Bitboard, Square};
use crate::color::Color;
use crate::notation::square;
use crate::outcome::{EndReason, GameResult, Outcome};
use crate::position::Owed;

/// One rank's contents as written: pieces and runs of empty points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Cell {
    Piece(Color),
    Marked,
    Empty(usize),
}

pub(super) fn cells(input: &str) -> IResult<&str, Vec<Cell>> {
    nom::multi::many1(alt((
        value(Cell::Piece(Color::White), one_of("Ww")),
        value(Cell::Piece(Color::Black), one_of("Bb")),
        value(Cell::Marked, one_of("Mm")),
        map(one_of("123456"), |d| Cell::Empty(d as usize - '0' as usize)),
    )))
    .parse(input)
}

pub(super) fn number<T: std::str::FromStr>(input: &str) -> IResult<&str, T> {
    map_res(digit1, str::parse).parse(input)
}

pub(super) fn line(input: &str) -> IResult<&str, [Square; 3]> {
    map(count(square, 3), |v| [v[0], v[1], v[2]]).parse(input)
}

pub(super) fn bans(input: &str) -> IResult<&str, Lines> {
    alt((
        value(Vec::new(), tag("-")),
        separated_list1(char(','), line),
    ))
    .parse(input)
}

/// The lines of a ban field.
pub(super) type Lines = Vec<[Square; 3]>;

pub(super) fn points(input: &str) -> IResult<&str, Bitboard> {
    alt((
        value(Bitboard::EMPTY, tag("-")),
        map(nom::multi::many1(square), |v| {
            v.into_iter().fold(Bitboard::EMPTY, |a, s| a | s.bit())
        }),
    ))
    .parse(input)
}

pub(super) fn pair<T: Clone>(
    item: impl Fn(&str) -> IResult<&str, T>,
) -> impl Fn(&str) -> IResult<&str, [T; 2]> {
    move |input| {
        let (rest, (a, _, b)) = (&item, char('/'), &item).parse(input)?;
        Ok((rest, [a, b]))
    }
}

pub(super) fn shuttle(input: &str) -> IResult<&str, Option<(Square, Square)>> {
    alt((
        value(None, tag("-")),
        map((square, square), |(f, t)| Some((f, t))),
    ))
    .parse(input)
}

/// `<n>[o][a][s]`: a count and its flags.
pub(super) fn owed_part(input: &str) -> IResult<&str, (u8, bool, bool, bool)> {
    map(
        (number, opt(char('o')), opt(char('a')), opt(char('s'))),
        |(n, o, a, s)| (n, o.is_some(), a.is_some(), s.is_some()),
    )
    .parse(input)
}

pub(super) fn owed(input: &str) -> IResult<&str, Owed> {
    map(
        (owed_part, opt(preceded(char('/'), owed_part))),
        |((count, own, adjacent, then_same), queued)| {
            let (queued, queued_own, queued_adjacent, _) = queued.unwrap_or_default();
            Owed {
                count,
                own,
                adjacent,
                then_same,
                queued,
                queued_own,
                queued_adjacent,
            }
        },
    )
    .parse(input)
}

pub(super) const RESULTS: [(&str, GameResult); 3] = [
    ("white", GameResult::Win(Color::White)),
    ("black", GameResult::Win(Color::Black)),
    ("draw", GameResult::Draw),
];

/// The reasons a rule can end a game during a turn.
pub(super) const REASONS: [(&str, EndReason); 3] = [
    ("pieces", EndReason::FewerPieces(3)),
    ("boardfull", EndReason::BoardFull),
    ("blocked", EndReason::Blocked),
];

pub(super) fn named<T: Clone>(
    table: &'static [(&'static str, T)],
) -> impl Fn(&str) -> IResult<&str, T> {
    move |input| {
        for (name, v) in table {
            if let Ok((rest, _)) = tag::<_, _, nom::error::Error<&str>>(*name).parse(input) {
                return Ok((rest, v.clone()));
            }
        }
        Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Tag,
        )))
    }
}

pub(super) fn end(input: &str) -> IResult<&str, Outcome> {
    map(
        (named(&RESULTS), char(':'), named(&REASONS)),
        |(result, _, reason)| Outcome { result, reason },
    )
    .parse(input)
}

/// One `name:value` field of the rule-set state.
#[derive(Clone)]
pub(super) enum Extra {
    Spent([Bitboard; 2]),
    Shuttle([Option<(Square, Square)>; 2]),
    Owed(Owed),
    End(Outcome),
}

pub(super) fn extra(input: &str) -> IResult<&str, Extra> {
    alt((
        map(preceded(tag("spent:"), pair(points)), Extra::Spent),
        map(preceded(tag("shuttle:"), pair(shuttle)), Extra::Shuttle),
        map(preceded(tag("owe:"), owed), Extra::Owed),
        map(preceded(tag("end:"), end), Extra::End),
    ))
    .parse(input)
}

/// The fields as written, before validation against the rules.
pub(super) struct Fields {
    pub(super) ranks: Vec<Vec<Cell>>,
    pub(super) side: Color,
    pub(super) hands: [u32; 2],
    pub(super) clock: u32,
    pub(super) fullmove: u32,
    pub(super) bans: Option<(Lines, Lines)>,
    pub(super) extras: Vec<Extra>,
}

pub(super) fn side(input: &str) -> IResult<&str, Color> {
    alt((
        value(Color::White, one_of("wW")),
        value(Color::Black, one_of("bB")),
    ))
    .parse(input)
}

pub(super) fn ranks(input: &str) -> IResult<&str, Vec<Vec<Cell>>> {
    separated_list1(char('/'), cells).parse(input)
}

pub(super) fn fields(input: &str) -> IResult<&str, Fields> {
    let (rest, (ranks, side, white, black, clock, fullmove, bans)) = (
        ranks,
        preceded(space1, side),
        preceded(space1, number),
        preceded(space1, number),
        preceded(space1, number),
        preceded(space1, number),
        opt((preceded(space1, bans), preceded(space1, bans))),
    )
        .parse(input)?;
    let (rest, extras) = nom::multi::many0(preceded(space1, extra)).parse(rest)?;
    let fields = Fields {
        ranks,
        side,
        hands: [white, black],
        clock,
        fullmove,
        bans,
        extras,
    };
    Ok((rest, fields))
}
