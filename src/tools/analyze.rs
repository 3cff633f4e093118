//! `morris analyze`: searches every position of a game record (or of a
//! list of positions) with the search library, and for games rates each
//! move played by how much worse it scores than the best move.

use std::collections::BTreeMap;

use serde_json::json;

use super::input::InputError;
use super::record::{format_score, is_record, parse_records};
use crate::engine::Session;
use crate::rules::{Color, Game, Move, Position, Rules, Setup};
use crate::search::{Info, Limits, Score};
use crate::tablebase::Known;
use crate::tablebase::Value;
use crate::tablebase::preference;

/// Score losses (hundredths of a piece) from which a move played is marked
/// a mistake (`?`) or a blunder (`??`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Marks {
    pub mistake: i32,
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
}

/// What the search said about one position.
pub struct Analysis {
    best: Option<Move>,
    score: Score,
    /// The final line of each multipv rank, best first.
    lines: Vec<Info>,
    /// Score loss of the move played, when it was not the best.
    loss: Option<i32>,
    /// The table values of the position and after the move played, when
    /// the tables cover both and the move changed the value.
    change: Option<(Value, Value)>,
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
            for (ply, &mv) in full.moves().iter().enumerate() {
                items.push(Item {
                    source: format!("game {}", g + 1),
                    game: game.clone(),
                    played: Some((mv, ply)),
                    header: (ply == 0).then(|| header.clone()),
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
fn value_word(v: Value) -> &'static str {
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

/// The exact values before and after `mv`, when the tables (else the
/// book) know them and the move changes the value.
fn value_change(known: &Known, mv: Move) -> Option<(Value, Value)> {
    let moves = &known.moves;
    let before = moves
        .iter()
        .map(|m| m.probe)
        .max_by_key(|&p| preference(p))?;
    let after = moves.iter().find(|m| m.mv == mv)?.probe;
    (before.value != after.value).then_some((before.value, after.value))
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
    let change = item
        .played
        .and_then(|(mv, _)| value_change(&session.known(item.game.position())?, mv));
    Analysis {
        best: out.best,
        score: out.score,
        lines: by_rank.into_values().collect(),
        loss,
        change,
    }
}

/// The move number as records write it: `12.` for white, `12...` for black.
fn move_number(pos: &Position) -> String {
    match pos.side_to_move() {
        Color::White => format!("{}.", pos.fullmove()),
        Color::Black => format!("{}...", pos.fullmove()),
    }
}

/// The mark of the move played: `??` for one that changes the table
/// value, else by its score loss.
fn mark(marks: &Marks, a: &Analysis) -> Option<&'static str> {
    if a.change.is_some() {
        return Some("??");
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
            let mark = match a.change {
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
            out += &format!(
                "  {played:<18} best {best:<10} {}{depth}{loss}  pv {pv}\n",
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
        "value_change": a.change.map(|(b, c)| format!("{} -> {}", value_word(b), value_word(c))),
        "game_over": over.map(|o| o.to_string()),
    })
}
