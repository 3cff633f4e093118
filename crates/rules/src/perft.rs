//! Perft: the number of leaves of the legal-move tree (docs/rules.md 9;
//! docs/rules.md 13 for the rule sets).

use super::movegen::{Counter, MoveSink};
use super::moves::{Move, MoveList};
use super::options::Rules;
use super::position::Position;

/// One of the two move generators, chosen once per perft rather than at
/// every node.
trait Generator {
    fn generate<S: MoveSink>(pos: &Position, rules: &Rules, sink: &mut S);
    fn make(pos: &Position, rules: &Rules, mv: Move) -> Position;
    /// Whether a branch ends here before its moves are generated.
    fn terminal(pos: &Position, rules: &Rules) -> bool;
}

/// docs/rules.md Part I's generator: a side below `MinPieces` ends the branch.
struct Plain;

impl Generator for Plain {
    #[inline]
    fn generate<S: MoveSink>(pos: &Position, rules: &Rules, sink: &mut S) {
        pos.generate_plain(rules, sink);
    }

    #[inline]
    fn make(pos: &Position, rules: &Rules, mv: Move) -> Position {
        pos.make_plain(rules, mv)
    }

    #[inline]
    fn terminal(pos: &Position, rules: &Rules) -> bool {
        let min = rules.min_pieces as u32;
        pos.material(pos.side_to_move()) < min || pos.material(!pos.side_to_move()) < min
    }
}

/// The turn engine of the rule sets, which knows the end itself.
struct Turns;

impl Generator for Turns {
    fn generate<S: MoveSink>(pos: &Position, rules: &Rules, sink: &mut S) {
        pos.generate_turns(rules, sink);
    }

    fn make(pos: &Position, rules: &Rules, mv: Move) -> Position {
        pos.make_turn(rules, mv)
    }

    fn terminal(_: &Position, _: &Rules) -> bool {
        false
    }
}

fn perft<G: Generator>(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if G::terminal(pos, rules) {
        return 0;
    }
    if depth == 1 {
        let mut counter = Counter(0);
        G::generate(pos, rules, &mut counter);
        return counter.0;
    }
    let mut list = MoveList::new();
    G::generate(pos, rules, &mut list);
    list.iter()
        .map(|&mv| perft::<G>(&G::make(pos, rules, mv), rules, depth - 1))
        .sum()
}

fn divide<G: Generator>(pos: &Position, rules: &Rules, depth: u32) -> Vec<(Move, u64)> {
    let mut list = MoveList::new();
    if depth > 0 && !G::terminal(pos, rules) {
        G::generate(pos, rules, &mut list);
    }
    let mut out: Vec<(Move, u64)> = list
        .iter()
        .map(|&mv| (mv, perft::<G>(&G::make(pos, rules, mv), rules, depth - 1)))
        .collect();
    out.sort_by_cached_key(|(mv, _)| mv.to_string());
    out
}

impl Position {
    /// Leaves `depth` turns deep; only the piece-count and no-move
    /// losses end a branch (and, under the rule sets, the ends of
    /// docs/rules.md 13: full board, blocked, tally, piece count).
    pub fn perft(&self, rules: &Rules, depth: u32) -> u64 {
        if rules.extended() {
            perft::<Turns>(self, rules, depth)
        } else {
            perft::<Plain>(self, rules, depth)
        }
    }

    /// Perft below each legal move, sorted by the move's text.
    pub fn divide(&self, rules: &Rules, depth: u32) -> Vec<(Move, u64)> {
        if rules.extended() {
            divide::<Turns>(self, rules, depth)
        } else {
            divide::<Plain>(self, rules, depth)
        }
    }
}
