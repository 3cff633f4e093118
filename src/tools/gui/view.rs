//! What the page draws beyond the bare position, as JSON: mills, the
//! engine's lines, and the exact value of every move (tables or book).

use serde_json::{Value, json};

use crate::protocol::wire::InfoLine;
use crate::rules::{Color, Position, Rules, Square};
use crate::tablebase::exact::{Known, Source};
use crate::tablebase::{Probe, Value as TbValue};
use crate::tools::analyze::score_json;

/// The points of each side that stand in a mill.
pub fn mills_json(rules: &Rules, pos: &Position) -> Value {
    let layout = rules.layout();
    let side =
        |c: Color| -> Vec<&str> { layout.in_mills(pos.pieces(c)).map(Square::name).collect() };
    json!({"white": side(Color::White), "black": side(Color::Black)})
}

/// One `info` line of a search.
pub fn info_json(info: &InfoLine) -> Value {
    json!({
        "multipv": info.multipv.unwrap_or(1),
        "depth": info.depth,
        "seldepth": info.seldepth,
        "score": info.score.map(score_json),
        "nodes": info.nodes,
        "nps": info.nps,
        "time": info.time_ms,
        "tbhits": info.tbhits,
        "pv": info.pv.clone().unwrap_or_default(),
    })
}

fn probe_json(p: Probe) -> Value {
    let value = match p.value {
        TbValue::Win => "win",
        TbValue::Draw => "draw",
        TbValue::Loss => "loss",
    };
    json!({"value": value, "plies": p.distance(), "text": p.to_string()})
}

/// The position's value and every legal move's, for the side to move, and
/// where they come from (`"tables"` or the opening `"book"`).
pub fn known_json(known: &Known) -> Value {
    let moves: Vec<Value> = known
        .moves
        .iter()
        .map(|m| {
            let mut v = probe_json(m.probe);
            v["move"] = json!(m.mv.to_string());
            v
        })
        .collect();
    let mut v = probe_json(known.value);
    v["moves"] = json!(moves);
    v["source"] = json!(match known.source {
        Source::Tables => "tables",
        Source::Book => "book",
    });
    v
}
