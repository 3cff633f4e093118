//! Reading game records: a text of records in any of the three
//! dialects, each record's dialect told from its tags and moves, and a
//! Sanmill record's rule-set name and position string turned into ours.

use super::dialect::RecordDialect;
use super::record::{RESULTS, Record, RecordError, RecordProblem, RecordedMove};
use super::{playok, sanmill_pgn as sanmill};
use crate::rules::{RuleOptionId, Rules, Variant};

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
    use crate::rules::{Game, Position};

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
