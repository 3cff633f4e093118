//! Engine-vs-engine matches: the scheduled games played on a few threads,
//! the standings after each, and the SPRT that may stop the match.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Sender, channel};
use std::sync::{Mutex, PoisonError};
use std::vec;

use super::elo::{SprtDecision, Tally};
use super::engine_process::Engine;
use super::game::{GameReport, play_game};
use super::schedule::{MatchConfig, ScheduledGame, schedule_games};
use crate::rules::{Color, GameResult};

/// Results between every two engines, from each one's point of view.
#[derive(Clone, Debug)]
pub struct Standings {
    /// `tally[i][j]`: engine i's results against engine j.
    pub tally: Vec<Vec<Tally>>,
}

impl Standings {
    /// No games yet between `engines` engines.
    pub fn new(engines: usize) -> Standings {
        Standings {
            tally: vec![vec![Tally::default(); engines]; engines],
        }
    }

    /// Counts a game between the engines (indices) `white` and `black`,
    /// in both engines' tallies.
    pub fn add(&mut self, white: usize, black: usize, result: GameResult) {
        let t = &mut self.tally[white][black];
        match result {
            GameResult::Win(Color::White) => t.wins += 1,
            GameResult::Win(Color::Black) => t.losses += 1,
            GameResult::Draw => t.draws += 1,
        }
        self.tally[black][white] = self.tally[white][black].reversed();
    }

    /// Engine i's results against all the others.
    pub fn total(&self, i: usize) -> Tally {
        let mut sum = Tally::default();
        for &t in &self.tally[i] {
            sum += t;
        }
        sum
    }

    /// Games counted, each once.
    pub fn games(&self) -> u32 {
        (0..self.tally.len())
            .map(|i| self.total(i).games())
            .sum::<u32>()
            / 2
    }
}

/// How a match ended.
#[derive(Clone, Debug)]
pub struct MatchOutcome {
    /// The results of the games counted.
    pub standings: Standings,
    /// What the SPRT accepted, when the match has one and it decided.
    pub sprt: Option<SprtDecision>,
    /// Games scheduled but not counted: those not yet finished when the
    /// SPRT decided.
    pub unplayed: usize,
}

/// A match stopped before its end.
#[derive(Debug, thiserror::Error)]
pub enum MatchError<E> {
    /// The thread pool could not be built.
    #[error("cannot start the match threads: {0}")]
    Threads(#[from] rayon::ThreadPoolBuildError),
    /// The error `on_game` returned.
    #[error("{0}")]
    Report(E),
}

/// Plays the match on `cfg.concurrency` threads. `on_game` sees each game
/// as it finishes (in finishing order) with the standings after it; an
/// error from it stops the match and is returned.
pub fn run_match<E>(
    cfg: &MatchConfig,
    on_game: &mut dyn FnMut(&GameReport, &Standings) -> Result<(), E>,
) -> Result<MatchOutcome, MatchError<E>> {
    let jobs = schedule_games(cfg);
    let total = jobs.len();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cfg.concurrency.clamp(1, total.max(1)))
        .thread_name(|i| format!("match-{i}"))
        .build()?;
    let queue = Mutex::new(jobs.into_iter());
    let stop = AtomicBool::new(false);
    let mut standings = Standings::new(cfg.engines.len());
    let mut decision = None;
    let mut played = 0;
    let mut error = None;
    let (tx, rx) = channel();
    pool.in_place_scope(|scope| {
        let (queue, stop) = (&queue, &stop);
        // The sender goes into the workers' closure, which is dropped once
        // every worker has finished: the reports end with the last worker.
        scope.spawn_broadcast(move |_, _| worker(cfg, queue, stop, tx.clone()));
        for report in rx {
            if stop.load(Ordering::Relaxed) {
                continue;
            }
            played += 1;
            standings.add(report.job.white, report.job.black, report.result);
            if let Err(e) = on_game(&report, &standings) {
                error = Some(e);
                stop.store(true, Ordering::Relaxed);
                continue;
            }
            if let Some(sprt) = &cfg.sprt {
                decision = sprt.decision(&standings.tally[0][1]);
                if decision.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
    if let Some(e) = error {
        return Err(MatchError::Report(e));
    }
    Ok(MatchOutcome {
        standings,
        sprt: decision,
        unplayed: total - played,
    })
}

/// One thread of the match: plays the next scheduled game until none is
/// left or the match stops, keeping its engine processes between games.
fn worker(
    cfg: &MatchConfig,
    queue: &Mutex<vec::IntoIter<ScheduledGame>>,
    stop: &AtomicBool,
    reports: Sender<GameReport>,
) {
    let mut engines: Vec<Option<Engine>> = (0..cfg.engines.len()).map(|_| None).collect();
    while !stop.load(Ordering::Relaxed) {
        let next = queue.lock().unwrap_or_else(PoisonError::into_inner).next();
        let Some(job) = next else {
            break;
        };
        let Some(report) = play_game(cfg, job, &mut engines, stop) else {
            break;
        };
        if reports.send(report).is_err() {
            break;
        }
    }
}
