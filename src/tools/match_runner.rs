//! Engine-vs-engine matches: the schedule, the games (refereed by the rules
//! core, never by what an engine claims), and the standings.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::channel;
use std::thread;
use std::time::Duration;

use super::engine_process::{Engine, EngineSpec, Fault, TimeControl};
use super::openings::Opening;
use super::record::{Record, format_score};
use super::stats::{Sprt, SprtDecision, Tally};
use crate::protocol::wire::{GoArgs, PositionArgs};
use crate::rules::{Color, GameResult, Rules};

/// Everything a match needs to run.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub rules: Rules,
    /// The time control of engines without their own.
    pub tc: TimeControl,
    pub openings: Vec<Opening>,
    /// Games per pairing per round (openings come in pairs, colours swapped).
    pub games: u32,
    pub rounds: u32,
    /// The first engine plays each of the others, rather than all pairs.
    pub gauntlet: bool,
    pub concurrency: usize,
    /// Stop once decided (two engines only).
    pub sprt: Option<Sprt>,
    /// Slack over the allotted time before an engine loses on time.
    pub margin: Duration,
    /// Longest wait for the handshake and `readyok`.
    pub handshake_timeout: Duration,
    /// Longest wait for a move under `depth` or `nodes` limits.
    pub untimed_limit: Duration,
    /// Draw a game after this many plies past the opening (0: never).
    pub max_plies: usize,
    pub event: String,
}

/// One game to play.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Job {
    /// 1-based, in schedule order.
    pub number: usize,
    /// 1-based.
    pub round: u32,
    pub white: usize,
    pub black: usize,
    pub opening: usize,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameReport {
    pub job: Job,
    pub result: GameResult,
    /// Why the game ended, in words.
    pub termination: String,
    /// The engine (index) that lost by a fault, and the fault.
    pub fault: Option<(usize, Fault)>,
    pub record: Record,
}

/// Results between every two engines, from each one's point of view.
#[derive(Clone, Debug)]
pub struct Standings {
    /// `tally[i][j]`: engine i's results against engine j.
    pub tally: Vec<Vec<Tally>>,
}

impl Standings {
    pub fn new(engines: usize) -> Standings {
        Standings {
            tally: vec![vec![Tally::default(); engines]; engines],
        }
    }

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

    pub fn games(&self) -> u32 {
        (0..self.tally.len())
            .map(|i| self.total(i).games())
            .sum::<u32>()
            / 2
    }
}

/// The whole schedule: rounds, then pairings, then games, colours swapped
/// within each pair of games on the same opening.
pub fn schedule(cfg: &MatchConfig) -> Vec<Job> {
    let n = cfg.engines.len();
    let pairings: Vec<(usize, usize)> = if cfg.gauntlet {
        (1..n).map(|j| (0, j)).collect()
    } else {
        (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect()
    };
    let per_round = cfg.games.div_ceil(2) as usize;
    let mut jobs = Vec::new();
    for round in 0..cfg.rounds {
        for &(a, b) in &pairings {
            for g in 0..cfg.games as usize {
                let (white, black) = if g % 2 == 0 { (a, b) } else { (b, a) };
                jobs.push(Job {
                    number: jobs.len() + 1,
                    round: round + 1,
                    white,
                    black,
                    opening: (round as usize * per_round + g / 2) % cfg.openings.len(),
                });
            }
        }
    }
    jobs
}

/// How a match ended.
#[derive(Clone, Debug)]
pub struct MatchOutcome {
    pub standings: Standings,
    pub sprt: Option<SprtDecision>,
    /// Games scheduled but not played (stopped by the SPRT or an error).
    pub unplayed: usize,
}

/// Plays the match on `cfg.concurrency` threads. `on_game` sees each game
/// as it finishes (in finishing order) with the standings after it; an
/// error from it stops the match and is returned.
pub fn run(
    cfg: &MatchConfig,
    on_game: &mut dyn FnMut(&GameReport, &Standings) -> Result<(), String>,
) -> Result<MatchOutcome, String> {
    let jobs = schedule(cfg);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let mut standings = Standings::new(cfg.engines.len());
    let mut decision = None;
    let mut played = 0;
    let mut error = None;
    let workers = cfg.concurrency.clamp(1, jobs.len().max(1));
    let (tx, rx) = channel();
    thread::scope(|scope| {
        for _ in 0..workers {
            let tx = tx.clone();
            let (jobs, next, stop) = (&jobs, &next, &stop);
            scope.spawn(move || {
                let mut engines: Vec<Option<Engine>> =
                    (0..cfg.engines.len()).map(|_| None).collect();
                while !stop.load(Ordering::Relaxed) {
                    let Some(&job) = jobs.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    let Some(report) = play_game(cfg, job, &mut engines, stop) else {
                        break;
                    };
                    if tx.send(report).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
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
        return Err(e);
    }
    Ok(MatchOutcome {
        standings,
        sprt: decision,
        unplayed: jobs.len() - played,
    })
}

/// Words for the rules' reason of an outcome ("no legal move").
fn reason_words(outcome: &crate::rules::Outcome) -> String {
    let text = outcome.to_string();
    text.split_once(" by ")
        .map_or(text.clone(), |(_, why)| why.to_string())
}

/// Plays one game; `None` when the match was stopped during it. Engines
/// that fault are dropped (killed) so the next game starts them afresh.
fn play_game(
    cfg: &MatchConfig,
    job: Job,
    engines: &mut [Option<Engine>],
    stop: &AtomicBool,
) -> Option<GameReport> {
    let mut game = cfg.openings[job.opening]
        .game(&cfg.rules)
        .expect("openings are checked before the match");
    let book = game.moves().len();
    let mut comments: Vec<Option<String>> = vec![None; book];
    let player = |c: Color| match c {
        Color::White => job.white,
        Color::Black => job.black,
    };
    let tc = |c: Color| cfg.engines[player(c)].tc.unwrap_or(cfg.tc);
    let clock_of = |c: Color| match tc(c) {
        TimeControl::Clock { base_ms, inc_ms } => Some((base_ms, inc_ms)),
        _ => None,
    };
    let mut clocks = [Color::White, Color::Black].map(|c| clock_of(c).map_or(0, |(b, _)| b));
    let mut fault = None;
    let forfeit = |c: Color, f: Fault, fault: &mut Option<(usize, Fault)>| {
        let name = &cfg.engines[player(c)].name;
        let text = format!("{} ({name}) {f}", c.name());
        *fault = Some((player(c), f));
        (GameResult::Win(!c), text)
    };

    let (result, termination) = 'game: {
        for c in [Color::White, Color::Black] {
            let i = player(c);
            if engines[i].is_none() {
                match Engine::start(&cfg.engines[i], &cfg.rules, cfg.handshake_timeout) {
                    Ok(e) => engines[i] = Some(e),
                    Err(f) => break 'game forfeit(c, f, &mut fault),
                }
            }
            let engine = engines[i].as_mut().expect("started");
            if let Err(f) = engine.new_game(cfg.handshake_timeout) {
                engines[i] = None;
                break 'game forfeit(c, f, &mut fault);
            }
        }
        loop {
            if let Some(outcome) = game.outcome() {
                break 'game (outcome.result, reason_words(&outcome));
            }
            if cfg.max_plies > 0 && game.moves().len() - book >= cfg.max_plies {
                break 'game (
                    GameResult::Draw,
                    format!("adjudicated a draw after {} plies", cfg.max_plies),
                );
            }
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let side = game.position().side_to_move();
            let i = player(side);
            let (go, allowed_ms) = match tc(side) {
                TimeControl::Clock { inc_ms, .. } => {
                    let own = (clocks[side.index()], inc_ms);
                    let [w, b] = [Color::White, Color::Black].map(|c| match clock_of(c) {
                        Some((_, inc)) => (clocks[c.index()], inc),
                        None => own,
                    });
                    let go = GoArgs {
                        wtime: Some(w.0),
                        btime: Some(b.0),
                        winc: Some(w.1),
                        binc: Some(b.1),
                        ..GoArgs::default()
                    };
                    (go, own.0)
                }
                TimeControl::MoveTime(ms) => {
                    let go = GoArgs {
                        movetime: Some(ms),
                        ..GoArgs::default()
                    };
                    (go, ms)
                }
                TimeControl::Depth(d) => {
                    let go = GoArgs {
                        depth: Some(d),
                        ..GoArgs::default()
                    };
                    (go, cfg.untimed_limit.as_millis() as u64)
                }
                TimeControl::Nodes(n) => {
                    let go = GoArgs {
                        nodes: Some(n),
                        ..GoArgs::default()
                    };
                    (go, cfg.untimed_limit.as_millis() as u64)
                }
            };
            let allowed = Duration::from_millis(allowed_ms) + cfg.margin;
            let engine = engines[i].as_mut().expect("started");
            let position = PositionArgs::of_game(&game, cfg.engines[i].proto);
            let reply = match engine.go(position, go, allowed) {
                Ok(r) => r,
                Err(f) => {
                    engines[i] = None;
                    break 'game forfeit(side, f, &mut fault);
                }
            };
            let used = reply.elapsed.as_millis() as u64;
            if let TimeControl::Clock { inc_ms, .. } = tc(side) {
                let left = &mut clocks[side.index()];
                *left = left.saturating_sub(used) + inc_ms;
            }
            let played = reply.best.as_deref().map(|t| game.play_text(t));
            let bad = match played {
                Some(Ok(_)) => None,
                Some(Err(e)) => Some(Fault::Illegal {
                    token: e.token,
                    reason: e.reason,
                }),
                None => Some(Fault::Illegal {
                    token: "(none)".into(),
                    reason: "claimed to have no move, but it has legal moves".into(),
                }),
            };
            if let Some(f) = bad {
                engines[i] = None;
                break 'game forfeit(side, f, &mut fault);
            }
            let secs = format!("{:.3}s", used as f64 / 1000.0);
            comments.push(Some(match (reply.score, reply.depth) {
                (Some(s), Some(d)) => format!("{}/{d} {secs}", format_score(s)),
                (Some(s), None) => format!("{} {secs}", format_score(s)),
                _ => secs,
            }));
        }
    };

    let names = [job.white, job.black].map(|i| cfg.engines[i].name.clone());
    let [tw, tb] = [Color::White, Color::Black].map(|c| tc(c).to_string());
    let date = jiff::Timestamp::now().strftime("%Y.%m.%d").to_string();
    let mut record = Record::from_game(
        &game,
        &[
            ("Event", cfg.event.clone()),
            ("Date", date),
            ("Round", job.round.to_string()),
            ("White", names[0].clone()),
            ("Black", names[1].clone()),
        ],
        Some(result),
        &comments,
    );
    if tw == tb {
        record.set_tag("TimeControl", &tw);
    } else {
        record.set_tag("WhiteTimeControl", &tw);
        record.set_tag("BlackTimeControl", &tb);
    }
    record.set_tag("Opening", &cfg.openings[job.opening].to_string());
    record.set_tag("Termination", &termination);
    record.set_tag("PlyCount", &game.moves().len().to_string());
    Some(GameReport {
        job,
        result,
        termination,
        fault,
        record,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(engines: usize, games: u32, rounds: u32, gauntlet: bool) -> MatchConfig {
        let spec = |i: usize| EngineSpec::parse(&[format!("cmd=/e{i}")]).unwrap();
        MatchConfig {
            engines: (0..engines).map(spec).collect(),
            rules: Rules::default(),
            tc: TimeControl::Depth(1),
            openings: Opening::builtin()[..3].to_vec(),
            games,
            rounds,
            gauntlet,
            concurrency: 1,
            sprt: None,
            margin: Duration::ZERO,
            handshake_timeout: Duration::ZERO,
            untimed_limit: Duration::ZERO,
            max_plies: 0,
            event: String::new(),
        }
    }

    #[test]
    fn schedule_swaps_colours_per_opening_and_cycles_openings() {
        let jobs = schedule(&config(2, 4, 2, false));
        let seen: Vec<(usize, usize, usize)> =
            jobs.iter().map(|j| (j.white, j.black, j.opening)).collect();
        assert_eq!(
            seen,
            [
                (0, 1, 0),
                (1, 0, 0),
                (0, 1, 1),
                (1, 0, 1),
                (0, 1, 2),
                (1, 0, 2),
                (0, 1, 0),
                (1, 0, 0)
            ]
        );
        assert_eq!(jobs[7].round, 2);
        assert_eq!(jobs[7].number, 8);
    }

    #[test]
    fn round_robin_and_gauntlet_pairings() {
        let pairs = |cfg: &MatchConfig| -> Vec<(usize, usize)> {
            schedule(cfg).iter().map(|j| (j.white, j.black)).collect()
        };
        assert_eq!(pairs(&config(3, 1, 1, false)), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairs(&config(3, 1, 1, true)), [(0, 1), (0, 2)]);
    }
}
