//! The spelling of the other public mill engine family (`proto=sanmill` in
//! `morris match`; only the match runner speaks it). It is the UCI-like
//! protocol with two differences: a turn's removals are separate tokens of
//! the same side (`a1-a4`, then `xg7`), and the best move ends a one-line
//! answer (`info score 12 bestmove d2`) that free-form debug lines may
//! follow. Each message has one writer and one reader here.

use std::fmt;

use nom::Parser;
use nom::bytes::complete::tag_no_case;
use nom::combinator::all_consuming;
use nom::sequence::preceded;

use super::reply::ReplyError;
use morris_rules::square;
use morris_rules::{Move, MoveText, Square};

/// One turn token: a placement or slide without its removals, or one
/// removal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Token {
    /// A placement (`d2`) or a slide or fly (`a1-a4`), without removals.
    Move {
        /// The point the piece leaves; `None` for a placement.
        from: Option<Square>,
        /// The point the piece goes to.
        to: Square,
    },
    /// One removal, `x<point>`.
    Removal(Square),
}

/// A token that is neither a move without removals nor one removal.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("not a sanmill turn token: expected <to>, <from>-<to> or x<point>, one removal a token")]
pub struct TokenError;

impl Token {
    /// Reads `d2`, `a1-a4` or `xg7`, case-insensitively.
    pub fn parse(text: &str) -> Result<Token, TokenError> {
        if let Ok((_, sq)) = all_consuming(preceded(tag_no_case("x"), square)).parse(text) {
            return Ok(Token::Removal(sq));
        }
        match MoveText::parse(text) {
            Ok(MoveText {
                from,
                to: Some(to),
                removals,
            }) if removals.is_empty() => Ok(Token::Move { from, to }),
            Ok(_) | Err(_) => Err(TokenError),
        }
    }

    /// Our compound move as turn tokens: the move (none for a
    /// removal-only turn), then one per removal.
    pub fn split(mv: Move) -> impl Iterator<Item = Token> {
        let head = mv.to().map(|to| Token::Move {
            from: mv.from(),
            to,
        });
        head.into_iter().chain(mv.removals().map(Token::Removal))
    }

    /// Turn tokens joined into one compound token of our notation
    /// (`a1-a4`, `xg7` → `a1-a4xg7`), for the referee to read.
    pub fn join(tokens: &[Token]) -> String {
        tokens.iter().map(Token::to_string).collect()
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Token::Move {
                from: Some(from),
                to,
            } => write!(f, "{from}-{to}"),
            Token::Move { from: None, to } => write!(f, "{to}"),
            Token::Removal(sq) => write!(f, "x{sq}"),
        }
    }
}

/// What such an engine says instead of a move when it considers the game
/// over, or the move it found.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Best {
    /// A turn token, as written (a move or one removal; checked by the
    /// referee).
    Move(String),
    /// `bestmove draw`.
    Draw,
    /// `bestmove none` (or `bestmove (none)`).
    None,
}

impl fmt::Display for Best {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Best::Move(token) => f.write_str(token),
            Best::Draw => f.write_str("draw"),
            Best::None => f.write_str("none"),
        }
    }
}

/// A line from such an engine. Only lines that begin with `info` or
/// `bestmove` are read; everything else is debug output.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SanmillLine {
    /// `info [depth N] [score V] ...` without a best move.
    Info {
        /// `depth N`, when given.
        depth: Option<u32>,
        /// `score V` (or `score cp V`), when given: the engine's own
        /// evaluation, in its own units.
        score: Option<i32>,
    },
    /// The answer: `info ... bestmove X` on one line, or `bestmove X`.
    Answer {
        /// `depth N` before `bestmove`, when given.
        depth: Option<u32>,
        /// `score V` (or `score cp V`) before `bestmove`, when given: the
        /// engine's own evaluation, in its own units.
        score: Option<i32>,
        /// The word after `bestmove`.
        best: Best,
    },
    /// Any other line: debug output, skipped.
    Other,
}

impl SanmillLine {
    /// Reads one line; `bestmove` without a word after it is an error.
    pub fn parse(line: &str) -> Result<SanmillLine, ReplyError> {
        let mut words = line.split_whitespace();
        if !matches!(words.next(), Some("info" | "bestmove")) {
            return Ok(SanmillLine::Other);
        }
        let mut words = line.split_whitespace().peekable();
        let (mut depth, mut score, mut best) = (None, None, None);
        while let Some(word) = words.next() {
            match word {
                "depth" => depth = words.next_if(|w| w.parse::<u32>().is_ok()).map(number),
                // `score 12`, or `score cp 12` as some builds write it.
                "score" => {
                    words.next_if_eq(&"cp");
                    score = words.next_if(|w| w.parse::<i32>().is_ok()).map(number);
                }
                "bestmove" => {
                    best = Some(match words.next().ok_or(ReplyError::NoMove)? {
                        "draw" => Best::Draw,
                        "none" | "(none)" => Best::None,
                        token => Best::Move(token.to_string()),
                    });
                    break;
                }
                _ => {}
            }
        }
        Ok(match best {
            Some(best) => SanmillLine::Answer { depth, score, best },
            None => SanmillLine::Info { depth, score },
        })
    }

    /// The line as the C++ member writes it (`info score V bestmove X`),
    /// with `depth` first as the Rust member adds it: the runner only
    /// reads these lines, the round-trip test writes them.
    #[cfg(test)]
    fn to_line(&self) -> String {
        let mut line = String::new();
        let (depth, score) = match self {
            SanmillLine::Info { depth, score } | SanmillLine::Answer { depth, score, .. } => {
                (*depth, *score)
            }
            SanmillLine::Other => return line,
        };
        line.push_str("info");
        if let Some(d) = depth {
            line.push_str(&format!(" depth {d}"));
        }
        if let Some(s) = score {
            line.push_str(&format!(" score {s}"));
        }
        if let SanmillLine::Answer { best, .. } = self {
            line.push_str(&format!(" bestmove {best}"));
        }
        line
    }
}

fn number<T: std::str::FromStr>(word: &str) -> T
where
    T::Err: fmt::Debug,
{
    word.parse().expect("checked by next_if")
}

#[cfg(test)]
mod tests {
    use super::*;
    use morris_rules::testing::Rng;
    use morris_rules::{Game, Position, Rules, Variant};

    /// Random games' moves: split, written, read back and joined give the
    /// move back, in every variant.
    #[test]
    fn split_then_join_gives_the_move_back() {
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        let mut removals = 0;
        for variant in [
            Variant::Nine,
            Variant::Twelve,
            Variant::Morabaraba,
            Variant::Lasker,
        ] {
            let rules = Rules::preset(variant);
            for _ in 0..30 {
                let mut game = Game::new(rules, Position::start(&rules));
                while game.moves().len() < 200
                    && let Some(mv) = rng.legal_move(&game)
                {
                    let text: Vec<String> = Token::split(mv).map(|t| t.to_string()).collect();
                    removals += text.len() - 1;
                    let tokens: Vec<Token> =
                        text.iter().map(|t| Token::parse(t).unwrap()).collect();
                    assert_eq!(Token::join(&tokens), mv.to_string());
                    assert_eq!(
                        game.position().parse_move(&rules, &Token::join(&tokens)),
                        Ok(mv)
                    );
                    game.play(mv);
                }
            }
        }
        assert!(removals > 100, "{removals}");
    }

    #[test]
    fn tokens_are_one_move_or_one_removal() {
        let d2 = Token::parse("D2").unwrap();
        assert_eq!(d2.to_string(), "d2");
        assert_eq!(Token::parse("xG7").unwrap().to_string(), "xg7");
        assert_eq!(Token::parse("a1-a4").unwrap().to_string(), "a1-a4");
        for bad in ["a1-a4xg7", "d2xa7", "x", "xz9", "draw", "", "xa1xa4"] {
            assert_eq!(Token::parse(bad), Err(TokenError), "{bad}");
        }
    }

    #[test]
    fn answers_read_back_and_noise_is_skipped() {
        let lines = [
            SanmillLine::Answer {
                depth: None,
                score: Some(-12),
                best: Best::Move("a1-a4".into()),
            },
            SanmillLine::Answer {
                depth: Some(9),
                score: Some(3),
                best: Best::Move("xg7".into()),
            },
            SanmillLine::Answer {
                depth: None,
                score: None,
                best: Best::Draw,
            },
            SanmillLine::Answer {
                depth: Some(1),
                score: None,
                best: Best::None,
            },
            SanmillLine::Info {
                depth: Some(4),
                score: Some(0),
            },
        ];
        for line in lines {
            assert_eq!(SanmillLine::parse(&line.to_line()), Ok(line.clone()));
        }
        let read = |l: &str| SanmillLine::parse(l).unwrap();
        assert_eq!(
            read("bestmove d2"),
            SanmillLine::Answer {
                depth: None,
                score: None,
                best: Best::Move("d2".into())
            }
        );
        assert_eq!(
            read("info depth 7 seldepth 9 score cp 40 nodes 100 time 5 pv d2 f4 bestmove d2"),
            SanmillLine::Answer {
                depth: Some(7),
                score: Some(40),
                best: Best::Move("d2".into())
            }
        );
        for noise in [
            "",
            "Debug: bestmove d2 at depth 3",
            "readyok",
            "uciok",
            "Total 3",
        ] {
            assert_eq!(read(noise), SanmillLine::Other, "{noise}");
        }
        assert_eq!(
            SanmillLine::parse("info score 3 bestmove"),
            Err(ReplyError::NoMove)
        );
    }
}
