//! The board's JSON (protocol.md, "The board"): every answer of the API
//! as a typed struct, so that each key is defined once here and the whole
//! is serialised in one place (`api::answer`). Besides the state's shape:
//! what the page draws beyond the bare position, namely the mills, the
//! engine's lines, the exact value of every move (tables or book), the
//! coach's word on the player's last move, and the game's end in words.
//!
//! The state is built from the values the board hands over (`Parts`),
//! the exact values included: nothing here asks the board, the engine or
//! the tables, so a new key of the page is a field here and, if the board
//! does not hand it over yet, a field of `Parts`.

use serde::Serialize;

use crate::protocol::wire::InfoLine;
use crate::rules::{self, Color, EndReason, GameResult, Move, Setup, Square};
use crate::search::Score;
use crate::tablebase::{self, Value as TbValue};
use crate::tablebase::{Known, Source};
use crate::tools::records::record;

use super::clock::Clocks;
use super::coach::{self, CoachNote};
use super::game::{Ending, History, Shown};
use super::orders::{Kind, Orders, Strength};

/// Every JSON answer of the API.
#[derive(Serialize, Debug)]
#[serde(untagged)]
pub(super) enum Reply {
    State(Box<State>),
    Position(Position),
    Record(Record),
    Variants(Variants),
    Error(Error),
}

impl From<State> for Reply {
    fn from(state: State) -> Reply {
        Reply::State(Box::new(state))
    }
}

/// The game as the page shows it: the position viewed and the game around
/// it (protocol.md lists what each field means).
#[derive(Serialize, Debug)]
pub(super) struct State {
    pub rules: RuleSet,
    pub ply: usize,
    pub fen: String,
    pub setup: String,
    pub side_to_move: &'static str,
    pub turn: &'static str,
    pub in_hand: Sides<u8>,
    pub pieces: Sides<Vec<&'static str>>,
    pub marks: Vec<&'static str>,
    pub legal_moves: Vec<String>,
    pub last_move: Option<String>,
    pub mills: Sides<Vec<&'static str>>,
    pub moves: Vec<String>,
    pub over: Option<Over>,
    pub clock: Option<Clock>,
    pub evals: Vec<Option<Eval>>,
    pub exact: Vec<ExactPly>,
    pub tables: Option<Tables>,
    pub coach: Coach,
    pub thinking: bool,
    pub paused: bool,
    pub analysis: Option<Analysis>,
    pub search: Option<Search>,
    pub engine: Engine,
}

#[derive(Serialize, Debug)]
pub(super) struct RuleSet {
    pub variant: &'static str,
    /// The options that differ from the variant's, as `Name=Value`.
    pub options: Vec<String>,
    pub pieces: u8,
    pub diagonals: bool,
}

/// One thing of each side.
#[derive(Serialize, Debug)]
pub(super) struct Sides<T> {
    pub white: T,
    pub black: T,
}

impl<T> Sides<T> {
    fn of(f: impl Fn(Color) -> T) -> Sides<T> {
        Sides {
            white: f(Color::White),
            black: f(Color::Black),
        }
    }
}

/// The points of each side that stand in a mill.
fn mills(rules: &rules::Rules, pos: &rules::Position) -> Sides<Vec<&'static str>> {
    let layout = rules.layout();
    Sides::of(|c| layout.in_mills(pos.pieces(c)).map(Square::name).collect())
}

/// The game's end.
#[derive(Serialize, Debug)]
pub(super) struct Over {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    pub winner: Option<&'static str>,
    pub text: String,
    /// `Ending::reason`.
    pub reason: String,
}

/// The milliseconds left to each side, and whose clock runs.
#[derive(Serialize, Debug)]
pub(super) struct Clock {
    pub white: u64,
    pub black: u64,
    pub running: Option<&'static str>,
    pub base: u64,
    pub inc: u64,
}

/// A score: `{"cp": N}` or `{"mate": N}`.
#[derive(Serialize, Clone, Copy, Debug)]
#[serde(rename_all = "lowercase")]
pub(super) enum Eval {
    Cp(i32),
    Mate(i32),
}

impl From<Score> for Eval {
    fn from(score: Score) -> Eval {
        match score {
            Score::Cp(cp) => Eval::Cp(cp),
            Score::Mate(n) => Eval::Mate(n),
        }
    }
}

#[derive(Serialize, Debug)]
pub(super) struct Coach {
    pub enabled: bool,
    pub note: Option<Note>,
}

#[derive(Serialize, Debug)]
pub(super) struct Analysis {
    pub multipv: u32,
}

/// The search running: what for, on which ply, and its lines so far.
#[derive(Serialize, Debug)]
pub(super) struct Search {
    pub kind: Kind,
    pub ply: usize,
    pub lines: Vec<Line>,
}

/// One `info` line of a search.
#[derive(Serialize, Debug)]
pub(super) struct Line {
    multipv: u32,
    depth: Option<u32>,
    seldepth: Option<u32>,
    score: Option<Eval>,
    nodes: Option<u64>,
    nps: Option<u64>,
    time: Option<u64>,
    tbhits: Option<u64>,
    pv: Vec<String>,
}

impl From<&InfoLine> for Line {
    fn from(info: &InfoLine) -> Line {
        Line {
            multipv: info.multipv.unwrap_or(1),
            depth: info.depth,
            seldepth: info.seldepth,
            score: info.score.map(Eval::from),
            nodes: info.nodes,
            nps: info.nps,
            time: info.time_ms,
            tbhits: info.tbhits,
            pv: info.pv.clone().unwrap_or_default(),
        }
    }
}

/// The engine, its settings, and what it last did.
#[derive(Serialize, Debug)]
pub(super) struct Engine {
    pub name: String,
    pub side: &'static str,
    pub strength: Strength,
    pub to_move: bool,
    pub last: Option<LastMove>,
    pub error: Option<String>,
}

/// The engine's last move and what it said of it.
#[derive(Serialize, Debug)]
pub(super) struct LastMove {
    #[serde(rename = "move")]
    pub mv: String,
    pub score: Option<Eval>,
    pub depth: Option<u32>,
}

/// `GET /api/position`.
#[derive(Serialize, Debug)]
pub(super) struct Position {
    pub fen: String,
    pub setup: String,
}

/// `GET /api/record`.
#[derive(Serialize, Debug)]
pub(super) struct Record {
    pub record: String,
}

/// `GET /api/variants`: every rule set, for the menu.
#[derive(Serialize, Debug)]
pub(super) struct Variants {
    pub variants: Vec<VariantName>,
}

#[derive(Serialize, Debug)]
pub(super) struct VariantName {
    pub name: &'static str,
    pub title: &'static str,
}

/// A refused request.
#[derive(Serialize, Debug)]
pub(super) struct Error {
    pub error: String,
}

/// A value for the side to move, in words and plies.
#[derive(Serialize, Debug)]
pub(super) struct Probe {
    value: &'static str,
    plies: Option<u16>,
    text: String,
}

impl From<tablebase::Probe> for Probe {
    fn from(p: tablebase::Probe) -> Probe {
        Probe {
            value: value_word(p.value),
            plies: p.distance(),
            text: p.to_string(),
        }
    }
}

/// What the tables or the book know of a position of the game: who wins
/// (`"white"`, `"black"`) or `"draw"` (`None`: unknown), and whether the
/// move that led to it threw its mover's value away.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ExactPly {
    pub value: Option<&'static str>,
    pub thrown: bool,
}

/// The position's value and every legal move's, for the side to move, and
/// where they come from (`"tables"` or the opening `"book"`).
#[derive(Serialize, Debug)]
pub(super) struct Tables {
    #[serde(flatten)]
    value: Probe,
    moves: Vec<MoveValue>,
    source: &'static str,
}

#[derive(Serialize, Debug)]
pub(super) struct MoveValue {
    #[serde(rename = "move")]
    mv: String,
    #[serde(flatten)]
    value: Probe,
}

impl From<&Known> for Tables {
    fn from(known: &Known) -> Tables {
        Tables {
            value: known.value.into(),
            moves: known
                .moves
                .iter()
                .map(|m| MoveValue {
                    mv: m.mv.to_string(),
                    value: m.probe.into(),
                })
                .collect(),
            source: source_name(known.source),
        }
    }
}

/// A side's name as the start of a sentence.
fn title(side: Color) -> &'static str {
    match side {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// How the game ended, in words for the caption on the board: the reason
/// naming the side it concerns (the loser of a win, the side to move of a
/// draw), "White has no legal move".
fn reason(ending: Ending, result: GameResult) -> String {
    let (reason, to_move) = match ending {
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

fn value_word(value: TbValue) -> &'static str {
    match value {
        TbValue::Win => "win",
        TbValue::Draw => "draw",
        TbValue::Loss => "loss",
    }
}

/// The most better moves the note's text names.
const BETTER_NAMED: usize = 8;

/// The coach's note in words: "a1-a4 turned a draw into a loss; d2, f4
/// keep the draw".
fn note_text(note: &CoachNote) -> String {
    let what = match (note.before, note.after) {
        (TbValue::Win, TbValue::Draw) => "threw the win away (it draws)",
        (TbValue::Win, _) => "turned a win into a loss",
        _ => "turned a draw into a loss",
    };
    let mut better: Vec<String> = note
        .better
        .iter()
        .take(BETTER_NAMED)
        .map(Move::to_string)
        .collect();
    if note.better.len() > BETTER_NAMED {
        better.push(format!("{} more", note.better.len() - BETTER_NAMED));
    }
    let verb = if note.better.len() == 1 {
        "keeps"
    } else {
        "keep"
    };
    format!(
        "{} {what}; {} {verb} the {}",
        note.mv,
        better.join(", "),
        value_word(note.before)
    )
}

/// The coach's note as the page gets it, its text included.
#[derive(Serialize, Debug)]
pub(super) struct Note {
    ply: usize,
    #[serde(rename = "move")]
    mv: String,
    before: &'static str,
    after: &'static str,
    better: Vec<String>,
    source: &'static str,
    text: String,
}

impl From<&CoachNote> for Note {
    fn from(note: &CoachNote) -> Note {
        Note {
            ply: note.ply,
            mv: note.mv.to_string(),
            before: value_word(note.before),
            after: value_word(note.after),
            better: note.better.iter().map(Move::to_string).collect(),
            source: source_name(note.source),
            text: note_text(note),
        }
    }
}

fn source_name(source: Source) -> &'static str {
    match source {
        Source::Tables => "tables",
        Source::Book => "book",
    }
}

/// What the page is shown, handed over by the board: the view reads
/// these and asks nothing back.
pub(super) struct Parts<'a> {
    pub(super) history: &'a History,
    /// The position viewed and its moves (`History::shown`).
    pub(super) shown: &'a Shown,
    /// The exact values of the position viewed, where known.
    pub(super) known: Option<&'a Known>,
    /// The exact value of each position of the game (index: ply).
    pub(super) exact: Vec<ExactPly>,
    pub(super) clocks: Option<&'a Clocks>,
    pub(super) coach: &'a coach::Coach,
    pub(super) orders: &'a Orders,
    pub(super) search: Option<Running<'a>>,
    /// The message of the engine's last failure.
    pub(super) fault: Option<&'a str>,
    /// The engine's name.
    pub(super) engine: &'a str,
}

/// The search running: what for, on which ply, and its lines so far.
pub(super) struct Running<'a> {
    pub(super) kind: Kind,
    pub(super) ply: usize,
    pub(super) lines: &'a [InfoLine],
}

impl State {
    /// What the page is sent of the board's state.
    pub(super) fn of(parts: Parts<'_>) -> State {
        let Parts {
            history,
            shown,
            known,
            exact,
            clocks,
            coach,
            orders,
            search,
            fault,
            engine,
        } = parts;
        let game = history.game();
        let ply = shown.ply;
        let rules = game.rules();
        let pos = shown.game.position();
        let over = history.over();
        let turn = game.position().side_to_move();
        let engine_to_move =
            over.is_none() && orders.engine_side().plays(turn) && orders.analysis().is_none();
        State {
            rules: RuleSet {
                variant: rules.variant.name(),
                options: rules.non_default().iter().map(|s| s.to_string()).collect(),
                pieces: rules.pieces,
                diagonals: rules.diagonals,
            },
            ply,
            fen: pos.to_fen(rules),
            setup: Setup::of_game(game).to_string(),
            side_to_move: pos.side_to_move().name(),
            turn: turn.name(),
            in_hand: Sides::of(|c| pos.in_hand(c)),
            pieces: Sides::of(|c| pos.pieces(c).map(Square::name).collect()),
            marks: pos.marked().map(Square::name).collect(),
            legal_moves: shown.legal.iter().map(|m| m.to_string()).collect(),
            last_move: shown.game.moves().last().map(|m| m.to_string()),
            mills: mills(rules, pos),
            moves: game.moves().iter().map(Move::to_string).collect(),
            over: over.map(|o| Over {
                result: record::result_text(Some(o.result)),
                winner: match o.result {
                    GameResult::Win(c) => Some(c.name()),
                    GameResult::Draw => None,
                },
                reason: reason(o.ending, o.result),
                text: o.text,
            }),
            clock: clocks.map(|c| Clock {
                white: c.left(Color::White),
                black: c.left(Color::Black),
                running: c.running().then_some(turn.name()),
                base: c.setting().base_ms,
                inc: c.setting().inc_ms,
            }),
            evals: history.evals().iter().map(|e| e.map(Eval::from)).collect(),
            exact,
            tables: known.map(Tables::from),
            coach: Coach {
                enabled: coach.enabled(),
                note: coach.note().map(Note::from),
            },
            thinking: search.as_ref().is_some_and(|s| s.kind == Kind::Play),
            paused: orders.paused(),
            analysis: orders.analysis().map(|multipv| Analysis { multipv }),
            search: search.map(|s| Search {
                kind: s.kind,
                ply: s.ply,
                lines: s.lines.iter().map(Line::from).collect(),
            }),
            engine: Engine {
                name: engine.to_string(),
                side: orders.engine_side().name(),
                strength: orders.strength(),
                to_move: engine_to_move,
                last: history.last_engine().map(|e| LastMove {
                    mv: e.token.clone(),
                    score: e.score.map(Eval::from),
                    depth: e.depth,
                }),
                error: fault.map(str::to_string),
            },
        }
    }
}
