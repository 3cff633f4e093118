//! The board behind the page: the requests of the API are its methods
//! here. It owns the parts of the game and composes them behind one lock
//! (`State`), held only briefly: the game's record (`game.rs`), the
//! clocks (`clock.rs`), the engine's orders (`orders.rs`), the coach
//! (`coach.rs`), the scheduler of the engine's searches (`scheduler.rs`),
//! and the tables the exact values come from. It runs the scheduler's
//! jobs on threads of their own, so every request is answered while the
//! engine thinks, and hands the page's view (`view.rs`) its values.
//!
//! A new request goes here as a method that changes the parts through
//! their own methods; what it changes belongs in the part's file. This is
//! the only file that sees every part, and no part imports it.

use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::engine::{Oracle, tables_folder};
use crate::rules::{Color, Game, Move, MoveError, Position, Rules, Setup};

use crate::tablebase::{Known, Value as TbValue};
use crate::tools::matches::engine_process::Fault;
use crate::tools::matches::engine_spec::{EngineSpec, TimeControl};
use crate::tools::records::record::Record;
use crate::tools::records::sanmill_pgn;

use super::clock::{ClockSetting, Clocks};
use super::coach::Coach;
use super::error::BoardError;
use super::game::{EngineMove, History};
use super::orders::{EngineSide, Orders, Strength};
use super::scheduler::{Job, Outcome, Scheduler};
use super::view;

/// A new game's settings.
#[derive(Clone, Debug)]
pub(super) struct NewGame {
    pub rules: Rules,
    pub engine_side: EngineSide,
    /// None: the last game's.
    pub strength: Option<Strength>,
    pub clock: Option<ClockSetting>,
}

/// The game and everything around it, behind the state lock.
struct State {
    history: History,
    clocks: Option<Clocks>,
    orders: Orders,
    coach: Coach,
    scheduler: Scheduler,
    /// The tables of the game's rules, reopened for each new game, and
    /// the built-in books.
    oracle: Oracle,
}

impl State {
    fn game(&self) -> &Game {
        self.history.game()
    }

    /// Plays the player's move at the game's end: the mover's clock gets
    /// its increment.
    fn play_move(&mut self, token: &str) -> Result<Move, MoveError> {
        let side = self.game().position().side_to_move();
        let mv = self.history.play(token)?;
        self.add_increment(side);
        Ok(mv)
    }

    /// Plays the engine's move (unless its flag fell while it thought):
    /// the mover's clock gets its increment, its failures are forgotten.
    fn play_engine(&mut self, mv: EngineMove) -> Result<(), Fault> {
        if self.history.over().is_some() {
            // Its clock ran out while it thought.
            return Ok(());
        }
        let side = self.game().position().side_to_move();
        self.history.play_engine(mv)?;
        self.add_increment(side);
        self.orders.end_force();
        self.scheduler.clear_fault();
        Ok(())
    }

    fn add_increment(&mut self, side: Color) {
        if let Some(c) = &mut self.clocks {
            c.add_increment(side);
        }
    }

    /// A new game (or set-up, or import), with its tables and fresh clocks.
    fn set_game(&mut self, game: Game) {
        self.history.replace(game);
        self.coach.clear();
        self.orders.end_force();
        self.open_tables();
        if let Some(c) = self.clocks {
            self.reset_clocks(Some(c.setting()));
        }
    }

    /// Keeps the first `keep` moves.
    fn truncate(&mut self, keep: usize) {
        self.history.truncate(keep);
        self.coach.forget_after(keep);
        self.orders.end_force();
    }

    /// Opens the tables of the game's rules afresh (the engine may have
    /// built some since they were last opened).
    fn open_tables(&mut self) {
        let rules = *self.game().rules();
        self.oracle.reopen_for(&rules);
    }

    /// The exact values of `pos` and its moves, from the game's tables or
    /// else the built-in opening book, where they know them.
    fn known(&self, pos: &Position) -> Option<Known> {
        self.oracle.known(pos, self.game().rules())
    }

    /// The exact value of each position of the game, White's view, and
    /// for each move whether it threw its mover's value away: the page's
    /// strip along the game and its marks in the move list.
    fn exact(&self) -> Vec<view::ExactPly> {
        let game = self.game();
        let mut replay = Game::new(*game.rules(), *game.start());
        let mut out = Vec::with_capacity(game.moves().len() + 1);
        let mut thrown = false;
        for i in 0..=game.moves().len() {
            let pos = *replay.position();
            let known = if replay.outcome().is_none() {
                self.known(&pos)
            } else {
                None
            };
            out.push(view::ExactPly {
                value: known
                    .as_ref()
                    .map(|k| match (k.value.value, pos.side_to_move()) {
                        (TbValue::Draw, _) => "draw",
                        (TbValue::Win, Color::White) | (TbValue::Loss, Color::Black) => "white",
                        (TbValue::Win, Color::Black) | (TbValue::Loss, Color::White) => "black",
                    }),
                thrown,
            });
            let Some(&mv) = game.moves().get(i) else {
                break;
            };
            thrown = known.is_some_and(|k| {
                k.moves
                    .iter()
                    .find(|m| m.mv == mv)
                    .is_some_and(|m| m.probe.value != k.value.value)
            });
            replay.play(mv);
        }
        out
    }

    fn reset_clocks(&mut self, setting: Option<ClockSetting>) {
        self.clocks = setting.map(Clocks::new);
    }

    /// Charges the time used since the last look to the side to move; a
    /// clock at zero loses the game (and stops the search).
    fn tick(&mut self) {
        let side = self.game().position().side_to_move();
        if self.clocks.as_mut().is_some_and(|c| c.charge(side))
            && self.history.flag(side)
            && self.scheduler.thinking()
        {
            self.scheduler.cancel();
        }
    }

    /// Runs the clock of the side to move while the game is played (not
    /// over, paused or analysed), and stops it otherwise.
    fn run_clock(&mut self) {
        let running = self.history.over().is_none()
            && !self.orders.paused()
            && self.orders.analysis().is_none();
        if let Some(c) = &mut self.clocks {
            c.run(running);
        }
    }

    /// What the page is sent: the exact values of the position viewed
    /// are looked up here, then the view is built from the parts.
    fn view(&self, spec: &EngineSpec) -> view::State {
        let shown = self.history.shown();
        // Where no tables cover the position, the built-in opening book may.
        let known = if shown.legal.is_empty() {
            None
        } else {
            self.known(shown.game.position())
        };
        view::State::of(view::Parts {
            history: &self.history,
            shown: &shown,
            known: known.as_ref(),
            exact: self.exact(),
            clocks: self.clocks.as_ref(),
            coach: &self.coach,
            orders: &self.orders,
            search: self.scheduler.search().map(|s| view::Running {
                kind: s.kind(),
                ply: s.ply(),
                lines: s.lines(),
            }),
            fault: self.scheduler.fault(),
            engine: &spec.name,
        })
    }
}

/// The board behind the page, shared by the request threads.
pub(super) struct Board {
    spec: EngineSpec,
    state: Mutex<State>,
    /// The threads of the searches, joined at the shut-down.
    threads: Mutex<Vec<JoinHandle<()>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Board {
    /// The start position of the standard rules, the engine playing Black
    /// at depth 4, or at the limit `--engine` gave.
    pub(super) fn new(spec: EngineSpec) -> Arc<Board> {
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
            clocks: None,
            orders: Orders::new(strength),
            coach: Coach::new(),
            scheduler: Scheduler::new(),
            oracle: Oracle::new(tables_folder(None).ok()),
        };
        state.reset_clocks(clock);
        state.open_tables();
        Arc::new(Board {
            spec,
            state: Mutex::new(state),
            threads: Mutex::new(Vec::new()),
        })
    }

    /// Starts a new game.
    pub(super) fn new_game(self: &Arc<Self>, settings: NewGame) -> view::State {
        self.update(|st| {
            st.set_game(Game::new(settings.rules, Position::start(&settings.rules)));
            st.orders.new_game(settings.engine_side, settings.strength);
            st.reset_clocks(settings.clock);
        })
    }

    /// Plays a move given in the notation, checked by the rules core, at
    /// the end of the game.
    pub(super) fn play(self: &Arc<Self>, token: &str) -> Result<view::State, BoardError> {
        self.change(|st| {
            st.history.playable()?;
            if let Some(ply) = st.history.viewed() {
                return Err(BoardError::Conflict(format!(
                    "viewing the position after ply {ply} of {}: go to the end, or play from here (which drops the later moves)",
                    st.game().moves().len()
                )));
            }
            // The player's move, judged against the values known before it.
            let known = if st.coach.enabled() {
                st.known(st.game().position())
            } else {
                None
            };
            let mv = st.play_move(token.trim())?;
            let ply = st.game().moves().len();
            st.coach.judge(known.as_ref(), mv, ply);
            st.orders.end_force();
            Ok(())
        })
    }

    /// Takes back `plies` moves, or back to ply `to` (at most back to the
    /// game's start).
    pub(super) fn take_back(self: &Arc<Self>, back: TakeBack) -> view::State {
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
    /// moves, as `Setup::parse` reads it, or a position in Sanmill's
    /// string (its puzzles' `initialPosition`), under the rules in force.
    pub(super) fn set_position(self: &Arc<Self>, text: &str) -> Result<view::State, BoardError> {
        self.change(|st| {
            let rules = *st.game().rules();
            let game = if sanmill_pgn::is_sanmill_fen(text) {
                let pos = sanmill_pgn::read_fen(text, &rules)
                    .map_err(|e| BoardError::BadRequest(e.to_string()))?;
                Game::new(rules, pos)
            } else {
                Setup::parse(text)?.game(&rules)?
            };
            st.set_game(game);
            Ok(())
        })
    }

    /// Views the position after `ply` moves (the end when past it).
    pub(super) fn view(self: &Arc<Self>, ply: usize) -> view::State {
        self.update(|st| st.history.set_view(ply))
    }

    /// Turns the analysis of the viewed position on (with that many
    /// lines) or off.
    pub(super) fn analyse(self: &Arc<Self>, lines: Option<u32>) -> view::State {
        self.update(|st| st.orders.analyse(lines))
    }

    /// Turns the coach on or off (which drops its note).
    pub(super) fn coach(self: &Arc<Self>, enabled: bool) -> view::State {
        self.update(|st| st.coach.set_enabled(enabled))
    }

    /// Stops the engine's search and pauses its play (and analysis).
    pub(super) fn stop(self: &Arc<Self>) -> view::State {
        self.update(|st| st.orders.stop())
    }

    /// Lets the engine play the side to move (whichever side that is) and
    /// its turns after it. With `wait`, answers once that move is played
    /// (or failed: the engine's fault is the error).
    pub(super) fn go(self: &Arc<Self>, wait: bool) -> Result<view::State, BoardError> {
        let state = self.change(|st| {
            st.history.playable()?;
            st.orders.go();
            Ok(())
        })?;
        if !wait {
            return Ok(state);
        }
        let id = {
            let st = lock(&self.state);
            match st.scheduler.playing() {
                Some(id) => id,
                None => return Ok(st.view(&self.spec)),
            }
        };
        loop {
            std::thread::sleep(Duration::from_millis(5));
            let mut st = lock(&self.state);
            if st.scheduler.is_current(id) {
                continue;
            }
            st.tick();
            if let Some(message) = st.scheduler.fault_of(id) {
                return Err(BoardError::Engine(message.to_string()));
            }
            return Ok(st.view(&self.spec));
        }
    }

    /// The game as a record (`tools::record`'s format).
    pub(super) fn record(&self) -> String {
        let mut st = lock(&self.state);
        st.tick();
        let name = |side: Color| -> String {
            if st.orders.engine_side().plays(side) {
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
                    base_ms: c.setting().base_ms,
                    inc_ms: c.setting().inc_ms,
                }
                .to_string(),
            ));
        }
        Record::from_game(st.game(), &tags, over.map(|o| o.result), st.history.notes()).to_text()
    }

    /// Replaces the game with the first record in `text`, under its rules,
    /// viewed at its end; the engine waits for `go`.
    pub(super) fn import_record(self: &Arc<Self>, text: &str) -> Result<view::State, BoardError> {
        let records = crate::tools::records::read::parse_records(text)?;
        let first = records
            .first()
            .ok_or_else(|| BoardError::BadRequest("no game record in the text".into()))?;
        let game = first.replay()?;
        let notes: Vec<Option<String>> = first.moves.iter().map(|m| m.comment.clone()).collect();
        self.change(|st| {
            st.set_game(game);
            st.history.set_notes(notes);
            st.orders.pause();
            Ok(())
        })
    }

    /// The state the page is sent (protocol.md, "The board").
    pub(super) fn state(&self) -> view::State {
        let mut st = lock(&self.state);
        st.tick();
        st.view(&self.spec)
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
        Ok(st.view(&self.spec))
    }

    /// `change` for a change that cannot be refused.
    fn update(self: &Arc<Self>, f: impl FnOnce(&mut State)) -> view::State {
        let mut st = lock(&self.state);
        st.tick();
        f(&mut st);
        self.schedule(&mut st);
        st.view(&self.spec)
    }

    /// Makes the running search the one the state calls for (the
    /// scheduler's call), starts the thread of a new one, and runs the
    /// clock of the side to move while the game is played.
    fn schedule(self: &Arc<Self>, st: &mut State) {
        if let Some(job) =
            st.scheduler
                .schedule(&st.history, &st.orders, st.clocks.as_ref(), &self.spec)
        {
            let board = Arc::clone(self);
            let handle = std::thread::spawn(move || board.run(job));
            let mut threads = lock(&self.threads);
            threads.retain(|t| !t.is_finished());
            threads.push(handle);
        }
        st.run_clock();
    }

    /// A search's thread: waits for the engine, searches, and applies the
    /// answer if the search is still the current one.
    fn run(self: Arc<Self>, job: Job) {
        if !job.wait() {
            return;
        }
        let mut slot = job.engine();
        if !lock(&self.state).scheduler.is_current(job.id()) {
            return;
        }
        let reply = job.search(&mut slot, &self.spec, &mut |info| {
            let st = &mut *lock(&self.state);
            st.scheduler.note_info(job.id(), info, &mut st.history);
        });
        let mut guard = lock(&self.state);
        let st = &mut *guard;
        let done = match st.scheduler.finish(&job, reply) {
            Outcome::Stale => return,
            Outcome::Ended => Ok(()),
            Outcome::Answer(answer) => {
                st.tick();
                answer.and_then(|mv| st.play_engine(mv))
            }
            Outcome::Fault(fault) => Err(fault),
        };
        if let Err(fault) = done {
            st.scheduler.fail(&job, &mut slot, &self.spec, fault);
            // Not started again by itself: neither its play nor an analysis.
            st.orders.stop();
        }
        drop(slot);
        self.schedule(st);
    }

    /// Cancels the search, waits for the search threads and shuts the
    /// engine down.
    pub(super) fn shut_down(&self) {
        let engine = lock(&self.state).scheduler.close();
        let threads = std::mem::take(&mut *lock(&self.threads));
        for t in threads {
            let _ = t.join();
        }
        engine.shut_down();
    }
}

/// What `take_back` takes back.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum TakeBack {
    Plies(usize),
    To(usize),
}
