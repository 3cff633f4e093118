//! Probing: the value of a position (movement or placement phase) and of
//! each move.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::rules::{Bitboard, Color, GameResult, Move, MoveList, Position, RuleOptions, Rules};
use crate::tablebase::error::{Faults, TableFault, TableProblem};
use crate::tablebase::fingerprint::{Fingerprint, PlacementFingerprint};
use crate::tablebase::format::file::{TableFile, table_path};
use crate::tablebase::format::index::Indexer;
use crate::tablebase::sector::{Sector, Subspace};
use crate::tablebase::value::{Probe, Value};

/// One sector's table, mapped, with its index.
pub(crate) struct SubspaceTable {
    pub(crate) file: TableFile,
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
    tables: Vec<OnceLock<Option<Arc<SubspaceTable>>>>,
    /// The folder of these rules' placement tables (inside `dir`).
    placement_dir: PathBuf,
    placement_fingerprint: String,
    /// By stones on the board and in hand of each side (`placement_slot`),
    /// made on the first placement probe.
    placement: OnceLock<Box<[Slot]>>,
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
    pub mv: Move,
    /// The result of playing it; plies count this move.
    pub probe: Probe,
}

const SIDE: usize = 13;

/// A table slot of `Tablebases`, opened on first use.
type Slot = OnceLock<Option<Arc<SubspaceTable>>>;

/// A slot for `Tablebases::refreshed`: the table if it is open, else to
/// be looked for again.
fn kept(slot: &Slot) -> Slot {
    match slot.get() {
        Some(Some(table)) => OnceLock::from(Some(Arc::clone(table))),
        Some(None) | None => OnceLock::new(),
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

/// A win or loss that converts only after a draw limit is a draw.
pub(crate) fn apply_clock(rules: &Rules, probe: Probe, clock: u16, three_each: bool) -> Probe {
    let mut limit = rules.no_capture_moves;
    if three_each && rules.endgame_moves > 0 && (limit == 0 || rules.endgame_moves < limit) {
        limit = rules.endgame_moves;
    }
    if probe.value != Value::Draw
        && probe.plies > 0
        && limit > 0
        && clock as u32 + probe.plies as u32 > limit as u32
    {
        Probe::DRAW
    } else {
        probe
    }
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
    pub fn open_resident(root: impl AsRef<Path>, rules: &Rules) -> Tablebases {
        Tablebases {
            resident: true,
            ..Tablebases::open(root, rules)
        }
    }

    /// Like `open`, reporting tables found unusable to `faults`.
    pub fn open_reporting(
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
            placement_covered: crate::tablebase::fingerprint::placement_covers(rules).is_ok(),
            dir,
            fingerprint: fp.text(),
            rules: Rules::new(RuleOptions {
                mill_reform: false,
                ..**rules
            }),
            tables: (0..SIDE * SIDE).map(|_| OnceLock::new()).collect(),
            faults,
            covered: crate::tablebase::fingerprint::covers(rules).is_ok(),
            resident: false,
        }
    }

    /// The same tables, seeing the files written since: the tables already
    /// mapped are kept, missing and unusable ones are looked for again.
    pub fn refreshed(&self) -> Tablebases {
        Tablebases {
            dir: self.dir.clone(),
            fingerprint: self.fingerprint.clone(),
            placement_dir: self.placement_dir.clone(),
            placement_fingerprint: self.placement_fingerprint.clone(),
            placement: match self.placement.get() {
                Some(slots) => OnceLock::from(slots.iter().map(kept).collect::<Box<[Slot]>>()),
                None => OnceLock::new(),
            },
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

    /// Whether sector `sub`'s table is there and usable (opening it now).
    pub fn usable(&self, sub: Sector) -> bool {
        self.table(sub).is_some()
    }

    /// A sector's table, mapped and checked on first use; `None` if it is
    /// missing or unusable (then reported to the faults).
    pub(crate) fn table(&self, sub: Sector) -> Option<&SubspaceTable> {
        let (m, t) = (sub.mine as usize, sub.theirs as usize);
        let (slot, dir, fingerprint) = if sub.placing() {
            let slots = self.placement.get_or_init(|| {
                (0..SIDE * SIDE * SIDE * SIDE)
                    .map(|_| OnceLock::new())
                    .collect()
            });
            let slot = &slots[placement_slot(sub)?];
            (slot, &self.placement_dir, &self.placement_fingerprint)
        } else {
            if !(3..SIDE).contains(&m) || !(3..SIDE).contains(&t) {
                return None;
            }
            (&self.tables[m * SIDE + t], &self.dir, &self.fingerprint)
        };
        slot.get_or_init(|| {
            let path = table_path(dir, sub);
            if !path.exists() {
                return None;
            }
            match TableFile::open(&path, sub, fingerprint) {
                Ok(file) => Some(Arc::new(SubspaceTable {
                    file: if self.resident { file.resident() } else { file },
                    index: Indexer::new(m, t),
                })),
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

    /// The path of a sector's table.
    pub fn table_path(&self, sub: Sector) -> PathBuf {
        table_path(
            if sub.placing() {
                &self.placement_dir
            } else {
                &self.dir
            },
            sub,
        )
    }

    /// The sectors whose tables are on disk (not checked): the movement
    /// subspaces, then the placement sectors.
    pub fn available(&self) -> Vec<Sector> {
        let mut subs = Vec::new();
        for m in 3..SIDE as u8 {
            for t in 3..SIDE as u8 {
                let s = Subspace::new(m, t);
                if table_path(&self.dir, s).exists() {
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
                let stem = name.to_str()?.strip_suffix(".mtb")?;
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
        let table = self.table(sub)?;
        let code = table.file.code(table.index.index(mine, theirs));
        if code.is_none() {
            self.damaged(sub, table);
        }
        code
    }

    /// Reports a table found damaged while reading it, once.
    #[cold]
    fn damaged(&self, sub: Sector, table: &SubspaceTable) {
        if table.file.first_damage() {
            self.faults.report(TableFault {
                path: self.table_path(sub),
                problem: TableProblem::Checksum.to_string(),
            });
        }
    }

    /// The stored value, ignoring the move-count draws; `None` outside the
    /// tables (`MillReform` bans, rule-set state, a missing table, a game
    /// already over by material or a full board).
    #[inline]
    pub fn probe_table(&self, pos: &Position) -> Option<Probe> {
        let me = pos.side_to_move();
        if pos.in_hand(Color::White) + pos.in_hand(Color::Black) != 0 {
            return self.probe_placement(pos);
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
        self.code(sub, mine.0, theirs.0).map(Probe::from_code)
    }

    /// `probe_table` for a position with stones in hand.
    fn probe_placement(&self, pos: &Position) -> Option<Probe> {
        if !self.placement_covered {
            return None;
        }
        let (sector, mine, theirs) = placement_sector(pos)?;
        self.code(sector, mine, theirs).map(Probe::from_code)
    }

    /// The value under these rules, with `EndgameMoves`/`NoCaptureMoves`
    /// applied from the position's clock.
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<Probe> {
        Some(with_clock(&self.rules, pos, self.probe_table(pos)?))
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

/// A stored value under the move-count draws, from the position's clock,
/// (`Tablebases::probe`, `Book::probe`): while stones are in hand the next
/// placement restarts the clock, so only a limit reached now draws.
pub(crate) fn with_clock(rules: &Rules, pos: &Position, p: Probe) -> Probe {
    if pos.in_hand(Color::White) + pos.in_hand(Color::Black) != 0 {
        return if pos.move_count_draw(rules).is_some() {
            Probe::DRAW
        } else {
            p
        };
    }
    let three_each = Color::BOTH.iter().all(|&c| pos.material(c) == 3);
    apply_clock(rules, p, pos.clock(), three_each)
}
