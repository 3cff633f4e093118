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
//! `records::sanmill_pgn`) are read too, told apart per record
//! ([`RecordDialect`]) and turned into ours as they are read;
//! [`Record::write`] writes any of the three.

use std::fmt::Write;

use super::{playok, sanmill_pgn as sanmill};
use crate::rules::{
    Color, Game, GameResult, RuleOptionId, Rules, RulesError, Setup, SetupError, Start, Variant,
};
use crate::search::Score;

/// Whose records a record's text follows.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum RecordDialect {
    /// Ours: rule tags named as our options, our position string.
    #[default]
    Morris,
    /// PlayOK's: `[Site "PlayOK"]` or moves in its numbers, the standard
    /// game with flying (our preset `nine`, unless the tags say otherwise).
    PlayOk,
    /// Sanmill's: `[Site "Sanmill"]`, its `Variant` names (its standard
    /// game is our `nine-app`, also when the tag is missing) or its
    /// position string.
    Sanmill,
}

impl RecordDialect {
    /// The dialect named `name` (any case): morris, playok, sanmill.
    pub fn find(name: &str) -> Option<RecordDialect> {
        [
            RecordDialect::Morris,
            RecordDialect::PlayOk,
            RecordDialect::Sanmill,
        ]
        .into_iter()
        .find(|d| d.name().eq_ignore_ascii_case(name))
    }

    /// Its name on the command line (`record --to`, `analyze
    /// --out-dialect`): morris, playok or sanmill.
    pub fn name(self) -> &'static str {
        match self {
            RecordDialect::Morris => "morris",
            RecordDialect::PlayOk => "playok",
            RecordDialect::Sanmill => "sanmill",
        }
    }
}

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

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

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

/// Whether `text` looks like a game record: it starts with a tag pair, or
/// with a move number (`1.`), as the bare move lists of other mill
/// programs do. (A position string starts with a digit too, but never with
/// digits and a dot.)
pub(crate) fn is_record(text: &str) -> bool {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('%'))
        .is_some_and(|l| {
            let after_number = l.trim_start_matches(|c: char| c.is_ascii_digit());
            l.starts_with('[') || (after_number.len() < l.len() && after_number.starts_with('.'))
        })
}

fn parse_tag(line: &str, number: usize) -> Result<(String, String), RecordError> {
    let err = |message: &'static str| RecordError {
        line: number,
        problem: RecordProblem::Syntax(message),
    };
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or_else(|| err("a tag pair is written [Name \"value\"]"))?;
    let (name, rest) = inner
        .split_once(char::is_whitespace)
        .ok_or_else(|| err("a tag pair needs a name and a quoted value"))?;
    let quoted = rest
        .trim()
        .strip_prefix('"')
        .and_then(|r| r.strip_suffix('"'))
        .ok_or_else(|| err("the tag value must be in double quotes"))?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        value.push(if c == '\\' {
            chars.next().unwrap_or('\\')
        } else {
            c
        });
    }
    Ok((name.to_string(), value))
}

/// Reads every record in `text`, in any dialect. Move numbers (`12.`,
/// `12...`), comments (`{...}`, also across lines), variations (`(...)`,
/// nested, skipped with their comments), NAGs (`$4`), `!`/`?` suffixes,
/// `;` rest-of-line comments and `%` escape lines are skipped. A removal
/// written as a token of its own, as other mill programs write it
/// (`a7 xd6`, `a7 x d6`), joins the move before it (`a7xd6`); points may
/// be in either case; PlayOK's numbers become points. Moves are not
/// checked here (see [`Record::replay`]).
pub fn parse_records(text: &str) -> Result<Vec<Record>, RecordError> {
    let mut records = Vec::new();
    let mut current: Option<Record> = None;
    let mut in_movetext = false;
    let mut comment: Option<String> = None;
    // Open variations: what is inside is skipped.
    let mut depth = 0usize;
    // A lone `x` was read: the next word is a removal of the last move.
    let mut removal_next = false;
    // The current record's moves were written in PlayOK's numbers.
    let mut numbered = false;
    let mut finish = |record: Option<Record>, numbered: &mut bool| -> Result<(), RecordError> {
        if let Some(r) = record {
            records.push(normalise(r, std::mem::take(numbered))?);
        }
        Ok(())
    };
    for (i, raw) in text.lines().enumerate() {
        let number = i + 1;
        let line = raw.trim();
        if comment.is_none() && (line.starts_with('%') || line.is_empty()) {
            continue;
        }
        if comment.is_none() && depth == 0 && line.starts_with('[') {
            if in_movetext || current.is_none() {
                finish(current.take(), &mut numbered)?;
                current = Some(Record {
                    line: number,
                    ..Record::default()
                });
                in_movetext = false;
            }
            let (k, v) = parse_tag(line, number)?;
            current.as_mut().expect("record started").tags.push((k, v));
            continue;
        }
        let record = current.get_or_insert_with(|| Record {
            line: number,
            ..Record::default()
        });
        in_movetext = true;
        let mut rest = line;
        while !rest.is_empty() {
            if let Some(c) = comment.as_mut() {
                match rest.find('}') {
                    Some(end) => {
                        c.push_str(&rest[..end]);
                        let text = comment.take().expect("in a comment").trim().to_string();
                        if let (0, Some(last)) = (depth, record.moves.last_mut()) {
                            last.comment = Some(text);
                        }
                        rest = rest[end + 1..].trim_start();
                    }
                    None => {
                        c.push_str(rest);
                        c.push(' ');
                        rest = "";
                    }
                }
                continue;
            }
            if let Some(r) = rest.strip_prefix('{') {
                comment = Some(String::new());
                rest = r;
                continue;
            }
            if let Some(r) = rest.strip_prefix('(') {
                depth += 1;
                rest = r.trim_start();
                continue;
            }
            if let Some(r) = rest.strip_prefix(')') {
                depth = depth.checked_sub(1).ok_or(RecordError {
                    line: number,
                    problem: RecordProblem::Syntax("')' closes no variation"),
                })?;
                rest = r.trim_start();
                continue;
            }
            if rest.starts_with(';') {
                break;
            }
            let end = rest
                .find([' ', '\t', '{', ';', '(', ')'])
                .unwrap_or(rest.len());
            let word = &rest[..end];
            rest = rest[end..].trim_start();
            if depth > 0 || word.starts_with('$') {
                continue;
            }
            if RESULTS.contains(&word) {
                if record.tag("Result").is_none() {
                    record.tags.push(("Result".into(), word.into()));
                }
                finish(current.take(), &mut numbered)?;
                in_movetext = false;
                break;
            }
            // A move number, also one written against its move (`12.d2`).
            let word = word.rsplit_once('.').map_or(word, |(_, w)| w);
            let word = word.trim_end_matches(['!', '?']);
            if word.is_empty() {
                continue;
            }
            if word.eq_ignore_ascii_case("x") {
                removal_next = true;
                continue;
            }
            let converted;
            let word = if playok::is_playok_token(word) {
                numbered = true;
                converted = playok::to_points(word).ok_or_else(|| RecordError {
                    line: number,
                    problem: RecordProblem::Token(
                        word.to_string(),
                        "PlayOK numbers its points from 1 to 24",
                    ),
                })?;
                converted.as_str()
            } else {
                word
            };
            let is_removal = removal_next || word.starts_with(['x', 'X']);
            removal_next = false;
            match record.moves.last_mut() {
                // Other programs write a removal as a token of its own
                // (`xg7`, `x g7`): it is part of the move before.
                Some(last) if is_removal => {
                    if !word.starts_with(['x', 'X']) {
                        last.text.push('x');
                    }
                    last.text.push_str(word);
                }
                _ => record.moves.push(RecordedMove {
                    text: word.to_string(),
                    comment: None,
                    line: number,
                }),
            }
        }
    }
    if comment.is_some() {
        return Err(RecordError {
            line: text.lines().count(),
            problem: RecordProblem::Syntax("a comment opened with '{' is never closed"),
        });
    }
    if depth > 0 {
        return Err(RecordError {
            line: text.lines().count(),
            problem: RecordProblem::Syntax("a variation opened with '(' is never closed"),
        });
    }
    finish(current, &mut numbered)?;
    Ok(records)
}

/// Tells a record's dialect and turns its tags into ours: Sanmill's rule
/// set names into our presets (its standard game when none is named) and
/// its position string into ours.
fn normalise(mut record: Record, numbered: bool) -> Result<Record, RecordError> {
    let site = |name: &str| {
        record
            .tag("Site")
            .is_some_and(|s| s.eq_ignore_ascii_case(name))
    };
    let ours = |v: &str| {
        Rules::default()
            .set_option(RuleOptionId::Variant, v)
            .is_ok()
    };
    let variant = record.tag("Variant").map(str::to_string);
    let sanmill_fen = record.tag("FEN").is_some_and(sanmill::is_sanmill_fen);
    // Sanmill's names and position string first: a PlayOK game written
    // in Sanmill's dialect keeps its site.
    record.dialect = if site("Sanmill")
        || record
            .tag("Event")
            .is_some_and(|e| e.starts_with("Sanmill"))
        || sanmill_fen
        || variant
            .as_deref()
            .is_some_and(|v| !ours(v) && sanmill::preset_of(v).is_some())
    {
        RecordDialect::Sanmill
    } else if site("PlayOK") || numbered {
        RecordDialect::PlayOk
    } else {
        RecordDialect::Morris
    };
    if record.dialect != RecordDialect::Sanmill {
        return Ok(record);
    }
    // A Sanmill name becomes our preset's; any other (its `Custom`) is
    // left for the rules to refuse or an override to replace.
    match variant.as_deref().and_then(sanmill::preset_of) {
        Some(preset) => record.set_tag("Variant", preset.name()),
        None if variant.is_none() => record.set_tag("Variant", Variant::NineApp.name()),
        None => {}
    }
    if sanmill_fen {
        let rules = record.rules()?;
        let fen = record.tag("FEN").expect("a FEN tag").to_string();
        let position = sanmill::read_fen(&fen, &rules).map_err(|e| RecordError {
            line: record.line,
            problem: e.into(),
        })?;
        record.set_tag("FEN", &position.to_fen(&rules));
    }
    Ok(record)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Position;

    #[test]
    fn writes_and_reads_back() {
        let mut rules = Rules::default();
        rules.apply("EndgameMoves=0").unwrap();
        let mut game = Game::new(rules, Position::start(&rules));
        for m in ["d2", "f4", "b4"] {
            game.play_text(m).unwrap();
        }
        let rec = Record::from_game(
            &game,
            &[("Event", "test \"quoted\"".into())],
            None,
            &[Some("+0.15/8 0.102s".into()), None],
        );
        let text = rec.to_text();
        assert!(text.contains("1. d2 {+0.15/8 0.102s} f4 2. b4 *"), "{text}");
        assert!(text.contains("[EndgameMoves \"0\"]"));
        let back = parse_records(&(text.clone() + &text)).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[1].tag("Event"), Some("test \"quoted\""));
        assert_eq!(back[0].moves[0].comment.as_deref(), Some("+0.15/8 0.102s"));
        let replayed = back[0].replay().unwrap();
        assert_eq!(replayed.moves(), game.moves());
        assert_eq!(replayed.rules(), game.rules());
    }

    /// A Sanmill record's tags in lower case: its rule set's name still
    /// becomes our preset, in the one `Variant` tag.
    #[test]
    fn a_lower_case_sanmill_variant_tag_is_converted() {
        let text = "[event \"Sanmill game\"]\n[variant \"Nine Men's Morris\"]\n\n1. d2 d6 *\n";
        let record = &parse_records(text).unwrap()[0];
        assert_eq!(record.dialect, RecordDialect::Sanmill);
        assert_eq!(record.tag("Variant"), Some(Variant::NineApp.name()));
        let variants = record
            .tags
            .iter()
            .filter(|(k, _)| k.eq_ignore_ascii_case("variant"));
        assert_eq!(variants.count(), 1);
        let nine_app = Rules::with_settings("nine-app", &[] as &[&str]).unwrap();
        assert_eq!(record.rules().unwrap(), nine_app);
    }

    #[test]
    fn scores_in_comments() {
        assert_eq!(format_score(Score::Cp(15)), "+0.15");
        assert_eq!(format_score(Score::Cp(-250)), "-2.50");
        assert_eq!(format_score(Score::Mate(-3)), "-M3");
        assert_eq!(format_score(Score::Mate(2)), "+M2");
    }

    #[test]
    fn reads_removals_written_apart_and_upper_case_points() {
        let ours = "[Event \"e\"]\n\n1. a1 d6 2. a4 f6 3. a7xd6 b6 *\n";
        let want = parse_records(ours).unwrap()[0].replay().unwrap();
        for movetext in [
            "1. a1 d6 2. a4 f6 3. a7 xd6 b6 *",
            "1. a1 d6 2. a4 f6 3. a7 x d6 b6 *",
            "1. A1 D6 2. A4 F6 3. A7 XD6 B6 *",
            "1. a1 d6 2. a4 f6 3. a7 X\nD6 b6 *",
        ] {
            let text = format!("[Event \"e\"]\n\n{movetext}\n");
            let game = parse_records(&text).unwrap()[0].replay().unwrap();
            assert_eq!(game.moves(), want.moves(), "{movetext}");
        }
        let bare = "1.    a1    d6\n2.    a4    f6\n3.    a7    xd6\n4.    b6\n";
        assert!(is_record(bare));
        let game = parse_records(bare).unwrap()[0].replay().unwrap();
        assert_eq!(game.moves(), &want.moves()[..6]);
        assert!(!is_record("3/3/3/6/3/3/3 w 9 9 0 1\nd2 d6\n"));
        let stray = "[Event \"e\"]\n\nxd6 a1 *\n";
        assert!(parse_records(stray).unwrap()[0].replay().is_err());
    }

    #[test]
    fn black_first_and_errors_name_the_line() {
        let text = "[FEN \"3/3/3/6/3/3/3 b 9 8 0 1\"]\n\n1... d2 2. f4 {never closed\n";
        assert!(parse_records(text).is_err());
        let text = "[FEN \"3/3/3/6/3/3/3 b 9 9 0 1\"]\n\n1... d2 2. d2 *\n";
        let recs = parse_records(text).unwrap();
        assert_eq!(recs[0].moves.len(), 2);
        let err = recs[0].replay().unwrap_err();
        assert_eq!(err.line, 3);
    }
}
