//! An opening book cut from the solution: the win/draw/loss value of
//! every position within the first K plies of the start, in one small
//! file, so the engine can play the opening perfectly without the tables
//! (two are built into the binary: `builtin`).
//!
//! A book holds the placement sectors those plies reach whole, indexed
//! as the tables are (`index`: one slot per position up to the board's 16
//! symmetries) and stored as the tables' `ValueLayout::Wdl`, five positions a
//! byte: no keys, and no distances (a win or loss reads as
//! `Probe::NO_DISTANCE`, as from a WDL table). Values are the placement
//! tables' of the book's rules: exact at clock 0, the clock of every
//! position within the first plies (each ply places); `Book::probe`
//! applies a limit reached now from the position's clock, as
//! `Tablebases::probe` does.
//!
//! File format (version 2, little-endian):
//!
//! | offset | bytes | field                                                  |
//! |--------|-------|--------------------------------------------------------|
//! | 0      | 8     | magic `MORRISBK`                                       |
//! | 8      | 4     | format version (2)                                     |
//! | 12     | 4     | K: plies from the start covered                        |
//! | 16     | 8     | count n of sectors                                     |
//! | 24     | 8     | checksum (`file::checksum`) of every byte after it     |
//! | 32     | 4     | length L of the rules text                             |
//! | 36     | L     | rules text: `Variant=... ` then the non-default options |
//!
//! then n sectors, in increasing order: the stones on the board and in
//! hand of the side to move and of the other side (4 bytes), the slots S
//! (u64), and the `ceil(S / 5)` value bytes.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use crate::format::codec::{ValueLayout, wdl_digit};
use crate::format::file::checksum;
use crate::format::index::Indexer;
use crate::probe::clock::with_clock;
use crate::probe::tables::{MoveProbe, move_value, placement_sector};
use crate::sector::Sector;
use crate::value::{Probe, Value};
use morris_rules::{MoveList, Position, Rules};

const MAGIC: &[u8; 8] = b"MORRISBK";
const VERSION: u32 = 2;
const FIXED: usize = 36;
/// Per sector before its values: the sector, the slots.
const SECTOR_HEAD: usize = 12;

/// The books built into the binary (`scripts/make-book.sh` cuts them
/// from the tables), each for its own rules: the standard game under the
/// default rules (`nine`: `EndgameMoves` 10, `NoCaptureMoves` 100) and
/// under `EndgameMoves=0 NoCaptureMoves=0`, the rules of the published
/// solutions. Every position within a book's plies has clock 0 (each ply
/// places), so its values are exact under its rules' move-count draws as
/// they stand.
const BUILTIN: [&[u8]; 2] = [
    include_bytes!("../../../../books/nine.book"),
    include_bytes!("../../../../books/nine-eg0-nc0.book"),
];

/// The built-in books, read once.
pub fn builtin() -> &'static Books {
    static BOOKS: OnceLock<Books> = OnceLock::new();
    BOOKS.get_or_init(|| {
        Books(
            BUILTIN
                .iter()
                .map(|bytes| Arc::new(Book::from_bytes(bytes).expect("a built-in book reads")))
                .collect(),
        )
    })
}

/// Opening books for several rule sets: a game is answered by the first
/// that serves its rules.
#[derive(Clone, Default)]
pub struct Books(Vec<Arc<Book>>);

impl Books {
    /// The book serving games under `rules`, if any.
    pub fn serving(&self, rules: &Rules) -> Option<&Book> {
        self.0.iter().map(|b| &**b).find(|b| b.serves(rules))
    }

    /// The books, in the order they are tried.
    pub fn iter(&self) -> impl Iterator<Item = &Book> {
        self.0.iter().map(|b| &**b)
    }
}

impl From<Book> for Books {
    fn from(book: Book) -> Books {
        Books(vec![Arc::new(book)])
    }
}

/// Why a book cannot be built, written or read.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// The book file could not be read, or written and renamed into place.
    #[error("{}: {error}", path.display())]
    Io {
        /// The book file.
        path: PathBuf,
        /// What the system reported.
        error: std::io::Error,
    },
    /// The file does not start with the magic `MORRISBK` (its path held
    /// here, empty when parsed from bytes).
    #[error("{}: not a morris book", .0.display())]
    NotABook(PathBuf),
    /// The file is in a format version other than the one this build
    /// reads.
    #[error("{}: book format version {found}, this morris reads {VERSION}", path.display())]
    Version {
        /// The book file (empty when parsed from bytes).
        path: PathBuf,
        /// The version the file states.
        found: u32,
    },
    /// The file (its path held here, empty when parsed from bytes) is
    /// shorter than its fixed part, its rules text is not UTF-8, a sector
    /// is out of order, not a placement sector with at most 24 stones on
    /// the board, or of another size than its index, or bytes are missing
    /// or left over.
    #[error("{}: truncated or malformed book", .0.display())]
    Malformed(PathBuf),
    /// The bytes after the checksum field do not match it (the file's path
    /// held here, empty when parsed from bytes).
    #[error("{}: the book does not match its checksum", .0.display())]
    Checksum(PathBuf),
    /// Books are cut from tables, which know no `MillReform` bans.
    #[error("the tables, and so books, do not serve MillReform")]
    MillReform,
    /// A sector the book must hold has no usable table to cut it from.
    #[error("sector {sector} ({ply} plies from the start) is not covered by the tables")]
    NotCovered {
        /// The placement sector without a usable table.
        sector: Sector,
        /// The plies from the start that reach it: the stones placed.
        ply: u32,
    },
}

impl BookError {
    /// The error with the file's path (parsing errors carry none).
    fn at(self, path: &Path) -> BookError {
        let p = path.to_path_buf();
        match self {
            BookError::NotABook(_) => BookError::NotABook(p),
            BookError::Version { found, .. } => BookError::Version { path: p, found },
            BookError::Malformed(_) => BookError::Malformed(p),
            BookError::Checksum(_) => BookError::Checksum(p),
            other => other,
        }
    }
}

/// The rules a book was made for, as text: the variant, then the options
/// that differ from its preset (a canonical form).
pub fn rules_text(rules: &Rules) -> String {
    let mut words = vec![format!(
        "{}={}",
        morris_rules::RuleOptionId::Variant,
        rules.get(morris_rules::RuleOptionId::Variant)
    )];
    words.extend(rules.non_default().iter().map(|s| s.to_string()));
    words.join(" ")
}

/// One sector of a book: its index and value bytes.
pub(crate) struct BookSector {
    pub(crate) sector: Sector,
    pub(crate) index: Indexer,
    pub(crate) values: Vec<u8>,
}

/// A position of a book: its sector and slot, and its stored value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BookEntry {
    /// The placement sector the position is in.
    pub sector: Sector,
    /// Its canonical slot in the sector's index.
    pub slot: u64,
    /// Its stored value, without the move-count draws.
    pub value: Value,
}

/// An opening book: whole placement sectors, win/draw/loss only.
pub struct Book {
    pub(crate) rules: String,
    pub(crate) plies: u32,
    /// In increasing order of sector.
    pub(crate) sectors: Vec<BookSector>,
}

impl Book {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::new();
        body.extend_from_slice(&(self.rules.len() as u32).to_le_bytes());
        body.extend_from_slice(self.rules.as_bytes());
        for s in &self.sectors {
            let t = s.sector;
            body.extend_from_slice(&[t.mine, t.theirs, t.mine_hand, t.theirs_hand]);
            body.extend_from_slice(&s.index.size().to_le_bytes());
            body.extend_from_slice(&s.values);
        }
        let mut out = Vec::with_capacity(32 + body.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.plies.to_le_bytes());
        out.extend_from_slice(&(self.sectors.len() as u64).to_le_bytes());
        out.extend_from_slice(&checksum(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// Writes the book to `path` (through a temporary file, so a reader
    /// never sees half a book).
    pub fn write(&self, path: &Path) -> Result<(), BookError> {
        let io = |error| BookError::Io {
            path: path.to_path_buf(),
            error,
        };
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        std::fs::write(&tmp, self.to_bytes()).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }

    /// Reads and checks a book file.
    pub fn read(path: &Path) -> Result<Book, BookError> {
        let data = std::fs::read(path).map_err(|error| BookError::Io {
            path: path.to_path_buf(),
            error,
        })?;
        Book::from_bytes(&data).map_err(|e| e.at(path))
    }

    /// Parses a book's bytes (errors carry an empty path).
    pub fn from_bytes(data: &[u8]) -> Result<Book, BookError> {
        let none = PathBuf::new;
        let malformed = || BookError::Malformed(none());
        if data.len() < 8 || &data[..8] != MAGIC {
            return Err(BookError::NotABook(none()));
        }
        if data.len() < FIXED {
            return Err(malformed());
        }
        let u32_at = |at: usize| u32::from_le_bytes(data[at..at + 4].try_into().expect("4"));
        let version = u32_at(8);
        if version != VERSION {
            return Err(BookError::Version {
                path: none(),
                found: version,
            });
        }
        let plies = u32_at(12);
        let count = u64::from_le_bytes(data[16..24].try_into().expect("8"));
        if checksum(&data[32..]) != u64::from_le_bytes(data[24..32].try_into().expect("8")) {
            return Err(BookError::Checksum(none()));
        }
        let text_len = u32_at(32) as usize;
        let mut at = FIXED.checked_add(text_len).ok_or_else(malformed)?;
        let rules = std::str::from_utf8(data.get(FIXED..at).ok_or_else(malformed)?)
            .map_err(|_| malformed())?
            .to_string();
        let mut sectors: Vec<BookSector> = Vec::new();
        for _ in 0..count {
            let head = data.get(at..at + SECTOR_HEAD).ok_or_else(malformed)?;
            let sector = Sector::with_hands(head[0], head[1], head[2], head[3]);
            let slots = u64::from_le_bytes(head[4..].try_into().expect("8"));
            let fits = sector.mine as usize + sector.theirs as usize <= 24 && sector.placing();
            if !fits || sectors.last().is_some_and(|s| s.sector >= sector) {
                return Err(malformed());
            }
            let index = Indexer::new(sector.mine as usize, sector.theirs as usize);
            let len = ValueLayout::Wdl.bytes(slots).ok_or_else(malformed)? as usize;
            if slots != index.size() {
                return Err(malformed());
            }
            at += SECTOR_HEAD;
            let values = data.get(at..at + len).ok_or_else(malformed)?.to_vec();
            at += len;
            sectors.push(BookSector {
                sector,
                index,
                values,
            });
        }
        if at != data.len() {
            return Err(malformed());
        }
        Ok(Book {
            rules,
            plies,
            sectors,
        })
    }

    /// Positions held (slots: up to symmetry, with the few padding slots).
    pub fn len(&self) -> u64 {
        self.sectors.iter().map(|s| s.index.size()).sum()
    }

    /// Whether the book holds no sector.
    pub fn is_empty(&self) -> bool {
        self.sectors.is_empty()
    }

    /// Sectors held.
    pub fn sectors(&self) -> usize {
        self.sectors.len()
    }

    /// The plies from the start the book covers.
    pub fn plies(&self) -> u32 {
        self.plies
    }

    /// The rules the book was made for (`rules_text`).
    pub fn rules(&self) -> &str {
        &self.rules
    }

    /// Whether the book's values hold for games under `rules`.
    pub fn serves(&self, rules: &Rules) -> bool {
        !rules.mill_reform && self.rules == rules_text(rules)
    }

    /// The stored value of `pos`, without the move-count draws (a win or
    /// loss without distance).
    pub fn probe_table(&self, pos: &Position) -> Option<Probe> {
        let (sector, mine, theirs) = placement_sector(pos)?;
        let i = self
            .sectors
            .binary_search_by_key(&sector, |s| s.sector)
            .ok()?;
        let s = &self.sectors[i];
        Some(match wdl_digit(&s.values, s.index.index(mine, theirs)) {
            Value::Draw => Probe::DRAW,
            value => Probe {
                value,
                plies: Probe::NO_DISTANCE,
            },
        })
    }

    /// The value of `pos` under `rules` (the book's), the move-count draws
    /// applied from its clock.
    pub fn probe(&self, pos: &Position, rules: &Rules) -> Option<Probe> {
        Some(with_clock(rules, pos, self.probe_table(pos)?))
    }

    /// Every position held, one of each class of symmetric positions
    /// (the padding slots, which hold none, skipped), sector by sector in
    /// increasing order, with its stored value: books cut for two rule
    /// sets list the same positions in the same order.
    pub fn entries(&self) -> impl Iterator<Item = BookEntry> + '_ {
        self.sectors.iter().flat_map(|s| {
            (0..s.index.size()).filter_map(move |slot| {
                let (mine, theirs) = s.index.position(slot);
                (s.index.index(mine, theirs) == slot).then(|| BookEntry {
                    sector: s.sector,
                    slot,
                    value: wdl_digit(&s.values, slot),
                })
            })
        })
    }

    /// Every legal move of `pos` with its value for the mover; `None`
    /// unless the book holds `pos` and every position its moves lead to.
    pub fn moves(&self, pos: &Position, rules: &Rules) -> Option<Vec<MoveProbe>> {
        self.probe_table(pos)?;
        let mut list = MoveList::new();
        pos.legal_moves(rules, &mut list);
        list.iter()
            .map(|&mv| move_value(pos, rules, mv, |next| self.probe(next, rules)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_damaged_book_is_refused() {
        let sector = Sector::with_hands(0, 1, 2, 1);
        let book = Book {
            rules: "Variant=nine".into(),
            plies: 2,
            sectors: vec![BookSector {
                sector,
                index: Indexer::new(0, 1),
                values: vec![0, 1, 2, 80, 242],
            }],
        };
        let bytes = book.to_bytes();
        let back = Book::from_bytes(&bytes).expect("reads back");
        assert_eq!((back.sectors[0].sector, back.plies), (sector, 2));
        assert_eq!(back.sectors[0].values, book.sectors[0].values);
        assert_eq!(back.rules, "Variant=nine");
        let mut flipped = bytes.clone();
        *flipped.last_mut().expect("bytes") ^= 1;
        assert!(matches!(
            Book::from_bytes(&flipped),
            Err(BookError::Checksum(_))
        ));
        assert!(matches!(
            Book::from_bytes(b"MORRISTB and more"),
            Err(BookError::NotABook(_))
        ));
        assert!(matches!(
            Book::from_bytes(&bytes[..bytes.len() - 3]),
            Err(BookError::Checksum(_) | BookError::Malformed(_))
        ));
    }
}
