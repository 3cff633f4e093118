//! A deliberately naive implementation of the rules, written from
//! docs/rules.md Part I alone (not from crates/rules/src/movegen.rs), to check the fast
//! core against: 24 cells in an array, point names, the lines written out
//! as name triples, adjacency derived from the lines, plain loops and
//! strings. Speed does not matter here; being obviously right does.

use morris::rules::{
    Blocked, BoardFull, Color, EndReason, Flying, GameResult, MillRemoval, Outcome, Rules,
};

/// The 24 points (any fixed order will do; moves are compared as text).
pub const NAMES: [&str; 24] = [
    "a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5", "a4", "b4", "c4", "e4", "f4", "g4", "c3",
    "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1",
];

/// The 16 mills of the plain board, as docs/rules.md 3.3 lists them: the sides of
/// the three squares and the four cross lines. Each triple is written in
/// path order, so its middle point touches both ends.
pub const PLAIN_LINES: [[&str; 3]; 16] = [
    // outer square
    ["a7", "d7", "g7"],
    ["g7", "g4", "g1"],
    ["a1", "d1", "g1"],
    ["a7", "a4", "a1"],
    // middle square
    ["b6", "d6", "f6"],
    ["f6", "f4", "f2"],
    ["b2", "d2", "f2"],
    ["b6", "b4", "b2"],
    // inner square
    ["c5", "d5", "e5"],
    ["e5", "e4", "e3"],
    ["c3", "d3", "e3"],
    ["c5", "c4", "c3"],
    // cross lines
    ["d1", "d2", "d3"],
    ["d5", "d6", "d7"],
    ["a4", "b4", "c4"],
    ["e4", "f4", "g4"],
];

/// The four diagonals (`Diagonals` on).
pub const DIAGONAL_LINES: [[&str; 3]; 4] = [
    ["a1", "b2", "c3"],
    ["g1", "f2", "e3"],
    ["a7", "b6", "c5"],
    ["g7", "f6", "e5"],
];

/// The FEN's ranks, 7 down to 1, each left to right.
pub const RANKS: [&[&str]; 7] = [
    &["a7", "d7", "g7"],
    &["b6", "d6", "f6"],
    &["c5", "d5", "e5"],
    &["a4", "b4", "c4", "e4", "f4", "g4"],
    &["c3", "d3", "e3"],
    &["b2", "d2", "f2"],
    &["a1", "d1", "g1"],
];

pub fn index_of(name: &str) -> usize {
    NAMES
        .iter()
        .position(|n| n.eq_ignore_ascii_case(name))
        .unwrap_or_else(|| panic!("no point named {name}"))
}

/// Lines (as point indices) and adjacency of one board.
#[derive(Clone, Debug)]
pub struct Geometry {
    pub lines: Vec<[usize; 3]>,
    pub adjacent: Vec<Vec<usize>>,
}

impl Geometry {
    pub fn new(diagonals: bool) -> Geometry {
        let mut named: Vec<[&str; 3]> = PLAIN_LINES.to_vec();
        if diagonals {
            named.extend_from_slice(&DIAGONAL_LINES);
        }
        let lines: Vec<[usize; 3]> = named
            .iter()
            .map(|l| [index_of(l[0]), index_of(l[1]), index_of(l[2])])
            .collect();
        let mut adjacent = vec![Vec::new(); 24];
        for l in &lines {
            // first-middle and middle-last are joined by a drawn segment
            for (a, b) in [(l[0], l[1]), (l[1], l[2])] {
                adjacent[a].push(b);
                adjacent[b].push(a);
            }
        }
        Geometry { lines, adjacent }
    }
}

/// 0 = white, 1 = black.
pub fn color_index(c: Color) -> usize {
    match c {
        Color::White => 0,
        Color::Black => 1,
    }
}

pub fn color_of(i: usize) -> Color {
    if i == 0 { Color::White } else { Color::Black }
}

/// One legal move: base turn plus removals, in the canonical order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NaiveMove {
    pub from: Option<usize>,
    pub to: usize,
    pub removals: Vec<usize>,
    pub text: String,
}

/// A move token from point indices, removals in the given order.
pub fn move_text(from: Option<usize>, to: usize, removals: &[usize]) -> String {
    let mut s = String::new();
    if let Some(f) = from {
        s.push_str(NAMES[f]);
        s.push('-');
    }
    s.push_str(NAMES[to]);
    for &r in removals {
        s.push('x');
        s.push_str(NAMES[r]);
    }
    s
}

/// The whole game state the naive rules need, with the history.
#[derive(Clone, Debug)]
pub struct NaiveGame {
    pub rules: Rules,
    pub geo: Geometry,
    /// None, Some(0) white, Some(1) black.
    pub cells: [Option<usize>; 24],
    pub hand: [u32; 2],
    pub side: usize,
    /// Plies since the last placement or removal.
    pub clock: u32,
    pub fullmove: u32,
    /// Per player, the lines (indices into geo.lines) it may not close on
    /// its next move.
    pub bans: [Vec<usize>; 2],
    /// Board, hands and side of every position so far, start included.
    pub history: Vec<String>,
    /// Whether the last move was a placement (for `BoardFull`).
    pub last_was_placement: bool,
}

impl NaiveGame {
    pub fn new(rules: Rules) -> NaiveGame {
        let mut g = NaiveGame {
            rules,
            geo: Geometry::new(rules.diagonals),
            cells: [None; 24],
            hand: [rules.pieces as u32; 2],
            side: color_index(rules.first_player),
            clock: 0,
            fullmove: 1,
            bans: [Vec::new(), Vec::new()],
            history: Vec::new(),
            last_was_placement: false,
        };
        g.history.push(g.key());
        g
    }

    /// A set-up position from a FEN string (the naive reader: strict, and
    /// only what the tests write). A set-up position with a full board and
    /// clock 0 counts as "right after the placement that filled it".
    pub fn from_fen(rules: Rules, fen: &str) -> NaiveGame {
        let mut g = NaiveGame::new(rules);
        let fields: Vec<&str> = fen.split_whitespace().collect();
        assert!(fields.len() == 6 || fields.len() == 8, "fen {fen}");
        let ranks: Vec<&str> = fields[0].split('/').collect();
        assert_eq!(ranks.len(), 7);
        for (r, text) in ranks.iter().enumerate() {
            let mut i = 0;
            for ch in text.chars() {
                match ch {
                    'W' => {
                        g.cells[index_of(RANKS[r][i])] = Some(0);
                        i += 1;
                    }
                    'B' => {
                        g.cells[index_of(RANKS[r][i])] = Some(1);
                        i += 1;
                    }
                    d => i += d.to_digit(10).expect("digit") as usize,
                }
            }
            assert_eq!(i, RANKS[r].len(), "rank {r} of {fen}");
        }
        g.side = if fields[1] == "w" { 0 } else { 1 };
        g.hand = [fields[2].parse().unwrap(), fields[3].parse().unwrap()];
        g.clock = fields[4].parse().unwrap();
        g.fullmove = fields[5].parse().unwrap();
        if fields.len() == 8 {
            for c in 0..2 {
                if fields[6 + c] == "-" {
                    continue;
                }
                for l in fields[6 + c].split(',') {
                    let pts = [index_of(&l[0..2]), index_of(&l[2..4]), index_of(&l[4..6])];
                    let i = g.line_with(pts).expect("a line");
                    if !g.bans[c].contains(&i) {
                        g.bans[c].push(i);
                    }
                }
            }
        }
        g.last_was_placement = g.clock == 0;
        g.history = vec![g.key()];
        g
    }

    fn line_with(&self, pts: [usize; 3]) -> Option<usize> {
        let mut want = pts;
        want.sort();
        self.geo.lines.iter().position(|l| {
            let mut have = *l;
            have.sort();
            have == want
        })
    }

    /// What repetition compares: board, pieces in hand, side to move.
    pub fn key(&self) -> String {
        let mut s = String::new();
        for c in self.cells {
            s.push(match c {
                None => '.',
                Some(0) => 'W',
                _ => 'B',
            });
        }
        format!("{s} {} {} {}", self.hand[0], self.hand[1], self.side)
    }

    pub fn on_board(&self, c: usize) -> u32 {
        self.cells.iter().filter(|&&x| x == Some(c)).count() as u32
    }

    /// Pieces still in the game (board plus hand).
    pub fn material(&self, c: usize) -> u32 {
        self.on_board(c) + self.hand[c]
    }

    fn line_complete(cells: &[Option<usize>; 24], line: &[usize; 3], c: usize) -> bool {
        line.iter().all(|&p| cells[p] == Some(c))
    }

    /// Whether the piece on `p` (of colour c) stands in a complete line.
    fn in_mill(&self, cells: &[Option<usize>; 24], p: usize, c: usize) -> bool {
        self.geo
            .lines
            .iter()
            .any(|l| l.contains(&p) && Self::line_complete(cells, l, c))
    }

    /// May `c` move its pieces to any empty point now?
    pub fn can_fly(&self, c: usize) -> bool {
        let fly_at = self.rules.fly_at as u32;
        match self.rules.flying {
            Flying::Off => false,
            Flying::Three => self.hand[c] == 0 && self.on_board(c) <= fly_at,
            Flying::Both => {
                self.hand[0] == 0
                    && self.hand[1] == 0
                    && (self.on_board(0) <= fly_at || self.on_board(1) <= fly_at)
            }
        }
    }

    /// The turns without removals: (from, to).
    fn base_moves(&self) -> Vec<(Option<usize>, usize)> {
        let me = self.side;
        let mut out = Vec::new();
        let empty: Vec<usize> = (0..24).filter(|&p| self.cells[p].is_none()).collect();
        let mine: Vec<usize> = (0..24).filter(|&p| self.cells[p] == Some(me)).collect();
        if self.hand[me] > 0 {
            for &to in &empty {
                out.push((None, to));
            }
            if self.rules.lasker {
                for &from in &mine {
                    for &to in &self.geo.adjacent[from] {
                        if self.cells[to].is_none() {
                            out.push((Some(from), to));
                        }
                    }
                }
            }
        } else if self.can_fly(me) {
            for &from in &mine {
                for &to in &empty {
                    out.push((Some(from), to));
                }
            }
        } else {
            for &from in &mine {
                for &to in &self.geo.adjacent[from] {
                    if self.cells[to].is_none() {
                        out.push((Some(from), to));
                    }
                }
            }
        }
        out
    }

    /// The opponent pieces that may be removed from `cells` now.
    fn removable(&self, cells: &[Option<usize>; 24], opp: usize) -> Vec<usize> {
        let theirs: Vec<usize> = (0..24).filter(|&p| cells[p] == Some(opp)).collect();
        let free: Vec<usize> = theirs
            .iter()
            .copied()
            .filter(|&p| !self.in_mill(cells, p, opp))
            .collect();
        match self.rules.mill_removal {
            MillRemoval::Any => theirs,
            MillRemoval::Never => free,
            MillRemoval::Protected => {
                if free.is_empty() {
                    theirs
                } else {
                    free
                }
            }
        }
    }

    /// Every valid removal sequence (each removal chosen after the previous
    /// one is applied), `left` removals still owed.
    fn sequences(
        &self,
        cells: &mut [Option<usize>; 24],
        opp: usize,
        left: usize,
        prefix: &mut Vec<usize>,
        out: &mut Vec<Vec<usize>>,
    ) {
        let choices = if left == 0 {
            Vec::new()
        } else {
            self.removable(cells, opp)
        };
        if self.rules.may_pass || choices.is_empty() {
            // MayPass: stopping is allowed at any point. Otherwise only
            // when owed nothing more or nothing is removable (lost).
            out.push(prefix.clone());
        }
        for p in choices {
            cells[p] = None;
            prefix.push(p);
            self.sequences(cells, opp, left - 1, prefix, out);
            prefix.pop();
            cells[p] = Some(opp);
        }
    }

    /// Lines through `to` that the pieces of `c` on `cells` complete.
    fn mills_through(&self, cells: &[Option<usize>; 24], to: usize, c: usize) -> Vec<usize> {
        (0..self.geo.lines.len())
            .filter(|&i| {
                self.geo.lines[i].contains(&to) && Self::line_complete(cells, &self.geo.lines[i], c)
            })
            .collect()
    }

    /// Complete lines of `c` through `from` (before a move from there).
    fn lines_broken(&self, from: usize, c: usize) -> Vec<usize> {
        self.mills_through(&self.cells, from, c)
    }

    /// Every valid removal sequence (in any valid order) for the turn
    /// `from`-`to`, or None if that turn is not legal here.
    pub fn removal_orders(&self, from: Option<usize>, to: usize) -> Option<Vec<Vec<usize>>> {
        if !self.base_moves().contains(&(from, to)) {
            return None;
        }
        self.orders_for(from, to)
    }

    /// The valid removal sequences of a turn from `base_moves`, or None if
    /// `MillReform` bans it.
    fn orders_for(&self, from: Option<usize>, to: usize) -> Option<Vec<Vec<usize>>> {
        let me = self.side;
        let mut cells = self.cells;
        if let Some(f) = from {
            cells[f] = None;
        }
        cells[to] = Some(me);
        let formed = self.mills_through(&cells, to, me);
        if formed.iter().any(|l| self.bans[me].contains(l)) {
            return None;
        }
        let owed = if formed.is_empty() {
            0
        } else if self.rules.remove_per_mill {
            formed.len()
        } else {
            1
        };
        let mut seqs = Vec::new();
        self.sequences(&mut cells, 1 - me, owed, &mut Vec::new(), &mut seqs);
        Some(seqs)
    }

    /// How many turns `MillReform` bans here (for coverage statistics).
    pub fn banned_turns(&self) -> usize {
        self.base_moves()
            .into_iter()
            .filter(|&(f, t)| self.orders_for(f, t).is_none())
            .count()
    }

    /// Every legal move, one per distinct move, sorted by text.
    pub fn legal_moves(&self) -> Vec<NaiveMove> {
        let mut result: Vec<NaiveMove> = Vec::new();
        for (from, to) in self.base_moves() {
            let Some(seqs) = self.orders_for(from, to) else {
                continue; // MillReform: closes a line broken last turn
            };
            // One move per set of removed points, written in the smallest
            // valid order (names compared as text).
            let mut best: Vec<(Vec<usize>, Vec<&str>)> = Vec::new();
            for seq in seqs {
                let mut set = seq.clone();
                set.sort();
                let names: Vec<&str> = seq.iter().map(|&p| NAMES[p]).collect();
                match best.iter_mut().find(|(s, _)| *s == set) {
                    Some(entry) => {
                        if names < entry.1 {
                            entry.1 = names;
                        }
                    }
                    None => best.push((set, names)),
                }
            }
            for (_, names) in best {
                let removals: Vec<usize> = names.iter().map(|n| index_of(n)).collect();
                let text = move_text(from, to, &removals);
                result.push(NaiveMove {
                    from,
                    to,
                    removals,
                    text,
                });
            }
        }
        result.sort_by(|a, b| a.text.cmp(&b.text));
        result
    }

    pub fn legal_texts(&self) -> Vec<String> {
        self.legal_moves().into_iter().map(|m| m.text).collect()
    }

    /// Plays a move (assumed legal).
    pub fn play(&mut self, mv: &NaiveMove) {
        let me = self.side;
        let opp = 1 - me;
        let broken = match mv.from {
            Some(f) => self.lines_broken(f, me),
            None => Vec::new(),
        };
        match mv.from {
            Some(f) => {
                self.cells[f] = None;
                self.clock += 1;
                self.last_was_placement = false;
            }
            None => {
                self.hand[me] -= 1;
                self.clock = 0;
                self.last_was_placement = true;
            }
        }
        self.cells[mv.to] = Some(me);
        let formed = self.mills_through(&self.cells, mv.to, me);
        if self.rules.mill_reform {
            self.bans[me] = if formed.is_empty() {
                Vec::new()
            } else {
                broken
            };
        }
        for &r in &mv.removals {
            assert_eq!(self.cells[r], Some(opp));
            self.cells[r] = None;
            self.clock = 0;
        }
        if me == 1 {
            self.fullmove += 1;
        }
        self.side = opp;
        self.history.push(self.key());
    }

    /// Plays the legal move with this canonical text; panics if none.
    pub fn play_text(&mut self, text: &str) {
        let mv = self
            .legal_moves()
            .into_iter()
            .find(|m| m.text == text)
            .unwrap_or_else(|| panic!("naive: {text} is not legal in {}", self.fen()));
        self.play(&mv);
    }

    /// The end of the game before the side to move plays (docs/rules.md
    /// 8.8), by the first rule that applies.
    pub fn outcome(&self) -> Option<Outcome> {
        let me = self.side;
        let lose = |c: usize, reason| {
            Some(Outcome {
                result: GameResult::Win(color_of(1 - c)),
                reason,
            })
        };
        let draw = |reason| {
            Some(Outcome {
                result: GameResult::Draw,
                reason,
            })
        };
        for c in [me, 1 - me] {
            if self.material(c) < 3 {
                return lose(c, EndReason::FewerPieces(3));
            }
        }
        if self.cells.iter().all(|c| c.is_some()) && self.last_was_placement {
            return match self.rules.board_full {
                BoardFull::Draw => draw(EndReason::BoardFull),
                BoardFull::Loss => lose(me, EndReason::BoardFull),
                // docs/rules.md Part II values: not played by this Part I reference.
                BoardFull::FirstLoses
                | BoardFull::RemoveFirst
                | BoardFull::RemoveSecond
                | BoardFull::RemoveOne => draw(EndReason::BoardFull),
            };
        }
        if self.legal_moves().is_empty() {
            return match self.rules.blocked {
                Blocked::Loss => lose(me, EndReason::Blocked),
                Blocked::Draw => draw(EndReason::Blocked),
                // docs/rules.md Part II values: not played by this Part I reference.
                Blocked::Pass | Blocked::RemoveMove | Blocked::RemovePass | Blocked::BothRemove => {
                    draw(EndReason::Blocked)
                }
            };
        }
        let now = self.key();
        if self.rules.repetition && self.history.iter().filter(|k| **k == now).count() >= 3 {
            return draw(EndReason::Repetition);
        }
        let three_each = self.material(0) == 3 && self.material(1) == 3;
        let em = self.rules.endgame_moves as u32;
        if three_each && em > 0 && self.clock >= em {
            return draw(EndReason::EndgameMoves);
        }
        let nc = self.rules.no_capture_moves as u32;
        if nc > 0 && self.clock >= nc {
            return draw(EndReason::NoCaptureMoves);
        }
        None
    }

    /// Leaves `depth` plies deep (docs/rules.md 9): only a player under 3
    /// pieces or without a legal move ends a branch.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        if self.material(0) < 3 || self.material(1) < 3 {
            return 0;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut total = 0;
        for mv in &moves {
            let mut next = self.clone();
            next.history.clear(); // not needed by perft
            next.play(mv);
            total += next.perft(depth - 1);
        }
        total
    }

    /// The position as a FEN string, ban lines written as sorted names and
    /// sorted among themselves (ban fields only when a ban is in force).
    pub fn fen(&self) -> String {
        let mut out = String::new();
        for (r, names) in RANKS.iter().enumerate() {
            if r > 0 {
                out.push('/');
            }
            let mut run = 0;
            for n in names.iter() {
                match self.cells[index_of(n)] {
                    None => run += 1,
                    Some(c) => {
                        if run > 0 {
                            out.push_str(&run.to_string());
                            run = 0;
                        }
                        out.push(if c == 0 { 'W' } else { 'B' });
                    }
                }
            }
            if run > 0 {
                out.push_str(&run.to_string());
            }
        }
        out.push_str(&format!(
            " {} {} {} {} {}",
            if self.side == 0 { 'w' } else { 'b' },
            self.hand[0],
            self.hand[1],
            self.clock,
            self.fullmove
        ));
        if !self.bans[0].is_empty() || !self.bans[1].is_empty() {
            for c in 0..2 {
                out.push(' ');
                out.push_str(&self.ban_text(c));
            }
        }
        out
    }

    pub fn ban_text(&self, c: usize) -> String {
        if self.bans[c].is_empty() {
            return "-".to_string();
        }
        let mut lines: Vec<String> = self.bans[c]
            .iter()
            .map(|&i| {
                let mut names: Vec<&str> = self.geo.lines[i].iter().map(|&p| NAMES[p]).collect();
                names.sort();
                names.concat()
            })
            .collect();
        lines.sort();
        lines.join(",")
    }
}

/// A FEN with its ban fields normalised like `NaiveGame::fen` writes them
/// (points of each line sorted, lines sorted), to compare two writers that
/// may order lines differently.
pub fn normalise_fen(fen: &str) -> String {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let mut out: Vec<String> = fields[..6.min(fields.len())]
        .iter()
        .map(|s| s.to_string())
        .collect();
    for f in fields.iter().skip(6) {
        if *f == "-" {
            out.push("-".to_string());
            continue;
        }
        let mut lines: Vec<String> = f
            .split(',')
            .map(|l| {
                let mut names = [&l[0..2], &l[2..4], &l[4..6]];
                names.sort();
                names.concat()
            })
            .collect();
        lines.sort();
        out.push(lines.join(","));
    }
    out.join(" ")
}
