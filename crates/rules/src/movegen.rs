//! Legal move generation: placements, slides and flights, each with every
//! distinct set of removals it earns.

use super::board::{Bitboard, Layout, Square};
use super::moves::{Move, MoveList};
use super::option_values::MillRemoval;
use super::options::Rules;
use super::position::Position;

/// Where generated moves go: a list, a counter for perft's last ply, or a
/// caller's own sink (the search scores each move as it is generated).
pub trait MoveSink {
    /// Only moves that close a mill are wanted: the others are not generated.
    const MILLS_ONLY: bool = false;

    /// Takes one legal move, removals in canonical order; each distinct move
    /// comes once.
    fn push(&mut self, mv: Move);

    /// `base` with each point of `removable` (non-empty) as its one removal.
    #[inline]
    fn push_each_removal(&mut self, base: Move, removable: Bitboard) {
        for r in removable {
            self.push(base.with_removal(r));
        }
    }
}

impl MoveSink for MoveList {
    #[inline]
    fn push(&mut self, mv: Move) {
        MoveList::push(self, mv);
    }
}

/// Passes on only the moves that remove something (and generates no others).
pub struct Removals<'a, S>(pub &'a mut S);

impl<S: MoveSink> MoveSink for Removals<'_, S> {
    const MILLS_ONLY: bool = true;

    #[inline]
    fn push(&mut self, mv: Move) {
        if mv.num_removals() > 0 {
            self.0.push(mv);
        }
    }

    #[inline]
    fn push_each_removal(&mut self, base: Move, removable: Bitboard) {
        self.0.push_each_removal(base, removable);
    }
}

pub(super) struct Counter(pub u64);

impl MoveSink for Counter {
    #[inline]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }

    #[inline]
    fn push_each_removal(&mut self, _: Move, removable: Bitboard) {
        self.0 += removable.count() as u64;
    }
}

/// The opponent pieces `mode` lets a mill remove from `theirs`.
#[inline]
pub fn removable(layout: &Layout, mode: MillRemoval, theirs: Bitboard) -> Bitboard {
    match mode {
        MillRemoval::Any => theirs,
        MillRemoval::Never => theirs & !layout.in_mills(theirs),
        MillRemoval::Protected => {
            let free = theirs & !layout.in_mills(theirs);
            if free.is_empty() { theirs } else { free }
        }
    }
}

impl Position {
    /// Every legal move, each once, removals in canonical order.
    pub fn legal_moves(&self, rules: &Rules, list: &mut MoveList) {
        list.clear();
        self.generate_into(rules, list);
    }

    /// The legal moves that remove a piece, in `legal_moves` order, without
    /// generating the others (what the quiescence search generates, through
    /// `Removals` on its own sink).
    pub fn removal_moves(&self, rules: &Rules, list: &mut MoveList) {
        list.clear();
        self.generate_into(rules, &mut Removals(list));
    }

    /// The number of legal moves (perft's bulk count).
    pub fn count_moves(&self, rules: &Rules) -> u64 {
        let mut counter = Counter(0);
        self.generate_into(rules, &mut counter);
        counter.0
    }

    /// Every legal move (each once, removals in canonical order) into `sink`.
    #[inline]
    pub fn generate_into<S: MoveSink>(&self, rules: &Rules, sink: &mut S) {
        if rules.extended() {
            self.generate_turns(rules, sink)
        } else {
            self.generate_plain(rules, sink)
        }
    }

    /// `generate_into` under docs/rules.md Part I's options only.
    #[inline]
    pub(super) fn generate_plain<S: MoveSink>(&self, rules: &Rules, sink: &mut S) {
        let me = self.side_to_move();
        let own = self.pieces(me);
        let closing = rules.layout().closing_points(own);
        // A mill can only close on an empty point of a two-piece line; the
        // same order as the full generation, with the other targets left out.
        let empty = if S::MILLS_ONLY {
            self.empty() & closing
        } else {
            self.empty()
        };
        let generator = Generator {
            rules,
            layout: rules.layout(),
            theirs: self.pieces(!me),
            bans: self.bans(me),
            closing,
            // With one removal the removable set is the same for every move;
            // no move needs it when no mill can close.
            removable: if closing.is_empty() {
                Bitboard::EMPTY
            } else {
                removable(rules.layout(), rules.mill_removal, self.pieces(!me))
            },
        };
        let in_hand = self.in_hand(me) > 0;
        if in_hand {
            for to in empty {
                generator.add(sink, Move::place(to), own | to.bit());
            }
        }
        if !in_hand || rules.lasker {
            let fly = self.can_fly(rules, me);
            for from in own {
                let targets = if fly {
                    empty
                } else {
                    generator.layout.adjacent[from.index()] & empty
                };
                let moved = own ^ from.bit();
                for to in targets {
                    generator.add(sink, Move::slide(from, to), moved | to.bit());
                }
            }
        }
    }
}

struct Generator<'a> {
    rules: &'a Rules,
    layout: &'static Layout,
    theirs: Bitboard,
    bans: u32,
    removable: Bitboard,
    /// Where a mill can close: elsewhere no move needs the line test.
    closing: Bitboard,
}

impl Generator<'_> {
    /// Adds `base` (a move without removals leaving the mover on `after`).
    #[inline(always)]
    fn add<S: MoveSink>(&self, sink: &mut S, base: Move, after: Bitboard) {
        let to = base.dest();
        if !self.closing.contains(to) {
            sink.push(base);
            return;
        }
        let mills = self.layout.mills_at(after, to);
        if mills == 0 {
            sink.push(base);
            return;
        }
        if self.bans != 0 && self.closes_banned(after, to) {
            return;
        }
        let removals = if self.rules.remove_per_mill { mills } else { 1 };
        if removals == 1 && !self.rules.may_pass {
            if self.removable.is_empty() {
                sink.push(base);
            } else {
                sink.push_each_removal(base, self.removable);
            }
        } else {
            let mut seen = PlainSets::new();
            self.add_removals(sink, base, removals, self.theirs, &mut seen);
        }
    }

    fn closes_banned(&self, after: Bitboard, to: Square) -> bool {
        self.layout
            .lines_through(to)
            .any(|(i, line)| self.bans & (1 << i) != 0 && after & line == line)
    }

    /// Depth-first over removal orders, in text order of the points, so the
    /// first order found for each set is its canonical one.
    fn add_removals<S: MoveSink>(
        &self,
        sink: &mut S,
        mv: Move,
        left: u32,
        theirs: Bitboard,
        seen: &mut PlainSets,
    ) {
        let can_remove = if left == 0 {
            Bitboard::EMPTY
        } else {
            removable(self.layout, self.rules.mill_removal, theirs)
        };
        if (can_remove.is_empty() || self.rules.may_pass) && seen.insert(mv.removed()) {
            sink.push(mv);
        }
        for r in can_remove {
            self.add_removals(sink, mv.with_removal(r), left - 1, theirs ^ r.bit(), seen);
        }
    }
}

/// A plain turn's removal sets: at most 1 + 12 + 66 + 220.
type PlainSets = SeenSets<320>;

/// The removal sets already added for one turn, at most `N` of them.
pub(crate) struct SeenSets<const N: usize> {
    sets: [Bitboard; N],
    len: usize,
}

impl<const N: usize> SeenSets<N> {
    pub(crate) fn new() -> Self {
        SeenSets {
            sets: [Bitboard::EMPTY; N],
            len: 0,
        }
    }

    /// Records `set`; false if it was there already.
    pub(crate) fn insert(&mut self, set: Bitboard) -> bool {
        if self.sets[..self.len].contains(&set) {
            return false;
        }
        if self.len < N {
            self.sets[self.len] = set;
            self.len += 1;
        }
        true
    }
}
