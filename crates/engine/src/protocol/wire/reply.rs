//! The engine's replies to a search: `info` lines and `bestmove`, with
//! scores in each dialect's spelling.

use std::fmt::{self, Write};
use std::str::FromStr;

use super::Dialect;
use crate::search::{Info, Score};

/// An `info` line. The engine writes every search field; an engine read by
/// the match runner may leave any out.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
pub struct InfoLine {
    /// `depth D`: the iteration completed, in plies (whole turns).
    pub depth: Option<u32>,
    /// `seldepth S`: the deepest ply the line's search reached.
    pub seldepth: Option<u32>,
    /// `multipv K`: the line's rank among the best lines, from 1.
    pub multipv: Option<u32>,
    /// `score cp X` / `score mate N` (GBGP: `score eval X` /
    /// `score win N`), from the side to move's point of view.
    pub score: Option<Score>,
    /// `nodes N`: nodes searched so far, all threads together.
    pub nodes: Option<u64>,
    /// `nps N`: nodes searched per second.
    pub nps: Option<u64>,
    /// `hashfull H`: per mille of the transposition table in use.
    pub hashfull: Option<u32>,
    /// `tbhits T`: endgame-table probes that answered.
    pub tbhits: Option<u64>,
    /// `time MS`: milliseconds since the search started.
    pub time_ms: Option<u64>,
    /// `pv m1 m2 ...`: the line's moves, as written (empty for a bare
    /// `pv`).
    pub pv: Option<Vec<String>>,
    /// Free text for the user (`info string ...`): the rest of the line.
    pub string: Option<String>,
}

/// The words that start an `info` field; a `pv` ends at the next one.
const INFO_KEYS: [&str; 11] = [
    "depth", "seldepth", "multipv", "score", "nodes", "nps", "hashfull", "tbhits", "time", "pv",
    "string",
];

impl InfoLine {
    /// `info string <text>`.
    pub fn text(text: impl Into<String>) -> InfoLine {
        InfoLine {
            string: Some(text.into()),
            ..InfoLine::default()
        }
    }

    /// The line in `dialect`'s spelling, fields in the order of `INFO_KEYS`.
    pub(crate) fn to_line(&self, dialect: Dialect) -> String {
        let mut line = "info".to_string();
        field(&mut line, "depth", self.depth);
        field(&mut line, "seldepth", self.seldepth);
        field(&mut line, "multipv", self.multipv);
        field(
            &mut line,
            "score",
            self.score.map(|s| ScoreText(s, dialect)),
        );
        field(&mut line, "nodes", self.nodes);
        field(&mut line, "nps", self.nps);
        field(&mut line, "hashfull", self.hashfull);
        field(&mut line, "tbhits", self.tbhits);
        field(&mut line, "time", self.time_ms);
        if let Some(pv) = &self.pv {
            line.push_str(" pv");
            for mv in pv {
                line.push(' ');
                line.push_str(mv);
            }
        }
        if let Some(text) = &self.string {
            line.push_str(" string ");
            line.push_str(text);
        }
        line
    }

    /// Reads the fields after `info`. Fields it does not know (`currmove`,
    /// `lowerbound`...) are skipped, and a field whose value does not read
    /// is left out.
    fn read(mut rest: &str) -> InfoLine {
        let mut info = InfoLine::default();
        while let Some((key, after)) = next_word(rest) {
            rest = after;
            match key {
                "depth" => info.depth = value(&mut rest),
                "seldepth" => info.seldepth = value(&mut rest),
                "multipv" => info.multipv = value(&mut rest),
                "score" => info.score = score(&mut rest),
                "nodes" => info.nodes = value(&mut rest),
                "nps" => info.nps = value(&mut rest),
                "hashfull" => info.hashfull = value(&mut rest),
                "tbhits" => info.tbhits = value(&mut rest),
                "time" => info.time_ms = value(&mut rest),
                "pv" => {
                    let mut pv = Vec::new();
                    while let Some((mv, after)) = next_word(rest) {
                        if INFO_KEYS.contains(&mv) {
                            break;
                        }
                        pv.push(mv.to_string());
                        rest = after;
                    }
                    info.pv = Some(pv);
                }
                "string" => {
                    info.string = Some(rest.trim().to_string());
                    break;
                }
                _ => {}
            }
        }
        info
    }
}

/// The line the engine prints for each finished iteration.
impl From<&Info> for InfoLine {
    fn from(info: &Info) -> InfoLine {
        InfoLine {
            depth: Some(info.depth),
            seldepth: Some(info.seldepth),
            multipv: Some(info.multipv),
            score: Some(info.score),
            nodes: Some(info.nodes),
            nps: Some(info.nps),
            hashfull: Some(info.hashfull),
            tbhits: Some(info.tbhits),
            time_ms: Some(info.time_ms),
            pv: Some(info.pv.iter().map(|m| m.to_string()).collect()),
            string: None,
        }
    }
}

/// Appends ` key value` when there is a value.
fn field(line: &mut String, key: &str, value: Option<impl fmt::Display>) {
    if let Some(v) = value {
        let _ = write!(line, " {key} {v}");
    }
}

/// The first word of `text` and what follows it.
fn next_word(text: &str) -> Option<(&str, &str)> {
    let text = text.trim_start();
    if text.is_empty() {
        return None;
    }
    let end = text.find(char::is_whitespace).unwrap_or(text.len());
    Some(text.split_at(end))
}

/// The next word as a number, taken only if it reads as one.
fn value<T: FromStr>(rest: &mut &str) -> Option<T> {
    let (word, after) = next_word(rest)?;
    let v = word.parse().ok()?;
    *rest = after;
    Some(v)
}

/// A score in either dialect's spelling, taken only if it reads as one.
fn score(rest: &mut &str) -> Option<Score> {
    let (kind, mut after) = next_word(rest)?;
    let n: i32 = value(&mut after)?;
    let score = Dialect::ALL
        .into_iter()
        .find_map(|d| match d.score_words() {
            [cp, _] if kind == cp => Some(Score::Cp(n)),
            [_, mate] if kind == mate => Some(Score::Mate(n)),
            _ => None,
        })?;
    *rest = after;
    Some(score)
}

/// A score in a dialect's spelling: `cp X` / `mate N` or `eval X` / `win N`.
#[derive(Clone, Copy)]
struct ScoreText(Score, Dialect);

impl fmt::Display for ScoreText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [cp, mate] = self.1.score_words();
        match self.0 {
            Score::Cp(x) => write!(f, "{cp} {x}"),
            Score::Mate(n) => write!(f, "{mate} {n}"),
        }
    }
}

/// The engine's move at the end of a search.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BestMove {
    /// No move: the side to move has none, or the game is over.
    Null,
    /// `bestmove <move> [ponder <move>]`: the move found.
    Move {
        /// The move to play, in the notation (one token per turn).
        best: String,
        /// The reply the engine expects, to ponder on.
        ponder: Option<String>,
    },
}

impl BestMove {
    /// The line in `dialect`'s spelling of the null move.
    pub(crate) fn to_line(&self, dialect: Dialect) -> String {
        match self {
            BestMove::Null => format!("bestmove {}", dialect.null_move()),
            BestMove::Move { best, ponder: None } => format!("bestmove {best}"),
            BestMove::Move {
                best,
                ponder: Some(p),
            } => format!("bestmove {best} ponder {p}"),
        }
    }

    /// Reads the words after `bestmove`, the null move in either dialect;
    /// words after the move other than `ponder <move>` are ignored.
    fn read(rest: &str) -> Result<BestMove, ReplyError> {
        let mut words = rest.split_whitespace();
        let best = words.next().ok_or(ReplyError::NoMove)?;
        if Dialect::ALL.into_iter().any(|d| d.null_move() == best) {
            return Ok(BestMove::Null);
        }
        let ponder = match (words.next(), words.next()) {
            (Some("ponder"), Some(p)) => Some(p.to_string()),
            _ => None,
        };
        Ok(BestMove::Move {
            best: best.to_string(),
            ponder,
        })
    }
}

/// A reply that cannot be read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum ReplyError {
    /// `bestmove` with no word after it.
    #[error("bestmove without a move")]
    NoMove,
}

/// A line from an engine, told apart by its first word.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum EngineLine {
    /// An `info` line, with the fields that could be read.
    Info(InfoLine),
    /// A `bestmove` line.
    BestMove(BestMove),
    /// Any other line (`id`, `option`, `readyok`...).
    Other,
}

impl EngineLine {
    /// Reads one line from an engine; an error only for a `bestmove`
    /// without a move.
    pub fn parse(line: &str) -> Result<EngineLine, ReplyError> {
        Ok(match next_word(line) {
            Some(("info", rest)) => EngineLine::Info(InfoLine::read(rest)),
            Some(("bestmove", rest)) => EngineLine::BestMove(BestMove::read(rest)?),
            _ => EngineLine::Other,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> EngineLine {
        EngineLine::parse(line).unwrap()
    }

    #[test]
    fn info_lines_read_back_in_both_dialects() {
        let full = InfoLine {
            depth: Some(7),
            seldepth: Some(9),
            multipv: Some(2),
            score: Some(Score::Cp(-35)),
            nodes: Some(123_456),
            nps: Some(1_000_000),
            hashfull: Some(12),
            tbhits: Some(3),
            time_ms: Some(123),
            pv: Some(vec!["d2".into(), "f4".into(), "a1-a4xb6".into()]),
            string: None,
        };
        let mate = InfoLine {
            score: Some(Score::Mate(-4)),
            pv: Some(vec![]),
            ..full.clone()
        };
        let partial = InfoLine {
            depth: Some(1),
            score: Some(Score::Mate(3)),
            ..InfoLine::default()
        };
        let text = InfoLine {
            depth: Some(3),
            ..InfoLine::text("eval  total 74 depth 5")
        };
        for info in [full, mate, partial, text, InfoLine::default()] {
            for d in Dialect::ALL {
                let line = info.to_line(d);
                assert_eq!(read(&line), EngineLine::Info(info.clone()), "{line}");
            }
        }
        assert_eq!(
            InfoLine {
                depth: Some(4),
                score: Some(Score::Cp(5)),
                pv: Some(vec![]),
                ..InfoLine::default()
            }
            .to_line(Dialect::Gbgp),
            "info depth 4 score eval 5 pv"
        );
    }

    #[test]
    fn info_reader_skips_what_it_does_not_know() {
        let EngineLine::Info(info) =
            read("info depth 7 currmove d2 score cp 20 lowerbound seldepth x pv d2 f4 nodes 9")
        else {
            panic!()
        };
        assert_eq!(info.depth, Some(7));
        assert_eq!(info.score, Some(Score::Cp(20)));
        assert_eq!(info.seldepth, None);
        assert_eq!(info.pv, Some(vec!["d2".into(), "f4".into()]));
        assert_eq!(info.nodes, Some(9));
        let EngineLine::Info(info) = read("info depth score win 2") else {
            panic!()
        };
        assert_eq!((info.depth, info.score), (None, Some(Score::Mate(2))));
    }

    #[test]
    fn scores_read_back_in_both_dialects() {
        for score in [
            Score::Cp(0),
            Score::Cp(-1234),
            Score::Mate(5),
            Score::Mate(-1),
        ] {
            for d in Dialect::ALL {
                let text = ScoreText(score, d).to_string();
                assert_eq!(super::score(&mut text.as_str()), Some(score), "{text}");
            }
        }
        assert_eq!(ScoreText(Score::Cp(15), Dialect::Uci).to_string(), "cp 15");
        assert_eq!(
            ScoreText(Score::Mate(-3), Dialect::Gbgp).to_string(),
            "win -3"
        );
    }

    #[test]
    fn bestmove_reads_back_in_both_dialects() {
        let moves = [
            BestMove::Null,
            BestMove::Move {
                best: "a1-a4xd7".into(),
                ponder: None,
            },
            BestMove::Move {
                best: "d2".into(),
                ponder: Some("f4".into()),
            },
        ];
        for mv in moves {
            for d in Dialect::ALL {
                let line = mv.to_line(d);
                assert_eq!(read(&line), EngineLine::BestMove(mv.clone()), "{line}");
            }
        }
        assert_eq!(BestMove::Null.to_line(Dialect::Uci), "bestmove (none)");
        assert_eq!(BestMove::Null.to_line(Dialect::Gbgp), "bestmove none");
        assert_eq!(EngineLine::parse(" bestmove "), Err(ReplyError::NoMove));
        assert_eq!(read("readyok "), EngineLine::Other);
        assert_eq!(read("bestmovex d2"), EngineLine::Other);
    }
}
