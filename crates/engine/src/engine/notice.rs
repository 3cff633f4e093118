//! What a session tells its front end unasked: the tables' and books'
//! news, in the words the protocol prints after `info string` and the
//! tools print on stderr.

use std::fmt;
use std::io;

use crate::engine::options::BookSource;
use morris_tablebase::TableFault;
use morris_tablebase::book::{Book, BookError};

/// One piece of news from a session.
#[derive(Debug)]
pub enum Notice {
    /// The tables: why there are none, or what the background build did.
    Tables(String),
    /// The background table build could not start.
    BuilderThread(io::Error),
    /// A table file found unusable.
    TableFault(TableFault),
    /// `BookPath` names a file that does not read as a book.
    BookUnreadable(BookError),
    /// A book now in use (or built in): `describe_book`'s words.
    Book(String),
    /// The book chose the moves of the search just finished (said once
    /// for each `BookPath`).
    BookPlayed(String),
}

impl Notice {
    /// A book in use, from `source`.
    pub fn book(book: &Book, source: &BookSource) -> Notice {
        Notice::Book(describe_book(book, source))
    }
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::Tables(text) => f.write_str(text),
            Notice::BuilderThread(e) => {
                write!(f, "error: tablebase: cannot start the builder thread: {e}")
            }
            Notice::TableFault(fault) => write!(f, "error: {fault}"),
            Notice::BookUnreadable(e) => write!(f, "error: book: {e}"),
            Notice::Book(description) => write!(f, "book: {description}"),
            Notice::BookPlayed(description) => write!(
                f,
                "book: playing from the opening book ({description}): only moves that keep the position's value are searched"
            ),
        }
    }
}

/// A book as notices name it.
pub(crate) fn describe_book(book: &Book, source: &BookSource) -> String {
    let origin = if *source == BookSource::Builtin {
        "built in, "
    } else {
        ""
    };
    format!(
        "{origin}{} positions within {} plies, for rules {}",
        book.len(),
        book.plies(),
        book.rules()
    )
}
