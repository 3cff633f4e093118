//! The game state between two turns, and making a move on it.

use super::board::{Bitboard, MAX_LINES, NUM_SQUARES, Square};
use super::color::Color;
use super::moves::Move;
use super::option_values::Flying;
use super::options::Rules;
use super::outcome::{GameResult, Outcome};
use super::random::splitmix64;

/// Removals a player owes between two actions (docs/rules.md 14.4), and what
/// follows them. Between turns only the counts and flags can be set; the
/// turn engine (`rules::turns`) keeps capture targets itself.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Owed {
    /// Removals the side to move owes.
    pub count: u8,
    /// They take the remover's own pieces (the tally's first row).
    pub own: bool,
    /// Blocked-removal targeting: only pieces next to the remover's, no
    /// protection (docs/rules.md 14.4 case a).
    pub adjacent: bool,
    /// The same player moves afterwards (`Blocked removemove`).
    pub then_same: bool,
    /// Removals the other player owes next (full board, tally, `bothremove`);
    /// after them the first remover moves.
    pub queued: u8,
    /// The queued removals take their remover's own pieces (the tally's
    /// first row).
    pub queued_own: bool,
    /// The queued removals use blocked-removal targeting (`Blocked
    /// bothremove`).
    pub queued_adjacent: bool,
}

impl Owed {
    /// A small number for the hash.
    pub(super) fn packed(&self) -> u64 {
        self.count as u64
            | (self.own as u64) << 8
            | (self.adjacent as u64) << 9
            | (self.then_same as u64) << 10
            | (self.queued as u64) << 11
            | (self.queued_own as u64) << 19
            | (self.queued_adjacent as u64) << 20
    }
}

/// Everything that decides the legal moves and the outcome, except the
/// history (see `Game`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    pub(super) pieces: [Bitboard; 2],
    pub(super) hand: [u8; 2],
    pub(super) side: Color,
    /// Plies since the last placement or removal.
    pub(super) clock: u16,
    pub(super) fullmove: u32,
    /// Per player, the lines (indices into the layout's lines) that player
    /// may not close on its next move (`MillReform`).
    pub(super) bans: [u32; 2],
    /// Zobrist key of board, marks, hands and side to move (what
    /// repetition compares).
    pub(super) key: u64,
    /// Key of the rest of the rule-set state below (zero when it is empty):
    /// part of `hash`, not of repetition (docs/rules.md 14.10 compares points
    /// and the side to move).
    pub(super) state_key: u64,
    /// The rule-set state of docs/rules.md Part II, empty under Part I's options:
    /// marked points (`PlacingMill mark`),
    pub(super) marked: Bitboard,
    /// spent points per player (`OneTimeMill`),
    pub(super) spent: [Bitboard; 2],
    /// the `MillShuttle` memory per player (from, to),
    pub(super) shuttle: [Option<(Square, Square)>; 2],
    /// removals owed by the side to move,
    pub(super) owed: Owed,
    /// and the end of the game when a rule ended it during a turn.
    pub(super) end: Option<Outcome>,
}

/// Zobrist keys, made at compile time from a fixed seed.
struct Zobrist {
    piece: [[u64; NUM_SQUARES]; 2],
    hand: [[u64; 13]; 2],
    side: u64,
    ban: [[u64; MAX_LINES]; 2],
    marked: [u64; NUM_SQUARES],
    spent: [[u64; NUM_SQUARES]; 2],
    shuttle: [[u64; NUM_SQUARES]; 2],
}

const ZOBRIST: Zobrist = {
    let mut s = 0x6d6f_7272_6973u64;
    let mut z = Zobrist {
        piece: [[0; NUM_SQUARES]; 2],
        hand: [[0; 13]; 2],
        side: 0,
        ban: [[0; MAX_LINES]; 2],
        marked: [0; NUM_SQUARES],
        spent: [[0; NUM_SQUARES]; 2],
        shuttle: [[0; NUM_SQUARES]; 2],
    };
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < NUM_SQUARES {
            z.piece[c][i] = splitmix64(&mut s);
            i += 1;
        }
        // Hand count 0 hashes to 0 so an empty hand costs nothing.
        let mut h = 1;
        while h < 13 {
            z.hand[c][h] = splitmix64(&mut s);
            h += 1;
        }
        let mut l = 0;
        while l < MAX_LINES {
            z.ban[c][l] = splitmix64(&mut s);
            l += 1;
        }
        c += 1;
    }
    z.side = splitmix64(&mut s);
    let mut i = 0;
    while i < NUM_SQUARES {
        z.marked[i] = splitmix64(&mut s);
        z.spent[0][i] = splitmix64(&mut s);
        z.spent[1][i] = splitmix64(&mut s);
        z.shuttle[0][i] = splitmix64(&mut s);
        z.shuttle[1][i] = splitmix64(&mut s);
        i += 1;
    }
    z
};

impl Position {
    /// The start position of `rules`.
    pub fn start(rules: &Rules) -> Position {
        Position::new(
            [Bitboard::EMPTY; 2],
            [rules.pieces; 2],
            rules.first_player,
            0,
            1,
            [0; 2],
        )
    }

    /// A position from its parts (the caller has validated them).
    pub fn new(
        pieces: [Bitboard; 2],
        hand: [u8; 2],
        side: Color,
        clock: u16,
        fullmove: u32,
        bans: [u32; 2],
    ) -> Position {
        let mut pos = Position {
            pieces,
            hand,
            side,
            clock,
            fullmove,
            bans,
            key: 0,
            state_key: 0,
            marked: Bitboard::EMPTY,
            spent: [Bitboard::EMPTY; 2],
            shuttle: [None; 2],
            owed: Owed {
                count: 0,
                own: false,
                adjacent: false,
                then_same: false,
                queued: 0,
                queued_own: false,
                queued_adjacent: false,
            },
            end: None,
        };
        pos.key = pos.compute_key();
        pos
    }

    /// This position with the rule-set state of docs/rules.md Part II (a position
    /// string's extension fields; the caller has validated them).
    pub fn with_rule_set_state(
        mut self,
        marked: Bitboard,
        spent: [Bitboard; 2],
        shuttle: [Option<(Square, Square)>; 2],
        owed: Owed,
        end: Option<Outcome>,
    ) -> Position {
        self.marked = marked;
        self.spent = spent;
        self.shuttle = shuttle;
        self.owed = owed;
        self.end = end;
        self.rekey();
        self
    }

    /// Recomputes both keys from scratch.
    pub(super) fn rekey(&mut self) {
        self.key = self.compute_key();
        self.state_key = self.compute_state_key();
    }

    /// Marked points (`PlacingMill mark`): neither empty nor anyone's.
    #[inline]
    pub fn marked(&self) -> Bitboard {
        self.marked
    }

    /// Points of `c`'s spent lines (`OneTimeMill`).
    #[inline]
    pub fn spent(&self, c: Color) -> Bitboard {
        self.spent[c.index()]
    }

    /// `c`'s `MillShuttle` memory: the last mill-closing move's ends.
    #[inline]
    pub fn shuttle(&self, c: Color) -> Option<(Square, Square)> {
        self.shuttle[c.index()]
    }

    /// Removals the side to move owes before anything else.
    #[inline]
    pub fn owed(&self) -> Owed {
        self.owed
    }

    /// The end of the game when a rule of docs/rules.md Part II ended it in a turn
    /// (a removal, a full board, a blocked player).
    #[inline]
    pub fn ended(&self) -> Option<Outcome> {
        self.end
    }

    pub(super) fn compute_key(&self) -> u64 {
        let mut key = 0;
        for c in Color::BOTH {
            for sq in self.pieces[c.index()] {
                key ^= ZOBRIST.piece[c.index()][sq.index()];
            }
            key ^= ZOBRIST.hand[c.index()][self.hand[c.index()] as usize];
        }
        if self.side == Color::Black {
            key ^= ZOBRIST.side;
        }
        for sq in self.marked {
            key ^= ZOBRIST.marked[sq.index()];
        }
        key
    }

    fn compute_state_key(&self) -> u64 {
        let mut key = 0;
        for c in 0..2 {
            for sq in self.spent[c] {
                key ^= ZOBRIST.spent[c][sq.index()];
            }
            if let Some((from, to)) = self.shuttle[c] {
                key ^= ZOBRIST.shuttle[c][from.index()]
                    ^ ZOBRIST.shuttle[c][to.index()].rotate_left(17);
            }
        }
        let mut extra = self.owed.packed();
        if let Some(end) = self.end {
            let result = match end.result {
                GameResult::Win(c) => c.index() as u64,
                GameResult::Draw => 2,
            };
            extra |= 1 << 32 | result << 33 | (end.reason.code() as u64) << 40;
        }
        if extra != 0 {
            let mut state = extra;
            key ^= splitmix64(&mut state);
        }
        key
    }

    /// The player whose turn it is.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// `c`'s live pieces on the board (marks are in `marked`).
    #[inline]
    pub fn pieces(&self, c: Color) -> Bitboard {
        self.pieces[c.index()]
    }

    /// Points holding a live piece of either player; marked points are not
    /// included.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.pieces[0] | self.pieces[1]
    }

    /// Points holding neither a live piece nor a mark.
    #[inline]
    pub fn empty(&self) -> Bitboard {
        !(self.occupied() | self.marked)
    }

    /// The pieces `c` has still to place.
    #[inline]
    pub fn in_hand(&self, c: Color) -> u8 {
        self.hand[c.index()]
    }

    /// Pieces still in the game (board plus hand).
    #[inline]
    pub fn material(&self, c: Color) -> u32 {
        self.pieces[c.index()].count() + self.hand[c.index()] as u32
    }

    /// Plies since the last placement or removal.
    #[inline]
    pub fn clock(&self) -> u16 {
        self.clock
    }

    /// The full-move number of the position string: 1 at the start, one
    /// more after each turn Black plays.
    #[inline]
    pub fn fullmove(&self) -> u32 {
        self.fullmove
    }

    /// Lines (bit i = the layout's line i) that `c` may not close on its next move.
    #[inline]
    pub fn bans(&self, c: Color) -> u32 {
        self.bans[c.index()]
    }

    /// Key of board, hands and side to move: equal for repeated positions.
    #[inline]
    pub fn repetition_key(&self) -> u64 {
        self.key
    }

    /// Key of everything that decides the legal moves (for transposition tables).
    #[inline]
    pub fn hash(&self) -> u64 {
        let mut key = self.key ^ self.state_key;
        for c in 0..2 {
            let mut b = self.bans[c];
            while b != 0 {
                key ^= ZOBRIST.ban[c][b.trailing_zeros() as usize];
                b &= b - 1;
            }
        }
        key
    }

    /// Whether `c` moves its pieces to any empty point now.
    #[inline]
    pub fn can_fly(&self, rules: &Rules, c: Color) -> bool {
        match rules.flying {
            Flying::Off => false,
            Flying::Three => {
                self.hand[c.index()] == 0 && self.pieces[c.index()].count() <= rules.fly_at as u32
            }
            Flying::Both => {
                self.hand == [0, 0]
                    && (self.pieces[0].count() <= rules.fly_at as u32
                        || self.pieces[1].count() <= rules.fly_at as u32)
            }
        }
    }

    /// The position after `mv`, which must be legal here (copy-make).
    #[inline]
    pub fn make(&self, rules: &Rules, mv: Move) -> Position {
        if rules.extended() {
            self.make_turn(rules, mv)
        } else {
            self.make_plain(rules, mv)
        }
    }

    /// `make` under docs/rules.md Part I's options only.
    #[inline]
    pub(super) fn make_plain(&self, rules: &Rules, mv: Move) -> Position {
        let mut next = *self;
        let me = self.side.index();
        let opp = 1 - me;
        let to = mv.dest();
        match mv.from() {
            None => {
                next.key ^= ZOBRIST.hand[me][next.hand[me] as usize]
                    ^ ZOBRIST.hand[me][next.hand[me] as usize - 1];
                next.hand[me] -= 1;
                next.pieces[me] |= to.bit();
                next.clock = 0;
            }
            Some(from) => {
                next.pieces[me] ^= from.bit() | to.bit();
                next.key ^= ZOBRIST.piece[me][from.index()];
                next.clock = next.clock.saturating_add(1);
            }
        }
        next.key ^= ZOBRIST.piece[me][to.index()];
        if rules.mill_reform {
            next.bans[me] = self.broken_lines(rules, mv, next.pieces[me]);
        }
        for r in mv.removals() {
            next.pieces[opp] ^= r.bit();
            next.key ^= ZOBRIST.piece[opp][r.index()];
            next.clock = 0;
        }
        next.side = !self.side;
        next.key ^= ZOBRIST.side;
        if self.side == Color::Black {
            next.fullmove += 1;
        }
        next
    }

    /// The lines `mv` breaks while forming a mill (the `MillReform` ban it sets).
    fn broken_lines(&self, rules: &Rules, mv: Move, after: Bitboard) -> u32 {
        let Some(from) = mv.from() else { return 0 };
        let layout = rules.layout();
        if layout.mills_at(after, mv.dest()) == 0 {
            return 0;
        }
        let before = self.pieces[self.side.index()];
        layout
            .lines_through(from)
            .filter(|&(_, line)| before & line == line)
            .fold(0, |acc, (i, _)| acc | 1 << i)
    }

    /// The position with the other side to move and nothing else changed
    /// (for null-move search).
    #[inline]
    pub fn pass(&self) -> Position {
        let mut next = *self;
        next.side = !self.side;
        next.key ^= ZOBRIST.side;
        next
    }

    /// Where `sq` is: the colour of the piece on it, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Color> {
        Color::BOTH
            .into_iter()
            .find(|c| self.pieces[c.index()].contains(sq))
    }
}
