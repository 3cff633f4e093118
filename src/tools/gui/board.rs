//! The game the page shows and its engine. The game, the clocks and what
//! the engine last said live behind one lock, held only briefly; the
//! engine process behind another, held by the background thread of the
//! search running on it, so every request is answered while it thinks.
//!
//! Each search has an id. Any change to the game cancels the search
//! running (sends `stop`), and a reply whose id is no longer the current
//! search's is dropped: a stale `bestmove` never reaches a newer game.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::protocol::wire::{GoArgs, InfoLine, PositionArgs};
use crate::rules::{
    Color, Game, GameResult, Move, MoveError, MoveList, Position, Rules, RulesError, Setup,
    SetupError, Square,
};
use crate::search::Score;
use crate::tablebase::exact::Known;
use crate::tablebase::open_tables::OpenTables;
use crate::tablebase::{self, book};
use crate::tools::engine_process::{
    Answer, Engine, EngineSpec, Fault, Reply, TimeControl, TimeControlError, Watch,
};
use crate::tools::record::{self, Record, RecordError, format_score};

use super::view::{self, CoachNote, Ending};

/// Longest wait for the engine's handshake and `readyok`.
const HANDSHAKE: Duration = Duration::from_secs(30);
/// Longest wait for a move at a fixed depth or node count.
const UNTIMED: Duration = Duration::from_secs(120);
/// Margin over a time limit before the engine is given up.
const MARGIN: Duration = Duration::from_secs(5);
/// The wait for an analysis, which ends only when stopped.
const FOREVER: Duration = Duration::from_secs(100 * 24 * 3600);
/// Time per move of a game played at a skill level.
const SKILL_MOVETIME: u64 = 1000;
/// The pause before each move when the engine plays both sides, so that
/// the game can be followed.
const WATCH_PAUSE: Duration = Duration::from_millis(400);
/// The most lines an analysis shows.
pub const MAX_MULTIPV: u32 = 8;

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

    fn plays(self, side: Color) -> bool {
        match self {
            EngineSide::White => side == Color::White,
            EngineSide::Black => side == Color::Black,
            EngineSide::Both => true,
            EngineSide::None => false,
        }
    }
}

/// How strongly the engine plays: its depth, time per move or skill
/// level (the engine's `Skill` option, at `SKILL_MOVETIME` a move). Its
/// JSON is `{"depth": N}` and the like.
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

/// A game's clock: base time and increment per move, both sides.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ClockSetting {
    pub base_ms: u64,
    pub inc_ms: u64,
}

impl ClockSetting {
    /// `SECONDS[+INCREMENT]`, as `morris match --tc` reads it.
    pub fn parse(text: &str) -> Result<ClockSetting, TimeControlError> {
        match TimeControl::parse_clock(text)? {
            TimeControl::Clock { base_ms, inc_ms } => Ok(ClockSetting { base_ms, inc_ms }),
            other => unreachable!("parse_clock gave {other}"),
        }
    }
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

/// The game's end: its result, its words in the record, and why.
struct Over {
    result: GameResult,
    text: String,
    ending: Ending,
}

/// The engine's last move and what it said of it.
#[derive(Clone, Debug)]
struct EngineMove {
    token: String,
    score: Option<Score>,
    depth: Option<u32>,
}

/// What a search is for.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A move of the game, played when it comes.
    Play,
    /// `go infinite` on the position viewed, until stopped.
    Analysis,
}

/// The search running (or waiting for the engine), as the page sees it.
struct Search {
    id: u64,
    kind: Kind,
    /// The game's epoch and the ply of the position searched.
    epoch: u64,
    ply: usize,
    multipv: u32,
    stop: Arc<AtomicBool>,
    /// The latest line of each MultiPV rank.
    lines: Vec<InfoLine>,
}

/// Everything a search thread needs, copied out of the state.
struct Job {
    id: u64,
    kind: Kind,
    rules: Rules,
    position: PositionArgs,
    go: GoArgs,
    limit: Duration,
    skill: u8,
    multipv: u32,
    stop: Arc<AtomicBool>,
    /// Waited before the search starts.
    pause: Duration,
}

/// The engine process and what it was told.
struct Slot {
    engine: Engine,
    rules: Rules,
    skill: u8,
    multipv: u32,
}

/// The clocks of a timed game: what each side has left, and since when
/// the side to move's clock runs (none when stopped).
#[derive(Clone, Copy, Debug)]
struct Clocks {
    setting: ClockSetting,
    left: [u64; 2],
    since: Option<Instant>,
}

/// The game and everything around it, behind the state lock.
struct State {
    game: Game,
    engine_side: EngineSide,
    strength: Strength,
    clocks: Option<Clocks>,
    /// The ply viewed when it is not the game's last.
    view: Option<usize>,
    /// No engine move starts by itself (set by `stop`, a failure, an
    /// import); `go` clears it.
    paused: bool,
    /// The engine plays the side to move once even if it is not its side.
    force: bool,
    /// Analysis lines wanted; none when analysis is off.
    analysis: Option<u32>,
    search: Option<Search>,
    next_id: u64,
    /// Bumped by every change to the game's moves.
    epoch: u64,
    last_engine: Option<EngineMove>,
    /// The last failure of the engine: the search's id and the message.
    fault: Option<(u64, String)>,
    /// The engine's score of each position (index = ply), white's view.
    evals: Vec<Option<Score>>,
    /// The record comment of each move played by the engine.
    notes: Vec<Option<String>>,
    time_loss: Option<Color>,
    /// The tables of the game's rules, reopened for each new game.
    tables: OpenTables,
    /// The coach comments on the player's moves (on unless turned off).
    coach: bool,
    /// Its word on the player's last move, until the player's next move.
    coach_note: Option<CoachNote>,
    closing: bool,
}

/// The board behind the page, shared by the request threads.
pub struct Board {
    spec: EngineSpec,
    state: Mutex<State>,
    engine: Mutex<Option<Slot>>,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
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
            game: Game::new(rules, Position::start(&rules)),
            engine_side: EngineSide::Black,
            strength,
            clocks: None,
            view: None,
            paused: false,
            force: false,
            analysis: None,
            search: None,
            next_id: 0,
            epoch: 0,
            last_engine: None,
            fault: None,
            evals: Vec::new(),
            notes: Vec::new(),
            time_loss: None,
            tables: OpenTables::new(Some(tablebase::default_dir())),
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
            st.playable()?;
            if let Some(ply) = st.view {
                return Err(BoardError::Conflict(format!(
                    "viewing the position after ply {ply} of {}: go to the end, or play from here (which drops the later moves)",
                    st.game.moves().len()
                )));
            }
            // The player's move, judged against the values known before it.
            let known = if st.coach {
                st.known(st.game.position())
            } else {
                None
            };
            let mv = st.play_move(token.trim())?;
            let ply = st.game.moves().len();
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
            let len = st.game.moves().len();
            let keep = match back {
                TakeBack::Plies(n) => len.saturating_sub(n),
                TakeBack::To(ply) => ply.min(len),
            };
            st.truncate(keep);
            st.time_loss = None;
        })
    }

    /// Sets the game to a set-up line: a position string, `startpos`, and
    /// moves, as `Setup::parse` reads it, under the rules in force.
    pub fn set_position(self: &Arc<Self>, text: &str) -> Result<view::State, BoardError> {
        self.change(|st| {
            let game = Setup::parse(text)?.game(st.game.rules())?;
            st.set_game(game);
            Ok(())
        })
    }

    /// Views the position after `ply` moves (the end when past it).
    pub fn view(self: &Arc<Self>, ply: usize) -> view::State {
        self.update(|st| st.view = (ply < st.game.moves().len()).then_some(ply))
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
            st.playable()?;
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
                _ => return Ok(st.to_view(&self.spec)),
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
            return Ok(st.to_view(&self.spec));
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
        let over = st.over();
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
        Record::from_game(&st.game, &tags, over.map(|o| o.result), &st.notes).to_text()
    }

    /// Replaces the game with the first record in `text`, under its rules,
    /// viewed at its end; the engine waits for `go`.
    pub fn import_record(self: &Arc<Self>, text: &str) -> Result<view::State, BoardError> {
        let records = record::parse_records(text)?;
        let first = records
            .first()
            .ok_or_else(|| BoardError::BadRequest("no game record in the text".into()))?;
        let game = first.replay()?;
        let notes = first.moves.iter().map(|m| m.comment.clone()).collect();
        self.change(|st| {
            st.set_game(game);
            st.notes = notes;
            st.paused = true;
            Ok(())
        })
    }

    /// The state the page is sent (protocol.md, "The board").
    pub fn state(&self) -> view::State {
        let mut st = lock(&self.state);
        st.tick();
        st.to_view(&self.spec)
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
        Ok(st.to_view(&self.spec))
    }

    /// `change` for a change that cannot be refused.
    fn update(self: &Arc<Self>, f: impl FnOnce(&mut State)) -> view::State {
        let mut st = lock(&self.state);
        st.tick();
        f(&mut st);
        self.schedule(&mut st);
        st.to_view(&self.spec)
    }

    /// Makes the running search the one the state calls for: cancels one
    /// no longer wanted, starts one wanted, and runs the clock of the side
    /// to move while the game is played.
    fn schedule(self: &Arc<Self>, st: &mut State) {
        let wanted = st.wanted();
        let keep = match (&st.search, wanted) {
            (Some(s), Some((kind, ply, multipv))) => {
                s.kind == kind && s.ply == ply && s.epoch == st.epoch && s.multipv == multipv
            }
            _ => false,
        };
        if !keep {
            st.cancel();
            if let Some((kind, ply, multipv)) = wanted {
                let job = st.start(kind, ply, multipv, &self.spec);
                let board = Arc::clone(self);
                let handle = std::thread::spawn(move || board.run(job));
                let mut threads = lock(&self.threads);
                threads.retain(|t| !t.is_finished());
                threads.push(handle);
            }
        }
        let running = st.over().is_none() && !st.paused && st.analysis.is_none();
        if let Some(c) = &mut st.clocks {
            c.since = match (running, c.since) {
                (true, Some(since)) => Some(since),
                (true, None) => Some(Instant::now()),
                (false, _) => None,
            };
        }
    }

    /// A search's thread: waits for the engine, searches, and applies the
    /// answer if the search is still the current one.
    fn run(self: Arc<Self>, job: Job) {
        let paused_until = Instant::now() + job.pause;
        while Instant::now() < paused_until {
            if job.stop.load(Ordering::Relaxed) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let mut slot = lock(&self.engine);
        if !lock(&self.state).is_current(job.id) {
            return;
        }
        let reply = self.search(&mut slot, &job);
        let mut st = lock(&self.state);
        let reply = match reply {
            // An analysis that ended by itself (a foreign engine may) keeps
            // its lines and is not started again.
            Ok(_) if st.is_current(job.id) && job.kind == Kind::Analysis => Ok(()),
            Ok(reply) if st.is_current(job.id) => {
                st.tick();
                st.search = None;
                st.play_reply(reply)
            }
            Ok(_) => return,
            Err(fault) => {
                st.search = st.search.take().filter(|s| s.id != job.id);
                Err(fault)
            }
        };
        if let Err(fault) = reply {
            *slot = None;
            log::warn!("gui: engine {} {fault}", self.spec.name);
            st.fault = Some((job.id, format!("engine {} {fault}", self.spec.name)));
            // Not started again by itself: neither its play nor an analysis.
            st.paused = true;
            st.force = false;
            st.analysis = None;
        }
        drop(slot);
        self.schedule(&mut st);
    }

    /// Starts the engine if needed (again when the rules changed), sets
    /// its options, and runs the search, passing its lines to the state.
    fn search(&self, slot: &mut Option<Slot>, job: &Job) -> Result<Reply, Fault> {
        if slot.as_ref().is_some_and(|s| s.rules != job.rules) {
            *slot = None;
        }
        let s = match slot {
            Some(s) => s,
            None => {
                let mut engine = Engine::start(&self.spec, &job.rules, HANDSHAKE)?;
                engine.new_game(HANDSHAKE)?;
                slot.insert(Slot {
                    engine,
                    rules: job.rules,
                    skill: 20,
                    multipv: 1,
                })
            }
        };
        if s.skill != job.skill {
            s.engine.set_option("Skill", &job.skill.to_string())?;
            s.skill = job.skill;
        }
        if s.multipv != job.multipv {
            s.engine.set_option("MultiPV", &job.multipv.to_string())?;
            s.multipv = job.multipv;
        }
        let mut on_info = |info: &InfoLine| lock(&self.state).note_info(job.id, info);
        s.engine.go_watched(
            job.position.clone(),
            job.go.clone(),
            None,
            job.limit,
            Some(Watch {
                on_info: &mut on_info,
                stop: &job.stop,
            }),
        )
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

impl State {
    fn is_current(&self, id: u64) -> bool {
        self.search.as_ref().is_some_and(|s| s.id == id)
    }

    /// Sends `stop` to the search running and forgets it.
    fn cancel(&mut self) {
        if let Some(s) = self.search.take() {
            s.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The search the state calls for: its kind, ply and lines.
    fn wanted(&self) -> Option<(Kind, usize, u32)> {
        if self.closing {
            return None;
        }
        if let Some(lines) = self.analysis {
            // A finished game's last position has nothing to analyse.
            let ply = self.shown_ply();
            let finished = ply == self.game.moves().len() && self.game.outcome().is_some();
            return (!finished).then_some((Kind::Analysis, ply, lines));
        }
        let side = self.game.position().side_to_move();
        let engine_turn = self.force || self.engine_side.plays(side);
        (self.over().is_none() && !self.paused && engine_turn).then_some((
            Kind::Play,
            self.game.moves().len(),
            1,
        ))
    }

    /// Registers a new search and says what its thread is to do.
    fn start(&mut self, kind: Kind, ply: usize, multipv: u32, spec: &EngineSpec) -> Job {
        self.next_id += 1;
        let id = self.next_id;
        let stop = Arc::new(AtomicBool::new(false));
        let game = self.game_at(ply);
        let side = game.position().side_to_move();
        let (go, limit, skill) = match kind {
            Kind::Analysis => (
                GoArgs {
                    infinite: true,
                    ..GoArgs::default()
                },
                FOREVER,
                20,
            ),
            Kind::Play => self.play_limits(side),
        };
        self.search = Some(Search {
            id,
            kind,
            epoch: self.epoch,
            ply,
            multipv,
            stop: Arc::clone(&stop),
            lines: Vec::new(),
        });
        Job {
            id,
            kind,
            rules: *self.game.rules(),
            position: PositionArgs::of_game(&game, spec.proto.dialect()),
            go,
            limit,
            skill,
            multipv,
            stop,
            pause: match (kind, self.engine_side) {
                (Kind::Play, EngineSide::Both) if ply > 0 => WATCH_PAUSE,
                _ => Duration::ZERO,
            },
        }
    }

    /// `go`'s arguments for a move of `side`, the longest wait for it and
    /// the skill level.
    fn play_limits(&self, side: Color) -> (GoArgs, Duration, u8) {
        let mut go = GoArgs::default();
        let mut limit = UNTIMED;
        let mut skill = 20;
        match self.strength {
            Strength::Depth(d) => go.depth = Some(d),
            Strength::Nodes(n) => go.nodes = Some(n),
            Strength::MoveTime(ms) => {
                go.movetime = Some(ms);
                limit = Duration::from_millis(ms) + MARGIN;
            }
            Strength::Skill(level) => {
                go.movetime = Some(SKILL_MOVETIME);
                limit = Duration::from_millis(SKILL_MOVETIME) + MARGIN;
                skill = level;
            }
        }
        if let Some(c) = &self.clocks {
            go.wtime = Some(c.left[Color::White as usize]);
            go.btime = Some(c.left[Color::Black as usize]);
            go.winc = Some(c.setting.inc_ms);
            go.binc = Some(c.setting.inc_ms);
            limit = limit.min(Duration::from_millis(c.left[side as usize]) + MARGIN);
        }
        (go, limit, skill)
    }

    /// Keeps the latest line of each rank of the search `id`; the first
    /// rank's score is the position's evaluation.
    fn note_info(&mut self, id: u64, info: &InfoLine) {
        let Some(s) = self.search.as_mut().filter(|s| s.id == id) else {
            return;
        };
        if info.pv.is_none() && info.score.is_none() {
            return;
        }
        let rank = info.multipv.unwrap_or(1).max(1) as usize;
        if rank == 1 {
            // A new iteration: drop the ranks beyond those it reports.
            s.lines.truncate(1);
        }
        if s.lines.len() < rank {
            s.lines.resize(rank, InfoLine::default());
        }
        s.lines[rank - 1] = info.clone();
        if rank == 1
            && let Some(score) = info.score
        {
            let ply = s.ply;
            let side = self.game_at(ply).position().side_to_move();
            if let Some(slot) = self.evals.get_mut(ply) {
                *slot = Some(white_view(score, side));
            }
        }
    }

    /// Plays the engine's answer to a `Play` search.
    fn play_reply(&mut self, reply: Reply) -> Result<(), Fault> {
        let token = match reply.best {
            Answer::Move(token) => token,
            Answer::NoMove(word) => return Err(Fault::Malformed(format!("bestmove {word}"))),
            Answer::Draw => return Err(Fault::Malformed("bestmove draw".into())),
        };
        if self.over().is_some() {
            // Its clock ran out while it thought.
            return Ok(());
        }
        let ply = self.game.moves().len();
        let side = self.game.position().side_to_move();
        self.play_move(&token)?;
        if let Some(score) = reply.score {
            self.evals[ply] = Some(white_view(score, side));
        }
        self.notes[ply] = reply.score.map(|s| match reply.depth {
            Some(d) => format!("{}/{d}", format_score(s)),
            None => format_score(s),
        });
        self.last_engine = Some(EngineMove {
            token,
            score: reply.score,
            depth: reply.depth,
        });
        self.force = false;
        self.fault = None;
        Ok(())
    }

    /// Plays a move at the game's end: the mover's clock gets its increment.
    fn play_move(&mut self, token: &str) -> Result<Move, MoveError> {
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
    fn set_game(&mut self, game: Game) {
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
    fn open_tables(&mut self) {
        let rules = *self.game.rules();
        self.tables.reopened_for(&rules);
    }

    /// Keeps the first `keep` moves.
    fn truncate(&mut self, keep: usize) {
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

    fn reset_clocks(&mut self, setting: Option<ClockSetting>) {
        self.clocks = setting.map(|setting| Clocks {
            setting,
            left: [setting.base_ms; 2],
            since: None,
        });
    }

    /// Charges the time used since the last look to the side to move; a
    /// clock at zero loses the game (and stops the search).
    fn tick(&mut self) {
        let side = self.game.position().side_to_move();
        let Some(c) = &mut self.clocks else { return };
        let Some(since) = c.since else { return };
        let now = Instant::now();
        let used = now.duration_since(since).as_millis() as u64;
        c.left[side as usize] = c.left[side as usize].saturating_sub(used);
        c.since = Some(now);
        if c.left[side as usize] == 0 && self.time_loss.is_none() && self.game.outcome().is_none() {
            c.since = None;
            self.time_loss = Some(side);
            if self.search.as_ref().is_some_and(|s| s.kind == Kind::Play) {
                self.cancel();
            }
        }
    }

    /// A move may be asked for: the game goes on.
    fn playable(&self) -> Result<(), BoardError> {
        match self.over() {
            Some(o) => Err(BoardError::Conflict(format!(
                "the game is over: {}",
                o.text
            ))),
            None => Ok(()),
        }
    }

    /// The game's end: by the rules, or a flag fallen.
    fn over(&self) -> Option<Over> {
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
    fn known(&self, pos: &Position) -> Option<Known> {
        Known::of(
            self.tables.current().map(|t| &**t),
            Some(&book::builtin()),
            pos,
            self.game.rules(),
        )
    }

    fn shown_ply(&self) -> usize {
        self.view.unwrap_or(self.game.moves().len())
    }

    /// The game up to its first `ply` moves.
    fn game_at(&self, ply: usize) -> Game {
        let mut setup = Setup::of_game(&self.game);
        if ply >= setup.moves.len() {
            return self.game.clone();
        }
        setup.moves.truncate(ply);
        setup
            .game(self.game.rules())
            .expect("a prefix of a legal game is legal")
    }

    /// What the page is sent.
    fn to_view(&self, spec: &EngineSpec) -> view::State {
        let ply = self.shown_ply();
        let shown = self.game_at(ply);
        let rules = self.game.rules();
        let pos = shown.position();
        let over = self.over();
        let at_end = ply == self.game.moves().len();
        let mut list = MoveList::new();
        if over.is_none() || !at_end {
            shown.legal_moves(&mut list);
        }
        let turn = self.game.position().side_to_move();
        let engine_to_move =
            over.is_none() && self.engine_side.plays(turn) && self.analysis.is_none();
        view::State {
            rules: view::RuleSet {
                variant: rules.variant.name(),
                options: rules.non_default().iter().map(|s| s.to_string()).collect(),
                pieces: rules.pieces,
                diagonals: rules.diagonals,
            },
            ply,
            fen: pos.to_fen(rules),
            setup: Setup::of_game(&self.game).to_string(),
            side_to_move: pos.side_to_move().name(),
            turn: turn.name(),
            in_hand: view::Sides::of(|c| pos.in_hand(c)),
            pieces: view::Sides::of(|c| pos.pieces(c).map(Square::name).collect()),
            marks: pos.marked().map(Square::name).collect(),
            legal_moves: list.iter().map(|m| m.to_string()).collect(),
            last_move: shown.moves().last().map(|m| m.to_string()),
            mills: view::mills(rules, pos),
            moves: self.game.moves().iter().map(Move::to_string).collect(),
            over: over.map(|o| view::Over {
                result: record::result_text(Some(o.result)),
                winner: match o.result {
                    GameResult::Win(c) => Some(c.name()),
                    GameResult::Draw => None,
                },
                reason: o.ending.reason(o.result),
                text: o.text,
            }),
            clock: self.clocks.map(|c| view::Clock {
                white: c.left[Color::White as usize],
                black: c.left[Color::Black as usize],
                running: c.since.map(|_| turn.name()),
                base: c.setting.base_ms,
                inc: c.setting.inc_ms,
            }),
            evals: self.evals.iter().map(|e| e.map(view::Eval::from)).collect(),
            // Where no tables cover the position, the built-in opening book may.
            tables: (!list.is_empty())
                .then(|| self.known(pos))
                .flatten()
                .map(|k| view::Tables::from(&k)),
            coach: view::Coach {
                enabled: self.coach,
                note: self.coach_note.as_ref().map(view::Note::from),
            },
            thinking: self.search.as_ref().is_some_and(|s| s.kind == Kind::Play),
            paused: self.paused,
            analysis: self.analysis.map(|multipv| view::Analysis { multipv }),
            search: self.search.as_ref().map(|s| view::Search {
                kind: s.kind,
                ply: s.ply,
                lines: s.lines.iter().map(view::Line::from).collect(),
            }),
            engine: view::Engine {
                name: spec.name.clone(),
                side: self.engine_side.name(),
                strength: self.strength,
                to_move: engine_to_move,
                last: self.last_engine.as_ref().map(|e| view::LastMove {
                    mv: e.token.clone(),
                    score: e.score.map(view::Eval::from),
                    depth: e.depth,
                }),
                error: self.fault.as_ref().map(|(_, m)| m.clone()),
            },
        }
    }
}
