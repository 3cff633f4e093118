//! PlayOK's move notation: the 24 points numbered 1 to 24 left to right,
//! top to bottom (1 = a7, 2 = d7, 3 = g7, ... 22 = a1, 23 = d1, 24 = g1);
//! `12` a placement, `12-13` a slide or a flight, `x5` a removal, which
//! may follow the move in the same token (`12-13x5`).

use crate::rules::{Move, Square};

/// The points in PlayOK's order: its number `n` is `POINTS[n - 1]`.
const POINTS: [&str; 24] = [
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4", "g4", "c3",
    "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
];

/// Whether `word` is written in PlayOK's numbers (digits, `-` and `x`,
/// starting with a digit or with `x` and a digit): our notation's tokens
/// start with a point's letter.
pub(crate) fn is_playok_token(word: &str) -> bool {
    let digits = word.strip_prefix(['x', 'X']).unwrap_or(word);
    digits.starts_with(|c: char| c.is_ascii_digit())
        && word
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '-' | 'x' | 'X'))
}

/// The point PlayOK numbers `number`.
fn point(number: &str) -> Option<&'static str> {
    let n: usize = number.parse().ok()?;
    POINTS.get(n.checked_sub(1)?).copied()
}

/// A PlayOK token in our notation (`12-13x5` -> `c4-e4xd6`); `None` when a
/// number names no point (they run from 1 to 24) or the token has no shape
/// of a move.
pub(crate) fn to_points(token: &str) -> Option<String> {
    let lower = token.to_ascii_lowercase();
    let (head, removals) = match lower.find('x') {
        Some(i) => lower.split_at(i),
        None => (lower.as_str(), ""),
    };
    let mut out = String::new();
    if !head.is_empty() {
        let mut ends = head.split('-');
        out.push_str(point(ends.next()?)?);
        if let Some(to) = ends.next() {
            out.push('-');
            out.push_str(point(to)?);
        }
        if ends.next().is_some() {
            return None;
        }
    }
    for r in removals.split('x').skip(1) {
        out.push('x');
        out.push_str(point(r)?);
    }
    (!out.is_empty()).then_some(out)
}

/// PlayOK's number of a point.
fn number(sq: Square) -> usize {
    POINTS
        .iter()
        .position(|&p| p == sq.name())
        .expect("every point has a number")
        + 1
}

/// A move in PlayOK's numbers (`c4-e4xd6` -> `12-13x5`).
pub(crate) fn from_move(mv: Move) -> String {
    let mut out = String::new();
    if let Some(from) = mv.from() {
        out.push_str(&format!("{}-", number(from)));
    }
    if let Some(to) = mv.to() {
        out.push_str(&number(to).to_string());
    }
    for r in mv.removals() {
        out.push_str(&format!("x{}", number(r)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_run_left_to_right_top_to_bottom() {
        assert_eq!(to_points("1").as_deref(), Some("a7"));
        assert_eq!(to_points("12").as_deref(), Some("c4"));
        assert_eq!(to_points("24").as_deref(), Some("g1"));
        assert_eq!(to_points("12-13x5").as_deref(), Some("c4-e4xd6"));
        assert_eq!(to_points("x22").as_deref(), Some("xa1"));
        assert_eq!(to_points("3X1x2").as_deref(), Some("g7xa7xd7"));
        for bad in ["0", "25", "1-2-3", "1-", "x", "12x", "-4"] {
            assert_eq!(to_points(bad), None, "{bad}");
        }
        for sq in Square::ALL {
            let n = number(sq);
            assert_eq!(to_points(&n.to_string()).as_deref(), Some(sq.name()));
        }
        assert!(is_playok_token("12-13x5") && is_playok_token("x5"));
        assert!(!is_playok_token("a1") && !is_playok_token("xd6") && !is_playok_token("-"));
    }
}
