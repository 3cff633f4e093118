//! The compact table file (`.mtc`): one bit a slot, "the side to move
//! loses", run-length coded in small blocks that are read in place.
//!
//! A loss plane is all a table needs once every table has one: a position
//! that is not lost is won exactly when some move leads to a position lost
//! for the opponent (or ends the game in the mover's favour), which one ply
//! of probing the successors' bits decides (`Tablebases`). Losses are the
//! rarest value where the mover is the stronger side, and in the weaker
//! side's tables they come in long runs, so the plane costs a fraction of
//! the win/draw/loss values. Slots no position uses (padding) are free:
//! they continue the run they fall in.
//!
//! File: the 256-byte header of the full tables (magic `MORRISTC`, layout
//! `Wdl`), the coded length (u64), for each group of `GROUP` blocks its
//! first byte and the checksum of its bytes (two u64), for each block its
//! start in its group (u32), the coded blocks, and 8 bytes of padding. The
//! header's checksum covers everything between the header and the coded
//! blocks; a group's checksum is checked when first read, and a bad group
//! makes the whole table answer nothing, as a full table's bad block does.
//!
//! A block of `SLOTS` slots is empty (all zero), or starts with its mode:
//! all ones, raw bits, or runs (from a zero or from a one) whose lengths
//! less one are Rice-coded with one parameter for the zero runs and one
//! for the one runs (a byte: low nibble, high nibble), after the count of
//! runs coded (u16; the last run is left out, it reaches the block's end).
//! The encoder keeps the shortest.

use memmap2::Mmap;
use std::path::{Path, PathBuf};

use crate::tablebase::error::{TableProblem, TablebaseError};
use crate::tablebase::format::codec::Layout;
use crate::tablebase::format::file::{
    Checks, HEADER_LEN, Header, checksum, map_file, write_parts_atomically,
};
use crate::tablebase::format::summary::Summary;
use crate::tablebase::sector::Sector;

pub(crate) const MAGIC: &[u8; 8] = b"MORRISTC";
/// Slots a block.
pub(crate) const SLOTS: usize = 4096;
/// Blocks a checksum group.
const GROUP: usize = 64;

const ONES: u8 = 1;
const RAW: u8 = 2;
const RUNS_FROM_ZERO: u8 = 3;
const RUNS_FROM_ONE: u8 = 4;
/// The largest Rice parameter: a run is at most `SLOTS` long.
const MAX_K: u32 = 12;

/// The file name of a sector's compact table inside its folder.
pub(crate) fn compact_path(dir: &Path, sector: Sector) -> PathBuf {
    dir.join(format!("{sector}.mtc"))
}

/// Appends bits, least significant first.
#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    acc: u64,
    used: u32,
}

impl BitWriter {
    fn put(&mut self, value: u64, bits: u32) {
        debug_assert!(bits <= 32);
        self.acc |= value << self.used;
        self.used += bits;
        while self.used >= 8 {
            self.bytes.push(self.acc as u8);
            self.acc >>= 8;
            self.used -= 8;
        }
    }

    /// `value` Rice-coded: its quotient in unary (zeros, then a one), then
    /// its `k` low bits.
    fn rice(&mut self, value: u64, k: u32) {
        let mut q = value >> k;
        while q >= 32 {
            self.put(0, 32);
            q -= 32;
        }
        self.put(1 << q, q as u32 + 1);
        self.put(value & ((1 << k) - 1), k);
    }

    fn finish(mut self) -> Vec<u8> {
        if self.used > 0 {
            self.bytes.push(self.acc as u8);
        }
        self.bytes
    }
}

/// Reads bits, least significant first, from coded bytes followed by at
/// least 8 bytes (the file's padding).
struct BitReader<'a> {
    data: &'a [u8],
    bit: usize,
}

impl BitReader<'_> {
    #[inline]
    fn window(&self) -> u64 {
        let at = self.bit / 8;
        u64::from_le_bytes(self.data[at..at + 8].try_into().expect("8 bytes")) >> (self.bit % 8)
    }

    #[inline]
    fn rice(&mut self, k: u32) -> u64 {
        let mut q = 0u64;
        loop {
            // 56 bits of the window are always whole.
            let w = self.window() | 1 << 56;
            let zeros = w.trailing_zeros();
            if zeros < 56 {
                q += zeros as u64;
                self.bit += zeros as usize + 1;
                break;
            }
            q += 56;
            self.bit += 56;
        }
        let low = self.window() & ((1u64 << k) - 1);
        self.bit += k as usize;
        q << k | low
    }
}

/// Bits of a Rice code of `value`.
fn rice_len(value: u64, k: u32) -> u64 {
    (value >> k) + 1 + k as u64
}

/// The best Rice parameter for these values, and the bits it takes.
fn best_k(values: impl Iterator<Item = u64> + Clone) -> (u32, u64) {
    (0..=MAX_K)
        .map(|k| (k, values.clone().map(|v| rice_len(v, k)).sum::<u64>()))
        .min_by_key(|&(_, bits)| bits)
        .expect("some parameter")
}

/// Codes one block's bits (`bit(i)` for `i < len`), with the shortest mode.
pub(crate) fn encode_block(len: usize, bit: impl Fn(usize) -> bool) -> Vec<u8> {
    let ones = (0..len).filter(|&i| bit(i)).count();
    if ones == 0 {
        return Vec::new();
    }
    if ones == len {
        return vec![ONES];
    }
    let mut runs: Vec<u64> = Vec::new();
    let mut i = 0;
    while i < len {
        let b = bit(i);
        let start = i;
        while i < len && bit(i) == b {
            i += 1;
        }
        runs.push((i - start - 1) as u64);
    }
    let first = bit(0);
    // Runs alternate; the last one's length is implied by the block's.
    let coded = &runs[..runs.len() - 1];
    let of = |parity: usize| coded.iter().copied().skip(parity).step_by(2);
    let (k_first, first_bits) = best_k(of(0));
    let (k_second, second_bits) = best_k(of(1));
    let (k0, k1) = if first {
        (k_second, k_first)
    } else {
        (k_first, k_second)
    };
    let runs_len = 4 + (first_bits + second_bits).div_ceil(8) as usize;
    let raw_len = 1 + len.div_ceil(8);
    if raw_len <= runs_len {
        let mut out = vec![0u8; raw_len];
        out[0] = RAW;
        for i in (0..len).filter(|&i| bit(i)) {
            out[1 + i / 8] |= 1 << (i % 8);
        }
        return out;
    }
    let mut w = BitWriter::default();
    let mut value = first;
    for &r in coded {
        w.rice(r, if value { k1 } else { k0 });
        value = !value;
    }
    let mut out = vec![
        if first { RUNS_FROM_ONE } else { RUNS_FROM_ZERO },
        (k0 | k1 << 4) as u8,
    ];
    out.extend((coded.len() as u16).to_le_bytes());
    out.extend(w.finish());
    out
}

/// Bit `i` of a coded block (`coded` followed by 8 readable bytes).
#[inline]
pub(crate) fn block_bit(coded: &[u8], len: usize, i: usize) -> bool {
    if len == 0 {
        return false;
    }
    match coded[0] {
        ONES => true,
        RAW => coded[1 + i / 8] >> (i % 8) & 1 == 1,
        mode => {
            let (k0, k1) = ((coded[1] & 15) as u32, (coded[1] >> 4) as u32);
            let mut value = mode == RUNS_FROM_ONE;
            let runs = u16::from_le_bytes([coded[2], coded[3]]);
            let mut r = BitReader {
                data: &coded[4..],
                bit: 0,
            };
            let mut end = 0usize;
            // The last run is not coded: it reaches the block's end.
            for _ in 0..runs {
                end += 1 + r.rice(if value { k1 } else { k0 }) as usize;
                if i < end {
                    return value;
                }
                value = !value;
            }
            value
        }
    }
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

/// One plane's coded blocks laid out: its directory (coded length, each
/// group's start and checksum, each block's start in its group as u16:
/// a group's blocks take at most 64 x 513 bytes) and its coded bytes.
fn lay_out(blocks: &[Vec<u8>]) -> (Vec<u8>, Vec<u8>) {
    let data_len: usize = blocks.iter().map(Vec::len).sum();
    let mut dir = Vec::with_capacity(8 + 16 * blocks.len().div_ceil(GROUP) + 2 * blocks.len());
    dir.extend((data_len as u64).to_le_bytes());
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
/// its loss plane's coded blocks, its win plane's, or both (`Kind`). The
/// bytes written.
pub(crate) fn write_compact(
    path: &Path,
    sector: Sector,
    slots: u64,
    summary: Summary,
    fingerprint: &str,
    losses: Option<&[Vec<u8>]>,
    wins: Option<&[Vec<u8>]>,
) -> Result<u64, TablebaseError> {
    let kind = match (losses.is_some(), wins.is_some()) {
        (true, false) => Kind::Losses,
        (false, true) => Kind::Wins,
        _ => Kind::Both,
    };
    let planes: Vec<(Vec<u8>, Vec<u8>)> =
        [losses, wins].into_iter().flatten().map(lay_out).collect();
    let mut tables = kind.tag().to_le_bytes().to_vec();
    for (dir, _) in &planes {
        tables.extend(dir);
    }
    let header = Header {
        subspace: sector,
        layout: Layout::Wdl,
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
}

/// A compact table in memory.
pub(crate) struct CompactFile {
    pub header: Header,
    pub kind: Kind,
    map: Mmap,
    blocks: usize,
    losses: Option<Plane>,
    wins: Option<Plane>,
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
        let kind = u64_at(HEADER_LEN)
            .and_then(Kind::of_tag)
            .ok_or(bad(TableProblem::Truncated))?;
        let blocks = usize::try_from(header.slots.div_ceil(SLOTS as u64)).unwrap_or(usize::MAX);
        let groups = blocks.div_ceil(GROUP);
        let dir_len = groups
            .checked_mul(16)
            .and_then(|g| g.checked_add(blocks.checked_mul(2)?))
            .and_then(|n| n.checked_add(8))
            .ok_or(bad(TableProblem::Truncated))?;
        let planes = 1 + (kind == Kind::Both) as usize;
        let mut at = HEADER_LEN + 8;
        let mut data_at = at + planes * dir_len;
        let mut laid = Vec::new();
        for _ in 0..planes {
            let data_len = u64_at(at)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or(bad(TableProblem::Truncated))?;
            laid.push(Plane {
                groups_at: at + 8,
                starts_at: at + 8 + 16 * groups,
                data_at,
                data_len,
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
        let wins = laid.next();
        let table = CompactFile {
            header,
            kind,
            map,
            blocks,
            losses,
            wins,
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
        [self.losses.as_ref(), self.wins.as_ref()]
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
    #[cfg(test)]
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
        let coded = &self.map[p.data_at + start..];
        Some(block_bit(
            coded,
            end - start,
            (slot % SLOTS as u64) as usize,
        ))
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
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every mode reads back every bit it was given.
    #[test]
    fn blocks_read_back_their_bits() {
        let patterns: Vec<Box<dyn Fn(usize) -> bool>> = vec![
            Box::new(|_| false),
            Box::new(|_| true),
            Box::new(|i| i % 2 == 0),
            Box::new(|i| i % 997 < 3),
            Box::new(|i| (i / 300) % 2 == 1),
            Box::new(|i| (i * 2_654_435_761usize).is_multiple_of(7)),
            Box::new(|i| i > 4000),
        ];
        for (n, bit) in patterns.iter().enumerate() {
            for len in [1, 100, SLOTS] {
                let mut coded = encode_block(len, bit);
                let size = coded.len();
                coded.extend([0u8; 8]);
                for i in 0..len {
                    assert_eq!(
                        block_bit(&coded, size, i),
                        bit(i),
                        "pattern {n} len {len} bit {i}"
                    );
                }
            }
        }
    }

    /// The coded blocks of `slots` bits `bit(slot)`.
    fn blocks_of(slots: u64, bit: impl Fn(u64) -> bool) -> Vec<Vec<u8>> {
        (0..slots.div_ceil(SLOTS as u64))
            .map(|b| {
                let first = b * SLOTS as u64;
                let len = (slots - first).min(SLOTS as u64) as usize;
                encode_block(len, |i| bit(first + i as u64))
            })
            .collect()
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
        for (l, w, kind) in [
            (Some(&losses[..]), None, Kind::Losses),
            (None, Some(&wins[..]), Kind::Wins),
            (Some(&losses[..]), Some(&wins[..]), Kind::Both),
        ] {
            write_compact(&path, s, slots, sums, "fp", l, w).unwrap();
            let f = CompactFile::open(&path, s, "fp").unwrap();
            assert_eq!(f.kind, kind);
            assert!(f.check_all());
            for slot in 0..slots {
                assert_eq!(f.loss(slot), kind.losses().then_some(loss(slot)), "{slot}");
                assert_eq!(f.win(slot), kind.wins().then_some(win(slot)), "{slot}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
