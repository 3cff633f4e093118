//! The board behind the page: the game, the clocks and what the engine
//! last said live behind one lock (`State`), held only briefly; the
//! engine process behind another, held by the background thread of the
//! search running on it (`scheduler.rs`), so every request is answered
//! while it thinks. The requests of the API are its methods here; the
//! game's bookkeeping is in `game.rs`, the clocks in `clock.rs`, and what
//! the page is sent in `view.rs`.

use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::rules::{Color, Game, Move, MoveError, Position, Rules, RulesError, Setup, SetupError};
use crate::tablebase;
use crate::tablebase::Known;
use crate::tablebase::OpenTables;
use crate::tablebase::book;
use crate::tools::engine_process::{EngineSpec, TimeControl, TimeControlError};
use crate::tools::record::{self, Record, RecordError};

use super::clock::{ClockSetting, Clocks};
use super::game::{EngineMove, EngineSide, History, Strength};
use super::scheduler::{Kind, MAX_MULTIPV, Search, Slot};
use super::view::{self, CoachNote};

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
    #[error(transparent)]
    Record(#[from] RecordError),
    #[error(transparent)]
    Clock(#[from] TimeControlError),
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    Engine(String),
}

impl BoardError {
    pub fn status(&self) -> u16 {
        match self {
            BoardError::BadRequest(_)
            | BoardError::Rules(_)
            | BoardError::Move(_)
            | BoardError::Setup(_)
            | BoardError::Record(_)
            | BoardError::Clock(_) => 400,
            BoardError::Conflict(_) => 409,
            BoardError::Engine(_) => 502,
        }
    }
}

/// A new game's settings.
#[derive(Clone, Debug)]
pub struct NewGame {
    pub rules: Rules,
    pub engine_side: EngineSide,
    /// None: the last game's.
    pub strength: Option<Strength>,
    pub clock: Option<ClockSetting>,
}

/// The game and everything around it, behind the state lock: the game's
/// record (`game.rs`), its clocks (`clock.rs`), and the engine's part
/// (the search: `scheduler.rs`).
pub(super) struct State {
    pub(super) history: History,
    pub(super) engine_side: EngineSide,
    pub(super) strength: Strength,
    pub(super) clocks: Option<Clocks>,
    /// No engine move starts by itself (set by `stop`, a failure, an
    /// import); `go` clears it.
    pub(super) paused: bool,
    /// The engine plays the side to move once even if it is not its side.
    pub(super) force: bool,
    /// Analysis lines wanted; none when analysis is off.
    pub(super) analysis: Option<u32>,
    pub(super) search: Option<Search>,
    pub(super) next_id: u64,
    pub(super) last_engine: Option<EngineMove>,
    /// The last failure of the engine: the search's id and the message.
    pub(super) fault: Option<(u64, String)>,
    /// The tables of the game's rules, reopened for each new game.
    pub(super) tables: OpenTables,
    /// The coach comments on the player's moves (on unless turned off).
    pub(super) coach: bool,
    /// Its word on the player's last move, until the player's next move.
    pub(super) coach_note: Option<CoachNote>,
    pub(super) closing: bool,
}

impl State {
    pub(super) fn game(&self) -> &Game {
        self.history.game()
    }

    /// Plays a move at the game's end: the mover's clock gets its
    /// increment.
    pub(super) fn play_move(&mut self, token: &str) -> Result<Move, MoveError> {
        let side = self.game().position().side_to_move();
        let mv = self.history.play(token)?;
        if let Some(c) = &mut self.clocks {
            c.add_increment(side);
        }
        Ok(mv)
    }

    /// A new game (or set-up, or import), with its tables and fresh clocks.
    pub(super) fn set_game(&mut self, game: Game) {
        self.history.replace(game);
        self.last_engine = None;
        self.coach_note = None;
        self.force = false;
        self.open_tables();
        if let Some(c) = self.clocks {
            self.reset_clocks(Some(c.setting));
        }
    }

    /// Keeps the first `keep` moves.
    pub(super) fn truncate(&mut self, keep: usize) {
        self.history.truncate(keep);
        self.coach_note = self.coach_note.take().filter(|n| n.ply <= keep);
        self.last_engine = None;
        self.force = false;
    }

    /// Opens the tables of the game's rules afresh (the engine may have
    /// built some since they were last opened).
    pub(super) fn open_tables(&mut self) {
        let rules = *self.game().rules();
        self.tables.reopened_for(&rules);
    }

    /// The exact values of `pos` and its moves, from the game's tables or
    /// else the built-in opening book, where they know them.
    pub(super) fn known(&self, pos: &Position) -> Option<Known> {
        Known::of(
            self.tables.current().map(|t| &**t),
            book::builtin().serving(self.game().rules()),
            pos,
            self.game().rules(),
        )
    }

    pub(super) fn reset_clocks(&mut self, setting: Option<ClockSetting>) {
        self.clocks = setting.map(Clocks::new);
    }

    /// Charges the time used since the last look to the side to move; a
    /// clock at zero loses the game (and stops the search).
    pub(super) fn tick(&mut self) {
        let side = self.game().position().side_to_move();
        if self.clocks.as_mut().is_some_and(|c| c.charge(side))
            && self.history.flag(side)
            && self.search.as_ref().is_some_and(|s| s.kind == Kind::Play)
        {
            self.cancel();
        }
    }

    /// Runs the clock of the side to move while the game is played (not
    /// over, paused or analysed), and stops it otherwise.
    pub(super) fn run_clock(&mut self) {
        let running = self.history.over().is_none() && !self.paused && self.analysis.is_none();
        if let Some(c) = &mut self.clocks {
            c.run(running);
        }
    }
}

/// The board behind the page, shared by the request threads.
pub struct Board {
    pub(super) spec: EngineSpec,
    pub(super) state: Mutex<State>,
    pub(super) engine: Mutex<Option<Slot>>,
    pub(super) threads: Mutex<Vec<JoinHandle<()>>>,
}

pub(super) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Board {
    /// The start position of the standard rules, the engine playing Black
    /// at depth 4, or at the limit `--engine` gave.
    pub fn new(spec: EngineSpec) -> Arc<Board> {
        let rules = Rules::default();
        let strength = spec
            .tc
            .and_then(Strength::of_time_control)
            .unwrap_or(Strength::Depth(4));
        let clock = match spec.tc {
            Some(TimeControl::Clock { base_ms, inc_ms }) => Some(ClockSetting { base_ms, inc_ms }),
            _ => None,
        };
        let mut state = State {
            history: History::new(Game::new(rules, Position::start(&rules))),
            engine_side: EngineSide::Black,
            strength,
            clocks: None,
            paused: false,
            force: false,
            analysis: None,
            search: None,
            next_id: 0,
            last_engine: None,
            fault: None,
            tables: OpenTables::new(tablebase::default_dir().ok()),
            coach: true,
            coach_note: None,
            closing: false,
        };
        state.reset_clocks(clock);
        state.open_tables();
        Arc::new(Board {
            spec,
            state: Mutex::new(state),
            engine: Mutex::new(None),
            threads: Mutex::new(Vec::new()),
        })
    }

    /// Starts a new game.
    pub fn new_game(self: &Arc<Self>, settings: NewGame) -> view::State {
        self.update(|st| {
            st.set_game(Game::new(settings.rules, Position::start(&settings.rules)));
            st.engine_side = settings.engine_side;
            st.strength = settings.strength.unwrap_or(st.strength);
            st.reset_clocks(settings.clock);
            st.paused = false;
        })
    }

    /// Plays a move given in the notation, checked by the rules core, at
    /// the end of the game.
    pub fn play(self: &Arc<Self>, token: &str) -> Result<view::State, BoardError> {
        self.change(|st| {
            st.history.playable()?;
            if let Some(ply) = st.history.viewed() {
                return Err(BoardError::Conflict(format!(
                    "viewing the position after ply {ply} of {}: go to the end, or play from here (which drops the later moves)",
                    st.game().moves().len()
                )));
            }
            // The player's move, judged against the values known before it.
            let known = if st.coach {
                st.known(st.game().position())
            } else {
                None
            };
            let mv = st.play_move(token.trim())?;
            let ply = st.game().moves().len();
            st.coach_note = known.and_then(|k| CoachNote::of(&k, mv, ply));
            st.last_engine = None;
            st.force = false;
            Ok(())
        })
    }

    /// Takes back `plies` moves, or back to ply `to` (at most back to the
    /// game's start).
    pub fn take_back(self: &Arc<Self>, back: TakeBack) -> view::State {
        self.update(|st| {
            let len = st.game().moves().len();
            let keep = match back {
                TakeBack::Plies(n) => len.saturating_sub(n),
                TakeBack::To(ply) => ply.min(len),
            };
            st.truncate(keep);
        })
    }

    /// Sets the game to a set-up line: a position string, `startpos`, and
    /// moves, as `Setup::parse` reads it, under the rules in force.
    pub fn set_position(self: &Arc<Self>, text: &str) -> Result<view::State, BoardError> {
        self.change(|st| {
            let game = Setup::parse(text)?.game(st.game().rules())?;
            st.set_game(game);
            Ok(())
        })
    }

    /// Views the position after `ply` moves (the end when past it).
    pub fn view(self: &Arc<Self>, ply: usize) -> view::State {
        self.update(|st| st.history.set_view(ply))
    }

    /// Turns the analysis of the viewed position on (with that many
    /// lines) or off.
    pub fn analyse(self: &Arc<Self>, lines: Option<u32>) -> view::State {
        self.update(|st| {
            st.analysis = lines.map(|n| n.clamp(1, MAX_MULTIPV));
            if st.analysis.is_some() {
                st.paused = true;
                st.force = false;
            }
        })
    }

    /// Turns the coach on or off (which drops its note).
    pub fn coach(self: &Arc<Self>, enabled: bool) -> view::State {
        self.update(|st| {
            st.coach = enabled;
            if !enabled {
                st.coach_note = None;
            }
        })
    }

    /// Stops the engine's search and pauses its play (and analysis).
    pub fn stop(self: &Arc<Self>) -> view::State {
        self.update(|st| {
            st.paused = true;
            st.force = false;
            st.analysis = None;
        })
    }

    /// Lets the engine play the side to move (whichever side that is) and
    /// its turns after it. With `wait`, answers once that move is played
    /// (or failed: the engine's fault is the error).
    pub fn go(self: &Arc<Self>, wait: bool) -> Result<view::State, BoardError> {
        let state = self.change(|st| {
            st.history.playable()?;
            st.paused = false;
            st.force = true;
            st.analysis = None;
            Ok(())
        })?;
        if !wait {
            return Ok(state);
        }
        let id = {
            let st = lock(&self.state);
            match &st.search {
                Some(s) if s.kind == Kind::Play => s.id,
                _ => return Ok(view::State::of(&st, &self.spec)),
            }
        };
        loop {
            std::thread::sleep(Duration::from_millis(5));
            let mut st = lock(&self.state);
            if st.search.as_ref().is_some_and(|s| s.id == id) {
                continue;
            }
            st.tick();
            if let Some((fid, message)) = &st.fault
                && *fid == id
            {
                return Err(BoardError::Engine(message.clone()));
            }
            return Ok(view::State::of(&st, &self.spec));
        }
    }

    /// The game as a record (`tools::record`'s format).
    pub fn record(&self) -> String {
        let mut st = lock(&self.state);
        st.tick();
        let name = |side: Color| -> String {
            if st.engine_side.plays(side) {
                self.spec.name.clone()
            } else {
                "human".into()
            }
        };
        let mut tags = vec![
            ("Event", "morris gui".to_string()),
            (
                "Date",
                jiff::Timestamp::now().strftime("%Y.%m.%d").to_string(),
            ),
            ("White", name(Color::White)),
            ("Black", name(Color::Black)),
        ];
        let over = st.history.over();
        if let Some(o) = &over {
            tags.push(("Termination", o.text.clone()));
        }
        if let Some(c) = &st.clocks {
            tags.push((
                "TimeControl",
                TimeControl::Clock {
                    base_ms: c.setting.base_ms,
                    inc_ms: c.setting.inc_ms,
                }
                .to_string(),
            ));
        }
        Record::from_game(st.game(), &tags, over.map(|o| o.result), st.history.notes()).to_text()
    }

    /// Replaces the game with the first record in `text`, under its rules,
    /// viewed at its end; the engine waits for `go`.
    pub fn import_record(self: &Arc<Self>, text: &str) -> Result<view::State, BoardError> {
        let records = record::parse_records(text)?;
        let first = records
            .first()
            .ok_or_else(|| BoardError::BadRequest("no game record in the text".into()))?;
        let game = first.replay()?;
        let notes: Vec<Option<String>> = first.moves.iter().map(|m| m.comment.clone()).collect();
        self.change(|st| {
            st.set_game(game);
            st.history.set_notes(notes);
            st.paused = true;
            Ok(())
        })
    }

    /// The state the page is sent (protocol.md, "The board").
    pub fn state(&self) -> view::State {
        let mut st = lock(&self.state);
        st.tick();
        view::State::of(&st, &self.spec)
    }

    /// Runs a change that may be refused under the lock, then starts or
    /// cancels the searches it calls for; answers the state after it.
    fn change(
        self: &Arc<Self>,
        f: impl FnOnce(&mut State) -> Result<(), BoardError>,
    ) -> Result<view::State, BoardError> {
        let mut st = lock(&self.state);
        st.tick();
        f(&mut st)?;
        self.schedule(&mut st);
        Ok(view::State::of(&st, &self.spec))
    }

    /// `change` for a change that cannot be refused.
    fn update(self: &Arc<Self>, f: impl FnOnce(&mut State)) -> view::State {
        let mut st = lock(&self.state);
        st.tick();
        f(&mut st);
        self.schedule(&mut st);
        view::State::of(&st, &self.spec)
    }

    /// Cancels the search, waits for the search threads and shuts the
    /// engine down.
    pub fn shut_down(&self) {
        {
            let mut st = lock(&self.state);
            st.closing = true;
            st.cancel();
        }
        let threads = std::mem::take(&mut *lock(&self.threads));
        for t in threads {
            let _ = t.join();
        }
        lock(&self.engine).take();
    }
}

/// What `take_back` takes back.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TakeBack {
    Plies(usize),
    To(usize),
}
