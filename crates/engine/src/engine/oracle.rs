//! What is known exactly, without search: the endgame tables of the rules
//! in force and the opening books, asked together so that every front
//! end (the protocol's session, `solve`, `tb probe`, `analyze`, the
//! board's coach) gets the same answer: the tables' where they cover a
//! position, else the book serving the rules, and the same reasons where
//! they do not.

use std::path::PathBuf;
use std::sync::Arc;

use crate::search::ExactKnowledge;
use morris_rules::{Move, Position, Rules};
use morris_tablebase::book::{self, Book, Books};
use morris_tablebase::{Known, NoDefaultDir, OpenTables, TableFault, Tablebases};

/// The folder of the tables a front end reads: `given` (`--dir`,
/// `TablebasePath`), else the default one (`MORRIS_TB_DIR`, else the
/// user's cache folder: `morris_tablebase::default_dir`). Every front end
/// resolves it here.
pub fn tables_folder(given: Option<PathBuf>) -> Result<PathBuf, NoDefaultDir> {
    given.map_or_else(morris_tablebase::default_dir, Ok)
}

/// How hard a move makes the opponent's task: of its legal replies in
/// the position the move leads to, how many keep that position's value
/// (a perfect player that sets traps leaves it the smallest share).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Replies {
    /// The replies that keep the value of the position the move leads to.
    pub keeping: usize,
    /// All the opponent's legal replies there.
    pub legal: usize,
}

/// The tables and books of a front end.
pub struct Oracle {
    tables: OpenTables,
    books: Books,
}

impl Oracle {
    /// The tables under `root` (`None`: no tables) and the built-in books.
    pub fn new(root: Option<PathBuf>) -> Oracle {
        Oracle {
            tables: OpenTables::new(root),
            books: book::builtin().clone(),
        }
    }

    /// The open tables, to ask what they are (folder, faults, files).
    pub fn tables(&self) -> &OpenTables {
        &self.tables
    }

    /// The open tables, to reopen, build or point elsewhere.
    pub(crate) fn tables_mut(&mut self) -> &mut OpenTables {
        &mut self.tables
    }

    /// The opening books in use.
    pub fn books(&self) -> &Books {
        &self.books
    }

    /// Other books in place of those in use (`BookPath`).
    pub(crate) fn set_books(&mut self, books: Books) {
        self.books = books;
    }

    /// The book serving `rules`, if any.
    pub fn book(&self, rules: &Rules) -> Option<&Book> {
        self.books.serving(rules)
    }

    /// The tables for `rules`, reopened to see those written since they
    /// were last opened.
    pub fn reopen_for(&mut self, rules: &Rules) -> Option<Arc<Tablebases>> {
        self.tables.reopened_for(rules)
    }

    fn current(&self) -> Option<&Tablebases> {
        self.tables.current().map(|t| &**t)
    }

    /// The tables open and the books, as a search in this thread
    /// borrows them.
    pub(crate) fn knowledge(&self) -> ExactKnowledge<'_> {
        ExactKnowledge {
            tables: self.current(),
            books: Some(&self.books),
        }
    }

    /// The exact values of `pos` and of its moves (`Known::of`).
    pub fn known(&self, pos: &Position, rules: &Rules) -> Option<Known> {
        Known::of(self.current(), self.book(rules), pos, rules)
    }

    /// `known`, or the position's value alone where only that is known
    /// (`Known::of_or_value`: the book's last ply).
    pub fn known_or_value(&self, pos: &Position, rules: &Rules) -> Option<Known> {
        Known::of_or_value(self.current(), self.book(rules), pos, rules)
    }

    /// The opponent's replies after `mv` in `pos`, where the values of
    /// them all are known; a move that ends the game leaves none.
    pub fn replies(&self, pos: &Position, rules: &Rules, mv: Move) -> Option<Replies> {
        let next = pos.make(rules, mv);
        if next.outcome_without_history(rules, true).is_some() {
            return Some(Replies {
                keeping: 0,
                legal: 0,
            });
        }
        let known = self.known(&next, rules)?;
        let keeping = known
            .moves
            .iter()
            .filter(|m| m.probe.value == known.value.value)
            .count();
        Some(Replies {
            keeping,
            legal: known.moves.len(),
        })
    }

    /// Why the tables give no value for `pos`, later in the clock, if they
    /// are compact tables under move-count draws with its value at clock 0.
    pub fn clock_zero_only(&self, pos: &Position) -> Option<String> {
        let at_zero = self.current()?.probe_at_clock_zero(pos)?;
        Some(format!(
            "these tables hold this position's value at clock 0 only ({at_zero} there): compact tables under the move-count draws, and at clock {} the draws may have made it a draw; the full tables (`morris tb generate`) give it",
            pos.clock()
        ))
    }

    /// Why the tables give `pos`'s value but not its moves', if they are
    /// compact tables under move-count draws: those hold the values at
    /// clock 0, and a move that removes nothing leads past it.
    pub fn moves_past_clock_zero(&self, pos: &Position) -> Option<&'static str> {
        self.current()?.probe_at_clock_zero(pos)?;
        Some(
            "its moves' values are not all in these tables: compact tables under the move-count draws hold the values at clock 0, and a move that removes no stone leads past it",
        )
    }

    /// The unusable table files found and not reported yet.
    pub fn take_faults(&self) -> Vec<TableFault> {
        self.tables.take_faults()
    }
}
