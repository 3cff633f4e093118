//! The table file: a 256-byte header, then the values in one of three
//! layouts (`ValueLayout`: a code per slot in one byte, or in two little-endian
//! bytes when a distance passes 126 plies, or win/draw/loss only, five
//! slots to a byte), then a checksum (u64) of each `BLOCK` bytes of values.
//!
//! Header (little-endian): magic `MORRISTB`, format version (u32), stones
//! of the side to move and of the other side, the layout, stones in
//! the hand of the side to move (byte 15), then the slot count, a checksum
//! of the block checksums, the summary counts (positions up to symmetry,
//! wins, losses, draws, longest win and loss), stones in the other side's
//! hand (byte 68), and at byte 72 the rules fingerprint as text. Movement
//! tables have 0 in both hand bytes (always zero before placement tables
//! existed, so older files read unchanged). Files are written to a
//! temporary name and renamed, so a table on disk is always whole.
//!
//! A damaged file is never used: opening checks the header, the length
//! and the block checksums' checksum, and every block of a table up to
//! `EAGER` bytes; a larger table checks each block when first read (so
//! opening it stays fast), and a block that fails makes the whole table
//! answer nothing from then on.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};

use memmap2::{Mmap, MmapMut};
use rayon::prelude::*;

use crate::error::{TableProblem, TablebaseError};
use crate::format::atomic::write_parts_atomically;
use crate::format::codec::{POW3, ValueLayout, wdl_digit};
use crate::format::summary::Summary;
use crate::sector::{Sector, Subspace};
use crate::value::{Probe, Value};

const MAGIC: &[u8; 8] = b"MORRISTB";
/// 2: fingerprints name the move-count draw options (values depend on them).
/// 3: per-block checksums after the values.
const VERSION: u32 = 3;
/// Value bytes per block checksum (even: a 2-byte value never straddles).
pub(crate) const BLOCK: usize = 1 << 20;
/// Tables with at most this many value bytes are checked whole on opening.
const EAGER: usize = 64 << 20;
/// Bytes before the values.
pub const HEADER_LEN: usize = 256;
const FINGERPRINT_AT: usize = 72;

#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Header {
    /// The table's sector (hands 0 for a movement table).
    pub subspace: Sector,
    pub layout: ValueLayout,
    pub slots: u64,
    /// That of the block checksums; `write_table` sets it.
    pub checksum: u64,
    pub summary: Summary,
    pub fingerprint: String,
}

/// The checksum of each `BLOCK` of values, as the file stores them.
fn block_sums(values: &[u8]) -> Vec<u8> {
    values
        .par_chunks(BLOCK)
        .flat_map_iter(|b| checksum(b).to_le_bytes())
        .collect()
}

/// The size of a table file with `values` bytes of values.
pub fn file_len(values: usize) -> u64 {
    (HEADER_LEN + values + 8 * values.div_ceil(BLOCK)) as u64
}

/// A fast 64-bit checksum.
pub(crate) fn checksum(data: &[u8]) -> u64 {
    let mut h: u64 = 0x6d6f_7272_6973_7462;
    let mut chunks = data.chunks_exact(8);
    for c in &mut chunks {
        let word = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h.rotate_left(23) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    for &b in chunks.remainder() {
        h = (h.rotate_left(23) ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    h ^ (h >> 29)
}

impl Header {
    fn encode(&self) -> [u8; HEADER_LEN] {
        self.encode_as(MAGIC)
    }

    /// The header of a file of the kind `magic` names (the compact tables
    /// share the full tables' header).
    pub(crate) fn encode_as(&self, magic: &[u8; 8]) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(magic);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        h[12] = self.subspace.mine;
        h[13] = self.subspace.theirs;
        h[14] = self.layout.tag();
        h[15] = self.subspace.mine_hand;
        let s = &self.summary;
        for (i, v) in [
            self.slots,
            self.checksum,
            s.positions,
            s.wins,
            s.losses,
            s.draws,
        ]
        .iter()
        .enumerate()
        {
            h[16 + 8 * i..24 + 8 * i].copy_from_slice(&v.to_le_bytes());
        }
        h[64..66].copy_from_slice(&s.longest_win.to_le_bytes());
        h[66..68].copy_from_slice(&s.longest_loss.to_le_bytes());
        h[68] = self.subspace.theirs_hand;
        let fp = self.fingerprint.as_bytes();
        let n = fp.len().min(HEADER_LEN - FINGERPRINT_AT);
        h[FINGERPRINT_AT..FINGERPRINT_AT + n].copy_from_slice(&fp[..n]);
        h
    }

    fn decode(h: &[u8]) -> Result<Header, TableProblem> {
        Header::decode_as(h, MAGIC)
    }

    pub(crate) fn decode_as(h: &[u8], magic: &[u8; 8]) -> Result<Header, TableProblem> {
        if h.len() < HEADER_LEN || &h[0..8] != magic {
            return Err(TableProblem::NotATable);
        }
        let version = u32::from_le_bytes(h[8..12].try_into().expect("4 bytes"));
        if version != VERSION {
            return Err(TableProblem::Version {
                found: version,
                expected: VERSION,
            });
        }
        let u64_at = |i: usize| u64::from_le_bytes(h[16 + 8 * i..24 + 8 * i].try_into().unwrap());
        let u16_at = |i: usize| u16::from_le_bytes(h[i..i + 2].try_into().unwrap());
        let fp = &h[FINGERPRINT_AT..HEADER_LEN];
        let end = fp.iter().position(|&b| b == 0).unwrap_or(fp.len());
        Ok(Header {
            subspace: Sector::with_hands(h[12], h[13], h[15], h[68]),
            layout: ValueLayout::of_tag(h[14]).ok_or(TableProblem::Width(h[14]))?,
            slots: u64_at(0),
            checksum: u64_at(1),
            summary: Summary {
                positions: u64_at(2),
                wins: u64_at(3),
                losses: u64_at(4),
                draws: u64_at(5),
                longest_win: u16_at(64),
                longest_loss: u16_at(66),
            },
            fingerprint: String::from_utf8_lossy(&fp[..end]).into_owned(),
        })
    }
}

/// The file name of a sector's table inside its folder (`5-4.mtb`,
/// `5-4+2-3.mtb`).
pub fn table_path(dir: &Path, sector: Sector) -> PathBuf {
    dir.join(format!("{sector}.mtb"))
}

/// Writes a table atomically: temporary file, sync, rename. The header's
/// checksum is set here from the block sums, so they are computed once.
pub(crate) fn write_table(
    path: &Path,
    mut header: Header,
    values: &[u8],
) -> Result<(), TablebaseError> {
    let sums = block_sums(values);
    header.checksum = checksum(&sums);
    write_parts_atomically(path, &[&header.encode(), values, &sums])
}

/// Starts loading the cache line of `at` (a hint: no effect on the result).
#[inline]
pub fn prefetch<T>(at: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch is a hint that never faults, and SSE (which
        // has it) is part of every x86-64 processor.
        unsafe { _mm_prefetch::<_MM_HINT_T0>((at as *const T).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// A copy of `map` in anonymous memory backed by huge pages where the
/// system gives them: random probes then miss the TLB far less often than
/// in the file's 4 KiB page-cache pages. The copy cannot be evicted, so
/// only the generator makes it, for the tables below the one it builds.
fn into_huge_pages(map: &Mmap) -> Option<Mmap> {
    let mut anon = MmapMut::map_anon(map.len()).ok()?;
    #[cfg(target_os = "linux")]
    let _ = anon.advise(memmap2::Advice::HugePage);
    anon.copy_from_slice(map);
    anon.make_read_only().ok()
}

/// Whether each checked part of a table (a block of a full table, a group
/// of a compact one) matches its checksum, found on first use: one bad
/// part makes every part bad, and the damage is reported once.
pub(crate) struct Checks {
    /// Per part: `UNCHECKED`, `GOOD` or `BAD`.
    parts: Box<[AtomicU8]>,
    /// Whether a bad part has been reported (see `first_damage`).
    reported: AtomicBool,
}

impl Checks {
    pub(crate) fn new(parts: usize) -> Checks {
        Checks {
            parts: (0..parts).map(|_| AtomicU8::new(UNCHECKED)).collect(),
            reported: AtomicBool::new(false),
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.parts.len()
    }

    /// Whether part `i` is good, running `matches` (its checksum test) on
    /// first use.
    #[inline]
    pub(crate) fn check(&self, i: usize, matches: impl FnOnce() -> bool) -> bool {
        match self.parts[i].load(Ordering::Relaxed) {
            GOOD => true,
            UNCHECKED => self.first_check(i, matches()),
            _ => false,
        }
    }

    #[cold]
    fn first_check(&self, i: usize, matches: bool) -> bool {
        if matches {
            // Another thread may have found a bad part meanwhile: keep BAD.
            let _ = self.parts[i].compare_exchange(
                UNCHECKED,
                GOOD,
                Ordering::Relaxed,
                Ordering::Relaxed,
            );
            self.parts[i].load(Ordering::Relaxed) == GOOD
        } else {
            for s in self.parts.iter() {
                s.store(BAD, Ordering::Relaxed);
            }
            false
        }
    }

    /// True the first time it is asked after a part was found bad: the
    /// caller reports the damage once.
    pub(crate) fn first_damage(&self) -> bool {
        !self.reported.swap(true, Ordering::Relaxed)
    }
}

/// Maps the file at `path` (tables are only ever replaced by rename, never
/// written in place).
pub(crate) fn map_file(path: &Path) -> Result<Mmap, TablebaseError> {
    let io_error = |error| TablebaseError::Io {
        path: path.to_path_buf(),
        error,
    };
    let file = File::open(path).map_err(io_error)?;
    // SAFETY: tables are only ever replaced by rename, never written in
    // place, so the mapped file does not change under us.
    unsafe { Mmap::map(&file) }.map_err(io_error)
}

/// A table file in memory.
pub(crate) struct TableFile {
    pub header: Header,
    map: Mmap,
    /// Value bytes (after the header, before the block sums).
    len: usize,
    /// Each block against its checksum.
    blocks: Checks,
}

const UNCHECKED: u8 = 0;
const GOOD: u8 = 1;
const BAD: u8 = 2;

impl TableFile {
    /// Maps the table at `path` and checks its header against what is
    /// expected of it, its length and its checksum.
    pub(crate) fn open(
        path: &Path,
        subspace: Subspace,
        fingerprint: &str,
    ) -> Result<TableFile, TablebaseError> {
        TableFile::open_checking(path, subspace, fingerprint, EAGER)
    }

    /// `open`, checking every block now if the values take at most `eager` bytes.
    fn open_checking(
        path: &Path,
        subspace: Subspace,
        fingerprint: &str,
        eager: usize,
    ) -> Result<TableFile, TablebaseError> {
        let bad = |problem| TablebaseError::BadTable {
            path: path.to_path_buf(),
            problem,
        };
        let map = map_file(path)?;
        let header = Header::decode(&map).map_err(bad)?;
        let len = header
            .layout
            .bytes(header.slots)
            .and_then(|n| usize::try_from(n).ok())
            .unwrap_or(usize::MAX);
        let blocks = len.div_ceil(BLOCK);
        let problem = if header.subspace != subspace {
            Some(TableProblem::OtherSubspace(header.subspace))
        } else if header.fingerprint != fingerprint {
            Some(TableProblem::OtherRules(header.fingerprint.clone()))
        } else if Some(map.len() - HEADER_LEN)
            != blocks.checked_mul(8).and_then(|n| n.checked_add(len))
        {
            Some(TableProblem::Truncated)
        } else if checksum(&map[HEADER_LEN + len..]) != header.checksum {
            Some(TableProblem::Checksum)
        } else {
            None
        };
        if let Some(p) = problem {
            return Err(bad(p));
        }
        let table = TableFile {
            header,
            map,
            len,
            blocks: Checks::new(blocks),
        };
        if len <= eager && !table.check_all() {
            return Err(bad(TableProblem::Checksum));
        }
        Ok(table)
    }

    /// The table moved into huge-page memory (`into_huge_pages`), kept as
    /// it is where the system has no memory to give.
    pub(crate) fn resident(self) -> TableFile {
        match into_huge_pages(&self.map) {
            Some(map) => TableFile { map, ..self },
            None => self,
        }
    }

    /// The value bytes.
    pub(crate) fn data(&self) -> &[u8] {
        &self.map[HEADER_LEN..HEADER_LEN + self.len]
    }

    /// Checks every block not checked yet: whether the whole table is good.
    pub(crate) fn check_all(&self) -> bool {
        (0..self.blocks.len()).all(|b| self.check(b))
    }

    /// Whether block `b` matches its checksum, checking it on first use.
    #[inline]
    fn check(&self, b: usize) -> bool {
        self.blocks.check(b, || {
            let values = &self.data()[b * BLOCK..((b + 1) * BLOCK).min(self.len)];
            let at = HEADER_LEN + self.len + 8 * b;
            let stored = u64::from_le_bytes(self.map[at..at + 8].try_into().expect("8 bytes"));
            checksum(values) == stored
        })
    }

    /// True the first time it is asked after a block was found bad.
    pub(crate) fn first_damage(&self) -> bool {
        self.blocks.first_damage()
    }

    /// Asks the processor to start loading a slot's value, so that the
    /// misses of many reads overlap (the generator's reads of the tables
    /// below are random, and wait on memory more than anything).
    #[inline]
    pub(crate) fn prefetch(&self, slot: u64) {
        if let Some(byte) = self.data().get(self.offset(slot)) {
            prefetch(byte);
        }
    }

    /// The first byte of a slot's value among the value bytes.
    #[inline]
    fn offset(&self, slot: u64) -> usize {
        match self.header.layout {
            ValueLayout::Byte => slot as usize,
            ValueLayout::Word => 2 * slot as usize,
            ValueLayout::Wdl => slot as usize / POW3.len(),
        }
    }

    /// The value code of a slot (in a `ValueLayout::Wdl` table, that of a win
    /// or loss with `Probe::NO_DISTANCE`); `None` when its block (or any
    /// block read before) does not match its checksum.
    #[inline]
    pub(crate) fn code(&self, slot: u64) -> Option<u16> {
        let (data, i) = (self.data(), self.offset(slot));
        if !self.check(i / BLOCK) {
            return None;
        }
        Some(match self.header.layout {
            ValueLayout::Byte => data[i] as u16,
            ValueLayout::Word => u16::from_le_bytes([data[i], data[i + 1]]),
            ValueLayout::Wdl => match wdl_digit(data, slot) {
                Value::Draw => 0,
                value => Probe {
                    value,
                    plies: Probe::NO_DISTANCE,
                }
                .code(),
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::summary::Summary;
    use std::fs;

    /// Writes a table of `slots` slots and `values` for `sub`, made under
    /// `fingerprint`.
    fn write_test_table(
        path: &Path,
        sub: Subspace,
        layout: ValueLayout,
        slots: u64,
        values: &[u8],
        fingerprint: &str,
    ) {
        let header = Header {
            subspace: sub,
            layout,
            slots,
            checksum: 0,
            summary: Summary::default(),
            fingerprint: fingerprint.into(),
        };
        write_table(path, header, values).unwrap();
    }

    /// A large table is checked block by block as it is read, and one bad
    /// block stops the whole table.
    #[test]
    fn blocks_are_checked_on_first_use() {
        let dir = std::env::temp_dir().join(format!("morris-file-test-{}", std::process::id()));
        let path = dir.join("3-3.mtb");
        let values: Vec<u8> = (0..3 * BLOCK + 10).map(|i| (i % 7) as u8).collect();
        write_test_table(
            &path,
            Subspace::new(3, 3),
            ValueLayout::Byte,
            values.len() as u64,
            &values,
            "test",
        );
        let open = |eager| TableFile::open_checking(&path, Subspace::new(3, 3), "test", eager);
        let good = open(0).unwrap();
        assert_eq!(good.code(5), Some(5));
        assert!(good.check_all());
        let mut bytes = fs::read(&path).unwrap();
        bytes[HEADER_LEN + 2 * BLOCK + 3] ^= 1;
        fs::write(&path, &bytes).unwrap();
        assert!(matches!(
            open(EAGER),
            Err(TablebaseError::BadTable {
                problem: TableProblem::Checksum,
                ..
            })
        ));
        let lazy = open(0).unwrap();
        assert_eq!(
            lazy.code(BLOCK as u64 + 1),
            Some(((BLOCK + 1) % 7) as u8 as u16)
        );
        assert_eq!(lazy.code(2 * BLOCK as u64), None);
        assert!(lazy.first_damage());
        assert!(!lazy.first_damage());
        // Nothing more from it, even from a block that was good.
        assert_eq!(lazy.code(5), None);
        let _ = fs::remove_dir_all(&dir);
    }

    /// Opening refuses a file for another sector, for other rules, or not
    /// a table at all, and says which file and why.
    #[test]
    fn refusals_name_the_file_and_the_problem() {
        let dir = std::env::temp_dir().join(format!("morris-refusal-test-{}", std::process::id()));
        let path = dir.join("3-4.mtb");
        let values = vec![0u8; 100];
        write_test_table(
            &path,
            Subspace::new(3, 4),
            ValueLayout::Byte,
            values.len() as u64,
            &values,
            "Diagonals=false",
        );
        let refusal = |path: &Path, sub: Subspace, fingerprint: &str| {
            TableFile::open(path, sub, fingerprint)
                .err()
                .expect("refused")
                .to_string()
        };
        let shown = path.display();
        assert_eq!(
            refusal(&path, Subspace::new(4, 3), "Diagonals=false"),
            format!("{shown}: holds subspace 3-4")
        );
        assert_eq!(
            refusal(&path, Subspace::new(3, 4), "Diagonals=true"),
            format!("{shown}: made for other rules (Diagonals=false)")
        );
        let not_a_table = dir.join("not-a-table.mtb");
        fs::write(&not_a_table, [0u8; 300]).unwrap();
        assert_eq!(
            refusal(&not_a_table, Subspace::new(3, 4), "Diagonals=false"),
            format!("{}: not a morris tablebase file", not_a_table.display())
        );
        let missing = dir.join("none.mtb");
        assert!(
            refusal(&missing, Subspace::new(3, 4), "Diagonals=false")
                .starts_with(&format!("{}: ", missing.display()))
        );
        let _ = fs::remove_dir_all(&dir);
    }

    /// Every layout reads back what it was given; `Wdl` keeps the result
    /// and drops the distance.
    #[test]
    fn layouts_read_back_their_values() {
        let dir = std::env::temp_dir().join(format!("morris-layout-test-{}", std::process::id()));
        let probe = |value, plies| Probe { value, plies };
        let codes: Vec<u16> = (0..23u16)
            .map(|i| match i % 3 {
                0 => 0,
                1 => probe(Value::Win, i * 7).code(),
                _ => probe(Value::Loss, i * 11).code(),
            })
            .collect();
        for layout in [ValueLayout::Byte, ValueLayout::Word, ValueLayout::Wdl] {
            let codes: Vec<u16> = match layout {
                ValueLayout::Byte => codes.iter().map(|&c| c.min(255)).collect(),
                _ => codes.clone(),
            };
            let values = layout.encode(codes.iter().copied());
            assert_eq!(Some(values.len() as u64), layout.bytes(codes.len() as u64));
            let path = dir.join(format!("{layout:?}.mtb"));
            let slots = codes.len() as u64;
            write_test_table(&path, Subspace::new(3, 3), layout, slots, &values, "test");
            let table = TableFile::open(&path, Subspace::new(3, 3), "test").unwrap();
            for (slot, &code) in codes.iter().enumerate() {
                let read = Probe::from_code(table.code(slot as u64).unwrap());
                let want = Probe::from_code(code);
                match layout {
                    ValueLayout::Wdl => {
                        assert_eq!(read.value, want.value, "slot {slot}");
                        assert_eq!(read.distance().is_none(), want.value != Value::Draw);
                    }
                    _ => assert_eq!(read, want, "{layout:?} slot {slot}"),
                }
            }
        }
        let _ = fs::remove_dir_all(&dir);
    }
}
