//! What a match plays: its settings, and the schedule of its games.

use std::time::Duration;

use super::elo::Sprt;
use super::engine_spec::{EngineSpec, TimeControl};
use super::openings::Opening;
use crate::rules::{Color, Rules};

/// Everything a match needs to run.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The engines (two or more), in `--engine` order; everything else
    /// names an engine by its index here.
    pub engines: Vec<EngineSpec>,
    /// The rules the referee applies; uci/gbgp engines are also sent them
    /// as options.
    pub rules: Rules,
    /// The time control of engines without their own.
    pub tc: TimeControl,
    /// The starts of the games (at least one), used in order, cycling.
    pub openings: Vec<Opening>,
    /// Games per pairing per round (openings come in pairs, colours swapped).
    pub games: u32,
    /// How many times the whole schedule is played, each time on the next
    /// openings (`--rounds`).
    pub rounds: u32,
    /// The first engine plays each of the others, rather than all pairs.
    pub gauntlet: bool,
    /// Games played at the same time, each on a thread of its own with its
    /// own engine processes (at least 1).
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
    /// The `Event` tag of the games' records (`--event`).
    pub event: String,
}

/// One game to play.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ScheduledGame {
    /// 1-based, in schedule order.
    pub number: usize,
    /// 1-based.
    pub round: u32,
    /// The engine (index into `MatchConfig::engines`) playing White.
    pub white: usize,
    /// The engine (index) playing Black.
    pub black: usize,
    /// The opening (index into `MatchConfig::openings`) the game starts from.
    pub opening: usize,
}

impl ScheduledGame {
    /// The engine (index) playing `side`.
    pub fn engine(&self, side: Color) -> usize {
        match side {
            Color::White => self.white,
            Color::Black => self.black,
        }
    }
}

/// The whole schedule: rounds, then pairings, then games, colours swapped
/// within each pair of games on the same opening.
pub fn schedule_games(cfg: &MatchConfig) -> Vec<ScheduledGame> {
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
                jobs.push(ScheduledGame {
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
        let jobs = schedule_games(&config(2, 4, 2, false));
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
            schedule_games(cfg)
                .iter()
                .map(|j| (j.white, j.black))
                .collect()
        };
        assert_eq!(pairs(&config(3, 1, 1, false)), [(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairs(&config(3, 1, 1, true)), [(0, 1), (0, 2)]);
    }
}
