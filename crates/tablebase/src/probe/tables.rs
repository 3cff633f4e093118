//! Probing: the value of a position (movement or placement phase) and of
//! each move.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::error::{Faults, TableFault, TableProblem};
use crate::fingerprint::{Fingerprint, PlacementFingerprint};
use crate::format::compact::{CompactFile, Kind, compact_path};
use crate::format::file::{TableFile, table_path};
use crate::format::index::Indexer;
use crate::probe::clock::{at_clock_zero, with_clock};
use crate::sector::{Sector, Subspace, sector_position};
use crate::value::{Probe, Value};
use morris_rules::Blocked;
use morris_rules::{Bitboard, Color, GameResult, Move, MoveList, Position, RuleOptions, Rules};

/// One sector's table, mapped, with its index.
pub(crate) struct SubspaceTable {
    pub(crate) file: TableFile,
    pub(crate) index: Indexer,
}

/// One sector's compact table (its loss plane), mapped, with its index.
pub(crate) struct CompactTable {
    pub(crate) file: CompactFile,
    pub(crate) index: Indexer,
}

/// The tablebases of one rule set, loaded lazily from a folder.
pub struct Tablebases {
    /// The folder of these rules' tables.
    dir: PathBuf,
    fingerprint: String,
    /// The caller's rules with `MillReform` off, as the tables assume.
    rules: Rules,
    /// By stones of the side to move and of the other side (3..=12).
    tables: Vec<Slot>,
    /// The compact tables, for the sectors with no full table.
    compact: Vec<CompactSlot>,
    /// Whether compact tables are read (not by the generator, which needs
    /// the full tables' values as they are stored).
    read_compact: bool,
    /// The folder of these rules' placement tables (inside `dir`).
    placement_dir: PathBuf,
    placement_fingerprint: String,
    /// By stones on the board and in hand of each side (`placement_slot`),
    /// made on the first placement probe.
    placement: OnceLock<Box<[Slot]>>,
    compact_placement: OnceLock<Box<[CompactSlot]>>,
    /// Whether the placement tables hold under these rules.
    placement_covered: bool,
    /// Where tables found unusable are reported.
    faults: Arc<Faults>,
    /// Whether the tables hold under these rules (`covers`); if not,
    /// nothing is probed.
    covered: bool,
    /// Whether tables are copied into memory when opened
    /// (`TableFile::resident`) rather than read through the page cache.
    resident: bool,
}

/// A legal move and what it leads to, for the side making it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveProbe {
    /// The move, its removals included.
    pub mv: Move,
    /// The result of playing it; plies count this move.
    pub probe: Probe,
}

const SIDE: usize = 13;

/// A table slot of `Tablebases`, opened on first use.
type Slot = OnceLock<Option<Arc<SubspaceTable>>>;
type CompactSlot = OnceLock<Option<Arc<CompactTable>>>;

/// A slot for `Tablebases::refreshed`: the table if it is open, else to
/// be looked for again.
fn kept<T>(slot: &OnceLock<Option<Arc<T>>>) -> OnceLock<Option<Arc<T>>> {
    match slot.get() {
        Some(Some(table)) => OnceLock::from(Some(Arc::clone(table))),
        Some(None) | None => OnceLock::new(),
    }
}

/// The slots of every sector a placement array has room for.
fn placement_slots<T>() -> Box<[OnceLock<T>]> {
    (0..SIDE * SIDE * SIDE * SIDE)
        .map(|_| OnceLock::new())
        .collect()
}

/// The code of a win or loss read from a compact table (no distance).
const fn no_distance(value: Value) -> u16 {
    match value {
        Value::Win => 2 * Probe::NO_DISTANCE + 1,
        Value::Loss => 2 * Probe::NO_DISTANCE + 2,
        Value::Draw => 0,
    }
}

/// The place of a placement sector in `Tablebases::placement`.
fn placement_slot(s: Sector) -> Option<usize> {
    let counts = [s.mine, s.theirs, s.mine_hand, s.theirs_hand];
    if counts.iter().any(|&c| c as usize >= SIDE) {
        return None;
    }
    Some(counts.iter().fold(0, |i, &c| i * SIDE + c as usize))
}

/// The placement sector of a position with stones in hand and the stone
/// sets of the side to move and of the other side; `None` for a position
/// no placement table holds (marks, bans, removals owed, a game over).
pub(super) fn placement_sector(pos: &Position) -> Option<(Sector, u32, u32)> {
    let me = pos.side_to_move();
    let plain = Color::BOTH
        .iter()
        .all(|&c| pos.bans(c) == 0 && pos.spent(c).is_empty() && pos.shuttle(c).is_none())
        && pos.marked().is_empty()
        && pos.owed().count == 0
        && pos.ended().is_none()
        && pos.in_hand(me) + pos.in_hand(!me) > 0;
    if !plain {
        return None;
    }
    let (mine, theirs) = (pos.pieces(me), pos.pieces(!me));
    let sector = Sector::with_hands(
        mine.count() as u8,
        theirs.count() as u8,
        pos.in_hand(me),
        pos.in_hand(!me),
    );
    Some((sector, mine.0, theirs.0))
}

impl Tablebases {
    /// The tables for `rules` under the root folder `root` (see
    /// `default_dir`). Nothing is read until a probe needs it; the tables
    /// are read through the page cache, so that memory is given back to
    /// the system however many of them a game or a check touches.
    pub fn open(root: impl AsRef<Path>, rules: &Rules) -> Tablebases {
        Tablebases::open_reporting(root, rules, Arc::default())
    }

    /// Like `open`, each table copied into memory when first used: for the
    /// generator, which reads the tables below at random hundreds of
    /// millions of times and drops them after each step.
    pub(crate) fn open_resident(root: impl AsRef<Path>, rules: &Rules) -> Tablebases {
        Tablebases {
            resident: true,
            read_compact: false,
            ..Tablebases::open(root, rules)
        }
    }

    /// Like `open`, reporting tables found unusable to `faults`.
    pub(crate) fn open_reporting(
        root: impl AsRef<Path>,
        rules: &Rules,
        faults: Arc<Faults>,
    ) -> Tablebases {
        let fp = Fingerprint::of(rules);
        let pfp = PlacementFingerprint::of(rules);
        let dir = root.as_ref().join(fp.dir_name());
        Tablebases {
            placement_dir: dir.join(pfp.dir_name()),
            placement_fingerprint: pfp.text(),
            placement: OnceLock::new(),
            compact_placement: OnceLock::new(),
            placement_covered: crate::fingerprint::placement_covers(rules).is_ok(),
            dir,
            fingerprint: fp.text(),
            rules: Rules::new(RuleOptions {
                mill_reform: false,
                ..**rules
            }),
            tables: (0..SIDE * SIDE).map(|_| OnceLock::new()).collect(),
            compact: (0..SIDE * SIDE).map(|_| OnceLock::new()).collect(),
            read_compact: true,
            faults,
            covered: crate::fingerprint::covers(rules).is_ok(),
            resident: false,
        }
    }

    /// The same tables, seeing the files written since: the tables already
    /// mapped are kept, missing and unusable ones are looked for again.
    pub(crate) fn refreshed(&self) -> Tablebases {
        Tablebases {
            dir: self.dir.clone(),
            fingerprint: self.fingerprint.clone(),
            placement_dir: self.placement_dir.clone(),
            placement_fingerprint: self.placement_fingerprint.clone(),
            placement: match self.placement.get() {
                Some(slots) => OnceLock::from(slots.iter().map(kept).collect::<Box<[Slot]>>()),
                None => OnceLock::new(),
            },
            compact_placement: match self.compact_placement.get() {
                Some(slots) => OnceLock::from(slots.iter().map(kept).collect::<Box<[_]>>()),
                None => OnceLock::new(),
            },
            compact: self.compact.iter().map(kept).collect(),
            read_compact: self.read_compact,
            placement_covered: self.placement_covered,
            rules: self.rules,
            tables: self.tables.iter().map(kept).collect(),
            covered: self.covered,
            faults: Arc::clone(&self.faults),
            resident: self.resident,
        }
    }

    /// The tables found unusable and not reported yet.
    pub fn take_faults(&self) -> Vec<TableFault> {
        self.faults.take()
    }

    /// Whether these tables give exact values for games under `rules`: the
    /// same rules, and `MillReform` off (the tables know no bans).
    pub fn serves(&self, rules: &Rules) -> bool {
        *rules == self.rules
    }

    /// The folder holding these rules' tables.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The folder holding these rules' placement tables.
    pub fn placement_dir(&self) -> &Path {
        &self.placement_dir
    }

    /// Whether sector `sub`'s table (full or compact) is there and usable
    /// (opening it now).
    pub fn usable(&self, sub: Sector) -> bool {
        self.table(sub).is_some() || self.compact(sub).is_some()
    }

    /// The slot of sector `sub` among `movement` or `placement`, with the
    /// folder and the fingerprint of its table.
    fn slot_of<'a, T>(
        &'a self,
        sub: Sector,
        movement: &'a [OnceLock<T>],
        placement: &'a OnceLock<Box<[OnceLock<T>]>>,
    ) -> Option<(&'a OnceLock<T>, &'a Path, &'a str)> {
        if sub.placing() {
            let slot = &placement.get_or_init(placement_slots)[placement_slot(sub)?];
            Some((slot, &self.placement_dir, &self.placement_fingerprint))
        } else {
            let (m, t) = (sub.mine as usize, sub.theirs as usize);
            if !(3..SIDE).contains(&m) || !(3..SIDE).contains(&t) {
                return None;
            }
            Some((&movement[m * SIDE + t], &self.dir, &self.fingerprint))
        }
    }

    /// Opens a table with `open`, once (its path made only then: this is
    /// on every probe's way); a table that fails is reported.
    fn opened<'a, T>(
        &self,
        slot: &'a OnceLock<Option<Arc<T>>>,
        path: impl FnOnce() -> PathBuf,
        open: impl FnOnce(&Path) -> Result<T, crate::error::TablebaseError>,
    ) -> Option<&'a T> {
        slot.get_or_init(|| {
            let path = path();
            if !path.exists() {
                return None;
            }
            match open(&path) {
                Ok(table) => Some(Arc::new(table)),
                Err(e) => {
                    log::warn!("tablebase {e}");
                    if let Some(fault) = TableFault::of(&e) {
                        self.faults.report(fault);
                    }
                    None
                }
            }
        })
        .as_deref()
    }

    /// A sector's table, mapped and checked on first use; `None` if it is
    /// missing or unusable (then reported to the faults).
    pub(crate) fn table(&self, sub: Sector) -> Option<&SubspaceTable> {
        let (slot, dir, fingerprint) = self.slot_of(sub, &self.tables, &self.placement)?;
        self.opened(
            slot,
            || table_path(dir, sub),
            |path| {
                let file = TableFile::open(path, sub, fingerprint)?;
                Ok(SubspaceTable {
                    file: if self.resident { file.resident() } else { file },
                    index: Indexer::new(sub.mine as usize, sub.theirs as usize),
                })
            },
        )
    }

    /// A sector's compact table, as `table`.
    pub(crate) fn compact(&self, sub: Sector) -> Option<&CompactTable> {
        if !self.read_compact {
            return None;
        }
        let (slot, dir, fingerprint) = self.slot_of(sub, &self.compact, &self.compact_placement)?;
        self.opened(
            slot,
            || compact_path(dir, sub),
            |path| {
                Ok(CompactTable {
                    file: CompactFile::open(path, sub, fingerprint)?,
                    index: Indexer::new(sub.mine as usize, sub.theirs as usize),
                })
            },
        )
    }

    /// The fingerprint text of sector `sub`'s tables.
    pub(crate) fn fingerprint_of(&self, sub: Sector) -> &str {
        if sub.placing() {
            &self.placement_fingerprint
        } else {
            &self.fingerprint
        }
    }

    /// The folder of a sector's tables.
    fn dir_of(&self, sub: Sector) -> &Path {
        if sub.placing() {
            &self.placement_dir
        } else {
            &self.dir
        }
    }

    /// The path of a sector's table.
    pub fn table_path(&self, sub: Sector) -> PathBuf {
        table_path(self.dir_of(sub), sub)
    }

    /// The path of a sector's compact table.
    pub fn compact_path(&self, sub: Sector) -> PathBuf {
        compact_path(self.dir_of(sub), sub)
    }

    /// The sectors whose tables are on disk (not checked): the movement
    /// subspaces, then the placement sectors.
    pub fn available(&self) -> Vec<Sector> {
        self.listed("mtb")
    }

    /// The sectors whose full or compact tables are on disk (not
    /// checked), in the order of `available`.
    pub fn on_disk(&self) -> Vec<Sector> {
        let mut subs = self.listed("mtb");
        subs.extend(self.listed("mtc"));
        subs.sort_by_key(|s| match s.placing() {
            true => (1, s.mine_hand + s.theirs_hand, s.mine + s.theirs, *s),
            false => (0, 0, 0, *s),
        });
        subs.dedup();
        subs
    }

    /// The sectors with a file of extension `ext` on disk: the movement
    /// subspaces, then the placement sectors, fewest stones in hand first.
    fn listed(&self, ext: &str) -> Vec<Sector> {
        let mut subs = Vec::new();
        for m in 3..SIDE as u8 {
            for t in 3..SIDE as u8 {
                let s = Subspace::new(m, t);
                if self.dir.join(format!("{s}.{ext}")).exists() {
                    subs.push(s);
                }
            }
        }
        let mut placing: Vec<Sector> = std::fs::read_dir(&self.placement_dir)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|e| {
                let name = e.file_name();
                let stem = name.to_str()?.strip_suffix(ext)?.strip_suffix('.')?;
                Sector::parse(stem).ok().filter(|s| s.placing())
            })
            .collect();
        placing.sort_by_key(|s| (s.mine_hand + s.theirs_hand, s.mine + s.theirs, *s));
        subs.extend(placing);
        subs
    }

    /// The stored code of `mine` to move against `theirs` in `sub`.
    #[inline]
    pub fn code(&self, sub: Sector, mine: u32, theirs: u32) -> Option<u16> {
        let Some(table) = self.table(sub) else {
            return self.compact_code(sub, mine, theirs);
        };
        let code = table.file.code(table.index.index(mine, theirs));
        if code.is_none() && table.file.first_damage() {
            self.damaged(self.table_path(sub));
        }
        code
    }

    /// The code of a position from sector `sub`'s compact table: from the
    /// plane it stores, and one ply of its successors' for the rest. A
    /// table with a drawn plane (a movement table under move-count draws)
    /// stores the values its moves without a removal see (`has`), and
    /// gives them unless that plane says drawn.
    fn compact_code(&self, sub: Sector, mine: u32, theirs: u32) -> Option<u16> {
        let c = self.compact(sub)?;
        let slot = c.index.index(mine, theirs);
        let stored = |bit: Option<bool>| {
            if bit.is_none() && c.file.first_damage() {
                self.damaged(self.compact_path(sub));
            }
            bit
        };
        let unbounded = c.file.has_drawn();
        if unbounded && stored(c.file.drawn(slot))? {
            return Some(0);
        }
        match c.file.kind {
            Kind::Losses if stored(c.file.loss(slot))? => Some(no_distance(Value::Loss)),
            Kind::Losses => self.derive(sub, mine, theirs, Value::Win, unbounded),
            Kind::Wins if stored(c.file.win(slot))? => Some(no_distance(Value::Win)),
            Kind::Wins => self.derive(sub, mine, theirs, Value::Loss, unbounded),
            Kind::Both if stored(c.file.loss(slot))? => Some(no_distance(Value::Loss)),
            Kind::Both if stored(c.file.win(slot))? => Some(no_distance(Value::Win)),
            Kind::Both => Some(0),
        }
    }

    /// Whether the side to move has result `value` in `pos` (a win or a
    /// loss), read from its full table or from the plane of that result
    /// in its compact table (`None`: not covered, or no such plane): at
    /// clock 0, or with `unbounded` as the table stores it, the clock not
    /// applied (under move-count draws, the value of a movement position
    /// as the moves that remove nothing see it: the same stones a ply
    /// later in the clock, whose limit the stored distance is measured
    /// against; a full table's stored value, a compact table's planes
    /// without its drawn plane).
    fn has(&self, pos: &Position, value: Value, unbounded: bool) -> Option<bool> {
        let (sub, mine, theirs) = self.locate(pos)?;
        if self.table(sub).is_some() {
            let stored = Probe::from_code(self.code(sub, mine, theirs)?);
            return Some(if unbounded {
                stored.value == value
            } else {
                at_clock_zero(&self.rules, sub, stored).value == value
            });
        }
        let c = self.compact(sub)?;
        let slot = c.index.index(mine, theirs);
        let checked = |bit: Option<bool>, stored: bool| {
            if bit.is_none() && stored && c.file.first_damage() {
                self.damaged(self.compact_path(sub));
            }
            bit
        };
        if !unbounded && checked(c.file.drawn(slot), c.file.has_drawn()) == Some(true) {
            return Some(false);
        }
        match value {
            Value::Loss => checked(c.file.loss(slot), c.file.kind.losses()),
            _ => checked(c.file.win(slot), c.file.kind.wins()),
        }
    }

    /// The value of a position whose compact table stores the other
    /// decided result (`open`: the one it may still have), at clock 0 or
    /// with `unbounded` as stored (`has`): then a move that removes nothing
    /// reads its successor as stored, a removal at clock 0. A win when some
    /// move ends the game for the mover or leads to a position lost for the
    /// opponent; a loss when every move ends it for the opponent or leads
    /// to a position it wins (a blocked mover has lost by the rules,
    /// whatever was stored); else a draw. One ply of the successors'
    /// planes, no deeper: the compressor gives every successor's table the
    /// plane this needs.
    fn derive(
        &self,
        sub: Sector,
        mine: u32,
        theirs: u32,
        open: Value,
        unbounded: bool,
    ) -> Option<u16> {
        let pos = sector_position(sub, mine, theirs);
        let mut list = MoveList::new();
        pos.legal_moves(&self.rules, &mut list);
        if list.is_empty() {
            return Some(match self.rules.blocked {
                Blocked::Loss => no_distance(Value::Loss),
                // The other values are not covered (`covers`).
                _ => 0,
            });
        }
        for &mv in list.iter() {
            let next = pos.make(&self.rules, mv);
            // The successor's value for the opponent, as far as it matters.
            let theirs = match next.outcome_without_history(&self.rules, true) {
                Some(end) => match end.result {
                    GameResult::Win(Color::White) => Value::Loss,
                    GameResult::Win(Color::Black) => Value::Win,
                    GameResult::Draw => Value::Draw,
                },
                None => {
                    let quiet = unbounded && next.occupied().count() == pos.occupied().count();
                    match open {
                        Value::Win if self.has(&next, Value::Loss, quiet)? => Value::Loss,
                        Value::Loss if self.has(&next, Value::Win, quiet)? => Value::Win,
                        _ => Value::Draw,
                    }
                }
            };
            match (open, theirs) {
                (Value::Win, Value::Loss) => return Some(no_distance(Value::Win)),
                (Value::Loss, Value::Win) => {}
                (Value::Loss, _) => return Some(0),
                _ => {}
            }
        }
        Some(match open {
            Value::Loss => no_distance(Value::Loss),
            _ => 0,
        })
    }

    /// Reports a table found damaged while reading it, once.
    #[cold]
    fn damaged(&self, path: PathBuf) {
        self.faults.report(TableFault {
            path,
            problem: TableProblem::Checksum.to_string(),
        });
    }

    /// The stored value, ignoring the move-count draws; `None` outside the
    /// tables (`MillReform` bans, rule-set state, a missing table, a game
    /// already over by material or a full board).
    #[inline]
    pub fn probe_table(&self, pos: &Position) -> Option<Probe> {
        let (sub, mine, theirs) = self.locate(pos)?;
        self.code(sub, mine, theirs).map(Probe::from_code)
    }

    /// The sector of a position and its stone sets (side to move first);
    /// `None` for a position no table of these rules holds.
    #[inline]
    fn locate(&self, pos: &Position) -> Option<(Sector, u32, u32)> {
        let me = pos.side_to_move();
        if pos.in_hand(Color::White) + pos.in_hand(Color::Black) != 0 {
            return placement_sector(pos).filter(|_| self.placement_covered);
        }
        if pos.bans(Color::White) | pos.bans(Color::Black) != 0
            || !self.covered
            || pos.owed().count > 0
            || pos.ended().is_some()
            || (pos.occupied() == Bitboard::FULL && pos.clock() == 0)
        {
            return None;
        }
        let (mine, theirs) = (pos.pieces(me), pos.pieces(!me));
        let sub = Subspace::new(mine.count() as u8, theirs.count() as u8);
        Some((sub, mine.0, theirs.0))
    }

    /// The value under these rules, with `EndgameMoves`/`NoCaptureMoves`
    /// applied from the position's clock. Under those draw limits a
    /// compact table's value is the value at clock 0: exact there (every
    /// placement position, a movement position just after a removal or the
    /// last placement) and wherever it is a draw (a side that cannot win
    /// with the whole limit ahead cannot win with less of it), while its
    /// win or loss at a later clock may be a draw by then: `None`.
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<Probe> {
        let p = self.probe_table(pos)?;
        if p.distance().is_none()
            && p.value != Value::Draw
            && pos.clock() > 0
            && self.rules.move_count_draws()
            && pos.in_hand(Color::White) + pos.in_hand(Color::Black) == 0
        {
            return None;
        }
        Some(with_clock(&self.rules, pos, p))
    }

    /// The value of a position's stones at clock 0 (`at_clock_zero`): all
    /// that compact tables under move-count draws give of a movement
    /// position later in the clock.
    pub fn probe_at_clock_zero(&self, pos: &Position) -> Option<Probe> {
        let (sub, mine, theirs) = self.locate(pos)?;
        let stored = Probe::from_code(self.code(sub, mine, theirs)?);
        Some(at_clock_zero(&self.rules, sub, stored))
    }

    /// Every legal move with its value for the mover (clocks applied);
    /// `None` if some successor is not covered.
    pub fn moves(&self, pos: &Position) -> Option<Vec<MoveProbe>> {
        self.probe_table(pos)?;
        let mut list = MoveList::new();
        pos.legal_moves(&self.rules, &mut list);
        list.iter()
            .map(|&mv| move_value(pos, &self.rules, mv, |next| self.probe(next)))
            .collect()
    }

    /// The value-optimal move: the fastest conversion when winning, a draw
    /// when drawing, the longest resistance when losing. `None` when the
    /// position is not covered or has no legal move.
    pub fn best_move(&self, pos: &Position) -> Option<MoveProbe> {
        let moves = self.moves(pos)?;
        moves.into_iter().max_by_key(|m| preference(m.probe))
    }
}

/// Orders move results for the mover: quick wins, then draws, then slow losses.
pub fn preference(p: Probe) -> (u8, i32) {
    match p.value {
        Value::Win => (2, -(p.plies as i32)),
        Value::Draw => (1, 0),
        Value::Loss => (0, p.plies as i32),
    }
}

/// What a move is worth to its mover, from the value `after` gives the
/// position it leads to (`None` there: not known). A move that ends the
/// game by material or a full board is worth that result at once; plies
/// count the move, and a removal is a conversion (the distance starts
/// again).
pub(crate) fn move_value(
    pos: &Position,
    rules: &Rules,
    mv: Move,
    after: impl Fn(&Position) -> Option<Probe>,
) -> Option<MoveProbe> {
    let next = pos.make(rules, mv);
    let me = pos.side_to_move();
    let probe = match next.outcome_without_history(rules, true) {
        Some(end) => match end.result {
            GameResult::Win(c) => Probe {
                value: if c == me { Value::Win } else { Value::Loss },
                plies: 1,
            },
            GameResult::Draw => Probe::DRAW,
        },
        None => {
            let after = after(&next)?;
            let value = match after.value {
                Value::Draw => return Some(MoveProbe { mv, probe: after }),
                Value::Win => Value::Loss,
                Value::Loss => Value::Win,
            };
            let plies = if mv.num_removals() > 0 {
                1
            } else {
                after.plies_before()
            };
            Probe { value, plies }
        }
    };
    Some(MoveProbe { mv, probe })
}
