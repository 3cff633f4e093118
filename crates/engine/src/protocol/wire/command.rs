//! The commands a front end sends: read by the engine's command loop,
//! written by the match runner.

use std::fmt;

use super::go::{self, GoArgs, GoError};
use super::{Dialect, gbgp};
use morris_rules::{Game, Setup, Start};

/// What `position` sets up: a start, then moves.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionArgs {
    /// `startpos` or `fen <FEN>`, then `moves ...`.
    Setup(Setup),
    /// `pos <GBGP position>`, then `moves ...`.
    Gbgp {
        /// The GBGP position string as given
        /// (`<side>:W<points>:B<points>:<full-move number>`).
        pos: String,
        /// The moves to play from it, as given (checked when played).
        moves: Vec<String>,
    },
}

impl PositionArgs {
    /// The game so far as a `position` command: from `startpos` or the
    /// start's FEN, or for a GBGP engine a set-up start as `pos`.
    pub fn of_game(game: &Game, dialect: Dialect) -> PositionArgs {
        let setup = Setup::of_game(game);
        match (dialect, &setup.start) {
            (Dialect::Gbgp, Start::Fen(_)) => PositionArgs::Gbgp {
                pos: gbgp::write_pos(game.start()),
                moves: setup.moves,
            },
            (Dialect::Gbgp, Start::Initial) | (Dialect::Uci, Start::Initial | Start::Fen(_)) => {
                PositionArgs::Setup(setup)
            }
        }
    }
}

/// One command line of protocol.md's "Commands", as [`parse`] reads it
/// and `Display` writes it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Command {
    /// The handshake (`uci` or `gbgp`), which chooses the dialect.
    Hello(Dialect),
    /// `isready`: answered `readyok` at once, also while a search runs.
    IsReady,
    /// `setoption name <Name> [value <value>]`: sets a rule or engine
    /// option.
    SetOption {
        /// The option's name, its words joined by single spaces
        /// (`Move Overhead`), case as given.
        name: String,
        /// The words after `value`, joined by single spaces; `None`
        /// without `value` (a button).
        value: Option<String>,
    },
    /// `ucinewgame`, or GBGP's `newgame`.
    NewGame(Dialect),
    /// `position startpos | fen <FEN> | pos <pos> [moves ...]`: sets up
    /// the position and plays the moves from it.
    Position(PositionArgs),
    /// `go [depth N] [nodes N] [movetime MS] ...`: searches the current
    /// position, answering with one `bestmove`.
    Go(GoArgs),
    /// `stop`: ends the search at once, which prints its `bestmove`.
    Stop,
    /// `ponderhit`: the pondered move was played; the pondering search
    /// goes on with its clock limits counted from now.
    PonderHit,
    /// `quit`: stops any search and ends the process.
    Quit,
    /// `d`: draws the board, then the position string, the key, the side
    /// to move, the hands and the legal moves.
    Display,
    /// `perft N`: counts the leaves of the legal-move tree N plies deep
    /// (0 to 20), move by move.
    Perft(u32),
    /// `eval`: the static evaluation of the position, term by term.
    Eval,
    /// `moves`: the legal moves, sorted as text (none once the game is
    /// over).
    Moves,
    /// `bench`: searches the fixed benchmark positions and prints the node
    /// count that signs the search.
    Bench,
}

impl Command {
    /// The commands that take no arguments, read by their keyword.
    const WITHOUT_ARGUMENTS: [Command; 12] = [
        Command::Hello(Dialect::Uci),
        Command::Hello(Dialect::Gbgp),
        Command::IsReady,
        Command::NewGame(Dialect::Uci),
        Command::NewGame(Dialect::Gbgp),
        Command::Stop,
        Command::PonderHit,
        Command::Quit,
        Command::Display,
        Command::Eval,
        Command::Moves,
        Command::Bench,
    ];

    /// The command's first word.
    pub fn keyword(&self) -> &'static str {
        match self {
            Command::Hello(dialect) => dialect.name(),
            Command::IsReady => "isready",
            Command::SetOption { .. } => "setoption",
            Command::NewGame(dialect) => dialect.new_game(),
            Command::Position(_) => "position",
            Command::Go(_) => "go",
            Command::Stop => "stop",
            Command::PonderHit => "ponderhit",
            Command::Quit => "quit",
            Command::Display => "d",
            Command::Perft(_) => "perft",
            Command::Eval => "eval",
            Command::Moves => "moves",
            Command::Bench => "bench",
        }
    }
}

/// The command line, as [`parse`] reads it.
impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())?;
        match self {
            Command::SetOption { name, value } => {
                write!(f, " name {name}")?;
                match value {
                    Some(v) => write!(f, " value {v}"),
                    None => Ok(()),
                }
            }
            Command::Position(PositionArgs::Setup(setup)) => {
                match &setup.start {
                    Start::Initial => f.write_str(" startpos")?,
                    Start::Fen(fen) => write!(f, " fen {fen}")?,
                }
                write_moves(f, &setup.moves)
            }
            Command::Position(PositionArgs::Gbgp { pos, moves }) => {
                write!(f, " pos {pos}")?;
                write_moves(f, moves)
            }
            Command::Go(go) => go::write_args(f, go),
            Command::Perft(depth) => write!(f, " {depth}"),
            Command::Hello(_)
            | Command::IsReady
            | Command::NewGame(_)
            | Command::Stop
            | Command::PonderHit
            | Command::Quit
            | Command::Display
            | Command::Eval
            | Command::Moves
            | Command::Bench => Ok(()),
        }
    }
}

fn write_moves(f: &mut fmt::Formatter<'_>, moves: &[String]) -> fmt::Result {
    if !moves.is_empty() {
        write!(f, " moves {}", moves.join(" "))?;
    }
    Ok(())
}

/// A line that is not a command.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum CommandError {
    /// The first word is no command (the word, as given).
    #[error("unknown command '{0}'")]
    Unknown(String),
    /// A command that takes no arguments was given some.
    #[error("'{word}' takes no arguments, got '{args}'")]
    NoArguments {
        /// The command word, as given.
        word: String,
        /// Everything after it.
        args: String,
    },
    /// `perft` without a whole number from 0 to 20 (its arguments).
    #[error("perft takes a depth from 0 to 20, got '{0}'")]
    PerftDepth(String),
    /// `setoption` whose first word is not `name`, or without a name.
    #[error("usage: setoption name <Name> [value <value>]")]
    SetOptionUsage,
    /// `setoption ... value` with nothing after `value`.
    #[error("setoption: 'value' must be followed by a value")]
    SetOptionValue,
    /// `position` arguments of none of its forms: `startpos`, `fen <FEN>`
    /// or `pos <pos>` before `moves`.
    #[error("usage: position startpos | fen <FEN> | pos <pos> [moves <m1> <m2> ...]")]
    PositionUsage,
    /// `go` arguments that cannot be read.
    #[error(transparent)]
    Go(#[from] GoError),
}

/// Parses one input line; `Ok(None)` for a blank line.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    let (word, args) = match line.split_once(|c: char| c.is_ascii_whitespace()) {
        Some((w, a)) => (w, a.trim()),
        None => (line, ""),
    };
    let keyword = word.to_ascii_lowercase();
    if let Some(cmd) = Command::WITHOUT_ARGUMENTS
        .iter()
        .find(|c| c.keyword() == keyword)
    {
        if !args.is_empty() {
            return Err(CommandError::NoArguments {
                word: word.to_string(),
                args: args.to_string(),
            });
        }
        return Ok(Some(cmd.clone()));
    }
    match keyword.as_str() {
        "setoption" => setoption(args).map(Some),
        "position" => position(args).map(|p| Some(Command::Position(p))),
        "go" => Ok(Some(Command::Go(go::parse(args)?))),
        "perft" => match args.parse::<u32>() {
            Ok(d) if d <= 20 => Ok(Some(Command::Perft(d))),
            _ => Err(CommandError::PerftDepth(args.to_string())),
        },
        _ => Err(CommandError::Unknown(word.to_string())),
    }
}

/// `name <Name words> [value <value words>]`; names may contain spaces.
fn setoption(args: &str) -> Result<Command, CommandError> {
    let words: Vec<&str> = args.split_ascii_whitespace().collect();
    if words.first().map(|w| w.eq_ignore_ascii_case("name")) != Some(true) {
        return Err(CommandError::SetOptionUsage);
    }
    let value_at = words.iter().position(|w| w.eq_ignore_ascii_case("value"));
    let name_words = &words[1..value_at.unwrap_or(words.len())];
    if name_words.is_empty() {
        return Err(CommandError::SetOptionUsage);
    }
    let value = value_at.map(|i| words[i + 1..].join(" "));
    if value.as_deref() == Some("") {
        return Err(CommandError::SetOptionValue);
    }
    Ok(Command::SetOption {
        name: name_words.join(" "),
        value,
    })
}

/// `startpos | fen <FEN> | pos <pos>`, then optionally `moves ...`: of the
/// set-up forms, only those with a start keyword.
fn position(args: &str) -> Result<PositionArgs, CommandError> {
    let words: Vec<&str> = args.split_ascii_whitespace().collect();
    let moves_at = words.iter().position(|w| w.eq_ignore_ascii_case("moves"));
    let head = &words[..moves_at.unwrap_or(words.len())];
    let is = |word: &str, keyword: &str| word.eq_ignore_ascii_case(keyword);
    match head {
        [kind, pos] if is(kind, "pos") => Ok(PositionArgs::Gbgp {
            pos: pos.to_string(),
            moves: moves_at.map_or(Vec::new(), |i| {
                words[i + 1..].iter().map(|m| m.to_string()).collect()
            }),
        }),
        [kind] if is(kind, "startpos") => setup(args),
        [kind, _, ..] if is(kind, "fen") => setup(args),
        _ => Err(CommandError::PositionUsage),
    }
}

fn setup(args: &str) -> Result<PositionArgs, CommandError> {
    Setup::parse(args)
        .map(PositionArgs::Setup)
        .map_err(|_| CommandError::PositionUsage)
}

#[cfg(test)]
mod tests {
    use super::*;
    use morris_rules::{Position, Rules};

    fn strings(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

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
            Some(Command::Position(PositionArgs::Setup(Setup::new(
                Start::Fen("3/3/3/6/3/3/3 w 9 9 0 1".into()),
                strings(&["d2", "a4"])
            ))))
        );
        assert_eq!(
            parse("position POS w:W:B:1 MOVES d2").unwrap(),
            Some(Command::Position(PositionArgs::Gbgp {
                pos: "w:W:B:1".into(),
                moves: strings(&["d2"])
            }))
        );
        // The set-up forms without a start keyword are not `position` forms.
        for bad in [
            "position",
            "position fen",
            "position fen moves d2",
            "position startpos d2",
            "position d2 f4",
            "position 3/3/3/6/3/3/3 w 9 9 0 1",
            "position pos",
        ] {
            assert_eq!(parse(bad), Err(CommandError::PositionUsage), "{bad}");
        }
        assert_eq!(parse("   ").unwrap(), None);
        assert!(parse("bogus").is_err());
        assert!(parse("uci now").is_err());
    }

    #[track_caller]
    fn reads_back(cmd: Command) {
        let line = cmd.to_string();
        assert_eq!(parse(&line), Ok(Some(cmd)), "{line}");
    }

    #[test]
    fn every_command_reads_back() {
        for cmd in Command::WITHOUT_ARGUMENTS {
            reads_back(cmd);
        }
        reads_back(Command::Perft(7));
        reads_back(Command::SetOption {
            name: "Move Overhead".into(),
            value: Some("50".into()),
        });
        reads_back(Command::SetOption {
            name: "Clear Hash".into(),
            value: None,
        });
        let go = GoArgs {
            depth: Some(12),
            nodes: Some(1 << 40),
            movetime: Some(250),
            wtime: Some(60_000),
            btime: Some(59_000),
            winc: Some(100),
            binc: Some(0),
            movestogo: Some(30),
            infinite: true,
            ponder: true,
            searchmoves: strings(&["d2", "a1-a4xb6"]),
        };
        reads_back(Command::Go(go.clone()));
        reads_back(Command::Go(GoArgs::default()));
        reads_back(Command::Go(GoArgs {
            wtime: Some(1000),
            binc: Some(10),
            searchmoves: Vec::new(),
            ..go
        }));
    }

    #[test]
    fn go_commands_are_written_as_the_match_runner_sends_them() {
        let clock = GoArgs {
            wtime: Some(5000),
            btime: Some(4000),
            winc: Some(100),
            binc: Some(0),
            ..GoArgs::default()
        };
        assert_eq!(
            Command::Go(clock).to_string(),
            "go wtime 5000 btime 4000 winc 100 binc 0"
        );
        let depth = GoArgs {
            depth: Some(3),
            ..GoArgs::default()
        };
        assert_eq!(Command::Go(depth).to_string(), "go depth 3");
        assert_eq!(
            Command::SetOption {
                name: "Hash".into(),
                value: Some(String::new())
            }
            .to_string(),
            "setoption name Hash value "
        );
    }

    #[test]
    fn position_commands_of_games_in_both_dialects() {
        let rules = Rules::default();
        let position = |game: &Game, dialect| {
            let cmd = Command::Position(PositionArgs::of_game(game, dialect));
            let line = cmd.to_string();
            assert_eq!(parse(&line), Ok(Some(cmd)), "{line}");
            line
        };
        let mut game = Game::new(rules, Position::start(&rules));
        for d in Dialect::ALL {
            assert_eq!(position(&game, d), "position startpos");
        }
        game.play_text("d2").unwrap();
        game.play_text("f4").unwrap();
        for d in Dialect::ALL {
            assert_eq!(position(&game, d), "position startpos moves d2 f4");
        }
        let fen = "W2/3/3/6/3/3/2B w 8 8 0 2";
        let mut game = Game::new(rules, Position::from_fen(fen, &rules).unwrap());
        assert_eq!(position(&game, Dialect::Uci), format!("position fen {fen}"));
        assert_eq!(position(&game, Dialect::Gbgp), "position pos w:Wa7:Bg1:2");
        game.play_text("b4").unwrap();
        assert_eq!(
            position(&game, Dialect::Uci),
            format!("position fen {fen} moves b4")
        );
        assert_eq!(
            position(&game, Dialect::Gbgp),
            "position pos w:Wa7:Bg1:2 moves b4"
        );
    }
}
