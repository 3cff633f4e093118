//! Match statistics: Elo difference with its 95% interval, likelihood of
//! superiority (LOS) and the sequential probability ratio test (SPRT).
//!
//! Elo uses the logistic model, score = 1 / (1 + 10^(-elo/400)). The
//! interval uses the normal approximation of the mean game score with the
//! variance measured from the games; the SPRT is the generalized SPRT on the
//! trinomial W/D/L model (as fishtest computes it).

use std::fmt;

/// Two-sided 95% quantile of the standard normal distribution.
const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses from one player's point of view.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// An Elo difference with its 95% interval (infinite at a 0% or 100% score).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct EloEstimate {
    /// The Elo difference the mean score stands for.
    pub elo: f64,
    /// The lower end of the 95% interval.
    pub low: f64,
    /// The upper end of the 95% interval.
    pub high: f64,
}

impl Tally {
    /// Games counted: wins, draws and losses together.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The same games seen from the opponent.
    pub(crate) fn reversed(&self) -> Tally {
        Tally {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Mean score per game (1 win, 1/2 draw), 0.5 before any game.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Variance of one game's score around the mean.
    pub fn variance(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.0;
        }
        let s = self.score();
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n as f64
    }

    /// Elo difference and its 95% interval, if any game was played.
    pub fn elo(&self) -> Option<EloEstimate> {
        let n = self.games();
        if n == 0 {
            return None;
        }
        let s = self.score();
        let margin = Z95 * (self.variance() / n as f64).sqrt();
        Some(EloEstimate {
            elo: elo_from_score(s),
            low: elo_from_score(s - margin),
            high: elo_from_score(s + margin),
        })
    }

    /// Likelihood of superiority: the probability that this player is the
    /// stronger, from wins and losses (draws carry no information here).
    pub fn los(&self) -> f64 {
        let decisive = (self.wins + self.losses) as f64;
        if decisive == 0.0 {
            return 0.5;
        }
        let z = (self.wins as f64 - self.losses as f64) / (2.0 * decisive).sqrt();
        0.5 * (1.0 + erf(z))
    }

    /// The share of games drawn, 0 before any game.
    pub fn draw_ratio(&self) -> f64 {
        match self.games() {
            0 => 0.0,
            n => self.draws as f64 / n as f64,
        }
    }
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// The Elo difference a mean score stands for (±infinity at 1 and 0).
fn elo_from_score(score: f64) -> f64 {
    if score >= 1.0 {
        f64::INFINITY
    } else if score <= 0.0 {
        f64::NEG_INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected mean score at an Elo difference.
fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function (Abramowitz and Stegun 7.1.26, error below 1.5e-7),
/// which the standard library lacks.
pub(crate) fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 { -y } else { y }
}

/// An SPRT of H0: elo = elo0 against H1: elo = elo1 with error rates
/// alpha (accepting H1 wrongly) and beta (accepting H0 wrongly).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Sprt {
    /// The Elo difference of H0 (`elo0=`, default 0).
    pub elo0: f64,
    /// The Elo difference of H1 (`elo1=`, default 10), above `elo0`.
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds (`alpha=`, default 0.05),
    /// strictly between 0 and 0.5.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds (`beta=`, default 0.05),
    /// strictly between 0 and 0.5.
    pub beta: f64,
}

/// Which hypothesis an SPRT accepted.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SprtDecision {
    /// The difference is taken to be `elo0`: the log-likelihood ratio fell
    /// to the lower bound.
    H0,
    /// The difference is taken to be `elo1`: the log-likelihood ratio rose
    /// to the upper bound.
    H1,
}

impl fmt::Display for SprtDecision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtDecision::H0 => "H0",
            SprtDecision::H1 => "H1",
        })
    }
}

impl Default for Sprt {
    fn default() -> Sprt {
        Sprt {
            elo0: 0.0,
            elo1: 10.0,
            alpha: 0.05,
            beta: 0.05,
        }
    }
}

/// SPRT parameters that cannot be read.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum SprtError {
    /// A parameter (held) with no `=`.
    #[error("SPRT parameter '{0}' is not key=value")]
    NotKeyValue(String),
    /// A value that is not a number.
    #[error("SPRT parameter {key} needs a number, not '{value}'")]
    NotANumber {
        /// The parameter's key.
        key: String,
        /// The value as given.
        value: String,
    },
    /// A key (held) other than elo0, elo1, alpha and beta.
    #[error("unknown SPRT parameter '{0}' (elo0, elo1, alpha, beta)")]
    UnknownKey(String),
    /// `elo0` is not below `elo1`, or one of them is not a number (NaN).
    #[error("SPRT needs elo0 < elo1")]
    EloOrder,
    /// `alpha` or `beta` is not strictly between 0 and 0.5.
    #[error("SPRT alpha and beta must lie between 0 and 0.5")]
    ErrorRates,
}

impl Sprt {
    /// Reads `elo0=0 elo1=10 alpha=0.05 beta=0.05` (any subset, in any
    /// order, separated by spaces or commas; the rest keep their defaults).
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let mut sprt = Sprt::default();
        for item in text.split([' ', ',']).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| SprtError::NotKeyValue(item.to_string()))?;
            let v: f64 = value.parse().map_err(|_| SprtError::NotANumber {
                key: key.to_string(),
                value: value.to_string(),
            })?;
            match key {
                "elo0" => sprt.elo0 = v,
                "elo1" => sprt.elo1 = v,
                "alpha" => sprt.alpha = v,
                "beta" => sprt.beta = v,
                _ => return Err(SprtError::UnknownKey(key.to_string())),
            }
        }
        if sprt.elo0 >= sprt.elo1 || sprt.elo0.is_nan() || sprt.elo1.is_nan() {
            return Err(SprtError::EloOrder);
        }
        if !(0.0 < sprt.alpha && sprt.alpha < 0.5 && 0.0 < sprt.beta && sprt.beta < 0.5) {
            return Err(SprtError::ErrorRates);
        }
        Ok(sprt)
    }

    /// The log-likelihood-ratio bounds (lower accepts H0, upper H1).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after these games: the
    /// generalized SPRT, each hypothesis's W/D/L probabilities being the
    /// ones closest (maximum likelihood) to the observed frequencies that
    /// have the hypothesis's mean score. Zero counts are replaced by a tiny
    /// pseudo-count (as fishtest does) so one-sided results stay defined.
    pub fn llr(&self, t: &Tally) -> f64 {
        if t.games() == 0 {
            return 0.0;
        }
        let counts = [t.losses, t.draws, t.wins].map(|c| (c as f64).max(1e-3));
        let n: f64 = counts.iter().sum();
        let freq = counts.map(|c| c / n);
        n * (mle_log_ratio(&freq, score_from_elo(self.elo0))
            - mle_log_ratio(&freq, score_from_elo(self.elo1)))
    }

    /// The hypothesis these games accept: H1 once the log-likelihood ratio
    /// reaches the upper bound, H0 once it reaches the lower; `None` while
    /// it lies between.
    pub fn decision(&self, t: &Tally) -> Option<SprtDecision> {
        let llr = self.llr(t);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Some(SprtDecision::H1)
        } else if llr <= lower {
            Some(SprtDecision::H0)
        } else {
            None
        }
    }
}

/// The scores of a loss, a draw and a win.
const OUTCOME_SCORES: [f64; 3] = [0.0, 0.5, 1.0];

/// The mean of log(observed / fitted) probability, weighted by the observed
/// frequencies `freq` (of a loss, draw, win), where the fitted distribution
/// is the most likely one with mean score `s`. It has the form
/// `freq_i / (1 + lambda (a_i - s))`; `lambda` is found by bisection, the
/// mean constraint being decreasing in it.
fn mle_log_ratio(freq: &[f64; 3], s: f64) -> f64 {
    let constraint = |lambda: f64| -> f64 {
        freq.iter()
            .zip(OUTCOME_SCORES)
            .map(|(p, a)| p * (a - s) / (1.0 + lambda * (a - s)))
            .sum()
    };
    // Every fitted probability stays positive for lambda in (lo, hi).
    let (mut lo, mut hi) = (-1.0 / (1.0 - s), 1.0 / s);
    let pad = (hi - lo) * 1e-12;
    (lo, hi) = (lo + pad, hi - pad);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if constraint(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    freq.iter()
        .zip(OUTCOME_SCORES)
        .map(|(p, a)| p * (1.0 + lambda * (a - s)).ln())
        .sum()
}

/// An Elo value for tables: sign, one decimal, `inf` at the extremes.
pub fn format_elo(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else {
        format!("{:+.1}", elo + 0.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    #[test]
    fn erf_matches_known_values() {
        assert!(close(erf(0.0), 0.0, 1e-7));
        assert!(close(erf(0.5), 0.520_499_877_8, 2e-7));
        assert!(close(erf(1.0), 0.842_700_792_9, 2e-7));
        assert!(close(erf(-2.0), -0.995_322_265_0, 2e-7));
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-500.0, -35.0, 0.0, 10.0, 250.0] {
            assert!(close(elo_from_score(score_from_elo(elo)), elo, 1e-9));
        }
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(format_elo(f64::NEG_INFINITY), "-inf");
    }
}
