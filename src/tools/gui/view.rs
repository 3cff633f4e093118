//! What the page draws beyond the bare position, as JSON: mills, the
//! engine's lines, the exact value of every move (tables or book), the
//! coach's word on the player's last move, and the game's end in words.

use serde_json::{Value, json};

use crate::protocol::wire::InfoLine;
use crate::rules::{Color, EndReason, GameResult, Move, Position, Rules, Square};
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
    json!({"value": value_word(p.value), "plies": p.distance(), "text": p.to_string()})
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
    v["source"] = json!(source_name(known.source));
    v
}

/// A side's name as the start of a sentence.
fn title(side: Color) -> &'static str {
    match side {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// How the game ended, in words for the caption on the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ending {
    /// By the rules; the side to move at the end.
    Rules(EndReason, Color),
    /// That side's flag fell.
    Time(Color),
}

impl Ending {
    /// The reason naming the side it concerns (the loser of a win, the
    /// side to move of a draw): "White has no legal move".
    pub fn reason(self, result: GameResult) -> String {
        let (reason, to_move) = match self {
            Ending::Time(loser) => return format!("{} ran out of time", title(loser)),
            Ending::Rules(reason, to_move) => (reason, to_move),
        };
        let side = match result {
            GameResult::Win(winner) => title(!winner),
            GameResult::Draw => title(to_move),
        };
        match reason {
            EndReason::FewerPieces(n) => format!("{side} has fewer than {n} pieces"),
            EndReason::BoardFull => "the board is full".into(),
            EndReason::Blocked => format!("{side} has no legal move"),
            EndReason::Repetition => "the same position came three times".into(),
            EndReason::EndgameMoves => "the three-piece endgame move limit (EndgameMoves)".into(),
            EndReason::NoCaptureMoves => "the move limit without a removal (NoCaptureMoves)".into(),
        }
    }
}

/// Orders values for the side that has them: a win above a draw above a
/// loss.
fn rank(value: TbValue) -> u8 {
    match value {
        TbValue::Win => 2,
        TbValue::Draw => 1,
        TbValue::Loss => 0,
    }
}

fn value_word(value: TbValue) -> &'static str {
    match value {
        TbValue::Win => "win",
        TbValue::Draw => "draw",
        TbValue::Loss => "loss",
    }
}

/// The coach's word on a move of the player that gave value away: a win
/// it threw away or a draw it turned into a loss, and the moves that kept
/// the value, as the tables or the book know them.
#[derive(Clone, Debug)]
pub struct CoachNote {
    /// The move's ply (the game's moves up to and including it).
    pub ply: usize,
    pub mv: Move,
    pub before: TbValue,
    pub after: TbValue,
    pub better: Vec<Move>,
    pub source: Source,
}

/// The most better moves the note's text names.
const BETTER_NAMED: usize = 8;

impl CoachNote {
    /// The note on `mv`, played at ply `ply` from the position `known`
    /// describes; none when it kept the best value or is not known.
    pub fn of(known: &Known, mv: Move, ply: usize) -> Option<CoachNote> {
        let best = known
            .moves
            .iter()
            .map(|m| m.probe.value)
            .max_by_key(|&v| rank(v))?;
        let played = known.moves.iter().find(|m| m.mv == mv)?.probe.value;
        (rank(played) < rank(best)).then(|| CoachNote {
            ply,
            mv,
            before: best,
            after: played,
            better: known
                .moves
                .iter()
                .filter(|m| m.probe.value == best)
                .map(|m| m.mv)
                .collect(),
            source: known.source,
        })
    }

    /// "a1-a4 turned a draw into a loss; d2, f4 keep the draw".
    fn text(&self) -> String {
        let what = match (self.before, self.after) {
            (TbValue::Win, TbValue::Draw) => "threw the win away (it draws)",
            (TbValue::Win, _) => "turned a win into a loss",
            _ => "turned a draw into a loss",
        };
        let mut better: Vec<String> = self
            .better
            .iter()
            .take(BETTER_NAMED)
            .map(Move::to_string)
            .collect();
        if self.better.len() > BETTER_NAMED {
            better.push(format!("{} more", self.better.len() - BETTER_NAMED));
        }
        let verb = if self.better.len() == 1 {
            "keeps"
        } else {
            "keep"
        };
        format!(
            "{} {what}; {} {verb} the {}",
            self.mv,
            better.join(", "),
            value_word(self.before)
        )
    }

    pub fn json(&self) -> Value {
        json!({
            "ply": self.ply,
            "move": self.mv.to_string(),
            "before": value_word(self.before),
            "after": value_word(self.after),
            "better": self.better.iter().map(Move::to_string).collect::<Vec<_>>(),
            "source": source_name(self.source),
            "text": self.text(),
        })
    }
}

fn source_name(source: Source) -> &'static str {
    match source {
        Source::Tables => "tables",
        Source::Book => "book",
    }
}
