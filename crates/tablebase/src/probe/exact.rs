//! A position's exact values from what is at hand: the tables, else an
//! opening book (the first plies, which no one has to generate).

use morris_rules::{Position, Rules};

use crate::probe::book::Book;
use crate::probe::tables::{MoveProbe, Tablebases};
use crate::value::Probe;

/// Where exact values came from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Source {
    /// The endgame tables (`Tablebases`).
    Tables,
    /// An opening book (`book::Book`).
    Book,
}

/// The value of a position and of each of its legal moves, all from one
/// source.
pub struct Known {
    /// The position's value, the move-count draws applied from its clock.
    pub value: Probe,
    /// Each legal move with its value for the mover; empty from
    /// `of_or_value` where they are not all known.
    pub moves: Vec<MoveProbe>,
    /// Where the value and the moves' values came from.
    pub source: Source,
}

impl Known {
    /// From `tables` where they serve `rules` and cover `pos` and every
    /// position its moves lead to, else from `book` where it serves
    /// `rules` and holds them.
    pub fn of(
        tables: Option<&Tablebases>,
        book: Option<&Book>,
        pos: &Position,
        rules: &Rules,
    ) -> Option<Known> {
        Known::find(tables, book, pos, rules, false)
    }

    /// `of`, or else the position's value with no moves where its moves'
    /// are not all known: at a book's last ply (whose moves lead past the
    /// book), or from tables that do not hold every successor (compact
    /// tables under move-count draws, whose values hold at clock 0): for
    /// the tools that show a position's value.
    pub fn of_or_value(
        tables: Option<&Tablebases>,
        book: Option<&Book>,
        pos: &Position,
        rules: &Rules,
    ) -> Option<Known> {
        Known::find(tables, book, pos, rules, true)
    }

    /// `of`; with `value_alone`, a book position whose moves it does not
    /// hold gets its value with no moves.
    fn find(
        tables: Option<&Tablebases>,
        book: Option<&Book>,
        pos: &Position,
        rules: &Rules,
        value_alone: bool,
    ) -> Option<Known> {
        let from_tables = || {
            let t = tables.filter(|t| t.serves(rules))?;
            let value = t.probe(pos)?;
            let moves = match t.moves(pos) {
                Some(moves) => moves,
                None if value_alone => Vec::new(),
                None => return None,
            };
            Some(Known {
                value,
                moves,
                source: Source::Tables,
            })
        };
        from_tables().or_else(|| {
            let b = book.filter(|b| b.serves(rules))?;
            let value = b.probe(pos, rules)?;
            let moves = match b.moves(pos, rules) {
                Some(moves) => moves,
                None if value_alone => Vec::new(),
                None => return None,
            };
            Some(Known {
                value,
                moves,
                source: Source::Book,
            })
        })
    }
}
