//! `morris` without a subcommand: the engine on stdin/stdout.

use crate::protocol::{self, Output};

pub fn run() {
    protocol::run(std::io::stdin().lock(), Output::new(std::io::stdout()));
}
