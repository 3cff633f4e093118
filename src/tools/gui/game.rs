//! The game's record (`History`): the moves played and taken back, the
//! position viewed, the engine's score and comment of each ply and its
//! last move, and the game's end. The rules core decides every move; this
//! is the board's bookkeeping around it, behind private fields so that
//! every change to the moves keeps the rest in step. What the game's
//! record keeps of a ply goes here; who moves next is `orders.rs`'s.

use crate::rules::{Color, EndReason, Game, GameResult, Move, MoveError, MoveList, Setup};
use crate::search::Score;
use crate::tools::records::record::{self, format_score};

use super::error::BoardError;

/// The game's end: its result, its words in the record, and why.
pub(super) struct Over {
    pub(super) result: GameResult,
    pub(super) text: String,
    pub(super) ending: Ending,
}

/// How the game ended (`view.rs` puts it in words).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Ending {
    /// By the rules; the side to move at the end.
    Rules(EndReason, Color),
    /// That side's flag fell.
    Time(Color),
}

/// The engine's move and what it said of it.
#[derive(Clone, Debug)]
pub(super) struct EngineMove {
    pub(super) token: String,
    /// Its score of the position it moved from, its side's view.
    pub(super) score: Option<Score>,
    pub(super) depth: Option<u32>,
}

/// The position viewed: its ply, the game up to it, and the moves
/// playable from it (none at a finished game's end).
pub(super) struct Shown {
    pub(super) ply: usize,
    pub(super) game: Game,
    pub(super) legal: Vec<Move>,
}

fn flip(score: Score) -> Score {
    match score {
        Score::Cp(cp) => Score::Cp(-cp),
        Score::Mate(n) => Score::Mate(-n),
    }
}

/// A score of the side to move as White sees it.
fn white_view(score: Score, side: Color) -> Score {
    match side {
        Color::White => score,
        Color::Black => flip(score),
    }
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
    /// The engine's move, while it is the game's last.
    last_engine: Option<EngineMove>,
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
            last_engine: None,
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

    /// The engine's move while it is the game's last.
    pub(super) fn last_engine(&self) -> Option<&EngineMove> {
        self.last_engine.as_ref()
    }

    /// The score of the position after `ply` moves, its side to move's
    /// view (kept as White sees it).
    pub(super) fn set_score(&mut self, ply: usize, score: Score) {
        let side = self.game_at(ply).position().side_to_move();
        self.set_eval(ply, white_view(score, side));
    }

    /// The score of the position after `ply` moves, White's view.
    fn set_eval(&mut self, ply: usize, score: Score) {
        if let Some(slot) = self.evals.get_mut(ply) {
            *slot = Some(score);
        }
    }

    /// The comment of the move that made ply `ply + 1`.
    fn set_note(&mut self, ply: usize, note: Option<String>) {
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
        self.last_engine = None;
        Ok(mv)
    }

    /// Plays the engine's move at the game's end: its score is the
    /// evaluation of the position it moved from, and with its depth the
    /// move's comment.
    pub(super) fn play_engine(&mut self, mv: EngineMove) -> Result<Move, MoveError> {
        let ply = self.game.moves().len();
        let side = self.game.position().side_to_move();
        let played = self.play(&mv.token)?;
        if let Some(score) = mv.score {
            self.set_eval(ply, white_view(score, side));
        }
        let note = mv.score.map(|s| match mv.depth {
            Some(d) => format!("{}/{d}", format_score(s)),
            None => format_score(s),
        });
        self.set_note(ply, note);
        self.last_engine = Some(mv);
        Ok(played)
    }

    /// Keeps the first `keep` moves; a fallen flag is forgotten.
    pub(super) fn truncate(&mut self, keep: usize) {
        self.game = self.game_at(keep);
        self.epoch += 1;
        self.view = None;
        self.evals.truncate(keep + 1);
        self.notes.truncate(keep);
        self.time_loss = None;
        self.last_engine = None;
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

    /// The position viewed and the moves playable from it.
    pub(super) fn shown(&self) -> Shown {
        let ply = self.shown_ply();
        let game = self.game_at(ply);
        let at_end = ply == self.game.moves().len();
        let mut list = MoveList::new();
        if self.over().is_none() || !at_end {
            game.legal_moves(&mut list);
        }
        Shown {
            ply,
            game,
            legal: list.as_slice().to_vec(),
        }
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
