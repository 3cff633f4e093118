//! An opening book cut from the solution: the table value of every
//! position reachable within the first K plies of the start, in one small
//! file, so the engine can play the opening perfectly without the tables.
//!
//! Positions are kept once per class of the board's 16 symmetries
//! (`key`). Values are stored as the tables store them, without the
//! move-count draws; `Book::probe` applies them from the position's clock,
//! as `Tablebases::probe` does.
//!
//! File format (version 1, little-endian):
//!
//! | offset | bytes | field                                                  |
//! |--------|-------|--------------------------------------------------------|
//! | 0      | 8     | magic `MORRISBK`                                       |
//! | 8      | 4     | format version (1)                                     |
//! | 12     | 4     | K: plies from the start covered                        |
//! | 16     | 8     | count of entries                                       |
//! | 24     | 8     | checksum (`file::checksum`) of every byte after it     |
//! | 32     | 4     | length L of the rules text                             |
//! | 36     | L     | rules text: `Variant=... ` then the non-default options |
//! | 36 + L | 10 n  | entries: key (u64) then value code (u16, `Probe::code`) |
//!
//! Entries are sorted by key, each key once, for binary search. A key
//! packs the canonical image of (stones of the side to move, stones of the
//! other side) into bits 0-47, the hands into 48-51 and 52-55, and the
//! colour to move (1: black) into bit 56.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use super::Probe;
use super::file::checksum;
use super::index::apply_sym;
use super::probe::{MoveProbe, Tablebases, move_value, with_clock};
use crate::rules::{Color, MoveList, Position, Rules};

const MAGIC: &[u8; 8] = b"MORRISBK";
const VERSION: u32 = 1;
const FIXED: usize = 36;
const ENTRY: usize = 10;

/// Why a book cannot be built, written or read.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error("{}: {error}", path.display())]
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    #[error("{}: not a morris book", .0.display())]
    NotABook(PathBuf),
    #[error("{}: book format version {found}, this morris reads {VERSION}", path.display())]
    Version { path: PathBuf, found: u32 },
    #[error("{}: truncated or malformed book", .0.display())]
    Malformed(PathBuf),
    #[error("{}: the book does not match its checksum", .0.display())]
    Checksum(PathBuf),
    /// Books are cut from tables, which know no `MillReform` bans.
    #[error("the tables, and so books, do not serve MillReform")]
    MillReform,
    #[error("position {fen} ({ply} plies from the start) is not covered by the tables")]
    NotCovered { fen: String, ply: u32 },
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
        crate::rules::RuleOptionId::Variant,
        rules.get(crate::rules::RuleOptionId::Variant)
    )];
    words.extend(rules.non_default().iter().map(|s| s.to_string()));
    words.join(" ")
}

/// The book key of `pos`, the same for its 16 symmetric images; `None`
/// for positions no book holds (bans, removals owed, a game over).
pub fn key(pos: &Position) -> Option<u64> {
    if pos.bans(Color::White) | pos.bans(Color::Black) != 0
        || pos.owed().count > 0
        || pos.ended().is_some()
    {
        return None;
    }
    let me = pos.side_to_move();
    let (mine, theirs) = (pos.pieces(me).0, pos.pieces(!me).0);
    let board = (0..16)
        .map(|s| apply_sym(s, mine) as u64 | (apply_sym(s, theirs) as u64) << 24)
        .min()
        .expect("16 symmetries");
    Some(
        board
            | (pos.in_hand(me) as u64) << 48
            | (pos.in_hand(!me) as u64) << 52
            | ((me == Color::Black) as u64) << 56,
    )
}

/// An opening book: sorted keys and their values.
pub struct Book {
    rules: String,
    plies: u32,
    keys: Vec<u64>,
    codes: Vec<u16>,
}

impl Book {
    /// The book of every position within `plies` plies of the start under
    /// `rules`, from the tables (which must cover each of them).
    pub fn build(tables: &Tablebases, rules: &Rules, plies: u32) -> Result<Book, BookError> {
        if rules.mill_reform {
            return Err(BookError::MillReform);
        }
        let mut values: HashMap<u64, u16> = HashMap::new();
        let start = Position::start(rules);
        let mut level = vec![start];
        values.insert(key(&start).expect("the start is a plain position"), 0);
        let mut list = MoveList::new();
        for ply in 0..=plies {
            let mut next_level = Vec::new();
            for pos in &level {
                let not_covered = || BookError::NotCovered {
                    fen: pos.to_fen(rules),
                    ply,
                };
                let k = key(pos).ok_or_else(not_covered)?;
                let probe = tables.probe_table(pos).ok_or_else(not_covered)?;
                values.insert(k, probe.code());
                if ply == plies {
                    continue;
                }
                pos.legal_moves(rules, &mut list);
                for &mv in list.iter() {
                    let child = pos.make(rules, mv);
                    // A game over by material or a full board: no table
                    // holds it, `move_value` knows its result.
                    if child.outcome_without_history(rules, true).is_some() {
                        continue;
                    }
                    let ck = key(&child).ok_or_else(|| BookError::NotCovered {
                        fen: child.to_fen(rules),
                        ply: ply + 1,
                    })?;
                    if let std::collections::hash_map::Entry::Vacant(e) = values.entry(ck) {
                        // Filled in when the next level is probed.
                        e.insert(0);
                        next_level.push(child);
                    }
                }
            }
            level = next_level;
        }
        let mut entries: Vec<(u64, u16)> = values.into_iter().collect();
        entries.sort_unstable();
        Ok(Book {
            rules: rules_text(rules),
            plies,
            keys: entries.iter().map(|e| e.0).collect(),
            codes: entries.iter().map(|e| e.1).collect(),
        })
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::with_capacity(4 + self.rules.len() + ENTRY * self.keys.len());
        body.extend_from_slice(&(self.rules.len() as u32).to_le_bytes());
        body.extend_from_slice(self.rules.as_bytes());
        for (k, c) in self.keys.iter().zip(&self.codes) {
            body.extend_from_slice(&k.to_le_bytes());
            body.extend_from_slice(&c.to_le_bytes());
        }
        let mut out = Vec::with_capacity(32 + body.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&self.plies.to_le_bytes());
        out.extend_from_slice(&(self.keys.len() as u64).to_le_bytes());
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
        let u64_at = |at: usize| u64::from_le_bytes(data[at..at + 8].try_into().expect("8"));
        let version = u32_at(8);
        if version != VERSION {
            return Err(BookError::Version {
                path: none(),
                found: version,
            });
        }
        let plies = u32_at(12);
        let count = u64_at(16);
        if checksum(&data[32..]) != u64_at(24) {
            return Err(BookError::Checksum(none()));
        }
        let text_len = u32_at(32) as usize;
        let entries_at = FIXED.checked_add(text_len).ok_or_else(malformed)?;
        let expected = (count as usize)
            .checked_mul(ENTRY)
            .and_then(|n| n.checked_add(entries_at));
        if expected != Some(data.len()) {
            return Err(malformed());
        }
        let rules = std::str::from_utf8(&data[FIXED..entries_at])
            .map_err(|_| malformed())?
            .to_string();
        let (mut keys, mut codes) = (Vec::new(), Vec::new());
        for e in data[entries_at..].chunks_exact(ENTRY) {
            let k = u64::from_le_bytes(e[..8].try_into().expect("8"));
            if keys.last().is_some_and(|&last| last >= k) {
                return Err(malformed());
            }
            keys.push(k);
            codes.push(u16::from_le_bytes(e[8..].try_into().expect("2")));
        }
        Ok(Book {
            rules,
            plies,
            keys,
            codes,
        })
    }

    /// Positions held.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
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

    /// The stored value of `pos`, without the move-count draws.
    pub fn probe_table(&self, pos: &Position) -> Option<Probe> {
        let i = self.keys.binary_search(&key(pos)?).ok()?;
        Some(Probe::from_code(self.codes[i]))
    }

    /// The value of `pos` under `rules` (the book's), the move-count draws
    /// applied from its clock.
    pub fn probe(&self, pos: &Position, rules: &Rules) -> Option<Probe> {
        Some(with_clock(rules, pos, self.probe_table(pos)?))
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
        let book = Book {
            rules: "Variant=nine".into(),
            plies: 2,
            keys: vec![1, 5, 9],
            codes: vec![0, 3, 4],
        };
        let bytes = book.to_bytes();
        let back = Book::from_bytes(&bytes).expect("reads back");
        assert_eq!(
            (back.keys, back.codes, back.plies),
            (book.keys, book.codes, 2)
        );
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
