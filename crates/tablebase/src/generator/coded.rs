//! A table's coded planes (`compress`): its loss plane, its win plane,
//! its win plane beside the loss plane, and under move-count draws the
//! drawn plane of a movement table, each a run model and coded blocks,
//! before the kinds of all tables are chosen. `tb generate --compact`
//! keeps them in a file of their own (`.mtp`, `Coded::write`) between
//! solving a table and choosing the kinds, so that the full tables can go
//! as soon as no other table reads them.
//!
//! File: a 256-byte header as the tables' (magic `MORRISP1`: the sector,
//! slots, summary, fingerprint, and the checksum of the rest), the full
//! table's bytes (u64), the number of planes (u64: 3, or 4 with a drawn
//! plane), then for each plane its model (`MODEL_BYTES`), its number of
//! blocks (u64), each block's length (u16) and the blocks' bytes.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::error::{TableProblem, TablebaseError};
use crate::format::atomic::write_parts_atomically;
use crate::format::codec::ValueLayout;
use crate::format::compact::{CodedPlane, Kind};
use crate::format::file::{Header, checksum, file_len, map_file};
use crate::format::runs::{MODEL_BYTES, RunCounts, RunModel, SLOTS};
use crate::format::summary::Summary;
use crate::probe::clock::at_clock_zero;
use crate::probe::tables::SubspaceTable;
use crate::sector::Sector;
use crate::value::{Probe, Value};
use morris_rules::Rules;

const MAGIC: &[u8; 8] = b"MORRISP1";

/// The file name of a sector's coded planes inside its folder.
pub(crate) fn planes_path(dir: &Path, sector: Sector) -> PathBuf {
    dir.join(format!("{sector}.mtp"))
}

/// One plane's model and coded blocks.
pub(crate) struct Plane {
    model: RunModel,
    blocks: Vec<Vec<u8>>,
}

impl Plane {
    fn bytes(&self) -> u64 {
        MODEL_BYTES as u64 + self.blocks.iter().map(|b| b.len() as u64).sum::<u64>()
    }

    pub(crate) fn coded(&self) -> CodedPlane<'_> {
        CodedPlane {
            model: &self.model,
            blocks: &self.blocks,
        }
    }
}

/// One table's coded planes: losses, wins, and wins where losses are
/// stored too (free where the loss plane says loss), and for a movement
/// table under move-count draws the drawn plane.
pub(crate) struct Coded {
    pub(crate) slots: u64,
    /// The full table's bytes on disk, and its totals.
    pub(crate) full_bytes: u64,
    pub(crate) summary: Summary,
    pub(crate) losses: Plane,
    pub(crate) wins: Plane,
    pub(crate) wins_beside: Plane,
    pub(crate) drawn: Option<Plane>,
}

impl Coded {
    pub(crate) fn bytes(&self, kind: Kind) -> u64 {
        let drawn = self.drawn.as_ref().map_or(0, Plane::bytes);
        drawn
            + match kind {
                Kind::Losses => self.losses.bytes(),
                Kind::Wins => self.wins.bytes(),
                Kind::Both => self.losses.bytes() + self.wins_beside.bytes(),
            }
    }

    /// The bytes of each kind, in `Kind::ALL`'s order.
    pub(crate) fn kind_bytes(&self) -> [u64; 3] {
        Kind::ALL.map(|k| self.bytes(k))
    }

    /// The planes a table of `kind` stores: losses, wins, drawn.
    pub(crate) fn planes(
        &self,
        kind: Kind,
    ) -> (
        Option<CodedPlane<'_>>,
        Option<CodedPlane<'_>>,
        Option<CodedPlane<'_>>,
    ) {
        let (losses, wins) = match kind {
            Kind::Losses => (Some(self.losses.coded()), None),
            Kind::Wins => (None, Some(self.wins.coded())),
            Kind::Both => (Some(self.losses.coded()), Some(self.wins_beside.coded())),
        };
        (losses, wins, self.drawn.as_ref().map(Plane::coded))
    }

    /// Writes the planes of sector `sector` (fingerprint `fingerprint`)
    /// atomically to `path`.
    pub(crate) fn write(
        &self,
        path: &Path,
        sector: Sector,
        fingerprint: &str,
    ) -> Result<(), TablebaseError> {
        let planes: Vec<&Plane> = [&self.losses, &self.wins, &self.wins_beside]
            .into_iter()
            .chain(self.drawn.as_ref())
            .collect();
        let mut body = Vec::new();
        body.extend(self.full_bytes.to_le_bytes());
        body.extend((planes.len() as u64).to_le_bytes());
        for plane in &planes {
            body.extend(plane.model.to_bytes());
            body.extend((plane.blocks.len() as u64).to_le_bytes());
            for b in &plane.blocks {
                body.extend((b.len() as u16).to_le_bytes());
            }
        }
        let header = Header {
            subspace: sector,
            layout: ValueLayout::Wdl,
            slots: self.slots,
            checksum: 0,
            summary: self.summary,
            fingerprint: fingerprint.into(),
        };
        let mut parts: Vec<&[u8]> = vec![&body];
        parts.extend(
            planes
                .iter()
                .flat_map(|p| p.blocks.iter().map(Vec::as_slice)),
        );
        let header = Header {
            checksum: parts.iter().fold(0, |sum, p| mix(sum, checksum(p))),
            ..header
        };
        let head = header.encode_as(MAGIC);
        parts.insert(0, &head);
        write_parts_atomically(path, &parts)
    }

    /// The planes in `path`, if it holds sector `sector`'s under
    /// `fingerprint`, whole.
    pub(crate) fn read(
        path: &Path,
        sector: Sector,
        fingerprint: &str,
    ) -> Result<Coded, TablebaseError> {
        let bad = |problem| TablebaseError::BadTable {
            path: path.to_path_buf(),
            problem,
        };
        let map = map_file(path)?;
        let header = Header::decode_as(&map, MAGIC).map_err(bad)?;
        if header.subspace != sector {
            return Err(bad(TableProblem::OtherSubspace(header.subspace)));
        }
        if header.fingerprint != fingerprint {
            return Err(bad(TableProblem::OtherRules(header.fingerprint.clone())));
        }
        let mut at = crate::format::file::HEADER_LEN;
        let take = |at: &mut usize, len: usize| -> Result<&[u8], TablebaseError> {
            let part = map
                .get(*at..*at + len)
                .ok_or_else(|| bad(TableProblem::Checksum))?;
            *at += len;
            Ok(part)
        };
        let u64_of = |b: &[u8]| u64::from_le_bytes(b.try_into().expect("8 bytes"));
        // The body first: its length follows from the plane count and the
        // block counts, read as they come.
        let body_start = at;
        let full_bytes = u64_of(take(&mut at, 8)?);
        let count = u64_of(take(&mut at, 8)?) as usize;
        if !(3..=4).contains(&count) {
            return Err(bad(TableProblem::Checksum));
        }
        let mut shapes = Vec::with_capacity(count);
        for _ in 0..count {
            let model = RunModel::from_bytes(take(&mut at, MODEL_BYTES)?)
                .ok_or_else(|| bad(TableProblem::Checksum))?;
            let n = u64_of(take(&mut at, 8)?) as usize;
            let lens: Vec<usize> = take(&mut at, 2 * n)?
                .chunks(2)
                .map(|b| u16::from_le_bytes([b[0], b[1]]) as usize)
                .collect();
            shapes.push((model, lens));
        }
        let mut sum = mix(0, checksum(&map[body_start..at]));
        let mut planes = Vec::with_capacity(count);
        for (model, lens) in shapes {
            let mut blocks = Vec::with_capacity(lens.len());
            for len in lens {
                let b = take(&mut at, len)?;
                sum = mix(sum, checksum(b));
                blocks.push(b.to_vec());
            }
            planes.push(Plane { model, blocks });
        }
        if sum != header.checksum || at != map.len() {
            return Err(bad(TableProblem::Checksum));
        }
        let mut planes = planes.into_iter();
        let mut next = || planes.next().expect("3 or 4 planes");
        let (losses, wins, wins_beside) = (next(), next(), next());
        Ok(Coded {
            slots: header.slots,
            full_bytes,
            summary: header.summary,
            losses,
            wins,
            wins_beside,
            drawn: (count == 4).then(next),
        })
    }
}

/// Checksums of the parts folded into one, in order.
fn mix(sum: u64, part: u64) -> u64 {
    sum.rotate_left(5) ^ part
}

/// The coded planes of sector `sector`'s table under `rules`: the runs
/// of each plane counted over all its blocks, a model fitted to them,
/// then every block coded with it. A padding slot takes the bits before
/// it, so that it continues its runs. Under move-count draws a movement
/// table's planes hold its stored values (the clock not applied, which
/// one ply of successors completes) and its drawn plane the positions
/// whose value at clock 0 is a draw instead: the table must hold
/// distances (`TablebaseError::CompactNeedsDistances` otherwise).
pub(crate) fn code_planes(
    table: &SubspaceTable,
    sector: Sector,
    rules: &Rules,
) -> Result<Coded, TablebaseError> {
    let drawn_plane = rules.move_count_draws() && !sector.placing();
    if drawn_plane && table.file.header.layout == ValueLayout::Wdl {
        return Err(TablebaseError::CompactNeedsDistances(sector));
    }
    let size = table.index.size();
    let padding: Vec<AtomicU64> = (0..size.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
    (0..table.index.classes())
        .into_par_iter()
        .for_each(|class| {
            table
                .index
                .for_each_in_class(class, |slot, _, _, canonical| {
                    if !canonical {
                        padding[(slot / 64) as usize].fetch_or(1 << (slot % 64), Ordering::Relaxed);
                    }
                });
        });
    let is_padding =
        |slot: u64| padding[(slot / 64) as usize].load(Ordering::Relaxed) >> (slot % 64) & 1 == 1;
    // Checked whole before.
    let value = |slot: u64| Probe::from_code(table.file.code(slot).unwrap_or(0));
    // Block `b`'s bits in each plane: losses, wins, wins beside losses,
    // drawn.
    let planes_of = |b: u64| {
        let first = b * SLOTS as u64;
        let len = (size - first).min(SLOTS as u64) as usize;
        let mut planes = [(); 4].map(|_| Vec::with_capacity(len));
        let mut bits = [false; 4];
        for slot in first..first + len as u64 {
            if !is_padding(slot) {
                let stored = value(slot);
                let at_zero = at_clock_zero(rules, sector, stored).value;
                let (loss, win) = (stored.value == Value::Loss, stored.value == Value::Win);
                bits = [
                    loss,
                    win,
                    if loss { bits[2] } else { win },
                    at_zero != stored.value,
                ];
            }
            for (plane, bit) in planes.iter_mut().zip(bits) {
                plane.push(bit);
            }
        }
        planes
    };
    let blocks = size.div_ceil(SLOTS as u64);
    let counts = (0..blocks)
        .into_par_iter()
        .fold(
            || [(); 4].map(|_| RunCounts::default()),
            |mut counts, b| {
                for (c, bits) in counts.iter_mut().zip(planes_of(b)) {
                    c.add_block(bits.len(), |i| bits[i]);
                }
                counts
            },
        )
        .reduce(
            || [(); 4].map(|_| RunCounts::default()),
            |a, b| {
                let [a0, a1, a2, a3] = a;
                let [b0, b1, b2, b3] = b;
                [a0.merge(b0), a1.merge(b1), a2.merge(b2), a3.merge(b3)]
            },
        );
    let models = counts.map(|c| RunModel::fit(&c));
    let coded: Vec<[Vec<u8>; 4]> = (0..blocks)
        .into_par_iter()
        .map(|b| {
            let planes = planes_of(b);
            [0, 1, 2, 3].map(|p| models[p].encode_block(planes[p].len(), |i| planes[p][i]))
        })
        .collect();
    let mut planes = models.map(|model| Plane {
        model,
        blocks: Vec::with_capacity(coded.len()),
    });
    for block in coded {
        for (plane, b) in planes.iter_mut().zip(block) {
            plane.blocks.push(b);
        }
    }
    let [losses, wins, wins_beside, drawn] = planes;
    Ok(Coded {
        slots: size,
        full_bytes: file_len(table.file.data().len()),
        summary: table.file.header.summary,
        losses,
        wins,
        wins_beside,
        drawn: drawn_plane.then_some(drawn),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generator::generate::{self, GenerateOptions};
    use crate::probe::tables::Tablebases;
    use crate::sector::Subspace;
    use morris_rules::Rules;

    /// Planes read for another sector or other rules are refused as such,
    /// as the full and compact tables are, not as a bad checksum.
    #[test]
    fn planes_of_another_sector_or_rules_are_refused_by_name() {
        let root = std::env::temp_dir().join(format!("morris-coded-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let rules = Rules::default();
        let options = GenerateOptions {
            threads: 1,
            ..GenerateOptions::default()
        };
        generate::generate(&root, &rules, &[Subspace::new(3, 3)], &options).unwrap();
        let tbs = Tablebases::open(&root, &rules);
        let sector = Subspace::new(3, 3);
        let coded = code_planes(tbs.table(sector).unwrap(), sector, &rules).unwrap();
        let path = root.join("3-3.planes");
        coded.write(&path, sector, "these rules").unwrap();
        assert!(Coded::read(&path, sector, "these rules").is_ok());
        let problem = |sector, fingerprint| match Coded::read(&path, sector, fingerprint) {
            Err(TablebaseError::BadTable { problem, .. }) => problem,
            other => panic!("{:?}", other.err()),
        };
        assert_eq!(
            problem(sector, "other rules"),
            TableProblem::OtherRules("these rules".to_string())
        );
        let other = Subspace::new(4, 3);
        assert_eq!(
            problem(other, "these rules"),
            TableProblem::OtherSubspace(sector)
        );
        std::fs::remove_dir_all(&root).unwrap();
    }
}
