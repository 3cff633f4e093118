//! Perft: the number of leaves of the legal-move tree (rules.md, "Perft").

use super::moves::{Move, MoveList};
use super::options::Rules;
use super::position::Position;

impl Position {
    /// Whether a branch ends here for perft: a side below `MinPieces`
    /// (under rule-set options the generator knows the end itself).
    #[inline]
    fn perft_terminal(&self, rules: &Rules) -> bool {
        let min = rules.min_pieces as u32;
        !rules.extended()
            && (self.material(self.side_to_move()) < min
                || self.material(!self.side_to_move()) < min)
    }

    /// Leaves `depth` plies deep; only piece-count and no-move losses end a branch.
    pub fn perft(&self, rules: &Rules, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.perft_terminal(rules) {
            return 0;
        }
        if depth == 1 {
            return self.count_moves(rules);
        }
        let mut list = MoveList::new();
        self.legal_moves(rules, &mut list);
        list.iter()
            .map(|&mv| self.make(rules, mv).perft(rules, depth - 1))
            .sum()
    }

    /// Perft below each legal move, sorted by the move's text.
    pub fn divide(&self, rules: &Rules, depth: u32) -> Vec<(Move, u64)> {
        let mut list = MoveList::new();
        if depth > 0 && !self.perft_terminal(rules) {
            self.legal_moves(rules, &mut list);
        }
        let mut out: Vec<(Move, u64)> = list
            .iter()
            .map(|&mv| (mv, self.make(rules, mv).perft(rules, depth - 1)))
            .collect();
        out.sort_by_cached_key(|(mv, _)| mv.to_string());
        out
    }
}
