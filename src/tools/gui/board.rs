//! The game the page shows: the rules, the game so far, who the engine
//! plays and how long it thinks, and the engine process, started when it
//! is first asked to move.

use std::time::Duration;

use serde_json::{Value, json};

use crate::protocol::wire::{GoArgs, PositionArgs};
use crate::rules::{
    Color, Game, GameResult, MoveError, MoveList, Position, Rules, RulesError, Setup, SetupError,
    Square,
};
use crate::search::Score;
use crate::tools::analyze::score_json;
use crate::tools::engine_process::{Answer, Engine, EngineSpec, Fault};

/// Longest wait for the engine's handshake and `readyok`.
const HANDSHAKE: Duration = Duration::from_secs(30);
/// Longest wait for a move at a fixed depth.
const UNTIMED: Duration = Duration::from_secs(120);
/// Margin over a fixed time per move before the engine is given up.
const MARGIN: Duration = Duration::from_secs(5);

/// Which sides the engine plays.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EngineSide {
    White,
    Black,
    /// Engine against engine: the page asks for every move.
    Both,
    None,
}

impl EngineSide {
    pub fn from_name(name: &str) -> Option<EngineSide> {
        match name {
            "white" => Some(EngineSide::White),
            "black" => Some(EngineSide::Black),
            "both" => Some(EngineSide::Both),
            "none" => Some(EngineSide::None),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            EngineSide::White => "white",
            EngineSide::Black => "black",
            EngineSide::Both => "both",
            EngineSide::None => "none",
        }
    }

    fn plays(self, side: Color) -> bool {
        match self {
            EngineSide::White => side == Color::White,
            EngineSide::Black => side == Color::Black,
            EngineSide::Both => true,
            EngineSide::None => false,
        }
    }
}

/// How long the engine thinks per move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Strength {
    Depth(u32),
    MoveTime(u64),
}

/// Why a request to the board failed; `status` is its HTTP status.
#[derive(Debug, thiserror::Error)]
pub enum BoardError {
    #[error("{0}")]
    BadRequest(String),
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(transparent)]
    Move(#[from] MoveError),
    #[error(transparent)]
    Setup(#[from] SetupError),
    #[error("{0}")]
    Conflict(String),
    #[error("engine {name} {fault}")]
    Engine { name: String, fault: Fault },
}

impl BoardError {
    pub fn status(&self) -> u16 {
        match self {
            BoardError::BadRequest(_)
            | BoardError::Rules(_)
            | BoardError::Move(_)
            | BoardError::Setup(_) => 400,
            BoardError::Conflict(_) => 409,
            BoardError::Engine { .. } => 502,
        }
    }
}

/// A new game's settings.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub rules: Rules,
    pub engine_side: EngineSide,
    pub strength: Strength,
}

/// The engine's last move and what it said of it.
#[derive(Clone, Debug)]
struct EngineMove {
    token: String,
    score: Option<Score>,
    depth: Option<u32>,
}

/// The board behind the page.
pub struct Board {
    spec: EngineSpec,
    game: Game,
    engine_side: EngineSide,
    strength: Strength,
    engine: Option<Engine>,
    last_engine: Option<EngineMove>,
}

impl Board {
    /// The start position of the standard rules, the engine playing Black
    /// at depth 4 once asked.
    pub fn new(spec: EngineSpec) -> Board {
        let rules = Rules::default();
        Board {
            spec,
            game: Game::new(rules, Position::start(&rules)),
            engine_side: EngineSide::Black,
            strength: Strength::Depth(4),
            engine: None,
            last_engine: None,
        }
    }

    /// Starts a new game; the engine is restarted when the rules change,
    /// since it takes them once after its handshake.
    pub fn new_game(&mut self, settings: NewGame) {
        if settings.rules != *self.game.rules() {
            self.engine = None;
        }
        self.game = Game::new(settings.rules, Position::start(&settings.rules));
        self.engine_side = settings.engine_side;
        self.strength = settings.strength;
        self.last_engine = None;
    }

    /// Plays a move given in the notation, checked by the rules core.
    pub fn play(&mut self, token: &str) -> Result<(), BoardError> {
        self.game.play_text(token.trim())?;
        self.last_engine = None;
        Ok(())
    }

    /// Takes back `plies` moves (as many as there are, at most).
    pub fn take_back(&mut self, plies: usize) -> Result<(), BoardError> {
        let mut setup = Setup::of_game(&self.game);
        let keep = setup.moves.len().saturating_sub(plies);
        setup.moves.truncate(keep);
        self.game = setup.game(self.game.rules())?;
        self.last_engine = None;
        Ok(())
    }

    /// Sets the game to a set-up line: a position string, `startpos`, and
    /// moves, as `Setup::parse` reads it, under the rules in force.
    pub fn set_position(&mut self, text: &str) -> Result<(), BoardError> {
        let setup = Setup::parse(text)?;
        self.game = setup.game(self.game.rules())?;
        self.last_engine = None;
        Ok(())
    }

    /// Asks the engine for the side to move's move and plays it. A failed
    /// engine is dropped, to be started afresh on the next request.
    pub fn engine_move(&mut self) -> Result<(), BoardError> {
        if let Some(outcome) = self.game.outcome() {
            return Err(BoardError::Conflict(format!("the game is over: {outcome}")));
        }
        let result = self.ask_engine();
        if result.is_err() {
            self.engine = None;
        }
        let reply = result.map_err(|fault| BoardError::Engine {
            name: self.spec.name.clone(),
            fault,
        })?;
        self.last_engine = Some(reply);
        Ok(())
    }

    fn ask_engine(&mut self) -> Result<EngineMove, Fault> {
        let engine = match &mut self.engine {
            Some(engine) => engine,
            None => {
                let mut engine = Engine::start(&self.spec, self.game.rules(), HANDSHAKE)?;
                engine.new_game(HANDSHAKE)?;
                self.engine.insert(engine)
            }
        };
        let dialect = self.spec.proto.dialect();
        let (go, limit) = match self.strength {
            Strength::Depth(depth) => (
                GoArgs {
                    depth: Some(depth),
                    ..GoArgs::default()
                },
                UNTIMED,
            ),
            Strength::MoveTime(ms) => (
                GoArgs {
                    movetime: Some(ms),
                    ..GoArgs::default()
                },
                Duration::from_millis(ms) + MARGIN,
            ),
        };
        let reply = engine.go(PositionArgs::of_game(&self.game, dialect), go, None, limit)?;
        let token = match reply.best {
            Answer::Move(token) => token,
            Answer::NoMove(word) => return Err(Fault::Malformed(format!("bestmove {word}"))),
            Answer::Draw => return Err(Fault::Malformed("bestmove draw".into())),
        };
        self.game.play_text(&token)?;
        Ok(EngineMove {
            token,
            score: reply.score,
            depth: reply.depth,
        })
    }

    /// Everything the page draws, as JSON (protocol.md, "The board").
    pub fn state(&self) -> Value {
        let game = &self.game;
        let rules = game.rules();
        let pos = game.position();
        let mut list = MoveList::new();
        game.legal_moves(&mut list);
        let side = pos.side_to_move();
        let points = |c: Color| -> Vec<&str> { pos.pieces(c).map(Square::name).collect() };
        let over = game.outcome().map(|o| {
            let (result, winner) = match o.result {
                GameResult::Win(Color::White) => ("1-0", Some("white")),
                GameResult::Win(Color::Black) => ("0-1", Some("black")),
                GameResult::Draw => ("1/2-1/2", None),
            };
            json!({"result": result, "winner": winner, "text": o.to_string()})
        });
        let engine_to_move = over.is_none() && self.engine_side.plays(side);
        let strength = match self.strength {
            Strength::Depth(d) => json!({"depth": d}),
            Strength::MoveTime(ms) => json!({"movetime": ms}),
        };
        json!({
            "rules": {
                "variant": rules.variant.name(),
                "options": rules.non_default().iter().map(|s| s.to_string()).collect::<Vec<_>>(),
                "pieces": rules.pieces,
                "diagonals": rules.diagonals,
            },
            "fen": pos.to_fen(rules),
            "setup": Setup::of_game(game).to_string(),
            "side_to_move": side.name(),
            "in_hand": {"white": pos.in_hand(Color::White), "black": pos.in_hand(Color::Black)},
            "pieces": {"white": points(Color::White), "black": points(Color::Black)},
            "legal_moves": list.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            "last_move": game.moves().last().map(|m| m.to_string()),
            "moves": game.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
            "over": over,
            "engine": {
                "name": self.spec.name,
                "side": self.engine_side.name(),
                "strength": strength,
                "to_move": engine_to_move,
                "last": self.last_engine.as_ref().map(|e| json!({
                    "move": e.token,
                    "score": e.score.map(score_json),
                    "depth": e.depth,
                })),
            },
        })
    }
}
