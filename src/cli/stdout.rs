//! Standard output of the subcommands, written as a Unix tool writes it:
//! a reader that has gone (`| head`, `grep -m1`, `less` quit early) ends
//! the program quietly with status 0 where `println!` would panic, and any
//! other failure (a full disk) ends it with the error and status 1.
//!
//! It ends the program on the spot rather than returning an error because
//! the subcommands also print from the library's callbacks (`tb verify`,
//! `tb generate`), which cannot return one, and because nothing more is
//! wanted once the reader is gone. This is what SIGPIPE does to other
//! tools, for standard output alone: the match runner and the board still
//! see a child engine's closed pipe as an error to handle. `println!` and
//! `print!` are refused in `cli` (`clippy::print_stdout`), so every line
//! comes here.

use std::fmt;
use std::io::{self, Write};

/// Writes to standard output (line-buffered: each whole line reaches the
/// reader at once, so a closed pipe is seen at the next line).
pub fn write(args: fmt::Arguments) {
    let Err(e) = io::stdout().lock().write_fmt(args) else {
        return;
    };
    if e.kind() == io::ErrorKind::BrokenPipe {
        log::debug!("standard output closed: stopping");
        std::process::exit(0);
    }
    eprintln!("morris: cannot write to standard output: {e}");
    std::process::exit(1);
}

/// `print!` to standard output through `write`.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::stdout::write(format_args!($($arg)*))
    };
}

/// `println!` to standard output through `write`.
macro_rules! outln {
    ($($arg:tt)*) => {
        $crate::cli::stdout::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};
