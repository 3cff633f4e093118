//! `morris analyze`: searches every position of a game record (or of a
//! list of positions) with the search library, and for games rates each
//! move played by how much worse it scores than the best move; where the
//! tables (else the book) know the position exactly, by the value it
//! keeps or throws away, with a summary of each game's value-losing moves.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::json;

use crate::engine::Session;
use crate::rules::{Color, Game, Move, Position, Rules, Setup};
use crate::search::{Info, Limits, Score};
use crate::tablebase::preference;
use crate::tablebase::{Known, Probe, Source, Value};
use crate::tools::input::InputError;
use crate::tools::records::dialect::RecordDialect;
use crate::tools::records::read::{is_record, parse_records};
use crate::tools::records::record::{Record, RecordError, format_score};

/// Score losses (hundredths of a piece) from which a move played is marked
/// a mistake (`?`) or a blunder (`??`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Marks {
    /// The least score loss that marks a move `?` (`--mistake`, 50 by
    /// default).
    pub mistake: i32,
    /// The least score loss that marks a move `??` (`--blunder`, 100 by
    /// default).
    pub blunder: i32,
}

/// One position to analyse.
pub struct Item {
    /// "game 2" or "line 7".
    pub source: String,
    /// The game up to the position (for repetition history).
    pub game: Game,
    /// For games: the move played here and its ply index.
    pub played: Option<(Move, usize)>,
    /// The header printed before the first position of a source.
    pub header: Option<String>,
    /// For games: the record the game was read from.
    pub record: Option<Arc<Record>>,
}

/// What the search said about one position.
pub struct Analysis {
    best: Option<Move>,
    score: Score,
    /// The final line of each multipv rank, best first.
    lines: Vec<Info>,
    /// Score loss of the move played, when it was not the best.
    loss: Option<i32>,
    /// What the tables (else the book) know of a game's position.
    exact: Option<Exact>,
}

/// The exact values around a move played.
pub(crate) struct Exact {
    source: Source,
    /// The position's value and the move played's, for the side to move.
    before: Probe,
    after: Probe,
    /// The moves that keep the position's value, best first.
    keeping: Vec<Move>,
    /// How many legal moves there are.
    legal: usize,
}

impl Exact {
    /// The values before and after, when the move played changed it.
    fn change(&self) -> Option<(Value, Value)> {
        (self.before.value != self.after.value).then_some((self.before.value, self.after.value))
    }

    /// The only move that keeps the value among at least this many.
    const ONLY_AMONG: usize = 5;

    /// Whether the move played was the only one keeping the value among
    /// many (`!`).
    fn only_move(&self) -> bool {
        self.keeping.len() == 1 && self.legal >= Exact::ONLY_AMONG && self.change().is_none()
    }
}

/// A score as one number for differences: mates beyond any material.
fn score_cp(s: Score) -> i32 {
    const MATE: i32 = 100_000;
    match s {
        Score::Cp(cp) => cp,
        Score::Mate(n) if n >= 0 => MATE - n,
        Score::Mate(n) => -MATE - n,
    }
}

/// The one position of a game given directly.
pub fn position_item(game: Game) -> Item {
    Item {
        source: "position".into(),
        header: Some(format!("Position {}", game.position().to_fen(game.rules()))),
        game,
        played: None,
        record: None,
    }
}

/// The positions of an input named `name`: every position of every game
/// of a record (under the record's rules), or one position a line under
/// `rules` (a set-up: a FEN, a move list, or a FEN then `moves ...`; `#`
/// starts a comment). Errors name the line.
pub fn items_from_text(name: &str, text: &str, rules: &Rules) -> Result<Vec<Item>, InputError> {
    let record_error = |source| InputError::Record {
        name: name.to_string(),
        source,
    };
    let mut items = Vec::new();
    if is_record(text) {
        let records = parse_records(text).map_err(record_error)?;
        for (g, rec) in records.iter().enumerate() {
            let full = rec.replay().map_err(record_error)?;
            let mut game = Game::new(*full.rules(), *full.start());
            let mut header = format!(
                "Game {}: {} vs {}, {}",
                g + 1,
                rec.tag("White").unwrap_or("?"),
                rec.tag("Black").unwrap_or("?"),
                rec.result(),
            );
            if let Some(why) = rec.tag("Termination") {
                header += &format!(", {why}");
            }
            let record = Arc::new(rec.clone());
            for (ply, &mv) in full.moves().iter().enumerate() {
                items.push(Item {
                    source: format!("game {}", g + 1),
                    game: game.clone(),
                    played: Some((mv, ply)),
                    header: (ply == 0).then(|| header.clone()),
                    record: Some(record.clone()),
                });
                game.play(mv);
            }
        }
        return Ok(items);
    }
    for (i, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let game = Setup::parse(line)
            .and_then(|setup| setup.game(rules))
            .map_err(|e| InputError::Line {
                name: name.to_string(),
                line: i + 1,
                source: e.into(),
            })?;
        items.push(Item {
            source: format!("line {}", i + 1),
            game,
            played: None,
            header: Some(format!("Line {}: {line}", i + 1)),
            record: None,
        });
    }
    if items.is_empty() {
        return Err(InputError::Empty {
            name: name.to_string(),
            what: "positions",
        });
    }
    Ok(items)
}

/// A value's word: win, draw or loss.
pub(super) fn value_word(v: Value) -> &'static str {
    match v {
        Value::Win => "win",
        Value::Draw => "draw",
        Value::Loss => "loss",
    }
}

/// The mark of a move that changes the table value, like
/// `?? (win -> draw)`; `None` for a move that keeps it.
pub fn change_mark(before: Value, after: Value) -> Option<String> {
    (before != after).then(|| format!("?? ({} -> {})", value_word(before), value_word(after)))
}

/// What `known` says of the move `mv` played in its position.
fn exact(known: &Known, mv: Move) -> Option<Exact> {
    let moves = &known.moves;
    let before = moves
        .iter()
        .map(|m| m.probe)
        .max_by_key(|&p| preference(p))?;
    let after = moves.iter().find(|m| m.mv == mv)?.probe;
    let mut keeping: Vec<&_> = moves
        .iter()
        .filter(|m| m.probe.value == before.value)
        .collect();
    keeping.sort_by_key(|m| std::cmp::Reverse(preference(m.probe)));
    Some(Exact {
        source: known.source,
        before,
        after,
        keeping: keeping.into_iter().map(|m| m.mv).collect(),
        legal: moves.len(),
    })
}

/// Searches the item's position (the session's game) within `limits`
/// and, for a move played that is not the best, that move alone to
/// measure what it lost; with the session's tables (else its book)
/// covering the position, whether the move changed its value.
pub fn analyse(session: &mut Session, item: &Item, limits: &Limits) -> Analysis {
    debug_assert_eq!(session.game().position(), item.game.position());
    let mut by_rank: BTreeMap<u32, Info> = BTreeMap::new();
    let out = session.search(limits, &mut |info| {
        by_rank.insert(info.multipv.max(1), info.clone());
    });
    let loss = match item.played {
        Some((mv, _)) if Some(mv) != out.best => {
            let only = Limits {
                searchmoves: vec![mv],
                ..limits.clone()
            };
            let played = session.search(&only, &mut |_| {});
            Some((score_cp(out.score) - score_cp(played.score)).max(0))
        }
        Some(_) => Some(0),
        None => None,
    };
    let exact = item
        .played
        .and_then(|(mv, _)| exact(&session.known(item.game.position())?, mv));
    Analysis {
        best: out.best,
        score: out.score,
        lines: by_rank.into_values().collect(),
        loss,
        exact,
    }
}

/// The move number as records write it: `12.` for white, `12...` for black.
fn move_number(pos: &Position) -> String {
    match pos.side_to_move() {
        Color::White => format!("{}.", pos.fullmove()),
        Color::Black => format!("{}...", pos.fullmove()),
    }
}

/// The mark of the move played: `??` for one that changes the exact
/// value, `!` for the only one that keeps it among many, else by its
/// score loss.
fn mark(marks: &Marks, a: &Analysis) -> Option<&'static str> {
    if let Some(e) = &a.exact {
        if e.change().is_some() {
            return Some("??");
        }
        if e.only_move() {
            return Some("!");
        }
    }
    match a.loss {
        Some(l) if l >= marks.blunder => Some("??"),
        Some(l) if l >= marks.mistake => Some("?"),
        _ => None,
    }
}

fn pv_text(pv: &[Move]) -> String {
    pv.iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A score as the tools' JSON writes it: `{"cp": X}` or `{"mate": N}`.
fn score_json(s: Score) -> serde_json::Value {
    match s {
        Score::Cp(cp) => json!({ "cp": cp }),
        Score::Mate(n) => json!({ "mate": n }),
    }
}

/// The analysis of one position as text lines.
pub fn text_output(marks: &Marks, item: &Item, a: &Analysis) -> String {
    let pos = item.game.position();
    let mut out = String::new();
    if let Some(h) = &item.header {
        out += &format!("{h}\n");
    }
    let depth = a
        .lines
        .first()
        .map_or(String::new(), |l| format!("/{}", l.depth));
    let best = a.best.map_or("(none)".to_string(), |m| m.to_string());
    let pv = a.lines.first().map_or(best.clone(), |l| pv_text(&l.pv));
    match item.played {
        Some((mv, _)) => {
            let mark = match a.exact.as_ref().and_then(Exact::change) {
                Some((before, after)) => change_mark(before, after),
                None => mark(marks, a).map(str::to_string),
            };
            let played = format!(
                "{} {}{}",
                move_number(pos),
                mv,
                mark.map_or(String::new(), |m| format!(" {m}"))
            );
            let loss = match a.loss {
                Some(l) if l > 0 => format!("  loss {:.2}", l as f64 / 100.0),
                _ => String::new(),
            };
            let exact = a.exact.as_ref().map_or(String::new(), |e| {
                format!(
                    "  {} {} -> {}",
                    source_name(e.source),
                    value_text(e.before),
                    value_text(e.after)
                )
            });
            out += &format!(
                "  {played:<18} best {best:<10} {}{depth}{loss}{exact}  pv {pv}\n",
                format_score(a.score)
            );
        }
        None => {
            if let Some(o) = item.game.outcome() {
                out += &format!("  game over: {o}\n");
            } else {
                out += &format!("  best {best} {}{depth}  pv {pv}\n", format_score(a.score));
            }
            for l in a.lines.iter().skip(1) {
                out += &format!(
                    "  {}: {}/{}  pv {}\n",
                    l.multipv,
                    format_score(l.score),
                    l.depth,
                    pv_text(&l.pv)
                );
            }
        }
    }
    out
}

/// The analysis of one position as one JSON object.
pub fn json_output(marks: &Marks, item: &Item, a: &Analysis) -> serde_json::Value {
    let pos = item.game.position();
    let lines: Vec<_> = a
        .lines
        .iter()
        .map(|l| {
            json!({
                "multipv": l.multipv, "depth": l.depth, "score": score_json(l.score),
                "nodes": l.nodes, "pv": l.pv.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            })
        })
        .collect();
    let over = item.game.outcome();
    json!({
        "source": item.source,
        "ply": item.played.map(|(_, p)| p + 1),
        "move_number": move_number(pos),
        "fen": pos.to_fen(item.game.rules()),
        "played": item.played.map(|(m, _)| m.to_string()),
        "best": a.best.map(|m| m.to_string()),
        "score": if over.is_some() { serde_json::Value::Null } else { score_json(a.score) },
        "depth": a.lines.first().map(|l| l.depth),
        "lines": lines,
        "loss": a.loss,
        "mark": mark(marks, a),
        "value_change": a.exact.as_ref().and_then(Exact::change)
            .map(|(b, c)| format!("{} -> {}", value_word(b), value_word(c))),
        "exact": a.exact.as_ref().map(|e| json!({
            "source": source_name(e.source),
            "before": value_json(e.before),
            "after": value_json(e.after),
            "keeping": e.keeping.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            "legal": e.legal,
        })),
        "game_over": over.map(|o| o.to_string()),
    })
}

/// A move's analysis as a record's comment: its mark, its exact values
/// and their source, the best move and its score.
fn annotation(marks: &Marks, a: &Analysis) -> String {
    let mut parts = Vec::new();
    if let Some(m) = mark(marks, a) {
        parts.push(m.to_string());
    }
    if let Some(e) = &a.exact {
        parts.push(format!(
            "{} -> {} ({})",
            value_text(e.before),
            value_text(e.after),
            source_name(e.source)
        ));
    }
    if let Some(best) = a.best {
        let depth = a
            .lines
            .first()
            .map_or(String::new(), |l| format!("/{}", l.depth));
        parts.push(format!("best {best} {}{depth}", format_score(a.score)));
    }
    parts.join(" ")
}

fn source_name(source: Source) -> &'static str {
    match source {
        Source::Tables => "tables",
        Source::Book => "book",
    }
}

/// An exact value in a word and its distance: `win in 7`, `draw`, `loss`
/// (a distance the source does not hold is left out).
fn value_text(p: Probe) -> String {
    match (p.value, p.distance()) {
        (Value::Draw, _) | (_, None) => value_word(p.value).to_string(),
        (v, Some(d)) => format!("{} in {d}", value_word(v)),
    }
}

fn value_json(p: Probe) -> serde_json::Value {
    json!({
        "value": value_word(p.value),
        "distance": if p.value == Value::Draw { None } else { p.distance() },
    })
}

/// A value-losing move of a game: its ply (from 1), its side, its
/// move number and move, the values before and after.
struct Loser {
    ply: usize,
    side: Color,
    text: String,
    before: Value,
    after: Value,
}

/// Each game's value-losing moves, gathered as its moves are analysed,
/// and its record with each move's analysis as its comment.
#[derive(Default)]
pub struct GameSummary {
    source: String,
    record: Option<Arc<Record>>,
    comments: Vec<String>,
    losers: Vec<Loser>,
    /// Moves whose exact values were known, of `plies`.
    judged: usize,
    plies: usize,
}

impl GameSummary {
    /// Adds a move's analysis; returns the finished summary of the game
    /// before, when `item` starts another one.
    pub fn add(&mut self, marks: &Marks, item: &Item, a: &Analysis) -> Option<GameSummary> {
        let (mv, ply) = item.played?;
        let done = (item.source != self.source && self.plies > 0).then(|| std::mem::take(self));
        self.source.clone_from(&item.source);
        self.record.clone_from(&item.record);
        self.comments.push(annotation(marks, a));
        self.plies += 1;
        if let Some(e) = &a.exact {
            self.judged += 1;
            if let Some((before, after)) = e.change() {
                let pos = item.game.position();
                self.losers.push(Loser {
                    ply: ply + 1,
                    side: pos.side_to_move(),
                    text: format!("{} {mv}", move_number(pos)),
                    before,
                    after,
                });
            }
        }
        done
    }

    /// The summary of the game being gathered, if any.
    pub fn finish(&mut self) -> Option<GameSummary> {
        (self.plies > 0).then(|| std::mem::take(self))
    }

    /// The ply whose move decided the game: the last that changed the
    /// exact value (none when no move did, as far as values are known).
    fn decided(&self) -> Option<&Loser> {
        self.losers.last()
    }

    fn side_list(&self, side: Color) -> Vec<String> {
        self.losers
            .iter()
            .filter(|l| l.side == side)
            .map(|l| {
                format!(
                    "{} ({} -> {})",
                    l.text,
                    value_word(l.before),
                    value_word(l.after)
                )
            })
            .collect()
    }

    /// The game's summary line: how many moves had exact values, each
    /// side's value-losing moves, and the move that decided the game.
    pub fn text(&self) -> String {
        let list = |side| {
            let moves = self.side_list(side);
            if moves.is_empty() {
                "none".to_string()
            } else {
                moves.join(", ")
            }
        };
        format!(
            "  Summary: exact values for {} of {} moves; value-losing moves: white {}; black {}; decided {}\n",
            self.judged,
            self.plies,
            list(Color::White),
            list(Color::Black),
            self.decided()
                .map_or("by no move known".to_string(), |l| format!(
                    "at ply {} ({})",
                    l.ply, l.text
                )),
        )
    }

    /// The game's record in `dialect`, each move's analysis appended to
    /// its comment.
    pub fn annotated(&self, dialect: RecordDialect) -> Option<Result<String, RecordError>> {
        let mut record = Record::clone(self.record.as_ref()?);
        for (m, note) in record.moves.iter_mut().zip(&self.comments) {
            m.comment = Some(match m.comment.take() {
                Some(c) => format!("{c}; {note}"),
                None => note.clone(),
            });
        }
        record.set_tag("Annotator", "morris analyze");
        Some(record.write(dialect))
    }

    /// The summary as one JSON object (`source` and `summary`), as `--json`
    /// prints it.
    pub fn json(&self) -> serde_json::Value {
        json!({
            "source": self.source,
            "summary": {
                "judged": self.judged,
                "plies": self.plies,
                "white": self.side_list(Color::White),
                "black": self.side_list(Color::Black),
                "decided_ply": self.decided().map(|l| l.ply),
            },
        })
    }
}
