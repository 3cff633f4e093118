//! Scores inside the search: wins and losses as distances from the root,
//! stored relative to the node in the table, and their public form.

use super::tb;
use super::{MAX_PLY, Score};

pub(super) const INF: i32 = 32_000;
/// Score of a win on the spot; a win `p` plies from the root is `MATE - p`.
pub(super) const MATE: i32 = 31_000;
/// Scores at least this far from zero are wins or losses.
pub(super) const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;

/// Mate scores are stored relative to the node, not the root.
pub(super) fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

pub(super) fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// The public form of an internal score (see `Score` for the mate count).
/// The score reported for a line while placing: the mean of this
/// iteration's and the last one's scores of the line of that rank. An
/// iteration whose horizon ends on one side's placement sees that side a
/// piece further on than the next iteration does, so raw scores swing by
/// about half a piece between odd and even depths; their mean does not.
/// The search itself (and so every move chosen) uses the raw scores. Table
/// and mate scores are reported as found.
pub(super) fn shown_score(score: i32, before: i32) -> i32 {
    let heuristic = |s: i32| s.abs() < tb::TB_FLOOR;
    if heuristic(score) && heuristic(before) {
        (score + before).div_euclid(2)
    } else {
        score
    }
}

pub(super) fn to_score(s: i32) -> Score {
    if s >= MATE_BOUND {
        Score::Mate((MATE - s + 1) / 2)
    } else if s <= -MATE_BOUND {
        Score::Mate(-((MATE + s + 1) / 2))
    } else {
        Score::Cp(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_count_own_moves() {
        assert_eq!(to_score(MATE - 1), Score::Mate(1));
        assert_eq!(to_score(MATE - 3), Score::Mate(2));
        assert_eq!(to_score(-(MATE - 2)), Score::Mate(-1));
        assert_eq!(to_score(-(MATE - 4)), Score::Mate(-2));
        assert_eq!(to_score(250), Score::Cp(250));
        for s in [MATE - 5, -(MATE - 6), 17] {
            assert_eq!(from_tt(to_tt(s, 3), 3), s);
        }
    }
}
