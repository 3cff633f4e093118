//! The table file: a 256-byte header, then one value code per slot (one
//! byte, or two little-endian bytes when a distance passes 126 plies).
//!
//! Header (little-endian): magic `MORRISTB`, format version (u32), stones
//! of the side to move and of the other side, bytes per value, then the
//! slot count, a checksum of the values, the summary counts (positions up
//! to symmetry, wins, losses, draws, longest win and loss), and at byte
//! 72 the rules fingerprint as text. Files are written to a temporary
//! name and renamed, so a table on disk is always whole; opening one
//! checks its header and its checksum, so a damaged file is never used.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use memmap2::{Mmap, MmapMut};

use super::Subspace;
use super::error::{TableProblem, TablebaseError};
use super::summary::Summary;

const MAGIC: &[u8; 8] = b"MORRISTB";
/// 2: fingerprints name the move-count draw options (values depend on them).
const VERSION: u32 = 2;
/// Bytes before the values.
pub const HEADER_LEN: usize = 256;
const FINGERPRINT_AT: usize = 72;

#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Header {
    pub subspace: Subspace,
    /// Bytes per value: 1 or 2.
    pub width: u8,
    pub slots: u64,
    pub checksum: u64,
    pub summary: Summary,
    pub fingerprint: String,
}

/// A fast 64-bit checksum of the value bytes.
pub fn checksum(data: &[u8]) -> u64 {
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
        let mut h = [0u8; HEADER_LEN];
        h[0..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&VERSION.to_le_bytes());
        h[12] = self.subspace.mine;
        h[13] = self.subspace.theirs;
        h[14] = self.width;
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
        let fp = self.fingerprint.as_bytes();
        let n = fp.len().min(HEADER_LEN - FINGERPRINT_AT);
        h[FINGERPRINT_AT..FINGERPRINT_AT + n].copy_from_slice(&fp[..n]);
        h
    }

    fn decode(h: &[u8]) -> Result<Header, TableProblem> {
        if h.len() < HEADER_LEN || &h[0..8] != MAGIC {
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
            subspace: Subspace::new(h[12], h[13]),
            width: h[14],
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

/// The file name of a subspace's table inside a rules folder.
pub fn table_path(dir: &Path, subspace: Subspace) -> PathBuf {
    dir.join(format!("{subspace}.mtb"))
}

/// Writes a table atomically: temporary file, sync, rename.
pub fn write_table(path: &Path, header: &Header, values: &[u8]) -> Result<(), TablebaseError> {
    write_atomically(path, header, values).map_err(|error| TablebaseError::Io {
        path: path.to_path_buf(),
        error,
    })
}

fn write_atomically(path: &Path, header: &Header, values: &[u8]) -> io::Result<()> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent)?;
    }
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let written = (|| {
        let mut f = io::BufWriter::new(File::create(&tmp)?);
        f.write_all(&header.encode())?;
        f.write_all(values)?;
        f.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if written.is_err() {
        // A full disk leaves no half-written temporary behind.
        let _ = fs::remove_file(&tmp);
    }
    written
}

/// A copy of `map` in anonymous memory backed by huge pages where the
/// system gives them: random probes then miss the TLB far less often than
/// in the file's 4 KiB page-cache pages.
fn into_huge_pages(map: &Mmap) -> Option<Mmap> {
    let mut anon = MmapMut::map_anon(map.len()).ok()?;
    #[cfg(target_os = "linux")]
    let _ = anon.advise(memmap2::Advice::HugePage);
    anon.copy_from_slice(map);
    anon.make_read_only().ok()
}

/// Removes the temporary files of interrupted writes from a rules folder:
/// those of processes no longer running (a temporary is named after its
/// writer's process id).
pub fn remove_stale_temporaries(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let writer = path
            .extension()
            .and_then(|x| x.to_str())
            .and_then(|x| x.strip_prefix("tmp"))
            .map(|pid| pid.parse::<u32>().ok());
        match writer {
            Some(Some(pid)) if super::auto::process_alive(pid) => {}
            Some(_) => {
                let _ = fs::remove_file(path);
            }
            None => {}
        }
    }
}

/// A table file in memory.
pub struct TableFile {
    pub header: Header,
    map: Mmap,
}

impl TableFile {
    /// Maps the table at `path` and checks its header against what is
    /// expected of it, its length and its checksum.
    pub fn open(
        path: &Path,
        subspace: Subspace,
        fingerprint: &str,
    ) -> Result<TableFile, TablebaseError> {
        let io_error = |error| TablebaseError::Io {
            path: path.to_path_buf(),
            error,
        };
        let bad = |problem| TablebaseError::BadTable {
            path: path.to_path_buf(),
            problem,
        };
        let file = File::open(path).map_err(io_error)?;
        // SAFETY: tables are only ever replaced by rename, never written in
        // place, so the mapped file does not change under us.
        let map = unsafe { Mmap::map(&file) }.map_err(io_error)?;
        let header = Header::decode(&map).map_err(bad)?;
        let problem = if header.subspace != subspace {
            Some(TableProblem::OtherSubspace(header.subspace))
        } else if header.fingerprint != fingerprint {
            Some(TableProblem::OtherRules(header.fingerprint.clone()))
        } else if !(header.width == 1 || header.width == 2) {
            Some(TableProblem::Width(header.width))
        } else if header.slots.checked_mul(header.width as u64)
            != Some((map.len() - HEADER_LEN) as u64)
        {
            Some(TableProblem::Truncated)
        } else {
            None
        };
        if let Some(p) = problem {
            return Err(bad(p));
        }
        let table = TableFile {
            header,
            map: into_huge_pages(&map).unwrap_or(map),
        };
        if checksum(table.data()) != table.header.checksum {
            return Err(bad(TableProblem::Checksum));
        }
        Ok(table)
    }

    /// The value bytes.
    pub fn data(&self) -> &[u8] {
        &self.map[HEADER_LEN..]
    }

    /// The value code of a slot.
    #[inline]
    pub fn code(&self, slot: u64) -> u16 {
        let data = self.data();
        if self.header.width == 1 {
            data[slot as usize] as u16
        } else {
            let i = 2 * slot as usize;
            u16::from_le_bytes([data[i], data[i + 1]])
        }
    }
}
