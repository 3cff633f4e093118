//! The game itself and the settings of its engine: which sides it plays
//! and how strongly, the moves played and taken back, the positions of
//! the game, its end, and the exact values the tables or the book know.
//! The rules core decides every move; this is the board's bookkeeping
//! around it (scores and comments per ply, the position viewed).

use serde::Serialize;

use crate::rules::{Color, Game, GameResult, Move, MoveError, Position, Setup};
use crate::search::Score;
use crate::tablebase::book;
use crate::tablebase::exact::Known;
use crate::tools::engine_process::TimeControl;
use crate::tools::record;

use super::board::{BoardError, State};
use super::view::Ending;

/// Which sides the engine plays.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EngineSide {
    White,
    Black,
    /// Engine against engine: it plays every move.
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

    pub(super) fn plays(self, side: Color) -> bool {
        match self {
            EngineSide::White => side == Color::White,
            EngineSide::Black => side == Color::Black,
            EngineSide::Both => true,
            EngineSide::None => false,
        }
    }
}

/// How strongly the engine plays: its depth, time per move or skill
/// level (the engine's `Skill` option, at `scheduler::SKILL_MOVETIME` a
/// move). Its JSON is `{"depth": N}` and the like.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Strength {
    Depth(u32),
    MoveTime(u64),
    Nodes(u64),
    Skill(u8),
}

impl Strength {
    /// The default of `--engine`'s limit keys (`depth=`, `movetime=`,
    /// `nodes=`); a clock (`tc=`) is the game's clock instead.
    pub fn of_time_control(tc: TimeControl) -> Option<Strength> {
        match tc {
            TimeControl::Depth(d) => Some(Strength::Depth(d)),
            TimeControl::MoveTime(ms) => Some(Strength::MoveTime(ms)),
            TimeControl::Nodes(n) => Some(Strength::Nodes(n)),
            TimeControl::Clock { .. } => None,
        }
    }
}

/// The game's end: its result, its words in the record, and why.
pub(super) struct Over {
    pub(super) result: GameResult,
    pub(super) text: String,
    pub(super) ending: Ending,
}

/// The engine's last move and what it said of it.
#[derive(Clone, Debug)]
pub(super) struct EngineMove {
    pub(super) token: String,
    pub(super) score: Option<Score>,
    pub(super) depth: Option<u32>,
}

impl State {
    /// Plays a move at the game's end: the mover's clock gets its increment.
    pub(super) fn play_move(&mut self, token: &str) -> Result<Move, MoveError> {
        let side = self.game.position().side_to_move();
        let mv = self.game.play_text(token)?;
        self.epoch += 1;
        self.evals.push(None);
        self.notes.push(None);
        if let Some(c) = &mut self.clocks {
            c.left[side as usize] += c.setting.inc_ms;
        }
        Ok(mv)
    }

    /// A new game (or set-up, or import), with its tables.
    pub(super) fn set_game(&mut self, game: Game) {
        let len = game.moves().len();
        self.game = game;
        self.epoch += 1;
        self.view = None;
        self.evals = vec![None; len + 1];
        self.notes = vec![None; len];
        self.time_loss = None;
        self.last_engine = None;
        self.coach_note = None;
        self.force = false;
        self.open_tables();
        if let Some(c) = self.clocks {
            self.reset_clocks(Some(c.setting));
        }
    }

    /// Opens the tables of the game's rules afresh (the engine may have
    /// built some since they were last opened).
    pub(super) fn open_tables(&mut self) {
        let rules = *self.game.rules();
        self.tables.reopened_for(&rules);
    }

    /// Keeps the first `keep` moves.
    pub(super) fn truncate(&mut self, keep: usize) {
        let game = self.game_at(keep);
        self.game = game;
        self.epoch += 1;
        self.view = None;
        self.evals.truncate(keep + 1);
        self.notes.truncate(keep);
        self.coach_note = self.coach_note.take().filter(|n| n.ply <= keep);
        self.last_engine = None;
        self.force = false;
    }

    /// A move may be asked for: the game goes on.
    pub(super) fn playable(&self) -> Result<(), BoardError> {
        match self.over() {
            Some(o) => Err(BoardError::Conflict(format!(
                "the game is over: {}",
                o.text
            ))),
            None => Ok(()),
        }
    }

    /// The game's end: by the rules, or a flag fallen.
    pub(super) fn over(&self) -> Option<Over> {
        if let Some(loser) = self.time_loss {
            let result = GameResult::Win(!loser);
            let text = format!(
                "{} {} wins on time",
                record::result_text(Some(result)),
                (!loser).name()
            );
            return Some(Over {
                result,
                text,
                ending: Ending::Time(loser),
            });
        }
        let to_move = self.game.position().side_to_move();
        self.game.outcome().map(|o| Over {
            result: o.result,
            text: o.to_string(),
            ending: Ending::Rules(o.reason, to_move),
        })
    }

    /// The exact values of `pos` and its moves, from the game's tables or
    /// else the built-in opening book, where they know them.
    pub(super) fn known(&self, pos: &Position) -> Option<Known> {
        Known::of(
            self.tables.current().map(|t| &**t),
            Some(&book::builtin()),
            pos,
            self.game.rules(),
        )
    }

    pub(super) fn shown_ply(&self) -> usize {
        self.view.unwrap_or(self.game.moves().len())
    }

    /// The game up to its first `ply` moves.
    pub(super) fn game_at(&self, ply: usize) -> Game {
        let mut setup = Setup::of_game(&self.game);
        if ply >= setup.moves.len() {
            return self.game.clone();
        }
        setup.moves.truncate(ply);
        setup
            .game(self.game.rules())
            .expect("a prefix of a legal game is legal")
    }
}
