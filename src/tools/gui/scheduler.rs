//! The engine scheduler: which search the game and the engine's orders
//! call for (a move of the engine's side, or an analysis of the position
//! viewed), its start as a job for a thread of its own and its
//! cancellation when no longer wanted, the engine process that the jobs
//! take turns on, and the engine's last failure. A change to how the
//! engine is started, told or listened to goes here.
//!
//! Each search has an id. Any change to the game cancels the search
//! running (sends `stop`), and a reply whose id is no longer the current
//! search's is dropped: a stale `bestmove` never reaches a newer game.
//!
//! The scheduler lives with the game behind the board's state lock, and
//! the board runs the jobs' threads (`board.rs`): this file knows the game
//! (`game.rs`), the orders and the clocks, never the board or the page.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::engine::EngineOption;
use crate::protocol::wire::{GoArgs, InfoLine, PositionArgs};
use crate::rules::{Color, Rules};
use crate::tools::matches::engine_process::{Answer, Engine, Fault, Reply, Watch};
use crate::tools::matches::engine_spec::EngineSpec;

use super::clock::Clocks;
use super::game::{EngineMove, History};
use super::orders::{EngineSide, Kind, Orders, Strength};

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

/// The searches of the board's engine: the one running, the last
/// failure, and the engine process.
pub(super) struct Scheduler {
    /// The search running (or waiting for the engine).
    search: Option<Search>,
    /// The last search's id.
    next_id: u64,
    /// The last failure of the engine: the search's id and the message.
    fault: Option<(u64, String)>,
    /// Shutting down: no search is wanted any more.
    closing: bool,
    /// The engine process, started by the first search that needs it and
    /// held by the thread of the search using it.
    engine: Arc<Mutex<Option<Slot>>>,
}

/// The search running (or waiting for the engine), as the page sees it.
pub(super) struct Search {
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

/// A search to run on a thread of its own: everything it needs, copied
/// out of the game when it was started.
pub(super) struct Job {
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
    engine: Arc<Mutex<Option<Slot>>>,
}

/// A search called for: its kind, the ply of its position, its lines.
#[derive(Clone, Copy)]
struct Want {
    kind: Kind,
    ply: usize,
    multipv: u32,
}

/// The engine process and what it was told.
pub(super) struct Slot {
    engine: Engine,
    rules: Rules,
    skill: u8,
    multipv: u32,
}

/// What the end of a job's search does.
pub(super) enum Outcome {
    /// It is no longer the current search: nothing.
    Stale,
    /// An analysis that ended by itself (a foreign engine may): it keeps
    /// its lines and is not started again.
    Ended,
    /// The current play search's answer: the engine's move to play (once
    /// the clock is charged), or why it gave none.
    Answer(Result<EngineMove, Fault>),
    /// The search failed (even a stale one): for `fail`.
    Fault(Fault),
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Search {
    pub(super) fn kind(&self) -> Kind {
        self.kind
    }

    /// The ply of the position searched.
    pub(super) fn ply(&self) -> usize {
        self.ply
    }

    /// The latest line of each MultiPV rank.
    pub(super) fn lines(&self) -> &[InfoLine] {
        &self.lines
    }
}

impl Scheduler {
    pub(super) fn new() -> Scheduler {
        Scheduler {
            search: None,
            next_id: 0,
            fault: None,
            closing: false,
            engine: Arc::new(Mutex::new(None)),
        }
    }

    /// The search running (or waiting for the engine).
    pub(super) fn search(&self) -> Option<&Search> {
        self.search.as_ref()
    }

    /// The engine is searching for a move of the game.
    pub(super) fn thinking(&self) -> bool {
        self.search.as_ref().is_some_and(|s| s.kind == Kind::Play)
    }

    /// The id of the search for a move of the game, if one runs.
    pub(super) fn playing(&self) -> Option<u64> {
        self.search
            .as_ref()
            .filter(|s| s.kind == Kind::Play)
            .map(|s| s.id)
    }

    pub(super) fn is_current(&self, id: u64) -> bool {
        self.search.as_ref().is_some_and(|s| s.id == id)
    }

    /// The message of the engine's last failure.
    pub(super) fn fault(&self) -> Option<&str> {
        self.fault.as_ref().map(|(_, m)| m.as_str())
    }

    /// The message of the failure of the search `id`, if it was the last.
    pub(super) fn fault_of(&self, id: u64) -> Option<&str> {
        self.fault
            .as_ref()
            .filter(|(fid, _)| *fid == id)
            .map(|(_, m)| m.as_str())
    }

    /// The engine played a move: its last failure is forgotten.
    pub(super) fn clear_fault(&mut self) {
        self.fault = None;
    }

    /// Sends `stop` to the search running and forgets it.
    pub(super) fn cancel(&mut self) {
        if let Some(s) = self.search.take() {
            s.stop.store(true, Ordering::Relaxed);
        }
    }

    /// Cancels the search and wants no other; answers the engine, to be
    /// shut down once the search threads are done.
    #[must_use]
    pub(super) fn close(&mut self) -> EngineHandle {
        self.closing = true;
        self.cancel();
        EngineHandle(Arc::clone(&self.engine))
    }

    /// Makes the running search the one the game and the orders call for:
    /// cancels one no longer wanted, and registers one wanted, returned as
    /// the job for its thread.
    pub(super) fn schedule(
        &mut self,
        history: &History,
        orders: &Orders,
        clocks: Option<&Clocks>,
        spec: &EngineSpec,
    ) -> Option<Job> {
        let wanted = self.wanted(history, orders);
        let keep = match (&self.search, wanted) {
            (Some(s), Some(w)) => {
                s.kind == w.kind
                    && s.ply == w.ply
                    && s.epoch == history.epoch()
                    && s.multipv == w.multipv
            }
            _ => false,
        };
        if keep {
            return None;
        }
        self.cancel();
        Some(self.start(wanted?, history, orders, clocks, spec))
    }

    /// The search the game and the orders call for.
    fn wanted(&self, history: &History, orders: &Orders) -> Option<Want> {
        if self.closing {
            return None;
        }
        let game = history.game();
        if let Some(lines) = orders.analysis() {
            // A finished game's last position has nothing to analyse.
            let ply = history.shown_ply();
            let finished = ply == game.moves().len() && game.outcome().is_some();
            return (!finished).then_some(Want {
                kind: Kind::Analysis,
                ply,
                multipv: lines,
            });
        }
        let side = game.position().side_to_move();
        let engine_turn = orders.forced() || orders.engine_side().plays(side);
        (history.over().is_none() && !orders.paused() && engine_turn).then_some(Want {
            kind: Kind::Play,
            ply: game.moves().len(),
            multipv: 1,
        })
    }

    /// Registers a new search and says what its thread is to do.
    fn start(
        &mut self,
        Want { kind, ply, multipv }: Want,
        history: &History,
        orders: &Orders,
        clocks: Option<&Clocks>,
        spec: &EngineSpec,
    ) -> Job {
        self.next_id += 1;
        let id = self.next_id;
        let stop = Arc::new(AtomicBool::new(false));
        let game = history.game_at(ply);
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
            Kind::Play => play_limits(orders.strength(), clocks, side),
        };
        self.search = Some(Search {
            id,
            kind,
            epoch: history.epoch(),
            ply,
            multipv,
            stop: Arc::clone(&stop),
            lines: Vec::new(),
        });
        Job {
            id,
            kind,
            rules: *history.game().rules(),
            position: PositionArgs::of_game(&game, spec.proto.dialect()),
            go,
            limit,
            skill,
            multipv,
            stop,
            pause: match (kind, orders.engine_side()) {
                (Kind::Play, EngineSide::Both) if ply > 0 => WATCH_PAUSE,
                _ => Duration::ZERO,
            },
            engine: Arc::clone(&self.engine),
        }
    }

    /// Keeps the latest line of each rank of the search `id`; the first
    /// rank's score is the position's evaluation.
    pub(super) fn note_info(&mut self, id: u64, info: &InfoLine, history: &mut History) {
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
            history.set_score(s.ply, score);
        }
    }

    /// What the end of `job`'s search does; a current search is over.
    pub(super) fn finish(&mut self, job: &Job, reply: Result<Reply, Fault>) -> Outcome {
        match reply {
            Ok(_) if self.is_current(job.id) && job.kind == Kind::Analysis => Outcome::Ended,
            Ok(reply) if self.is_current(job.id) => {
                self.search = None;
                Outcome::Answer(engine_move(reply))
            }
            Ok(_) => Outcome::Stale,
            Err(fault) => {
                self.search = self.search.take().filter(|s| s.id != job.id);
                Outcome::Fault(fault)
            }
        }
    }

    /// The engine failed `job`: it is shut down (started again by the next
    /// search), and the failure kept for the page.
    pub(super) fn fail(
        &mut self,
        job: &Job,
        slot: &mut Option<Slot>,
        spec: &EngineSpec,
        fault: Fault,
    ) {
        *slot = None;
        log::warn!("gui: engine {} {fault}", spec.name);
        self.fault = Some((job.id, format!("engine {} {fault}", spec.name)));
    }
}

/// The engine of a closed scheduler.
pub(super) struct EngineHandle(Arc<Mutex<Option<Slot>>>);

impl EngineHandle {
    /// Shuts the engine process down.
    pub(super) fn shut_down(self) {
        lock(&self.0).take();
    }
}

/// The engine's move in its answer to a `Play` search.
fn engine_move(reply: Reply) -> Result<EngineMove, Fault> {
    let token = match reply.best {
        Answer::Move(token) => token,
        Answer::NoMove(word) => return Err(Fault::Malformed(format!("bestmove {word}"))),
        Answer::Draw => return Err(Fault::Malformed("bestmove draw".into())),
    };
    Ok(EngineMove {
        token,
        score: reply.score,
        depth: reply.depth,
    })
}

/// `go`'s arguments for a move of `side` at `strength` (and the clocks),
/// the longest wait for it and the skill level.
fn play_limits(strength: Strength, clocks: Option<&Clocks>, side: Color) -> (GoArgs, Duration, u8) {
    let mut go = GoArgs::default();
    let mut limit = UNTIMED;
    let mut skill = 20;
    match strength {
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
    if let Some(c) = clocks {
        go.wtime = Some(c.left(Color::White));
        go.btime = Some(c.left(Color::Black));
        go.winc = Some(c.setting().inc_ms);
        go.binc = Some(c.setting().inc_ms);
        limit = limit.min(Duration::from_millis(c.left(side)) + MARGIN);
    }
    (go, limit, skill)
}

impl Job {
    pub(super) fn id(&self) -> u64 {
        self.id
    }

    /// Waits out the pause before the search; false when the search was
    /// cancelled meanwhile.
    pub(super) fn wait(&self) -> bool {
        let paused_until = Instant::now() + self.pause;
        while Instant::now() < paused_until {
            if self.stop.load(Ordering::Relaxed) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        true
    }

    /// The engine, once an older search is done with it; held until the
    /// answer is applied.
    pub(super) fn engine(&self) -> MutexGuard<'_, Option<Slot>> {
        lock(&self.engine)
    }

    /// Starts the engine if needed (again when the rules changed), sets
    /// its options, and runs the search, passing its lines to `on_info`.
    pub(super) fn search(
        &self,
        slot: &mut Option<Slot>,
        spec: &EngineSpec,
        on_info: &mut dyn FnMut(&InfoLine),
    ) -> Result<Reply, Fault> {
        if slot.as_ref().is_some_and(|s| s.rules != self.rules) {
            *slot = None;
        }
        let s = match slot {
            Some(s) => s,
            None => {
                let mut engine = Engine::start(spec, &self.rules, HANDSHAKE)?;
                engine.new_game(HANDSHAKE)?;
                slot.insert(Slot {
                    engine,
                    rules: self.rules,
                    skill: 20,
                    multipv: 1,
                })
            }
        };
        if s.skill != self.skill {
            s.engine
                .set_option(EngineOption::Skill.name(), &self.skill.to_string())?;
            s.skill = self.skill;
        }
        if s.multipv != self.multipv {
            s.engine
                .set_option(EngineOption::MultiPv.name(), &self.multipv.to_string())?;
            s.multipv = self.multipv;
        }
        s.engine.go_watched(
            self.position.clone(),
            self.go.clone(),
            None,
            self.limit,
            Some(Watch {
                on_info,
                stop: &self.stop,
            }),
        )
    }
}
