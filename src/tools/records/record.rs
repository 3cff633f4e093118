//! The PGN-style game record: tag pairs, then numbered moves in our
//! notation with optional `{comment}`s, then the result.
//!
//! ```text
//! [Event "morris match"]
//! [Date "2026.11.29"]
//! [Round "1"]
//! [White "A"]
//! [Black "B"]
//! [Result "1-0"]
//! [Variant "nine"]
//! [EndgameMoves "0"]
//! [Termination "no legal move"]
//!
//! 1. d2 {+0.15/8 0.102s} f4 {-0.10/8 0.095s} 2. b4 ...
//! 1-0
//! ```
//!
//! Rule options that differ from the variant's preset are tags named as the
//! option; `FEN` gives the start when it is not the variant's start position.
//!
//! Records of PlayOK (moves in its point numbers, `records::playok`) and
//! of Sanmill (its rule-set names and position string,
//! `records::sanmill_pgn`) are read too (`records::read`), told apart per
//! record ([`RecordDialect`]) and turned into ours as they are read;
//! [`Record::write`] writes any of the three.

use std::fmt::Write;

use super::dialect::RecordDialect;
use super::playok;
use super::sanmill_pgn as sanmill;
use crate::rules::{
    Color, Game, GameResult, RuleOptionId, Rules, RulesError, Setup, SetupError, Start,
};
use crate::search::Score;

/// One move as recorded, with the line it was read from (0 when written).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordedMove {
    /// The move in our notation (PlayOK's numbers and lone removals already
    /// turned into it).
    pub text: String,
    /// The `{comment}` after it, trimmed (the last, when there are several).
    pub comment: Option<String>,
    /// The line it was read from (from 1; 0 when written).
    pub line: usize,
}

/// One game record: its tags in order and its moves.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Record {
    /// Tag names and values, in order (as read: duplicates are kept).
    pub tags: Vec<(String, String)>,
    /// The moves in our notation, with their comments; not checked
    /// against the rules until [`Record::replay`].
    pub moves: Vec<RecordedMove>,
    /// The line the record starts on (0 when written).
    pub line: usize,
    /// The dialect it was read from (its tags and moves are ours since).
    pub dialect: RecordDialect,
}

/// A record that cannot be read or replayed: where and why.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("line {line}: {problem}")]
pub struct RecordError {
    /// The line (from 1) of the tag or move at fault, else the record's
    /// first line (the text's last for a comment or variation left open);
    /// 0 for a record not read from text.
    pub line: usize,
    /// What is wrong.
    pub problem: RecordProblem,
}

/// What is wrong with a record.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum RecordProblem {
    /// The text is not a record's: a tag pair or a comment is malformed.
    #[error("{0}")]
    Syntax(&'static str),
    /// The rule tags set no valid rules.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// The start or a move cannot be played.
    #[error(transparent)]
    Setup(#[from] SetupError),
    /// A move token that names no move in any dialect.
    #[error("'{0}' is not a move ({1})")]
    Token(String, &'static str),
    /// A Sanmill position string that cannot be read.
    #[error(transparent)]
    SanmillFen(#[from] sanmill::SanmillFenError),
    /// The record cannot be written in that dialect.
    #[error("{0}")]
    Unwritable(&'static str),
}

pub(super) const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The result token of a game result.
pub fn result_text(result: Option<GameResult>) -> &'static str {
    match result {
        Some(GameResult::Win(Color::White)) => "1-0",
        Some(GameResult::Win(Color::Black)) => "0-1",
        Some(GameResult::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// A score as the record comments and tables write it: pieces with two
/// decimals, or `+M3` / `-M3` for a forced win or loss in that many moves.
pub(crate) fn format_score(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:+.2}", cp as f64 / 100.0),
        Score::Mate(n) if n < 0 => format!("-M{}", -n),
        Score::Mate(n) => format!("+M{n}"),
    }
}

impl Record {
    /// A record of `game` with these tags first (Event, White, ...); the
    /// rule tags, `FEN` and `Result` are added from the game.
    pub fn from_game(
        game: &Game,
        tags: &[(&str, String)],
        result: Option<GameResult>,
        comments: &[Option<String>],
    ) -> Record {
        let mut record = Record::default();
        for (k, v) in tags {
            record.set_tag(k, v);
        }
        record.set_tag("Result", result_text(result));
        record.tags.extend(rule_tags(game.rules()));
        let setup = Setup::of_game(game);
        if let Start::Fen(fen) = &setup.start {
            record.set_tag("FEN", fen);
        }
        record.moves = setup
            .moves
            .into_iter()
            .enumerate()
            .map(|(i, text)| RecordedMove {
                text,
                comment: comments.get(i).cloned().flatten(),
                line: 0,
            })
            .collect();
        record
    }

    /// The value of the first tag named `name` (in any case).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets a tag, replacing one of the same name in any case (as `tag`
    /// reads it) or appending it.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self
            .tags
            .iter_mut()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
        {
            Some(slot) => *slot = (name.to_string(), value.to_string()),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The result token (`*` when the record has none).
    pub fn result(&self) -> &str {
        self.tag("Result").unwrap_or("*")
    }

    /// The rules the record's tags set: `Variant`, then every tag named as a
    /// rule option.
    pub fn rules(&self) -> Result<Rules, RecordError> {
        let err = |e: RulesError| RecordError {
            line: self.line,
            problem: e.into(),
        };
        let mut rules = Rules::default();
        if let Some(v) = self.tag("Variant") {
            rules.set_option(RuleOptionId::Variant, v).map_err(err)?;
        }
        for (name, value) in &self.tags {
            match RuleOptionId::find(name) {
                Some(RuleOptionId::Variant) | None => {}
                Some(option) => rules.set_option(option, value).map_err(err)?,
            }
        }
        Ok(rules)
    }

    /// The set-up of the game: the `FEN` tag (or the usual start) and
    /// the moves.
    pub fn setup(&self) -> Setup {
        let start = self
            .tag("FEN")
            .map_or(Start::Initial, |fen| Start::Fen(fen.to_string()));
        Setup::new(start, self.moves.iter().map(|m| m.text.clone()).collect())
    }

    /// The game replayed through the rules core; an illegal move is an error
    /// naming its line.
    pub fn replay(&self) -> Result<Game, RecordError> {
        let rules = self.rules()?;
        self.setup().game(&rules).map_err(|e| RecordError {
            line: match &e {
                SetupError::Move { index, .. } => self.moves[*index].line,
                SetupError::Fen(_) | SetupError::Syntax(_) => self.line,
            },
            problem: e.into(),
        })
    }

    /// The record as text, ending with a blank line (so records can be
    /// appended one after another).
    pub fn to_text(&self) -> String {
        let moves: Vec<&str> = self.moves.iter().map(|m| m.text.as_str()).collect();
        self.layout(&self.tags, &moves)
    }

    /// The record in `dialect`, from the game replayed (an illegal move is
    /// an error): the tags other than the rules' and the start's, then
    /// the rules and the start as the dialect names them, then the moves
    /// in its notation. Rules that are not exactly one of Sanmill's rule
    /// sets are written as ours (Sanmill plays a name it does not know by
    /// its own settings); PlayOK's records start from the empty board.
    pub fn write(&self, dialect: RecordDialect) -> Result<String, RecordError> {
        let game = self.replay()?;
        let rules = game.rules();
        let mut tags: Vec<(String, String)> = self
            .tags
            .iter()
            .filter(|(k, _)| {
                !k.eq_ignore_ascii_case("FEN")
                    && !k.eq_ignore_ascii_case("SetUp")
                    && RuleOptionId::find(k).is_none()
            })
            .cloned()
            .collect();
        let fen = self.tag("FEN");
        match (dialect, sanmill::name_of(rules)) {
            (RecordDialect::Sanmill, name) if name != "Custom" => {
                tags.push(("Variant".into(), name.into()));
            }
            _ => tags.extend(rule_tags(rules)),
        }
        if let Some(fen) = fen {
            let fen = match dialect {
                RecordDialect::Morris => fen.to_string(),
                RecordDialect::PlayOk => {
                    return Err(RecordError {
                        line: self.line,
                        problem: RecordProblem::Unwritable(
                            "PlayOK records start from the empty board",
                        ),
                    });
                }
                RecordDialect::Sanmill => {
                    let start = self
                        .setup()
                        .start_position(rules)
                        .map_err(|e| RecordError {
                            line: self.line,
                            problem: SetupError::Fen(e).into(),
                        })?;
                    sanmill::write_fen(&start)
                }
            };
            tags.push(("FEN".into(), fen));
            tags.push(("SetUp".into(), "1".into()));
        }
        let moves: Vec<String> = game
            .moves()
            .iter()
            .map(|&m| match dialect {
                RecordDialect::PlayOk => playok::from_move(m),
                _ => m.to_string(),
            })
            .collect();
        let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
        Ok(self.layout(&tags, &moves))
    }

    /// `tags`, then `moves` numbered from the record's start with its
    /// comments, wrapped at 79 columns, then the result.
    fn layout(&self, tags: &[(String, String)], moves: &[&str]) -> String {
        let mut out = String::new();
        for (k, v) in tags {
            let v = v.replace('\\', "\\\\").replace('"', "\\\"");
            let _ = writeln!(out, "[{k} \"{v}\"]");
        }
        out.push('\n');
        let numbering = self
            .rules()
            .ok()
            .and_then(|r| self.setup().start_position(&r).ok())
            .map_or((Color::White, 1), |p| (p.side_to_move(), p.fullmove()));
        let mut words = Vec::new();
        let (mut side, mut number) = numbering;
        for (i, text) in moves.iter().enumerate() {
            match side {
                Color::White => words.push(format!("{number}.")),
                Color::Black if i == 0 => words.push(format!("{number}...")),
                Color::Black => {}
            }
            words.push(text.to_string());
            if let Some(c) = self.moves.get(i).and_then(|m| m.comment.as_ref()) {
                words.push(format!("{{{}}}", c.replace('}', ")")));
            }
            if side == Color::Black {
                number += 1;
            }
            side = !side;
        }
        words.push(self.result().to_string());
        let mut line_len = 0;
        for w in words {
            if line_len > 0 && line_len + 1 + w.len() > 79 {
                out.push('\n');
                line_len = 0;
            } else if line_len > 0 {
                out.push(' ');
                line_len += 1;
            }
            out.push_str(&w);
            line_len += w.len();
        }
        out.push_str("\n\n");
        out
    }
}

/// Our tags of `rules`: `Variant`, then each option that differs from
/// its preset.
fn rule_tags(rules: &Rules) -> Vec<(String, String)> {
    let variant = ("Variant".to_string(), rules.variant.name().to_string());
    let options = rules
        .non_default()
        .into_iter()
        .map(|s| (s.option.name().to_string(), s.value.to_string()));
    std::iter::once(variant).chain(options).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_in_comments() {
        assert_eq!(format_score(Score::Cp(15)), "+0.15");
        assert_eq!(format_score(Score::Cp(-250)), "-2.50");
        assert_eq!(format_score(Score::Mate(-3)), "-M3");
        assert_eq!(format_score(Score::Mate(2)), "+M2");
    }
}
