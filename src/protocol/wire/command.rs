//! Reading one line of the protocol into a typed command.

use nom::branch::alt;
use nom::bytes::complete::{tag_no_case, take_till1};
use nom::character::complete::{space0, space1, u32 as dec_u32, u64 as dec_u64};
use nom::combinator::{all_consuming, map, opt, rest, value};
use nom::multi::many0;
use nom::sequence::preceded;
use nom::{IResult, Parser};

/// Where `position` starts from.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Setup {
    StartPos,
    Fen(String),
    /// A GBGP `pos` string (`w:Wa1,b2:Bd7:3`).
    Gbgp(String),
}

/// The arguments of `go`, as given.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct GoArgs {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
}

#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Command {
    Uci,
    Gbgp,
    IsReady,
    SetOption { name: String, value: Option<String> },
    NewGame,
    Position { setup: Setup, moves: Vec<String> },
    Go(GoArgs),
    Stop,
    PonderHit,
    Quit,
    Display,
    Perft(u32),
    Eval,
    Moves,
    Bench,
}

/// Parses one input line; `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    let (word, args) = match line.split_once(|c: char| c.is_ascii_whitespace()) {
        Some((w, a)) => (w, a.trim()),
        None => (line, ""),
    };
    let no_args = |cmd: Command| {
        if args.is_empty() {
            Ok(Some(cmd))
        } else {
            Err(format!("'{word}' takes no arguments, got '{args}'"))
        }
    };
    match word.to_ascii_lowercase().as_str() {
        "uci" => no_args(Command::Uci),
        "gbgp" => no_args(Command::Gbgp),
        "isready" => no_args(Command::IsReady),
        "ucinewgame" | "newgame" => no_args(Command::NewGame),
        "stop" => no_args(Command::Stop),
        "ponderhit" => no_args(Command::PonderHit),
        "quit" => no_args(Command::Quit),
        "d" => no_args(Command::Display),
        "eval" => no_args(Command::Eval),
        "moves" => no_args(Command::Moves),
        "bench" => no_args(Command::Bench),
        "setoption" => setoption(args).map(Some),
        "position" => position(args).map(Some),
        "go" => go(args).map(|g| Some(Command::Go(g))),
        "perft" => match args.parse::<u32>() {
            Ok(d) if d <= 20 => Ok(Some(Command::Perft(d))),
            _ => Err(format!("perft takes a depth from 0 to 20, got '{args}'")),
        },
        _ => Err(format!("unknown command '{word}'")),
    }
}

/// `name <Name words> [value <value words>]`; names may contain spaces.
fn setoption(args: &str) -> Result<Command, String> {
    let usage = || "usage: setoption name <Name> [value <value>]".to_string();
    let words: Vec<&str> = args.split_ascii_whitespace().collect();
    if words.first().map(|w| w.eq_ignore_ascii_case("name")) != Some(true) {
        return Err(usage());
    }
    let value_at = words.iter().position(|w| w.eq_ignore_ascii_case("value"));
    let name_words = &words[1..value_at.unwrap_or(words.len())];
    if name_words.is_empty() {
        return Err(usage());
    }
    let value = value_at.map(|i| words[i + 1..].join(" "));
    if value.as_deref() == Some("") {
        return Err("setoption: 'value' must be followed by a value".to_string());
    }
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value,
    })
}

fn word(input: &str) -> IResult<&str, &str> {
    take_till1(|c: char| c.is_ascii_whitespace()).parse(input)
}

fn is_keyword(w: &str) -> bool {
    w.eq_ignore_ascii_case("moves")
}

/// `startpos | fen <FEN> | pos <pos>`, then optionally `moves ...`.
fn position(args: &str) -> Result<Command, String> {
    let words: Vec<&str> = args.split_ascii_whitespace().collect();
    let moves_at = words.iter().position(|w| is_keyword(w));
    let (head, moves) = match moves_at {
        Some(i) => (&words[..i], words[i + 1..].to_vec()),
        None => (&words[..], Vec::new()),
    };
    let setup = match head {
        [kind] if kind.eq_ignore_ascii_case("startpos") => Setup::StartPos,
        [kind, fen @ ..] if kind.eq_ignore_ascii_case("fen") && !fen.is_empty() => {
            Setup::Fen(fen.join(" "))
        }
        [kind, pos] if kind.eq_ignore_ascii_case("pos") => Setup::Gbgp(pos.to_string()),
        _ => {
            return Err(
                "usage: position startpos | fen <FEN> | pos <pos> [moves <m1> <m2> ...]"
                    .to_string(),
            );
        }
    };
    Ok(Command::Position {
        setup,
        moves: moves.into_iter().map(str::to_string).collect(),
    })
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

/// A searchmoves entry: any word that is not a `go` keyword.
fn move_word(input: &str) -> IResult<&str, &str> {
    let (rest, w) = word(input)?;
    const KEYS: [&str; 10] = [
        "depth",
        "nodes",
        "movetime",
        "wtime",
        "btime",
        "winc",
        "binc",
        "movestogo",
        "infinite",
        "ponder",
    ];
    if KEYS.iter().any(|k| k.eq_ignore_ascii_case(w)) {
        return Err(nom::Err::Error(nom::error::Error::new(
            input,
            nom::error::ErrorKind::Tag,
        )));
    }
    Ok((rest, w))
}

fn go(args: &str) -> Result<GoArgs, String> {
    let parsed = all_consuming((
        opt(go_arg),
        many0(preceded(space1, go_arg)),
        space0,
        opt(rest),
    ))
    .parse(args);
    let bad = || {
        format!(
            "cannot read go arguments '{args}': expected depth N, nodes N, movetime MS, \
             wtime MS, btime MS, winc MS, binc MS, movestogo N, infinite, ponder, searchmoves m1 m2 ..."
        )
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_go() {
        let Some(Command::Go(g)) =
            parse("go wtime 1000 btime 2000 winc 10 binc 10 searchmoves d2 a1-a4 depth 3").unwrap()
        else {
            panic!()
        };
        assert_eq!(g.wtime, Some(1000));
        assert_eq!(g.btime, Some(2000));
        assert_eq!(g.depth, Some(3));
        assert_eq!(g.searchmoves, vec!["d2", "a1-a4"]);
        assert_eq!(parse("go").unwrap(), Some(Command::Go(GoArgs::default())));
        assert!(parse("go depth").is_err());
        assert!(parse("go depth x").is_err());
        assert!(parse("go fast").is_err());
        assert!(parse("go depth 3 garbage").is_err());
        assert!(parse("go depth -3").is_err());
        let Some(Command::Go(g)) = parse("GO  Infinite").unwrap() else {
            panic!()
        };
        assert!(g.infinite);
    }

    #[test]
    fn parses_setoption_and_position() {
        assert_eq!(
            parse("setoption name Move Overhead value 50").unwrap(),
            Some(Command::SetOption {
                name: "Move Overhead".into(),
                value: Some("50".into())
            })
        );
        assert_eq!(
            parse("setoption name Clear Hash").unwrap(),
            Some(Command::SetOption {
                name: "Clear Hash".into(),
                value: None
            })
        );
        assert!(parse("setoption name Hash value").is_err());
        assert!(parse("setoption Hash 3").is_err());
        assert_eq!(
            parse("position fen 3/3/3/6/3/3/3 w 9 9 0 1 moves d2 a4").unwrap(),
            Some(Command::Position {
                setup: Setup::Fen("3/3/3/6/3/3/3 w 9 9 0 1".into()),
                moves: vec!["d2".into(), "a4".into()]
            })
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position startpos d2").is_err());
        assert_eq!(parse("   ").unwrap(), None);
        assert!(parse("bogus").is_err());
        assert!(parse("uci now").is_err());
    }
}
