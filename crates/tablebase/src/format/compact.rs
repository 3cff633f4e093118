//! The compact table file (`.mtc`): one bit a slot in a plane, the loss
//! plane ("the side to move loses"), the win plane, or both (`Kind`), each
//! in blocks of `SLOTS` slots coded by `runs` and read in place.
//!
//! A table storing one plane gets the other values from one ply of its
//! successors' bits in the same plane (`Tablebases`), so the compressor
//! chooses the kinds so that every successor's table stores that plane.
//! Slots no position uses (padding) are free: they continue the run they
//! fall in.
//!
//! Under move-count draws (`EndgameMoves`, `NoCaptureMoves`: the folder's
//! fingerprint says) a compact table holds each position's value at clock
//! 0. A placement table stores its planes as above (a placement leads to
//! clock 0 only). A movement table, whose moves that remove nothing lead
//! to clock 1, stores the planes of its values as the full table stores
//! them, the clock not applied (each a value with a distance to the next
//! removal, from the successors at clock 0 across a removal): one ply
//! completes them, reading a successor across a removal at clock 0 and
//! one without as stored. Beside them a drawn plane: the positions whose
//! win or loss converts only past the limit, a draw at clock 0 (few).
//!
//! File: the 256-byte header of the full tables (magic `MORRISC2`, layout
//! `Wdl`), the kind (u64, `DRAWN` set with a drawn plane; a file with
//! the first drawn planes' flag is refused as version 2), then for each
//! plane (losses, wins, drawn) its directory: the coded
//! length (u64), its run model (`MODEL_BYTES`), for each group of `GROUP`
//! blocks its first byte and the checksum of its bytes (two u64), and for
//! each block its start in its group (u16); then each plane's coded blocks,
//! and 8 bytes of padding. The header's checksum covers the kind and the
//! directories; a group's checksum is checked when first read, and a bad
//! group makes the whole table answer nothing, as a full table's bad block
//! does.

use memmap2::Mmap;
use std::path::{Path, PathBuf};

use crate::error::{TableProblem, TablebaseError};
use crate::format::atomic::write_parts_atomically;
use crate::format::codec::ValueLayout;
use crate::format::file::{Checks, HEADER_LEN, Header, checksum, map_file};
use crate::format::runs::{MODEL_BYTES, RunDecoder, RunModel, SLOTS};
use crate::format::summary::Summary;
use crate::sector::Sector;

pub(crate) const MAGIC: &[u8; 8] = b"MORRISC2";
/// The first compact format's magic (Rice-coded runs): refused as an
/// older version, to be made again with `tb compress`.
const FIRST_MAGIC: &[u8; 8] = b"MORRISTC";
/// Blocks a checksum group.
const GROUP: usize = 64;
/// The kind word's flag of a table with a drawn plane.
const DRAWN: u64 = 1 << 9;
/// The flag of the first drawn planes, beside the planes of the base game
/// (the rules without move-count draws): refused as format version 2, to
/// be made again.
const BASE_DRAWN: u64 = 1 << 8;

/// The file name of a sector's compact table inside its folder.
pub(crate) fn compact_path(dir: &Path, sector: Sector) -> PathBuf {
    dir.join(format!("{sector}.mtc"))
}

/// Which planes a compact table stores. A table of kind `Losses` finds
/// its wins by one ply of its successors' loss bits, one of kind `Wins`
/// its losses by their win bits, so every successor's table must store
/// that plane (the compressor chooses the kinds so); `Both` needs nothing.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    Losses,
    Wins,
    Both,
}

impl Kind {
    pub(crate) const ALL: [Kind; 3] = [Kind::Losses, Kind::Wins, Kind::Both];

    fn tag(self) -> u64 {
        match self {
            Kind::Losses => 1,
            Kind::Wins => 2,
            Kind::Both => 3,
        }
    }

    fn of_tag(tag: u64) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.tag() == tag)
    }

    pub(crate) fn losses(self) -> bool {
        self != Kind::Wins
    }

    pub(crate) fn wins(self) -> bool {
        self != Kind::Losses
    }

    /// Whether a table of this kind may have successors of kind `next`.
    pub(crate) fn reads(self, next: Kind) -> bool {
        match self {
            Kind::Losses => next.losses(),
            Kind::Wins => next.wins(),
            Kind::Both => true,
        }
    }
}

/// One plane: its run model and its coded blocks.
#[derive(Clone, Copy)]
pub(crate) struct CodedPlane<'a> {
    pub model: &'a RunModel,
    pub blocks: &'a [Vec<u8>],
}

/// One plane laid out: its directory (coded length, model, each group's
/// start and checksum, each block's start in its group as u16: a group's
/// blocks take at most 64 x 512 bytes) and its coded bytes.
fn lay_out(plane: &CodedPlane) -> (Vec<u8>, Vec<u8>) {
    let blocks = plane.blocks;
    let data_len: usize = blocks.iter().map(Vec::len).sum();
    let mut dir =
        Vec::with_capacity(8 + MODEL_BYTES + 16 * blocks.len().div_ceil(GROUP) + 2 * blocks.len());
    dir.extend((data_len as u64).to_le_bytes());
    dir.extend(plane.model.to_bytes());
    let mut data = Vec::with_capacity(data_len);
    let mut starts = Vec::with_capacity(2 * blocks.len());
    for group in blocks.chunks(GROUP) {
        let base = data.len();
        for b in group {
            starts.extend(((data.len() - base) as u16).to_le_bytes());
            data.extend_from_slice(b);
        }
        dir.extend((base as u64).to_le_bytes());
        dir.extend(checksum(&data[base..]).to_le_bytes());
    }
    dir.extend(starts);
    (dir, data)
}

/// Writes the compact table of `sector` with `slots` slots atomically:
/// its loss plane's coded blocks, its win plane's, or both (`Kind`), and
/// a drawn plane for a movement table under move-count draws. The bytes
/// written.
#[allow(clippy::too_many_arguments)]
pub(crate) fn write_compact(
    path: &Path,
    sector: Sector,
    slots: u64,
    summary: Summary,
    fingerprint: &str,
    losses: Option<CodedPlane>,
    wins: Option<CodedPlane>,
    drawn: Option<CodedPlane>,
) -> Result<u64, TablebaseError> {
    let kind = match (losses.is_some(), wins.is_some()) {
        (true, false) => Kind::Losses,
        (false, true) => Kind::Wins,
        _ => Kind::Both,
    };
    let word = kind.tag() | if drawn.is_some() { DRAWN } else { 0 };
    let planes: Vec<(Vec<u8>, Vec<u8>)> = [losses, wins, drawn]
        .iter()
        .flatten()
        .map(lay_out)
        .collect();
    let mut tables = word.to_le_bytes().to_vec();
    for (dir, _) in &planes {
        tables.extend(dir);
    }
    let header = Header {
        subspace: sector,
        layout: ValueLayout::Wdl,
        slots,
        checksum: checksum(&tables),
        summary,
        fingerprint: fingerprint.into(),
    };
    let head = header.encode_as(MAGIC);
    let mut parts: Vec<&[u8]> = vec![&head, &tables];
    parts.extend(planes.iter().map(|(_, data)| data.as_slice()));
    parts.push(&[0u8; 8]);
    write_parts_atomically(path, &parts)?;
    Ok(parts.iter().map(|p| p.len() as u64).sum())
}

/// Where one plane lies in a compact file.
struct Plane {
    /// The group table and the block starts.
    groups_at: usize,
    starts_at: usize,
    /// The coded bytes.
    data_at: usize,
    data_len: usize,
    decoder: RunDecoder,
}

/// A compact table in memory.
pub(crate) struct CompactFile {
    pub header: Header,
    pub kind: Kind,
    map: Mmap,
    blocks: usize,
    losses: Option<Plane>,
    wins: Option<Plane>,
    /// The positions drawn at clock 0 by the move-count draws, whose loss
    /// and win planes hold the value with the clock not applied.
    drawn: Option<Plane>,
    /// Each group of each plane (losses first) against its checksum.
    checked: Checks,
}

impl CompactFile {
    /// Maps the compact table at `path` and checks its header against what
    /// is expected of it, its length and the checksum of its directories.
    pub(crate) fn open(
        path: &Path,
        sector: Sector,
        fingerprint: &str,
    ) -> Result<CompactFile, TablebaseError> {
        let bad = |problem| TablebaseError::BadTable {
            path: path.to_path_buf(),
            problem,
        };
        let map = map_file(path)?;
        if map.starts_with(FIRST_MAGIC) {
            return Err(bad(TableProblem::Version {
                found: 1,
                expected: 2,
            }));
        }
        let header = Header::decode_as(&map, MAGIC).map_err(bad)?;
        if header.subspace != sector {
            return Err(bad(TableProblem::OtherSubspace(header.subspace)));
        }
        if header.fingerprint != fingerprint {
            return Err(bad(TableProblem::OtherRules(header.fingerprint.clone())));
        }
        let u64_at = |at: usize| {
            map.get(at..at.checked_add(8)?)
                .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
        };
        let word = u64_at(HEADER_LEN).ok_or(bad(TableProblem::Truncated))?;
        if word & BASE_DRAWN != 0 {
            return Err(bad(TableProblem::Version {
                found: 2,
                expected: 3,
            }));
        }
        let kind = Kind::of_tag(word & !DRAWN).ok_or(bad(TableProblem::Truncated))?;
        let with_drawn = word & DRAWN != 0;
        let blocks = usize::try_from(header.slots.div_ceil(SLOTS as u64)).unwrap_or(usize::MAX);
        let groups = blocks.div_ceil(GROUP);
        let dir_len = groups
            .checked_mul(16)
            .and_then(|g| g.checked_add(blocks.checked_mul(2)?))
            .and_then(|n| n.checked_add(8 + MODEL_BYTES))
            .ok_or(bad(TableProblem::Truncated))?;
        let planes = 1 + (kind == Kind::Both) as usize + with_drawn as usize;
        let mut at = HEADER_LEN + 8;
        let mut data_at = at + planes * dir_len;
        let mut laid = Vec::new();
        for _ in 0..planes {
            let data_len = u64_at(at)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or(bad(TableProblem::Truncated))?;
            let model = map
                .get(at + 8..at + 8 + MODEL_BYTES)
                .ok_or(bad(TableProblem::Truncated))?;
            laid.push(Plane {
                groups_at: at + 8 + MODEL_BYTES,
                starts_at: at + 8 + MODEL_BYTES + 16 * groups,
                data_at,
                data_len,
                decoder: RunDecoder::new(
                    RunModel::from_bytes(model).ok_or(bad(TableProblem::Checksum))?,
                ),
            });
            at += dir_len;
            data_at = data_at.saturating_add(data_len);
        }
        if data_at.checked_add(8) != Some(map.len()) {
            return Err(bad(TableProblem::Truncated));
        }
        if checksum(&map[HEADER_LEN..HEADER_LEN + 8 + planes * dir_len]) != header.checksum {
            return Err(bad(TableProblem::Checksum));
        }
        let mut laid = laid.into_iter();
        let losses = if kind.losses() { laid.next() } else { None };
        let wins = if kind.wins() { laid.next() } else { None };
        let drawn = laid.next();
        let table = CompactFile {
            header,
            kind,
            map,
            blocks,
            losses,
            wins,
            drawn,
            checked: Checks::new(planes * groups),
        };
        // The starts must stay inside the data, so that reading never fails.
        let inside = table.planes().all(|(_, p)| {
            (0..blocks).all(|b| {
                let (start, end) = table.block_range(p, b);
                start <= end && end <= p.data_len
            })
        });
        if !inside {
            return Err(bad(TableProblem::Checksum));
        }
        Ok(table)
    }

    /// The planes there are, each with the number of its first group in
    /// `checked`.
    fn planes(&self) -> impl Iterator<Item = (usize, &Plane)> {
        let groups = self.blocks.div_ceil(GROUP);
        [
            self.losses.as_ref(),
            self.wins.as_ref(),
            self.drawn.as_ref(),
        ]
        .into_iter()
        .flatten()
        .enumerate()
        .map(move |(i, p)| (i * groups, p))
    }

    fn u64_at(&self, at: usize) -> u64 {
        u64::from_le_bytes(self.map[at..at + 8].try_into().expect("8 bytes"))
    }

    fn group_base(&self, p: &Plane, g: usize) -> usize {
        if g * GROUP >= self.blocks {
            p.data_len
        } else {
            self.u64_at(p.groups_at + 16 * g) as usize
        }
    }

    /// Where block `b` lies among a plane's coded bytes.
    fn block_range(&self, p: &Plane, b: usize) -> (usize, usize) {
        let start_of = |b: usize| {
            if b == self.blocks {
                return p.data_len;
            }
            let base = self.group_base(p, b / GROUP);
            let at = p.starts_at + 2 * b;
            let rel = u16::from_le_bytes(self.map[at..at + 2].try_into().expect("2 bytes"));
            base.saturating_add(rel as usize)
        };
        (start_of(b), start_of(b + 1))
    }

    /// The bytes the compact table takes on disk.
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }

    /// Checks every group not checked yet: whether the whole table is good.
    pub(crate) fn check_all(&self) -> bool {
        let groups = self.blocks.div_ceil(GROUP);
        self.planes()
            .all(|(first, p)| (0..groups).all(|g| self.check(p, first, g)))
    }

    /// Whether group `g` of plane `p` (its groups first in `checked` at
    /// `first`) matches its checksum, checking it on first use.
    #[inline]
    fn check(&self, p: &Plane, first: usize, g: usize) -> bool {
        self.checked.check(first + g, || {
            let (start, end) = (self.group_base(p, g), self.group_base(p, g + 1));
            let stored = self.u64_at(p.groups_at + 16 * g + 8);
            let data = &self.map[p.data_at..p.data_at + p.data_len];
            start <= end && end <= data.len() && checksum(&data[start..end]) == stored
        })
    }

    /// True the first time it is asked after a group was found bad.
    pub(crate) fn first_damage(&self) -> bool {
        self.checked.first_damage()
    }

    /// The bit of `slot` in plane `p` (its groups first in `checked` at
    /// `first`); `None` when its group (or any read before) is damaged.
    #[inline]
    fn bit(&self, p: &Plane, first: usize, slot: u64) -> Option<bool> {
        let b = (slot / SLOTS as u64) as usize;
        if b >= self.blocks || !self.check(p, first, b / GROUP) {
            return None;
        }
        let (start, end) = self.block_range(p, b);
        let len = SLOTS.min((self.header.slots - b as u64 * SLOTS as u64) as usize);
        p.decoder.bit(
            &self.map[p.data_at + start..],
            end - start,
            len,
            (slot % SLOTS as u64) as usize,
        )
    }

    /// Whether the side to move loses in `slot` (for padding, any bit);
    /// `None` when the table stores no loss plane or the group is damaged.
    #[inline]
    pub(crate) fn loss(&self, slot: u64) -> Option<bool> {
        self.bit(self.losses.as_ref()?, 0, slot)
    }

    /// Whether the side to move wins in `slot`, as `loss` (where the loss
    /// plane says loss, a table of kind `Both` may say anything).
    #[inline]
    pub(crate) fn win(&self, slot: u64) -> Option<bool> {
        let first = self.losses.is_some() as usize * self.blocks.div_ceil(GROUP);
        self.bit(self.wins.as_ref()?, first, slot)
    }

    /// Whether the table has a drawn plane: its loss and win planes are
    /// then the values with the clock not applied.
    pub(crate) fn has_drawn(&self) -> bool {
        self.drawn.is_some()
    }

    /// Whether the move-count draws turn the stored win or loss in `slot`
    /// into a draw at clock 0, as `loss`.
    #[inline]
    pub(crate) fn drawn(&self, slot: u64) -> Option<bool> {
        let before = self.losses.is_some() as usize + self.wins.is_some() as usize;
        self.bit(
            self.drawn.as_ref()?,
            before * self.blocks.div_ceil(GROUP),
            slot,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::runs::RunCounts;

    /// The model and coded blocks of `slots` bits `bit(slot)`.
    fn blocks_of(slots: u64, bit: impl Fn(u64) -> bool) -> (RunModel, Vec<Vec<u8>>) {
        let bit = &bit;
        let blocks = || {
            (0..slots.div_ceil(SLOTS as u64)).map(move |b| {
                let first = b * SLOTS as u64;
                let len = (slots - first).min(SLOTS as u64) as usize;
                (len, move |i: usize| bit(first + i as u64))
            })
        };
        let mut counts = RunCounts::default();
        for (len, bit) in blocks() {
            counts.add_block(len, bit);
        }
        let model = RunModel::fit(&counts);
        let coded = blocks()
            .map(|(len, bit)| model.encode_block(len, bit))
            .collect();
        (model, coded)
    }

    /// Tables of several blocks, some of each mode, in one plane and in
    /// two, read back slot by slot.
    #[test]
    fn a_file_reads_back_every_slot() {
        let dir = std::env::temp_dir().join(format!("morris-compact-{}", std::process::id()));
        let path = dir.join("3-3.mtc");
        let slots = 70 * SLOTS as u64 + 17;
        let loss = |s: u64| s.is_multiple_of(13) || (s / 700).is_multiple_of(3);
        let win = |s: u64| !loss(s) && (s / 5000) % 2 == 1;
        let (losses, wins) = (blocks_of(slots, loss), blocks_of(slots, win));
        let (s, sums) = (Sector::new(3, 3), Summary::default());
        fn plane((model, blocks): &(RunModel, Vec<Vec<u8>>)) -> CodedPlane<'_> {
            CodedPlane { model, blocks }
        }
        let drawn = |s: u64| s % 4099 == 7;
        let drawn_plane = blocks_of(slots, drawn);
        for (l, w, kind) in [
            (Some(plane(&losses)), None, Kind::Losses),
            (None, Some(plane(&wins)), Kind::Wins),
            (Some(plane(&losses)), Some(plane(&wins)), Kind::Both),
        ] {
            for d in [None, Some(plane(&drawn_plane))] {
                let with_drawn = d.is_some();
                write_compact(&path, s, slots, sums, "fp", l, w, d).unwrap();
                let f = CompactFile::open(&path, s, "fp").unwrap();
                assert_eq!((f.kind, f.has_drawn()), (kind, with_drawn));
                assert!(f.check_all());
                for slot in 0..slots {
                    assert_eq!(f.loss(slot), kind.losses().then_some(loss(slot)), "{slot}");
                    assert_eq!(f.win(slot), kind.wins().then_some(win(slot)), "{slot}");
                    assert_eq!(f.drawn(slot), with_drawn.then_some(drawn(slot)), "{slot}");
                }
            }
        }
        // A file of the first format is refused as an older version.
        let mut old = std::fs::read(&path).unwrap();
        old[..8].copy_from_slice(FIRST_MAGIC);
        std::fs::write(&path, old).unwrap();
        let refused = CompactFile::open(&path, s, "fp")
            .err()
            .map(|e| e.to_string());
        assert!(
            refused
                .as_deref()
                .is_some_and(|e| e.contains("format version 1, expected 2")),
            "{refused:?}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
