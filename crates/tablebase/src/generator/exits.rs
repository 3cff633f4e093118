//! Moves that leave the pair being solved: where they lead, the mover's
//! result through them, and the best of several.

use crate::format::codec::ValueLayout;
use crate::probe::clock::at_clock_zero;
use crate::probe::tables::SubspaceTable;
use crate::sector::Sector;
use crate::value::{Probe, Value};
use morris_rules::Rules;

/// The mover's result of a move into a position whose side to move has
/// `child`; `removed`: the move removed a stone (a conversion).
pub(crate) fn through(child: Probe, removed: bool) -> Probe {
    let plies = if removed { 1 } else { child.plies_before() };
    match child.value {
        Value::Draw => Probe::DRAW,
        Value::Win => Probe {
            value: Value::Loss,
            plies,
        },
        Value::Loss => Probe {
            value: Value::Win,
            plies,
        },
    }
}

/// The value a table stores for a position entered by a move that
/// placed or removed (clock 0): under the move-count draws a movement
/// table's win or loss may be a draw there.
///
/// A win/draw/loss-only table's win or loss counts as converting at once:
/// the values solved from it are right, their distances are not, and the
/// run that reads it stores none (`usable`).
pub(crate) fn entered(rules: &Rules, table: &SubspaceTable, slot: u64) -> Option<Probe> {
    Some(on_entry(
        rules,
        table.file.header.subspace,
        table.file.code(slot)?,
    ))
}

/// `entered` for the code stored in a slot of sector `s`'s table.
fn on_entry(rules: &Rules, s: Sector, code: u16) -> Probe {
    let mut stored = Probe::from_code(code);
    if stored.distance().is_none() {
        stored.plies = 0;
    }
    at_clock_zero(rules, s, stored)
}

/// The best of some moves' results, collected one by one.
#[derive(Default)]
pub(crate) struct Exits {
    /// The fastest win.
    pub(crate) win: Option<u16>,
    pub(crate) draw: bool,
    /// The slowest loss.
    pub(crate) loss: Option<u16>,
}

impl Exits {
    pub(crate) fn add(&mut self, p: Probe) {
        match p.value {
            Value::Win => self.win = Some(self.win.map_or(p.plies, |w| w.min(p.plies))),
            Value::Draw => self.draw = true,
            Value::Loss => self.loss = Some(self.loss.map_or(p.plies, |l| l.max(p.plies))),
        }
    }

    /// The best result; `None` without moves.
    pub(crate) fn best(&self) -> Option<Probe> {
        if let Some(plies) = self.win {
            Some(Probe {
                value: Value::Win,
                plies,
            })
        } else if self.draw {
            Some(Probe::DRAW)
        } else {
            self.loss.map(|plies| Probe {
                value: Value::Loss,
                plies,
            })
        }
    }
}

/// `Exits`'s order as a number: the best of some results is the one of
/// greatest rank (0: no result).
pub(crate) fn exit_rank(p: Probe) -> u32 {
    match p.value {
        Value::Win => 3 << 16 | (0xffff - p.plies as u32),
        Value::Draw => 2 << 16,
        Value::Loss => 1 << 16 | p.plies as u32,
    }
}

/// The result of `exit_rank`; `None` for 0.
pub(crate) fn ranked_exit(rank: u32) -> Option<Probe> {
    let plies = (rank & 0xffff) as u16;
    match rank >> 16 {
        0 => None,
        1 => Some(Probe {
            value: Value::Loss,
            plies,
        }),
        2 => Some(Probe::DRAW),
        _ => Some(Probe {
            value: Value::Win,
            plies: 0xffff - plies,
        }),
    }
}

/// A child table of a placement sector that stores one or two bytes a
/// slot, read without decoding: by stored code, the rank (`exit_rank`) of
/// the mover's result of a move into it (`entered`, then `through`). The
/// placement pass reads tens of children a position, and their blocks
/// were all checked before solving (`usable`).
pub(crate) struct Child<'t> {
    data: &'t [u8],
    /// Two bytes a slot (`ValueLayout::Word`), else one.
    wide: bool,
    /// By every `u16` code, so that no read needs a bounds check; the
    /// few codes a table holds stay in cache.
    rank: Box<[u32; 1 << 16]>,
}

impl<'t> Child<'t> {
    /// `None` for a win/draw/loss-only table.
    pub(crate) fn new(rules: &Rules, table: &'t SubspaceTable, removed: bool) -> Option<Child<'t>> {
        let wide = match table.file.header.layout {
            ValueLayout::Byte => false,
            ValueLayout::Word => true,
            ValueLayout::Wdl => return None,
        };
        let s = table.file.header.subspace;
        let mut rank: Box<[u32; 1 << 16]> = vec![0; 1 << 16].try_into().expect("length");
        for (code, r) in rank.iter_mut().enumerate() {
            *r = exit_rank(through(on_entry(rules, s, code as u16), removed));
        }
        Some(Child {
            data: table.file.data(),
            wide,
            rank,
        })
    }

    /// The rank of the result of a move into `slot`.
    #[inline]
    pub(crate) fn read(&self, slot: u64) -> u32 {
        let s = slot as usize;
        let code = if self.wide {
            u16::from_le_bytes([self.data[2 * s], self.data[2 * s + 1]])
        } else {
            self.data[s] as u16
        };
        self.rank[code as usize]
    }
}

/// Where a move leaving the pair leads.
pub(crate) enum Exit<'t> {
    /// The game ends or its value is known without a table: the value for
    /// the side to move there.
    Known(Probe),
    /// A slot of a table solved before.
    Read(&'t SubspaceTable, u64),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results with distances at the edges of what the tables hold.
    fn probes() -> Vec<Probe> {
        let mut all = vec![Probe::DRAW];
        for plies in [0, 1, 2, 3, 7, 100, 255, 1000, Probe::NO_DISTANCE] {
            for value in [Value::Win, Value::Loss] {
                all.push(Probe { value, plies });
            }
        }
        all
    }

    /// The placement pass takes the best of its children by the greatest
    /// `exit_rank`: that must be `Exits`'s best, for every pair of results.
    #[test]
    fn exit_ranks_order_results_as_exits_does() {
        assert_eq!(ranked_exit(0), None);
        for a in probes() {
            assert_eq!(ranked_exit(exit_rank(a)), Some(a));
            for b in probes() {
                let mut exits = Exits::default();
                exits.add(a);
                exits.add(b);
                assert_eq!(
                    ranked_exit(exit_rank(a).max(exit_rank(b))),
                    exits.best(),
                    "{a:?} and {b:?}"
                );
            }
        }
    }
}
