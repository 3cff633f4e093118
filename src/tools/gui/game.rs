//! The game itself and the settings of its engine: which sides it plays
//! and how strongly, and the game's record (`History`): the moves played
//! and taken back, the position viewed, the scores and comments of each
//! ply, and the game's end. The rules core decides every move; this is
//! the board's bookkeeping around it.

use serde::Serialize;

use crate::rules::{Color, Game, GameResult, Move, MoveError, Setup};
use crate::search::Score;
use crate::tools::engine_process::TimeControl;
use crate::tools::record;

use super::board::BoardError;
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

/// The game played and what the board knows of each ply, behind private
/// fields so that every change to the moves bumps the epoch and keeps one
/// evaluation a position and one note a move.
pub(super) struct History {
    game: Game,
    /// Bumped by every change to the game's moves: a search of an older
    /// epoch is stale.
    epoch: u64,
    /// The ply viewed when it is not the game's last.
    view: Option<usize>,
    /// The engine's score of each position (index = ply), White's view.
    evals: Vec<Option<Score>>,
    /// The record comment of each move played by the engine.
    notes: Vec<Option<String>>,
    /// The side whose flag fell.
    time_loss: Option<Color>,
}

impl History {
    pub(super) fn new(game: Game) -> History {
        let len = game.moves().len();
        History {
            game,
            epoch: 0,
            view: None,
            evals: vec![None; len + 1],
            notes: vec![None; len],
            time_loss: None,
        }
    }

    /// Replaces the game (a new game, a set-up, an import): a new epoch.
    pub(super) fn replace(&mut self, game: Game) {
        let epoch = self.epoch + 1;
        *self = History::new(game);
        self.epoch = epoch;
    }

    pub(super) fn game(&self) -> &Game {
        &self.game
    }

    pub(super) fn epoch(&self) -> u64 {
        self.epoch
    }

    pub(super) fn evals(&self) -> &[Option<Score>] {
        &self.evals
    }

    pub(super) fn notes(&self) -> &[Option<String>] {
        &self.notes
    }

    /// The comments of the moves (a record's), one a move at most.
    pub(super) fn set_notes(&mut self, notes: impl IntoIterator<Item = Option<String>>) {
        let len = self.notes.len();
        self.notes = notes
            .into_iter()
            .chain(std::iter::repeat(None))
            .take(len)
            .collect();
    }

    /// The score of the position after `ply` moves, White's view.
    pub(super) fn set_eval(&mut self, ply: usize, score: Score) {
        if let Some(slot) = self.evals.get_mut(ply) {
            *slot = Some(score);
        }
    }

    /// The comment of the move that made ply `ply + 1`.
    pub(super) fn set_note(&mut self, ply: usize, note: Option<String>) {
        if let Some(slot) = self.notes.get_mut(ply) {
            *slot = note;
        }
    }

    /// Plays a move at the game's end.
    pub(super) fn play(&mut self, token: &str) -> Result<Move, MoveError> {
        let mv = self.game.play_text(token)?;
        self.epoch += 1;
        self.evals.push(None);
        self.notes.push(None);
        Ok(mv)
    }

    /// Keeps the first `keep` moves; a fallen flag is forgotten.
    pub(super) fn truncate(&mut self, keep: usize) {
        self.game = self.game_at(keep);
        self.epoch += 1;
        self.view = None;
        self.evals.truncate(keep + 1);
        self.notes.truncate(keep);
        self.time_loss = None;
    }

    /// The ply viewed when it is not the game's last.
    pub(super) fn viewed(&self) -> Option<usize> {
        self.view
    }

    /// Views the position after `ply` moves (the end when past it).
    pub(super) fn set_view(&mut self, ply: usize) {
        self.view = (ply < self.game.moves().len()).then_some(ply);
    }

    pub(super) fn shown_ply(&self) -> usize {
        self.view.unwrap_or(self.game.moves().len())
    }

    /// `side` ran out of time; false when the game had ended before.
    pub(super) fn flag(&mut self, side: Color) -> bool {
        let going = self.over().is_none();
        if going {
            self.time_loss = Some(side);
        }
        going
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
