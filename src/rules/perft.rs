//! Perft: the number of leaves of the legal-move tree (rules.md, "Perft").

use super::moves::MoveList;
use super::options::Rules;
use super::position::Position;

impl Position {
    /// Whether a branch ends here for perft: a side down to two pieces.
    #[inline]
    fn perft_terminal(&self) -> bool {
        self.material(self.side_to_move()) < 3 || self.material(!self.side_to_move()) < 3
    }

    /// Leaves `depth` plies deep; only piece-count and no-move losses end a branch.
    pub fn perft(&self, rules: &Rules, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.perft_terminal() {
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
}
