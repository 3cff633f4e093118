//! The `go` command's arguments: read by the engine's command loop,
//! written by the match runner, word by word as protocol.md lists them.

use std::fmt;

use nom::branch::alt;
use nom::bytes::complete::{tag_no_case, take_till1};
use nom::character::complete::{space0, space1, u32 as dec_u32, u64 as dec_u64};
use nom::combinator::{all_consuming, map, opt, rest, value};
use nom::multi::many0;
use nom::sequence::preceded;
use nom::{IResult, Parser};

/// The arguments of `go`, as given.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct GoArgs {
    /// `depth N`: at most N plies (whole turns).
    pub depth: Option<u32>,
    /// `nodes N`: stop after about N nodes.
    pub nodes: Option<u64>,
    /// `movetime MS`: think MS milliseconds.
    pub movetime: Option<u64>,
    /// `wtime MS`: white's time left on the clock, in milliseconds.
    pub wtime: Option<u64>,
    /// `btime MS`: black's time left on the clock, in milliseconds.
    pub btime: Option<u64>,
    /// `winc MS`: white's increment per move, in milliseconds.
    pub winc: Option<u64>,
    /// `binc MS`: black's increment per move, in milliseconds.
    pub binc: Option<u64>,
    /// `movestogo N`: moves left until the next time control.
    pub movestogo: Option<u32>,
    /// `infinite`: search until `stop`, never answering before it.
    pub infinite: bool,
    /// `ponder`: search on the opponent's time until `ponderhit` or `stop`.
    pub ponder: bool,
    /// `searchmoves m1 m2 ...`: consider only these root moves, as given
    /// (empty: all); the list runs to the next `go` keyword.
    pub searchmoves: Vec<String>,
}

/// `go` arguments that cannot be read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum GoError {
    /// `go` arguments that cannot be read though no single word is at
    /// fault (all of them, as given).
    #[error(
        "cannot read go arguments '{0}': expected depth N, nodes N, movetime MS, \
         wtime MS, btime MS, winc MS, binc MS, movestogo N, infinite, ponder, searchmoves m1 m2 ..."
    )]
    Arguments(String),
    /// A `go` argument followed by a word that is not a whole number in
    /// range (`go depth -1`; `depth` and `movestogo` take 32 bits).
    #[error("go {key} takes a whole number of {unit}, not '{found}'")]
    Number {
        /// The argument (`depth`, `movetime`, ...).
        key: &'static str,
        /// What its number counts (`plies`, `milliseconds`, ...).
        unit: &'static str,
        /// The word found instead.
        found: String,
    },
    /// A `go` argument that takes a number ends the line.
    #[error("go {key} needs a whole number of {unit} after it")]
    MissingNumber {
        /// The argument (`depth`, `movetime`, ...).
        key: &'static str,
        /// What its number counts (`plies`, `milliseconds`, ...).
        unit: &'static str,
    },
    /// A word that is no `go` argument (the word, as given).
    #[error(
        "go: unknown argument '{0}' (expected depth N, nodes N, movetime MS, \
         wtime MS, btime MS, winc MS, binc MS, movestogo N, infinite, ponder, searchmoves m1 m2 ...)"
    )]
    Unknown(String),
}

/// The `go` arguments given, in a fixed order: `searchmoves` last, as its
/// list runs to the next keyword.
pub(super) fn write_args(f: &mut fmt::Formatter<'_>, go: &GoArgs) -> fmt::Result {
    let numbers = [
        ("depth", go.depth.map(u64::from)),
        ("nodes", go.nodes),
        ("movetime", go.movetime),
        ("wtime", go.wtime),
        ("btime", go.btime),
        ("winc", go.winc),
        ("binc", go.binc),
        ("movestogo", go.movestogo.map(u64::from)),
    ];
    for (key, n) in numbers {
        if let Some(n) = n {
            write!(f, " {key} {n}")?;
        }
    }
    for (key, on) in [("infinite", go.infinite), ("ponder", go.ponder)] {
        if on {
            write!(f, " {key}")?;
        }
    }
    if !go.searchmoves.is_empty() {
        write!(f, " searchmoves {}", go.searchmoves.join(" "))?;
    }
    Ok(())
}

fn word(input: &str) -> IResult<&str, &str> {
    take_till1(|c: char| c.is_ascii_whitespace()).parse(input)
}

/// One `go` argument.
#[derive(Clone)]
enum GoArg {
    Depth(u32),
    Nodes(u64),
    MoveTime(u64),
    WTime(u64),
    BTime(u64),
    WInc(u64),
    BInc(u64),
    MovesToGo(u32),
    Infinite,
    Ponder,
    SearchMoves(Vec<String>),
}

fn numbered<'a, O, F>(
    key: &'static str,
    number: F,
    make: fn(O) -> GoArg,
) -> impl Parser<&'a str, Output = GoArg, Error = nom::error::Error<&'a str>>
where
    F: Parser<&'a str, Output = O, Error = nom::error::Error<&'a str>>,
{
    map(preceded((tag_no_case(key), space1), number), make)
}

fn go_arg(input: &str) -> IResult<&str, GoArg> {
    alt((
        numbered("depth", dec_u32, GoArg::Depth),
        numbered("nodes", dec_u64, GoArg::Nodes),
        numbered("movetime", dec_u64, GoArg::MoveTime),
        numbered("wtime", dec_u64, GoArg::WTime),
        numbered("btime", dec_u64, GoArg::BTime),
        numbered("winc", dec_u64, GoArg::WInc),
        numbered("binc", dec_u64, GoArg::BInc),
        numbered("movestogo", dec_u32, GoArg::MovesToGo),
        value(GoArg::Infinite, tag_no_case("infinite")),
        value(GoArg::Ponder, tag_no_case("ponder")),
        map(
            preceded(
                tag_no_case("searchmoves"),
                many0(preceded(space1, move_word)),
            ),
            |ms: Vec<&str>| GoArg::SearchMoves(ms.into_iter().map(str::to_string).collect()),
        ),
    ))
    .parse(input)
}

/// The `go` arguments followed by a number, with what it counts and
/// whether it must fit 32 bits.
const NUMBERED: [(&str, &str, bool); 8] = [
    ("depth", "plies", true),
    ("nodes", "nodes", false),
    ("movetime", "milliseconds", false),
    ("wtime", "milliseconds", false),
    ("btime", "milliseconds", false),
    ("winc", "milliseconds", false),
    ("binc", "milliseconds", false),
    ("movestogo", "moves", true),
];

/// The `go` words that stand alone.
const FLAGS: [&str; 2] = ["infinite", "ponder"];

/// Whether `w` is a `go` keyword that ends a searchmoves list.
fn is_go_key(w: &str) -> bool {
    NUMBERED
        .iter()
        .map(|n| n.0)
        .chain(FLAGS)
        .any(|k| k.eq_ignore_ascii_case(w))
}

/// The argument that makes `go` arguments unreadable, found word by word
/// with the same number parsers.
fn go_misfit(args: &str) -> GoError {
    let mut words = args.split_whitespace().peekable();
    while let Some(w) = words.next() {
        if let Some(&(key, unit, small)) = NUMBERED.iter().find(|n| n.0.eq_ignore_ascii_case(w)) {
            let Some(found) = words.next() else {
                return GoError::MissingNumber { key, unit };
            };
            let fits = if small {
                all_consuming(dec_u32::<_, ()>).parse(found).is_ok()
            } else {
                all_consuming(dec_u64::<_, ()>).parse(found).is_ok()
            };
            if !fits {
                return GoError::Number {
                    key,
                    unit,
                    found: found.to_string(),
                };
            }
        } else if w.eq_ignore_ascii_case("searchmoves") {
            while words.next_if(|m| !is_go_key(m)).is_some() {}
        } else if !FLAGS.iter().any(|f| f.eq_ignore_ascii_case(w)) {
            return GoError::Unknown(w.to_string());
        }
    }
    GoError::Arguments(args.to_string())
}

/// A searchmoves entry: any word that is not a `go` keyword.
fn move_word(input: &str) -> IResult<&str, &str> {
    let (rest, w) = word(input)?;
    if is_go_key(w) {
        return Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Tag,
        )));
    }
    Ok((rest, w))
}

/// The arguments of `go` (after the word).
pub(super) fn parse(args: &str) -> Result<GoArgs, GoError> {
    let parsed = all_consuming((
        opt(go_arg),
        many0(preceded(space1, go_arg)),
        space0,
        opt(rest),
    ))
    .parse(args);
    let bad = || go_misfit(args);
    let (first, more) = match parsed {
        Ok((_, (first, more, _, leftover))) if leftover.is_none_or(str::is_empty) => (first, more),
        _ => return Err(bad()),
    };
    if first.is_none() && !args.is_empty() {
        return Err(bad());
    }
    let mut g = GoArgs::default();
    for arg in first.into_iter().chain(more) {
        match arg {
            GoArg::Depth(n) => g.depth = Some(n),
            GoArg::Nodes(n) => g.nodes = Some(n),
            GoArg::MoveTime(n) => g.movetime = Some(n),
            GoArg::WTime(n) => g.wtime = Some(n),
            GoArg::BTime(n) => g.btime = Some(n),
            GoArg::WInc(n) => g.winc = Some(n),
            GoArg::BInc(n) => g.binc = Some(n),
            GoArg::MovesToGo(n) => g.movestogo = Some(n),
            GoArg::Infinite => g.infinite = true,
            GoArg::Ponder => g.ponder = true,
            GoArg::SearchMoves(ms) => g.searchmoves.extend(ms),
        }
    }
    Ok(g)
}
