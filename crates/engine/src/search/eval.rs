//! Static evaluation: how good a position looks to the side to move, in
//! hundredths of a piece.
//!
//! Terms (each side's value, side to move minus opponent):
//! - material: pieces on the board plus in hand;
//! - mobility: free neighbour points of sliding pieces (flying pieces are
//!   free anyway), and pieces with no free neighbour;
//! - open mills: lines with two own pieces and an empty point, and closed
//!   mills (which can be opened and closed again);
//! - double mills: a piece that slides out of a closed mill straight into
//!   another one, closing a mill every turn;
//! - threats: points where a mill can be closed right now. The side to move
//!   will close one; the opponent closes one unless it is blocked, and two
//!   cannot both be blocked;
//! - junctions: pieces on points with four neighbours (they matter while
//!   placing, for the sliding phase to come);
//! - blockade: an opponent with no move left except by our leave.
//!
//! The weights were first set by hand from the game's literature (a piece
//! is worth several free points of mobility, a double mill nearly a
//! piece), then each checked by self-play with `examples/selfplay.rs`
//! (docs/experiments.md has the matches).

use morris_rules::{Bitboard, Color, EmptyNeighbours, LineCounts, Position, Rules, line_indices};

/// The weights of the evaluation terms.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Weights {
    /// A piece on the board or in hand (100 by default: scores are in
    /// hundredths of a piece).
    pub piece: i32,
    /// Each empty neighbour of each own piece on the board: the slides
    /// it has (not counted for a side that flies).
    pub mobility: i32,
    /// Taken off for each own piece with no empty neighbour (not counted
    /// for a side that flies).
    pub blocked_piece: i32,
    /// A line with two own pieces and its third point empty (also the
    /// weight of such a line against a flying opponent).
    pub open_mill: i32,
    /// A mill of one's own standing on the board (it can be opened and
    /// closed again).
    pub closed_mill: i32,
    /// A double mill: a piece that slides out of a closed mill straight
    /// into another (at most two counted a side).
    pub double_mill: i32,
    /// The side to move can close a mill now.
    pub threat_to_move: i32,
    /// The opponent can close a mill at one point (we must block it).
    pub threat_against: i32,
    /// The opponent can close mills at two or more points.
    pub double_threat_against: i32,
    /// A piece on a point with four neighbours, counted only while pieces
    /// are still in hand.
    pub junction: i32,
    /// The opponent is left without a slide (and neither flies nor places).
    pub blockade: i32,
}

impl Weights {
    /// The tuned weights (see the module notes), scaled by 100/85 so that
    /// a piece is 100: self-play preferred a piece at 85 against the rest.
    pub const DEFAULT: Weights = Weights {
        piece: 100,
        mobility: 18,
        blocked_piece: 19,
        open_mill: 21,
        closed_mill: 14,
        double_mill: 82,
        threat_to_move: 71,
        threat_against: 14,
        double_threat_against: 100,
        junction: 7,
        blockade: 294,
    };
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// Names of the terms, in the order `terms` returns them.
const TERM_NAMES: [&str; 8] = [
    "material",
    "mobility",
    "open_mills",
    "double_mills",
    "threats",
    "junctions",
    "blockade",
    "flying",
];

/// Everything the terms need to know about one side.
struct Side {
    material: i32,
    mobility: i32,
    blocked: i32,
    open: i32,
    closed: i32,
    double: i32,
    /// Empty points where this side can close a mill on its turn.
    threat_points: Bitboard,
    junctions: i32,
    /// Sliding with every piece stuck.
    stuck: bool,
    flies: bool,
}

/// Always inlined into `terms`: the two calls then share their loads and
/// build no `Side` in memory (search: 5% fewer instructions).
#[inline(always)]
fn side(
    pos: &Position,
    rules: &Rules,
    c: Color,
    own_lines: LineCounts,
    opp_lines: LineCounts,
    free: &EmptyNeighbours,
) -> Side {
    let layout = rules.layout();
    let own = pos.pieces(c);
    let empty = pos.empty();
    let placing = pos.in_hand(c) > 0;
    let flies = pos.can_fly(rules, c);
    let slides = free.slides(own);
    let mobility = slides.moves as i32;
    let blocked = slides.blocked as i32;
    let junctions = (own & layout.junctions).count() as i32;
    let full = own_lines.all;
    // Two own pieces and no other: the third point is empty.
    let open_lines = own_lines.two & !full & !opp_lines.any;
    let closed = full.count_ones() as i32;
    let open = open_lines.count_ones() as i32;
    let mut threat_points = Bitboard::EMPTY;
    for l in line_indices(open_lines) {
        let line = layout.lines[l];
        let point = line & empty;
        let Some(p) = point.first() else { continue };
        let movers = if placing || flies {
            own & !line
        } else {
            layout.adjacent[p.index()] & own & !line
        };
        if placing || !movers.is_empty() {
            threat_points |= point;
        }
    }
    // A double mill: a piece of a closed mill next to an empty point that
    // completes another line of ours.
    let mut double = 0;
    if !placing && !flies && closed > 0 {
        let mut in_mills = Bitboard::EMPTY;
        for l in line_indices(full) {
            in_mills |= layout.lines[l];
        }
        for sq in in_mills {
            for to in layout.adjacent[sq.index()] & empty {
                let after = (own ^ sq.bit()) | to.bit();
                if layout.mills_at(after, to) > 0 {
                    double += 1;
                }
            }
        }
    }
    Side {
        material: pos.material(c) as i32,
        mobility,
        blocked,
        open,
        closed,
        double,
        threat_points,
        junctions,
        stuck: !placing && !flies && mobility == 0,
        flies,
    }
}

/// The terms from the side to move's point of view, in `TERM_NAMES` order.
fn terms(pos: &Position, rules: &Rules, w: &Weights) -> [i32; 8] {
    let me = pos.side_to_move();
    let layout = rules.layout();
    let our_lines = layout.line_counts(pos.pieces(me));
    let their_lines = layout.line_counts(pos.pieces(!me));
    let free = layout.empty_neighbours(pos.empty());
    let us = side(pos, rules, me, our_lines, their_lines, &free);
    let them = side(pos, rules, !me, their_lines, our_lines, &free);
    // Removals owed between turns (rule sets, docs/rules.md 13: a full board,
    // the tally, a blocked player) count as made: the side to move's own,
    // then those the other side owes next.
    let owed = pos.owed();
    let pending = |n: u8, own: bool| if own { -(n as i32) } else { n as i32 };
    let owed = pending(owed.count, owed.own) - pending(owed.queued, owed.queued_own);
    let material = w.piece * (us.material - them.material + owed);
    let mob = |s: &Side| {
        if s.flies {
            0
        } else {
            w.mobility * s.mobility - w.blocked_piece * s.blocked
        }
    };
    let mobility = mob(&us) - mob(&them);
    let open = w.open_mill * (us.open - them.open) + w.closed_mill * (us.closed - them.closed);
    let double = w.double_mill * (us.double.min(2) - them.double.min(2));
    // Our threats are ours to take now; theirs only if we cannot block all.
    let mut threats = 0;
    if !us.threat_points.is_empty() {
        threats += w.threat_to_move;
    }
    match them.threat_points.count() {
        0 => {}
        1 => threats -= w.threat_against,
        _ => threats -= w.double_threat_against,
    }
    let placing = pos.in_hand(me) > 0 || pos.in_hand(!me) > 0;
    let junctions = if placing {
        w.junction * (us.junctions - them.junctions)
    } else {
        0
    };
    let blockade = if them.stuck && !us.stuck {
        w.blockade
    } else if us.stuck && !them.stuck {
        -w.blockade
    } else {
        0
    };
    // A flying side is one removal from losing: each open line of the
    // other side is worth more there.
    let flying = match (us.flies, them.flies) {
        (false, true) => w.open_mill * us.open,
        (true, false) => -w.open_mill * them.open,
        _ => 0,
    };
    [
        material, mobility, open, double, threats, junctions, blockade, flying,
    ]
}

/// The evaluation with the default weights, side to move's view (the
/// search evaluates with its settings' weights: `evaluate_with`).
#[cfg(test)]
fn evaluate(pos: &Position, rules: &Rules) -> i32 {
    evaluate_with(pos, rules, &Weights::DEFAULT)
}

/// The evaluation with the given weights, side to move's view.
pub fn evaluate_with(pos: &Position, rules: &Rules, w: &Weights) -> i32 {
    terms(pos, rules, w).iter().sum()
}

/// The evaluation term by term (side to move's view), ending with the total.
pub(crate) fn explain(pos: &Position, rules: &Rules) -> Vec<(&'static str, i32)> {
    let t = terms(pos, rules, &Weights::DEFAULT);
    let mut out: Vec<_> = TERM_NAMES.iter().copied().zip(t).collect();
    out.push(("total", t.iter().sum()));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_is_even_and_explain_adds_up() {
        let rules = Rules::default();
        let pos = Position::start(&rules);
        assert_eq!(evaluate(&pos, &rules), 0);
        let terms = explain(&pos, &rules);
        let total = terms.last().unwrap().1;
        let sum: i32 = terms[..terms.len() - 1].iter().map(|t| t.1).sum();
        assert_eq!(total, sum);
        assert_eq!(total, evaluate(&pos, &rules));
    }

    #[test]
    fn material_counts_for_the_side_to_move() {
        let rules = Rules::default();
        let pos = Position::from_fen("W2/3/3/6/3/3/3 b 8 8 0 1", &rules).unwrap();
        assert!(evaluate(&pos, &rules) < 0);
        let pos = Position::from_fen("W2/3/3/6/3/3/3 w 8 9 1 1", &rules).unwrap();
        assert!(evaluate(&pos, &rules) > 0);
    }
}
