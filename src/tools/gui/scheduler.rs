//! The engine scheduler: which search the state calls for (a move of the
//! engine's side, or an analysis of the position viewed), started on a
//! thread of its own and cancelled when no longer wanted, and what its
//! answer does to the game.
//!
//! Each search has an id. Any change to the game cancels the search
//! running (sends `stop`), and a reply whose id is no longer the current
//! search's is dropped: a stale `bestmove` never reaches a newer game.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::protocol::wire::{GoArgs, InfoLine, PositionArgs};
use crate::rules::{Color, Rules};
use crate::search::Score;
use crate::tools::engine_process::{Answer, Engine, EngineSpec, Fault, Reply, Watch};
use crate::tools::record::format_score;

use super::board::{Board, State, lock};
use super::game::{EngineMove, EngineSide, Strength};

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
pub(super) struct Search {
    pub(super) id: u64,
    pub(super) kind: Kind,
    /// The game's epoch and the ply of the position searched.
    epoch: u64,
    pub(super) ply: usize,
    multipv: u32,
    stop: Arc<AtomicBool>,
    /// The latest line of each MultiPV rank.
    pub(super) lines: Vec<InfoLine>,
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
pub(super) struct Slot {
    engine: Engine,
    rules: Rules,
    skill: u8,
    multipv: u32,
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
    /// Makes the running search the one the state calls for: cancels one
    /// no longer wanted, starts one wanted, and runs the clock of the side
    /// to move while the game is played.
    pub(super) fn schedule(self: &Arc<Self>, st: &mut State) {
        let wanted = st.wanted();
        let keep = match (&st.search, wanted) {
            (Some(s), Some((kind, ply, multipv))) => {
                s.kind == kind
                    && s.ply == ply
                    && s.epoch == st.history.epoch()
                    && s.multipv == multipv
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
        st.run_clock();
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
}

impl State {
    fn is_current(&self, id: u64) -> bool {
        self.search.as_ref().is_some_and(|s| s.id == id)
    }

    /// Sends `stop` to the search running and forgets it.
    pub(super) fn cancel(&mut self) {
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
            let ply = self.history.shown_ply();
            let finished = ply == self.game().moves().len() && self.game().outcome().is_some();
            return (!finished).then_some((Kind::Analysis, ply, lines));
        }
        let side = self.game().position().side_to_move();
        let engine_turn = self.force || self.engine_side.plays(side);
        (self.history.over().is_none() && !self.paused && engine_turn).then_some((
            Kind::Play,
            self.game().moves().len(),
            1,
        ))
    }

    /// Registers a new search and says what its thread is to do.
    fn start(&mut self, kind: Kind, ply: usize, multipv: u32, spec: &EngineSpec) -> Job {
        self.next_id += 1;
        let id = self.next_id;
        let stop = Arc::new(AtomicBool::new(false));
        let game = self.history.game_at(ply);
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
            epoch: self.history.epoch(),
            ply,
            multipv,
            stop: Arc::clone(&stop),
            lines: Vec::new(),
        });
        Job {
            id,
            kind,
            rules: *self.game().rules(),
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
            let side = self.history.game_at(ply).position().side_to_move();
            self.history.set_eval(ply, white_view(score, side));
        }
    }

    /// Plays the engine's answer to a `Play` search.
    fn play_reply(&mut self, reply: Reply) -> Result<(), Fault> {
        let token = match reply.best {
            Answer::Move(token) => token,
            Answer::NoMove(word) => return Err(Fault::Malformed(format!("bestmove {word}"))),
            Answer::Draw => return Err(Fault::Malformed("bestmove draw".into())),
        };
        if self.history.over().is_some() {
            // Its clock ran out while it thought.
            return Ok(());
        }
        let ply = self.game().moves().len();
        let side = self.game().position().side_to_move();
        self.play_move(&token)?;
        if let Some(score) = reply.score {
            self.history.set_eval(ply, white_view(score, side));
        }
        let note = reply.score.map(|s| match reply.depth {
            Some(d) => format!("{}/{d}", format_score(s)),
            None => format_score(s),
        });
        self.history.set_note(ply, note);
        self.last_engine = Some(EngineMove {
            token,
            score: reply.score,
            depth: reply.depth,
        });
        self.force = false;
        self.fault = None;
        Ok(())
    }
}
