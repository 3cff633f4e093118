//! `morris` without a subcommand: the engine on stdin/stdout.

use std::io::BufReader;

use morris::protocol::{self, Output};

pub fn run() {
    // The loop reads in a thread of its own, which a lock of stdin cannot
    // move to.
    protocol::run(
        BufReader::new(std::io::stdin()),
        Output::new(std::io::stdout()),
    );
}
